import { beforeAll, describe, expect, it } from 'vitest';
import type { Chunk } from '../../src-main/core/chunk';
import type { NormalizedDocument } from '../../src-main/core/document';
import { createChunker } from '../../src-main/chunking/chunker.registry';
import { chunkView } from '../../src-main/enrich/chunk-view';
import { createContinuityHeuristic } from '../../src-main/enrich/continuity.heuristic';
import { draftChunks } from '../../src-main/enrich/draft';
import { LibraryEnrichment } from '../../src-main/index/library-enrichment';

import { corpusRoots } from '../helpers/temp';
import { loadCorpus } from './corpus.helper';

/**
 * Drafting a document's enrichment ahead (before the batch's vocabulary is learned) must never
 * change its rows: the fixture corpus (sibling boards, tab panels, several H1s) enriched with
 * and without a draft, in full and cut short.
 */

let docs: NormalizedDocument[];
let enrichment: LibraryEnrichment;
// Every prefix part on, so the rows show every enrichment field.
const settings = { prefix: { signature: true, headingPath: true, keys: true }, restructure: false, nouns: true };

async function chunksOf(doc: NormalizedDocument): Promise<Chunk[]> {
  const chunker = createChunker('structure', {});
  if (!chunker.ok) throw new Error(chunker.error.message);
  const made = await chunker.value.chunk(doc, {});
  if (!made.ok) throw new Error(made.error.message);
  return made.value;
}

beforeAll(() => {
  docs = [...loadCorpus('radxa-docs', corpusRoots.fixture), ...loadCorpus('esp-dev-kits', corpusRoots.fixture)];
  enrichment = LibraryEnrichment.restore(null);
  enrichment.learn(docs);
});

describe('draftChunks', () => {
  it('leaves every row as the enrichment without a draft makes it, drafted in full or in part', async () => {
    let chunks = 0;
    for (const doc of docs) {
      const plain = await enrichment.enrich(doc, await chunksOf(doc), settings);
      const full = await chunksOf(doc);
      for (const _ of draftChunks(doc, full));
      expect(await enrichment.enrich(doc, full, settings)).toEqual(plain);
      const part = await chunksOf(doc);
      const steps = draftChunks(doc, part);
      for (let i = 0; i < part.length / 2; i++) steps.next();
      expect(await enrichment.enrich(doc, part, settings)).toEqual(plain);
      chunks += plain.length;
    }
    expect(chunks).toBeGreaterThan(100);
  });

  it('rules a chunk out of continuing only when the decision with the vocabulary says so too', async () => {
    const continuity = createContinuityHeuristic();
    let ruledOut = 0;
    let continuous = 0;
    for (const doc of docs) {
      const chunks = await chunksOf(doc);
      for (let i = 1; i < chunks.length; i++) {
        const prev = chunkView(chunks[i - 1]!, enrichment.vocabulary, doc);
        const cur = chunkView(chunks[i]!, enrichment.vocabulary, doc);
        // Any previous model: the text-only answer must hold whatever signature came before.
        for (const model of [null, ...new Set(prev.bodyMentions.map((m) => m.model))]) {
          const decided = continuity.decide(prev, { category: null, nouns: [], model }, cur, doc, enrichment.vocabulary);
          if (decided.continuous) {
            continuous++;
            expect(continuity.mayContinue(prev, cur, chunks[i]!, doc), `${doc.id} #${i}: ${decided.reason}`).toBe(true);
          }
        }
        if (!continuity.mayContinue(prev, cur, chunks[i]!, doc)) ruledOut++;
      }
    }
    // Both answers occur: the test says something about each.
    expect(continuous).toBeGreaterThan(20);
    expect(ruledOut).toBeGreaterThan(20);
  });
});
