import { describe, expect, it } from 'vitest';
import { DocumentEvidence } from '../../src-main/search/document-evidence';
import { ok } from '../../src-main/core/result';
import { LibraryEnrichment } from '../../src-main/index/library-enrichment';
import { search } from '../../src-main/search/searcher';
import { STAGE_NAMES } from '../../src-main/search/stages';
import { SCORE_KEPT_BY_MODEL } from '../../src-main/search/stages/model-weight.stage';
import type { ChunkHit, ChunkRecord, ChunkStore } from '../../src-main/storage/chunk-store';
import { markdownDocument } from '../enrich/corpus.helper';
import { record } from '../storage/fixtures';

/**
 * The read side over a scripted store (the ranking logic is what is tested; the real LanceDB
 * searches are covered in tests/index and tests/storage): the store returns fixed BM25 hits.
 */
function hit(id: string, text: string, score: number, extra: Partial<ChunkRecord> = {}): ChunkHit {
  return { record: { ...record(id, 0, text), id, modelKey: null, parentId: null, ...extra } as ChunkRecord, score };
}

/** A store that finds nothing and records the text of each keyword search it is asked. */
function recordingStore(): { asked: string[]; store: Partial<ChunkStore> } {
  const asked: string[] = [];
  const store: Partial<ChunkStore> = {
    searchBm25: async (text) => {
      asked.push(text);
      return [];
    },
    hydrate: async (stubs) => stubs.map((h) => ({ ...h })),
    getChunks: async () => [],
  };
  return { asked, store };
}

function scriptedStore(hits: ChunkHit[]): ChunkStore {
  const store: Partial<ChunkStore> = {
    searchBm25: async () => hits.map((h) => ({ ...h })),
    hydrate: async (stubs) => stubs.map((h) => ({ ...h })),
    getChunks: async () => [],
  };
  return store as ChunkStore;
}

const enrichment = LibraryEnrichment.restore(null);
enrichment.learn([
  markdownDocument('cm5/README.md', '# CM5\n\nThe CM5 is a compute module.\n\n## Power\n\nCM5 takes 5 V.'),
  markdownDocument('cm3/README.md', '# CM3\n\nThe CM3 is a compute module.\n\n## Power\n\nCM3 takes 5 V.'),
]);
const noVector = async () => ok(new Float32Array(0));
const noNames = async () => DocumentEvidence.build([]);

