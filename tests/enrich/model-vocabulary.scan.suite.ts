import { describe, expect, it } from 'vitest';
import { ModelVocabulary, observeDocument, vocabularyInput } from '../../src-main/enrich/model-vocabulary';
import { nameKey } from '../../src-main/enrich/text.util';
import { loadCorpus } from './corpus.helper';

/**
 * The vocabulary reads a document's body only where a model's window may open (Session 11 of
 * tests/bench/RESULTS.md): over every Markdown document of each set under `root`, what it keeps
 * of the document must be what reading every token of the body keeps, with and without the
 * library's vendor words.
 */
export function describeBodyScanOnCorpus(root: string, sets: readonly string[], minDocs: number): void {
  describe('the vocabulary reading a body where windows may open', () => {
    for (const set of sets) {
      it(`keeps what reading every token keeps, on ${set}`, () => {
        const docs = loadCorpus(set, root);
        expect(docs.length).toBeGreaterThanOrEqual(minDocs);
        // The library's own vendor words as keys, as a vocabulary given them observes with.
        const vendorKeys = new Set(ModelVocabulary.fromDocuments(docs).vendorWords().map((w) => nameKey(w)));
        let recorded = 0;
        for (const keys of [new Set<string>(), vendorKeys]) {
          for (const doc of docs) {
            const input = vocabularyInput(doc);
            const some = observeDocument(input, keys, false);
            const every = observeDocument(input, keys, true);
            // One comparison per document keeps a failure's message short and names the document.
            if (JSON.stringify(some) !== JSON.stringify(every)) expect({ id: doc.id, some }).toEqual({ id: doc.id, some: every });
            // Windows recorded in the body (`where` 2), the part read differently.
            for (const surfaces of Object.values(some.surfaces)) for (const counts of Object.values(surfaces)) recorded += counts[2];
          }
        }
        // About documents whose bodies name their models, not only empty observations.
        expect(recorded).toBeGreaterThan(docs.length / 2);
      });
    }
  });
}
