import { beforeAll, describe, expect, it } from 'vitest';
import { createStructureChunker } from '../../src-main/chunking/structure.chunker';
import type { EnrichedChunk } from '../../src-main/core/chunk';
import type { NormalizedDocument } from '../../src-main/core/document';
import { createEnricher, type Enricher } from '../../src-main/enrich/enricher';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { createRestructurer } from '../../src-main/enrich/restructure';
import { TermStats } from '../../src-main/enrich/term-stats';
import { loadCorpus } from './corpus.helper';

/**
 * "Product document", defined independently of the code under test: a document inside one of the
 * product folders that the corpus MANIFEST lists (folder -> model) for radxa-docs, and any document
 * inside a board folder (`md/<board>/`) for esp-dev-kits. Series pages, shared pages and the
 * licence (e.g. `rock5/faq.md`, `rock4/hardware/*`, `som/*.mdx`, `e/README.md`) are not.
 */
const RADXA_PRODUCT_FOLDERS = [
  'rock5/rock5a', 'rock5/rock5b', 'rock5/rock5c', 'rock5/rock5t', 'rock5/rock5itx',
  'rock4/rock4ab-se', 'rock4/rock4c+', 'rock4/rock4d', 'rock3/rock3a', 'rock3/rock3b', 'rock3/rock3c', 'rock3/e25',
  'rock2/rock2a', 'rock2/rock2f', 'rockpi/rockpie', 'rockpi/rockpis', 'rockpi/rockpis0',
  'zero/zero', 'zero/zero2pro', 'zero/zero3', 'cubie/a5e', 'cubie/a7a', 'cubie/a7s', 'cubie/a7z',
  'e/e20c', 'e/e24c', 'e/e52c', 'e/e54c', 'som/cm/cm3', 'som/cm/cm3i', 'som/cm/cm3j', 'som/cm/cm4', 'som/cm/cm5',
  'som/nx/nx4', 'som/nx/nx5', 'som/nx/orin-nx/c200-orin', 'orion/o6', 'orion/o6n', 'dragon/q6a', 'dragon/q8b',
  'x/x2l', 'x/x4', 'x/x5', 'fogwise/airbox', 'fogwise/airbox-q900', 'nio/nio12l', 'sirider/s1',
  'aicore/ax-m1', 'aicore/dx-m1', 'aicore/sg2300x',
].map((f) => `radxa-docs/${f}/`);

function isProductDocument(id: string): boolean {
  if (id.startsWith('esp-dev-kits/md/')) return id.split('/').length >= 4;
  return RADXA_PRODUCT_FOLDERS.some((f) => id.startsWith(f));
}

/**
 * Heuristic enrichment of every radxa-docs and esp-dev-kits document under `corpusRoot` (one of
 * `corpusRoots`), which must hold more than `minProductDocs` product documents; `handChecked`:
 * chunks (found by a phrase in them) checked by hand to be about the given model.
 */
export function describeHeuristicEnrichment(corpusRoot: string, minProductDocs: number, handChecked: [docId: string, phrase: string, model: string][]): void {
  let docs: NormalizedDocument[];
  const enrichedByDoc = new Map<string, EnrichedChunk[]>();
  let enricher: Enricher;
  const chunker = createStructureChunker({ minChars: 100, maxChars: 1500 });

  beforeAll(async () => {
    docs = [...loadCorpus('radxa-docs', corpusRoot), ...loadCorpus('esp-dev-kits', corpusRoot)];
    const vocabulary = ModelVocabulary.fromDocuments(docs);
    const terms = TermStats.fromTexts(docs.map((d) => d.text));
    const made = createEnricher('heuristic', { vocabulary, terms });
    if (!made.ok) throw new Error(made.error.message);
    enricher = made.value;
    for (const doc of docs) {
      const chunks = await chunker.chunk(doc);
      if (!chunks.ok) throw new Error(chunks.error.message);
      enrichedByDoc.set(doc.id, (await enricher.enrichDocument(doc, chunks.value)).chunks);
    }
  });

  describe('heuristic enrichment on radxa-docs and esp-dev-kits', () => {
    it('gives >= 95% of product-document chunks a model', () => {
      const product = docs.filter((d) => isProductDocument(d.id));
      expect(product.length).toBeGreaterThan(minProductDocs);
      const chunks = product.flatMap((d) => enrichedByDoc.get(d.id)!);
      const withModel = chunks.filter((c) => c.signature.model !== null).length;
      expect(withModel / chunks.length).toBeGreaterThanOrEqual(0.95);
    });

    it.each(handChecked)('labels the chunk of %s containing "%s" with %s', (docId, phrase, model) => {
      const chunks = enrichedByDoc.get(docId);
      expect(chunks).toBeDefined();
      const hits = chunks!.filter((c) => c.text.includes(phrase));
      expect(hits).toHaveLength(1);
      expect(hits[0]!.signature.model).toBe(model);
    });

    it('covers at least 8 products in the hand check, including the sibling pairs', () => {
      const models = new Set(handChecked.map(([, , m]) => m));
      expect(models.size).toBeGreaterThanOrEqual(8);
      for (const m of ['E20C', 'E52C', 'ROCK 5A', 'ROCK 5C']) expect(models).toContain(m);
    });

    it('gives every chunk a signature, a continuity decision after the first, and packs units within 3000 characters', () => {
      const restructure = createRestructurer();
      for (const [, chunks] of enrichedByDoc) {
        chunks.forEach((c, i) => {
          expect(c.signature.nouns.length).toBeLessThanOrEqual(2);
          expect(i === 0 ? c.continuity === null : (c.continuity?.reason.length ?? 0) > 0).toBe(true);
          if (c.signatureSource === 'inherited') expect(c.signature).toEqual(chunks[i - 1]!.signature);
        });
        for (const u of restructure.run(chunks)) expect(u.members.length === 1 || u.text.length <= 3000).toBe(true);
      }
    });

    it('without nouns, leaves them empty and gives every chunk the same model, category, continuity and keys', async () => {
      let withNouns = 0;
      for (const doc of docs) {
        const chunks = await chunker.chunk(doc);
        if (!chunks.ok) throw new Error(chunks.error.message);
        const bare = (await enricher.enrichDocument(doc, chunks.value, { nouns: false })).chunks;
        const full = enrichedByDoc.get(doc.id)!;
        expect(bare.map(({ signature: { nouns: _n, ...rest }, ...c }) => ({ ...c, signature: rest }))).toEqual(
          full.map(({ signature: { nouns: _n, ...rest }, ...c }) => ({ ...c, signature: rest })),
        );
        expect(bare.every((c) => c.signature.nouns.length === 0)).toBe(true);
        withNouns += full.filter((c) => c.signature.nouns.length > 0).length;
      }
      expect(withNouns).toBeGreaterThan(0);
    });
  });
}