describe('search', () => {
  const question = 'CM5 power input';
  const own = hit('own', 'Power input is 5 V.', 1, { docId: 'cm5/power.md', model: 'CM5', headingPath: ['Power'] });
  const other = hit('other', 'Power input is 5 V.', 10, { docId: 'cm3/power.md', model: 'CM3', headingPath: ['Power'] });
  const source = { store: scriptedStore([other, own]), vocabulary: enrichment.vocabulary, queryVector: noVector, documentEvidence: noNames, idf: (t: string) => enrichment.passages.idf(t) };

  it("weighs another model's chunk once by its model weight", async () => {
    const res = await search(source, question, { topK: 10, retriever: 'bm25', stages: ['model-weight'] });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    const scores = Object.fromEntries(res.value.results.map((r) => [r.chunkId, r.score]));
    expect(scores['other']).toBeCloseTo(10 * SCORE_KEPT_BY_MODEL.otherModel, 6);
    expect(scores['own']).toBeCloseTo(1 * SCORE_KEPT_BY_MODEL.exact, 6);
    expect(res.value.resolvedModels).toEqual(['CM5']);
  });

  it('leaves first-stage scores as they are when every stage is switched off', async () => {
    const res = await search(source, question, { topK: 10, retriever: 'bm25', stages: [] });
    expect(res.ok && res.value.results.map((r) => [r.chunkId, r.score])).toEqual([
      ['other', 10],
      ['own', 1],
    ]);
  });

  it("keeps the user's model filter on the passages of the documents a question names", async () => {
    const filters: unknown[] = [];
    const store: Partial<ChunkStore> = {
      searchBm25: async (_q, opts) => {
        filters.push(opts.filter);
        return [own].map((h) => ({ ...h }));
      },
      hydrate: async (stubs) => stubs.map((h) => ({ ...h })),
      getChunks: async () => [],
    };
    const names = async () => DocumentEvidence.build([{ id: 'cm3/README.md', title: 'Lumen board' }, { id: 'cm5/README.md', title: 'Compute module' }]);
    const filtered = { ...source, store: store as ChunkStore, documentEvidence: names };
    const res = await search(filtered, 'lumen board power input', { topK: 10, retriever: 'bm25', models: ['CM5'], stages: ['passage-order'] });
    expect(res.ok).toBe(true);
    // The candidates and the named document's passages: both within the filter.
    expect(filters.length).toBe(2);
    for (const f of filters) expect(f).toMatchObject({ models: ['CM5'] });
  });

  it("reads the named documents' passages only where they can change a result", async () => {
    // Candidates from 12 documents; the passage search finds one passage of a named document
    // that has a candidate (it may take that candidate's place) and one of a named document with
    // none (scored 0, alone in its document: it can only come last).
    const candidates = Array.from({ length: 12 }, (_, i) => hit(`c${i}`, `Lumen board power input ${i}.`, 20 - i, { docId: `lumen/d${i}.md` }));
    const beside = hit('beside', 'Power input: 5 V over USB-C.', 3, { docId: 'lumen/d0.md' });
    const alone = hit('alone', 'Power input: 5 V over USB-C.', 3, { docId: 'lumen/other.md' });
    const run = async (topK: number) => {
      const read: string[] = [];
      const store: Partial<ChunkStore> = {
        searchBm25: async (_q, opts) => (opts.filter?.docIds ? [beside, alone] : candidates).map((h) => ({ ...h })),
        hydrate: async (stubs) => {
          read.push(...stubs.map((h) => h.record.id));
          return stubs.map((h) => ({ ...h }));
        },
        getChunks: async () => [],
      };
      const docs = [...candidates, alone].map((h) => ({ id: h.record.docId, title: 'Lumen board' })).concat([{ id: 'cm5/README.md', title: 'Compute module' }]);
      const names = async () => DocumentEvidence.build(docs);
      const res = await search({ ...source, store: store as ChunkStore, documentEvidence: names }, 'lumen board power input', { topK, retriever: 'bm25' });
      return { read, ids: res.ok ? res.value.results.map((r) => r.chunkId) : [] };
    };
    const ten = await run(10);
    expect(ten.read).toContain('beside');
    expect(ten.read).not.toContain('alone');
    expect(ten.ids).toHaveLength(10);
    // Asked for more results than the candidates above 0 make, the lone passage is read and shown last.
    const all = await run(20);
    expect(all.read).toContain('alone');
    expect(all.ids.at(-1)).toBe('alone');
  });

  it('uses the analysis it is given instead of analysing the question again', async () => {
    const given = { mentions: [], models: ['CM3'], related: [] };
    const res = await search(source, question, { topK: 10, retriever: 'bm25', stages: ['model-weight'], analysis: given });
    expect(res.ok && res.value.resolvedModels).toEqual(['CM3']);
    expect(res.ok && res.value.results[0]!.chunkId).toBe('other');
  });

  it('reads only what the stages that run need: the top k without stages, tables only for table views', async () => {
    const hits = Array.from({ length: 30 }, (_, i) => hit(`c${i}`, `Power input ${i}.`, 30 - i, { docId: `d${i}.md`, parentId: i === 3 ? 'table' : null }));
    const reads: { hydrated: number; tables: string[][] } = { hydrated: 0, tables: [] };
    const store: Partial<ChunkStore> = {
      searchBm25: async () => hits.map((h) => ({ ...h })),
      hydrate: async (stubs) => {
        reads.hydrated += stubs.length;
        return stubs.map((h) => ({ ...h }));
      },
      getChunks: async (ids) => {
        reads.tables.push([...ids]);
        return [];
      },
    };
    const counted = { ...source, store: store as ChunkStore };
    const bare = await search(counted, 'power input', { topK: 5, retriever: 'bm25', stages: [] });
    expect(bare.ok && bare.value.results.map((r) => r.chunkId)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
    expect(reads).toEqual({ hydrated: 5, tables: [] });
    reads.hydrated = 0;
    reads.tables = [];
    await search(counted, 'power input', { topK: 5, retriever: 'bm25', stages: ['table-views'] });
    expect(reads).toEqual({ hydrated: 20, tables: [['table']] });
  });

  it("reads a view's table with the candidates when the store gave the view its parent's row address", async () => {
    const table = hit('table', '| Power | 5 V |', 0, { docId: 'd3.md' });
    const hits = Array.from({ length: 30 }, (_, i) =>
      hit(`c${i}`, `Power input ${i}.`, 30 - i, { docId: `d${i}.md`, parentId: i === 3 ? 'table' : null }),
    ).map((h) => (h.record.parentId ? { ...h, rowId: 3n, parent: { record: { ...table.record, text: '' }, score: 0, rowId: 99n } } : { ...h, rowId: 1n }));
    const reads: { hydrated: string[][]; tables: string[][] } = { hydrated: [], tables: [] };
    const store: Partial<ChunkStore> = {
      searchBm25: async () => hits.map((h) => ({ ...h })),
      hydrate: async (stubs) => {
        reads.hydrated.push(stubs.map((h) => h.record.id));
        return stubs.map((h) => (h.record.id === 'table' ? { ...table } : { ...h }));
      },
      getChunks: async (ids) => {
        reads.tables.push([...ids]);
        return [];
      },
    };
    const res = await search({ ...source, store: store as ChunkStore }, 'power input', { topK: 5, retriever: 'bm25', stages: ['table-views'] });
    expect(reads.tables).toEqual([]);
    expect(reads.hydrated).toHaveLength(1);
    expect(reads.hydrated[0]!.filter((id) => id === 'table')).toHaveLength(1);
    // The view stands in for its table, whose whole text (read in that one read) is the result's.
    const shown = res.ok ? res.value.results.find((r) => r.chunkId === 'table') : undefined;
    expect(shown?.text).toBe('| Power | 5 V |');
  });

  it('searches a typo with the word the library uses, and quotes the question as asked', async () => {
    const { asked, store } = recordingStore();
    const res = await search({ ...source, store: store as ChunkStore }, 'compute modlue', { topK: 5, retriever: 'bm25', stages: [] });
    expect(asked).toEqual(['compute modlue module']);
    expect(res.ok && res.value.query).toBe('compute modlue');
  });

  it('searches keywords without the asking words, and quotes the question as asked', async () => {
    const { asked, store } = recordingStore();
    const res = await search({ ...source, store: store as ChunkStore }, 'How many modules does it have?', { topK: 5, retriever: 'bm25', stages: [] });
    expect(asked.map((t) => t.split(/\W+/).filter(Boolean))).toEqual([['modules', 'it']]);
    expect(res.ok && res.value.query).toBe('How many modules does it have?');
  });

  it('starts every candidate search before it scores the document names', async () => {
    const events: string[] = [];
    const store: Partial<ChunkStore> = {
      searchBm25: async (_text, opts) => {
        events.push(opts.filter?.docIds ? 'passage search' : opts.filter?.models ? 'model search' : 'library search');
        return [own, other].map((h) => ({ ...h }));
      },
      hydrate: async (stubs) => stubs.map((h) => ({ ...h })),
      getChunks: async () => [],
    };
    const names = DocumentEvidence.build([
      { id: 'cm5/io-board.md', title: 'CM5 IO Board' },
      { id: 'cm3/lite.md', title: 'CM3 Lite' },
    ]);
    const spied: DocumentEvidence = Object.assign(Object.create(names) as DocumentEvidence, {
      scores: (q: string) => {
        events.push('names scored');
        return names.scores(q);
      },
    });
    const res = await search({ ...source, store: store as ChunkStore, documentEvidence: async () => spied }, 'CM5 IO board power input', { topK: 10, retriever: 'bm25' });
    expect(res.ok).toBe(true);
    // The names are JavaScript on the search's thread: scored while LanceDB searches, not before it starts.
    expect(events).toHaveLength(4);
    expect(events.at(-1)).toBe('names scored');
    expect(new Set(events.slice(0, 3))).toEqual(new Set(['model search', 'library search', 'passage search']));
  });

  it('names every stage once', () => {
    expect(new Set(STAGE_NAMES).size).toBe(STAGE_NAMES.length);
    expect(STAGE_NAMES).toEqual(['table-views', 'term-coverage', 'model-weight', 'document-names', 'passage-order', 'answer-line', 'heading-match']);
  });
});
