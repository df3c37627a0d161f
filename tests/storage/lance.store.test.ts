import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CodedError } from '../../src-main/core/result';
import { openLanceStore } from '../../src-main/storage/lance.store';
import type { ChunkStore } from '../../src-main/storage/chunk-store';
import { fromRow, toRow } from '../../src-main/storage/lance.schema';
import { rrfFuse } from '../../src-main/storage/rank-fusion';
import { inScoreOrder } from '../../src-main/storage/lance.query';
import { axis, mustOpen, record, storeScope } from './fixtures';

const scope = storeScope();
const freshStore = (vectorDimension: number | null = null, embedderId: string | null = null) => scope.open({ vectorDimension, embedderId });
afterEach(() => scope.closeAll());

const ids = (hits: { record: { id: string } }[]) => hits.map((h) => h.record.id);

describe('LanceDB chunk store: foundation smoke', () => {
  it('writes typed rows, filters a vector query, and answers an FTS query', async () => {
    const { dir, store } = await freshStore(4, 'tiny-embedder');
    await store.addChunks([
      record('radxa/power.md', 0, 'The board needs a 5V/3A USB-C power supply.', { vector: axis(4, 0), model: 'ROCK 5B' }),
      record('radxa/power.md', 1, 'Use a heatsink when the CPU runs at full load.', { vector: axis(4, 1), model: 'ROCK 5B' }),
      record('esp/power.md', 0, 'The devkit is powered over the micro-USB port.', { vector: axis(4, 0), model: 'ESP32-C3' }),
    ]);

    const vectorHits = await store.searchVector(axis(4, 0), { limit: 5, filter: { docIds: ['radxa/power.md'] } });
    expect(ids(vectorHits)[0]).toBe('radxa/power.md#0');
    expect(vectorHits.every((h) => h.record.docId === 'radxa/power.md')).toBe(true);
    expect(vectorHits[0]!.score).toBeCloseTo(1, 5);

    await store.ensureIndexes();
    const ftsHits = await store.searchBm25('power supply', { limit: 5 });
    expect(ids(ftsHits)[0]).toBe('radxa/power.md#0');
    expect(ftsHits[0]!.score).toBeGreaterThan(0);
    expect(ftsHits[0]!.record).not.toHaveProperty('vector');

    // The columns on disk have the declared Arrow types, not the Float64 JS numbers would become.
    const lancedb = await import('@lancedb/lancedb');
    const db = await lancedb.connect(dir);
    const table = await db.openTable('chunks');
    const types = Object.fromEntries((await table.schema()).fields.map((f) => [f.name, String(f.type)]));
    table.close();
    db.close();
    expect(types.ordinal).toBe('Int32');
    expect(types.page_start).toBe('Int32');
    expect(types.vector).toBe('FixedSizeList[4]<Float32>');
    expect(types.heading_path).toBe('List<Utf8>');
  });

  it('round-trips every record field', async () => {
    const { store } = await freshStore();
    const input = record('spec.pdf', 3, 'Fuse: 5 A slow-blow', {
      id: 'unit:fuse',
      indexedText: 'Specifications > Fuse | RAC-225B\nFuse: 5 A slow-blow',
      headingPath: ['Specifications', 'Electrical'],
      pageStart: 12,
      pageEnd: 13,
      start: 400,
      end: 419,
      strategy: 'structural',
      sectionType: 'specifications',
      category: 'Specifications',
      nouns: ['fuse', 'rating'],
      model: 'RAC-225B',
      signatureSource: 'inherited',
      continuous: true,
      key: 'fuse-rating',
      keywords: ['fuse', 'slow-blow'],
      entities: ['RAC-225B'],
      questions: ['What fuse does the RAC-225B take?'],
      relatedKeys: ['power-supply'],
      title: 'Fuse rating',
      summary: 'The unit takes a 5 A slow-blow fuse.',
      members: [
        { ordinal: 3, start: 400, end: 410, pageStart: 12, pageEnd: 12 },
        { ordinal: 4, start: 410, end: 419, pageStart: 13, pageEnd: null },
      ],
    });
    await store.addChunks([input]);
    const got = await store.getChunk('unit:fuse');
    const { vector: _vector, ...expected } = input;
    expect(got).toEqual({ ...expected, modelKey: 'rac225b', parentId: null });
    expect(await store.getChunk('missing')).toBeNull();
  });

  it('stores the indexed text only when it differs from the text, and reads both back as written', async () => {
    const { dir, store } = await freshStore(4, 'tiny-embedder');
    const plain = record('m.md', 0, 'Fuse: 5 A slow-blow', { vector: axis(4, 0) });
    const prefixed = record('m.md', 1, 'Fuse: 10 A', { indexedText: 'RAC-225B | Fuse\nFuse: 10 A' });
    await store.addChunks([plain, prefixed]);
    await store.ensureIndexes();
    const lancedb = await import('@lancedb/lancedb');
    const db = await lancedb.connect(dir);
    const table = await db.openTable('chunks');
    const rows = (await table.query().select(['id', 'indexed_text']).toArray()) as { id: string; indexed_text: string }[];
    table.close();
    db.close();
    expect(Object.fromEntries(rows.map((r) => [r.id, r.indexed_text]))).toEqual({ 'm.md#0': '', 'm.md#1': 'RAC-225B | Fuse\nFuse: 10 A' });
    // Every read path gives the indexed text back: whole records, light hits, the embedder's queues.
    const listed = await store.listChunks('m.md');
    expect(listed.map((r) => r.indexedText)).toEqual([plain.indexedText, prefixed.indexedText]);
    const [hit] = await store.hydrate(await store.searchBm25('slow-blow', { limit: 1, light: true }));
    expect(hit!.record.indexedText).toBe(plain.indexedText);
    expect((await store.listUnembedded(5)).map((u) => u.indexedText)).toEqual([prefixed.indexedText]);
    expect((await store.listEmbedded(['m.md#0']))[0]!.indexedText).toBe(plain.indexedText);
    // Both stay searchable by what FTS sees, prefix included.
    expect(ids(await store.searchBm25('RAC-225B', { limit: 5 }))).toEqual(['m.md#1']);
  });

  it('reads rows of older libraries, which stored the indexed text even when equal to the text', () => {
    const row = toRow(record('m.md', 0, 'Fuse: 5 A'), null);
    const old = fromRow({ ...row, indexed_text: 'Fuse: 5 A' });
    expect(old.indexedText).toBe('Fuse: 5 A');
    expect(fromRow(row)).toEqual(old);
  });

  it('lists a document in ordinal order whatever the write order', async () => {
    const { store } = await freshStore();
    await store.addChunks([record('d', 2, 'two'), record('d', 0, 'zero'), record('other', 0, 'x')]);
    await store.addChunks([record('d', 1, 'one')]);
    expect((await store.listChunks('d')).map((r) => r.ordinal)).toEqual([0, 1, 2]);
    expect(await store.listChunks('nothing')).toEqual([]);
  });
});

describe('LanceDB chunk store: incremental updates', () => {
  it('finds rows added after the index was built, before and after folding them in', async () => {
    const { store } = await freshStore();
    await store.addChunks([record('a', 0, 'Replace the thermal fuse.'), record('a', 1, 'Clean the air filter.')]);
    await store.ensureIndexes();
    const ftsBefore = (await store.indexStatus()).find((i) => i.kind === 'FTS');
    expect(ftsBefore).toMatchObject({ column: 'search_text', indexedRows: 2, unindexedRows: 0 });

    await store.addChunks([record('b', 0, 'The fuse holder sits behind the rear panel.')]);
    expect((await store.indexStatus()).find((i) => i.kind === 'FTS')!.unindexedRows).toBe(1);
    expect(ids(await store.searchBm25('fuse', { limit: 10 })).sort()).toEqual(['a#0', 'b#0']);

    await store.ensureIndexes();
    const ftsAfter = (await store.indexStatus()).find((i) => i.kind === 'FTS');
    expect(ftsAfter).toMatchObject({ name: ftsBefore!.name, indexedRows: 3, unindexedRows: 0 });
    expect(ids(await store.searchBm25('fuse', { limit: 10 })).sort()).toEqual(['a#0', 'b#0']);
  });

  it('finds and scores rows written since the last fold as a fresh index does, though they repeat a searched word', async () => {
    // A manual replaced by a new version and a copy of the old one: "10" is in both new rows,
    // twice in the copy ("F-10", "BL-10"). LanceDB's scan of rows not yet in the full-text index
    // counted it in 3 documents of 2 (1 indexed, deleted, + 3 occurrences of 2 scanned rows), so
    // it weighed less than nothing and the search for the part number found neither row.
    const old = 'The F-10 blade is part BL-10.';
    const current = [record('fan', 0, 'The F-10 blade is now part BL-20.'), record('fan copy', 0, old)];
    const { store } = await freshStore();
    await store.addChunks([record('fan', 0, old)]);
    await store.ensureIndexes();
    await store.deleteDocument('fan');
    await store.addChunks(current);
    const { store: fresh } = await freshStore();
    await fresh.addChunks(current);
    await fresh.ensureIndexes();

    const scored = async (s: ChunkStore, query: string) => (await s.searchBm25(query, { limit: 10 })).map((h) => [h.record.id, h.score.toFixed(4)]);
    for (const query of ['BL-10', 'blade']) expect(await scored(store, query)).toEqual(await scored(fresh, query));
    expect(ids(await store.searchBm25('BL-10', { limit: 10 }))).toEqual(['fan copy#0', 'fan#0']);
  });

  it("indexes documents with a bitmap, and replaces an older version's B-tree on doc_id with one", async () => {
    const { dir, store: writer } = await freshStore();
    await writer.addChunks([record('a', 0, 'fuse rating'), record('a', 1, 'fuse location'), record('b', 0, 'fuse type')]);
    await writer.ensureIndexes();
    expect((await writer.indexStatus()).find((i) => i.column === 'doc_id')!.kind).toBe('Bitmap');
    await writer.close();
    // The library as an older version left it: a B-tree on doc_id.
    const lancedb = await import('@lancedb/lancedb');
    const db = await lancedb.connect(dir);
    const table = await db.openTable('chunks');
    await table.createIndex('doc_id', { config: lancedb.Index.btree(), replace: true });
    table.close();
    db.close();
    const store = scope.track(await mustOpen(dir));
    const docIndex = async () => (await store.indexStatus()).find((i) => i.column === 'doc_id')!.kind;
    expect(await docIndex()).toBe('BTree');
    await store.ensureIndexes();
    expect(await docIndex()).toBe('Bitmap');
    expect(ids(await store.searchBm25('fuse', { limit: 10, filter: { docIds: ['a'] } })).sort()).toEqual(['a#0', 'a#1']);
    expect(await store.deleteDocument('a')).toBe(2);
    expect(ids(await store.searchBm25('fuse', { limit: 10, filter: { docIds: ['a', 'b'] } }))).toEqual(['b#0']);
  });

  it('stops finding a deleted document and reports how many rows went', async () => {
    const { store } = await freshStore();
    await store.addChunks([record('a', 0, 'fuse rating'), record('a', 1, 'fuse location'), record('b', 0, 'fuse type')]);
    await store.ensureIndexes();
    expect(await store.deleteDocument('a')).toBe(2);
    expect(await store.deleteDocument('a')).toBe(0);
    expect(ids(await store.searchBm25('fuse', { limit: 10 }))).toEqual(['b#0']);
    await store.ensureIndexes();
    expect(ids(await store.searchBm25('fuse', { limit: 10 }))).toEqual(['b#0']);
    expect(await store.countChunks()).toBe(1);
  });

  it('replaces one document without touching the others', async () => {
    const { store } = await freshStore();
    await store.addChunks([record('a', 0, 'old fuse text'), record('a', 1, 'old filter text'), record('a', 2, 'old tail'), record('b', 0, 'fuse for b')]);
    await store.ensureIndexes();
    await store.replaceDocument('a', [record('a', 0, 'new battery text'), record('a', 1, 'new charger text')]);

    expect((await store.listChunks('a')).map((r) => r.text)).toEqual(['new battery text', 'new charger text']);
    expect(ids(await store.searchBm25('fuse', { limit: 10 }))).toEqual(['b#0']);
    expect(ids(await store.searchBm25('battery', { limit: 10 }))).toEqual(['a#0']);
    expect(await store.countChunks()).toBe(3);

    await store.replaceDocument('b', []);
    expect(await store.countChunks({ docIds: ['b'] })).toBe(0);
    await expect(store.replaceDocument('a', [record('c', 0, 'stray')])).rejects.toMatchObject({ code: 'invalid-input' });
  });

  it('replaces and deletes many documents a few hundred per write, each document whole', async () => {
    const { dir, store } = await freshStore();
    const versions = async () => (await fs.readdir(path.join(dir, 'chunks.lance', '_versions'))).filter((f) => f.endsWith('.manifest')).length;
    // More documents than one write names (500), so the groups' edges are crossed.
    const docs = Array.from({ length: 620 }, (_, i) => `manual-${i}`);
    await store.addChunks([...docs.flatMap((d) => [record(d, 0, `old fuse ${d}`), record(d, 1, `old tail ${d}`)]), record('kept', 0, 'fuse kept')]);
    await store.ensureIndexes();

    // Every document changes: one chunk fewer, new text; "kept" is not named and stays.
    let before = await versions();
    await store.replaceDocuments(docs, docs.map((d) => record(d, 0, `new battery ${d}`)));
    // A write per document made 620 table versions (and a search meanwhile could miss a document).
    expect((await versions()) - before).toBe(2);
    expect(await store.countChunks()).toBe(docs.length + 1);
    expect((await store.listChunks('manual-0')).map((r) => r.text)).toEqual(['new battery manual-0']);
    expect((await store.listChunks('manual-619')).map((r) => r.text)).toEqual(['new battery manual-619']);
    expect(ids(await store.searchBm25('fuse', { limit: 10 }))).toEqual(['kept#0']);
    await expect(store.replaceDocuments(['manual-1'], [record('kept', 1, 'stray')])).rejects.toMatchObject({ code: 'invalid-input' });

    before = await versions();
    expect(await store.deleteDocuments([...docs, 'never-imported'])).toBe(docs.length);
    expect((await versions()) - before).toBe(2);
    expect(ids(await store.searchBm25('battery fuse', { limit: 10 }))).toEqual(['kept#0']);
    // Nothing to delete: no new version.
    before = await versions();
    expect(await store.deleteDocuments(docs)).toBe(0);
    expect(await versions()).toBe(before);
  });

  it('rejects duplicate ids and invalid integers in one write', async () => {
    const { store } = await freshStore();
    await expect(store.addChunks([record('a', 0, 'x'), record('a', 0, 'y')])).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(store.addChunks([record('a', 0, 'x', { pageStart: -1 })])).rejects.toBeInstanceOf(CodedError);
    await expect(store.addChunks([record('a', 0, 'x', { start: 5, end: 2 })])).rejects.toMatchObject({ code: 'invalid-input' });
    expect(await store.countChunks()).toBe(0);
  });
});

describe('LanceDB chunk store: filters', () => {
  const hostile = ["O'Brien's manual.pdf", "x' OR '1'='1", "'; DROP TABLE chunks; --", 'back\\slash\\', 'quote"double', 'new\nline', '%_*'];

  it('treats hostile document ids as data in every filtered call', async () => {
    const { store } = await freshStore();
    await store.addChunks([...hostile.map((docId) => record(docId, 0, `fuse notes for ${docId.length}`)), record('plain', 0, 'fuse notes plain')]);
    await store.ensureIndexes();
    for (const docId of hostile) {
      expect(await store.countChunks({ docIds: [docId] })).toBe(1);
      expect(ids(await store.searchBm25('fuse', { limit: 20, filter: { docIds: [docId] } }))).toEqual([`${docId}#0`]);
      expect((await store.listChunks(docId)).map((r) => r.docId)).toEqual([docId]);
      expect((await store.getChunk(`${docId}#0`))?.docId).toBe(docId);
    }
    expect(await store.countChunks({ docIds: ["x' OR '1'='1"] })).toBe(1);
    expect(await store.deleteDocument("x' OR '1'='1")).toBe(1);
    expect(await store.countChunks()).toBe(hostile.length);
  });

  it('filters by normalized model, category and document, combined with AND', async () => {
    const { store } = await freshStore();
    await store.addChunks([
      record('m', 0, 'fuse 5 A', { model: 'RAC-225B', category: 'Specifications' }),
      record('m', 1, 'fuse 3 A', { model: 'RAC-225', category: 'Specifications' }),
      record('m', 2, 'fuse general advice', { model: null, category: 'Safety' }),
      record('n', 0, 'fuse 5 A too', { model: 'rac 225b', category: 'Safety' }),
    ]);
    await store.ensureIndexes();
    const search = (filter: object) => store.searchBm25('fuse', { limit: 10, filter }).then((h) => ids(h).sort());
    expect(await search({ models: ['ＲＡＣ２２５Ｂ'] })).toEqual(['m#0', 'n#0']);
    expect(await search({ models: ['RAC-225B'], includeUnmodeled: true })).toEqual(['m#0', 'm#2', 'n#0']);
    expect(await search({ models: ['RAC-225B'], categories: ['Safety'] })).toEqual(['n#0']);
    expect(await search({ models: ['RAC-225B'], docIds: ['m'] })).toEqual(['m#0']);
    expect(await search({ categories: ["Safety' OR 'a'='a"] })).toEqual([]);
    expect(await search({ docIds: [] })).toEqual([]);
    expect(await search({})).toHaveLength(4);
  });

  it('applies the filter before the limit, so low-ranked matches are not lost', async () => {
    const { store } = await freshStore(2);
    const many = Array.from({ length: 40 }, (_, i) => record('big', i, 'fuse fuse fuse fuse rating', { vector: [1, 0] }));
    await store.addChunks([...many, record('small', 0, 'a long note that mentions the fuse only once among many other words', { vector: [0, 1] })]);
    await store.ensureIndexes();
    expect(ids(await store.searchBm25('fuse', { limit: 3, filter: { docIds: ['small'] } }))).toEqual(['small#0']);
    expect(ids(await store.searchVector([1, 0], { limit: 3, filter: { docIds: ['small'] } }))).toEqual(['small#0']);
  });
});

describe('LanceDB chunk store: vectors and hybrid search', () => {
  it('fuses BM25 and vector rankings with RRF', async () => {
    const { store } = await freshStore(3);
    await store.addChunks([
      record('d', 0, 'fuse rating for the heater', { vector: [0, 0, 1] }),
      record('d', 1, 'unrelated words about cleaning', { vector: [1, 0, 0] }),
      record('d', 2, 'fuse holder and fuse cover', { vector: [0.9, 0.1, 0] }),
      record('e', 0, 'nothing relevant here', { vector: [0, 1, 0] }),
    ]);
    await store.ensureIndexes();
    const hits = await store.searchHybrid('fuse', [1, 0, 0], { limit: 10 });
    const got = ids(hits);
    // d#2 is in both lists and must lead; d#1 is vector-only, d#0 text-only: both still fused in.
    expect(got[0]).toBe('d#2');
    expect(got).toEqual(expect.arrayContaining(['d#0', 'd#1', 'd#2']));
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
    // Only a record ranked in both lists can beat one list's best reciprocal rank, 1 / (60 + 0).
    expect(hits[0]!.score).toBeGreaterThan(1 / 60);
    expect(hits.find((h) => h.record.id === 'd#1')!.score).toBeCloseTo(1 / 60, 6);

    const filtered = await store.searchHybrid('fuse', [1, 0, 0], { limit: 10, filter: { docIds: ['e'] } });
    expect(ids(filtered)).toEqual(['e#0']);

    // A query without searchable words leaves only the vector ranking to fuse.
    expect(ids(await store.searchHybrid('the', [0, 1, 0], { limit: 1 }))).toEqual(['e#0']);
  });

  it("fuses the two rankings as LanceDB's own RRF reranker does", async () => {
    const { dir, store } = await freshStore(4);
    const words = ['fuse', 'relay', 'heater', 'filter', 'fan', 'board', 'cable', 'switch'];
    // Texts and vectors that rank the rows differently in each list, with a few rows in only one.
    await store.addChunks(
      Array.from({ length: 30 }, (_, i) =>
        record('d', i, `${words[i % 8]} ${words[(i * 3) % 8]} ${i % 5 === 0 ? 'fuse' : 'note'} ${'x'.repeat(i % 7)}`, {
          vector: [Math.cos(i), Math.sin(i), (i % 4) / 4, 1 - (i % 3) / 3],
        }),
      ),
    );
    await store.ensureIndexes();
    const lancedb = await import('@lancedb/lancedb');
    const db = await lancedb.connect(dir);
    const table = await db.openTable('chunks');
    const rrf = await lancedb.rerankers.RRFReranker.create(60);
    const native = async (q: string, v: number[], limit: number) =>
      (await table.query().fullTextSearch(new lancedb.MatchQuery(q, 'search_text')).nearestTo(v).column('vector').distanceType('cosine').rerank(rrf).select(['id']).limit(limit).toArray()).map(
        (r: Record<string, unknown>) => [String(r.id), Number(r._relevance_score)] as const,
      );
    // The store puts rows of equal score in id order before fusing them (lance.ties.test.ts), where
    // LanceDB's reranker takes them as its search returned them: the fusion itself is compared on
    // LanceDB's own two rankings, and the store's hybrid search finds the same rows.
    const ranking = async (q: string, v: number[] | null, limit: number) =>
      (await (v ? table.query().nearestTo(v).column('vector').distanceType('cosine') : table.query().fullTextSearch(new lancedb.MatchQuery(q, 'search_text'))).select(['id']).limit(limit).toArray()) as Record<string, unknown>[];
    for (const [q, v] of [['fuse relay', [1, 0, 0, 1]], ['heater fan cable', [0, 1, 0.5, 0]]] as const) {
      const theirs = await native(q, [...v], 50);
      const fused = rrfFuse([await ranking(q, [...v], 50), await ranking(q, null, 50)], 50).map(({ row, score }) => [String(row.id), score] as const);
      expect(new Map(fused)).toEqual(new Map(theirs));
      expect(new Set((await store.searchHybrid(q, [...v], { limit: 50 })).map((h) => h.record.id))).toEqual(new Set(theirs.map(([id]) => id)));
      // With a limit (each ranking cut to it first), the same scores are kept.
      const top = rrfFuse([await ranking(q, [...v], 8), await ranking(q, null, 8)], 8);
      expect(top.map((x) => x.score)).toEqual((await native(q, [...v], 8)).map(([, s]) => s));
      // The store's own: LanceDB's two rankings cut to the limit, ties in id order, then fused.
      const cut = async (vec: number[] | null) => inScoreOrder(await ranking(q, vec, 8), (row) => (vec ? -Number(row._distance) : Number(row._score)));
      const expected = rrfFuse([await cut([...v]), await cut(null)], 8).map(({ row, score }) => [String(row.id), score]);
      expect((await store.searchHybrid(q, [...v], { limit: 8 })).map((h) => [h.record.id, h.score])).toEqual(expected);
    }
    table.close();
    db.close();
  });

  it('embeds rows in place and keeps their text and FTS entries', async () => {
    const { store } = await freshStore(2);
    await store.addChunks([record('d', 0, 'fuse one'), record('d', 1, 'fuse two'), record('d', 2, 'fuse three')]);
    await store.ensureIndexes();
    expect(await store.searchVector([1, 0], { limit: 5 })).toEqual([]);
    const queue = await store.listUnembedded(10);
    expect(queue.map((q) => q.id).sort()).toEqual(['d#0', 'd#1', 'd#2']);
    expect(queue.find((q) => q.id === 'd#1')!.indexedText).toBe('fuse two');

    expect(await store.updateVectors(['d#0', 'd#1'], [[1, 0], Float32Array.from([0, 1])])).toBe(2);
    expect((await store.listUnembedded(10)).map((q) => q.id)).toEqual(['d#2']);
    expect(ids(await store.searchVector([1, 0], { limit: 5 }))).toEqual(['d#0', 'd#1']);
    expect((await store.getChunk('d#0'))!.text).toBe('fuse one');
    expect(ids(await store.searchBm25('fuse', { limit: 5 })).sort()).toEqual(['d#0', 'd#1', 'd#2']);
    await store.ensureIndexes();
    expect(ids(await store.searchBm25('two', { limit: 5 }))).toEqual(['d#1']);
  });

  it('drops the versions an optimize had to keep once they are old enough, so an embedding job leaves one copy of the table', async () => {
    // Long enough that the writes below finish inside it: the optimize at their end must keep them.
    const retention = 3000;
    const { dir, store } = await scope.open({ vectorDimension: 2, versionRetentionMs: retention });
    const manifests = async () => (await fs.readdir(path.join(dir, 'chunks.lance', '_versions'))).filter((f) => f.endsWith('.manifest')).length;
    const dataBytes = async () => {
      const data = path.join(dir, 'chunks.lance', 'data');
      let total = 0;
      for (const f of await fs.readdir(data)) total += (await fs.stat(path.join(data, f))).size;
      return total;
    };
    const rows = Array.from({ length: 300 }, (_, i) => record('d', i, `fuse ${i} rated ${i % 7} A, replace with the same type`));
    for (let i = 0; i < rows.length; i += 100) await store.addChunks(rows.slice(i, i + 100));
    await store.ensureIndexes();
    // The embedding job's writes rewrite every row; the optimize after them compacts the table.
    await store.updateVectors(
      rows.map((r) => `${r.docId}#${r.ordinal}`),
      rows.map((_, i) => axis(2, i % 2)),
    );
    await store.ensureIndexes();
    const kept = { manifests: await manifests(), bytes: await dataBytes() };
    expect(kept.manifests).toBeGreaterThan(1);

    await (store as ChunkStore & { cleanedUp(): Promise<void> }).cleanedUp();
    expect(await manifests()).toBe(1);
    expect(await dataBytes()).toBeLessThan(kept.bytes);
    // The table reads as before.
    expect(ids(await store.searchBm25('fuse 17', { limit: 1 }))).toEqual(['d#17']);
    expect((await store.listUnembedded(10)).length).toBe(0);
  });

  it('lists the stored vectors of the ids asked for, with what they were computed from', async () => {
    const { store } = await freshStore(2);
    await store.addChunks([record('d', 0, 'fuse one', { vector: [0.25, -1] }), record('d', 1, 'fuse two'), record('e', 0, 'filter', { vector: [1, 0] })]);
    const listed = await store.listEmbedded(['d#0', 'd#1', 'nope#0']);
    expect(listed.map((e) => e.id)).toEqual(['d#0']);
    expect(Array.from(listed[0]!.vector)).toEqual([0.25, -1]);
    expect(listed[0]).toMatchObject({ indexedText: 'fuse one', text: 'fuse one' });
    expect(await store.listEmbedded([])).toEqual([]);
    const { store: plain } = await freshStore(null);
    await plain.addChunks([record('d', 0, 'fuse')]);
    expect(await plain.listEmbedded(['d#0'])).toEqual([]);
  });

  it('rejects vectors of the wrong length instead of storing garbage', async () => {
    const { store } = await freshStore(3);
    await expect(store.addChunks([record('d', 0, 'x', { vector: [1, 2] })])).rejects.toMatchObject({ code: 'model-mismatch' });
    await expect(store.searchVector([1, 0], { limit: 1 })).rejects.toMatchObject({ code: 'model-mismatch' });
    await expect(store.updateVectors(['d#0'], [[1, 2, 3, 4]])).rejects.toMatchObject({ code: 'model-mismatch' });
    await expect(store.addChunks([record('d', 0, 'x', { vector: [1, Number.NaN, 0] })])).rejects.toMatchObject({ code: 'invalid-input' });
  });

  it('has no vector search in a library without an embedder', async () => {
    const { store } = await freshStore(null);
    expect(store.vectorDimension).toBeNull();
    await store.addChunks([record('d', 0, 'fuse')]);
    await expect(store.searchVector([1, 0], { limit: 1 })).rejects.toMatchObject({ code: 'unavailable' });
    expect(await store.listUnembedded(5)).toEqual([]);
    expect(ids(await store.searchBm25('fuse', { limit: 1 }))).toEqual(['d#0']);
  });
});

describe('LanceDB chunk store: embedder changes', () => {
  it('upgrades a library without vectors in place when an embedder is configured', async () => {
    const dir = await scope.folder();
    const plain = await mustOpen(dir);
    await plain.addChunks([record('d', 0, 'fuse')]);
    await plain.close();

    const upgraded = await mustOpen(dir, { vectorDimension: 2, embedderId: 'e1' });
    scope.track(upgraded);
    expect(upgraded.vectorDimension).toBe(2);
    expect(upgraded.embedderId).toBe('e1');
    expect((await upgraded.listUnembedded(5)).map((q) => q.id)).toEqual(['d#0']);
    expect((await upgraded.getChunk('d#0'))!.text).toBe('fuse');
  });

  it('refuses another dimension or embedder with model-mismatch, and resets on request', async () => {
    const dir = await scope.folder();
    const first = await mustOpen(dir, { vectorDimension: 2, embedderId: 'e1' });
    await first.addChunks([record('d', 0, 'fuse', { vector: [1, 0] })]);
    await first.close();

    const otherDim = await openLanceStore(dir, { vectorDimension: 3, embedderId: 'e1' });
    expect(otherDim.ok).toBe(false);
    if (!otherDim.ok) {
      expect(otherDim.error.code).toBe('model-mismatch');
      expect(otherDim.error.message).toMatch(/2 dimensions.*3 dimensions/);
    }
    const otherModel = await openLanceStore(dir, { vectorDimension: 2, embedderId: 'e2' });
    expect(otherModel.ok ? null : otherModel.error.code).toBe('model-mismatch');

    const sameAgain = await mustOpen(dir, { vectorDimension: 2, embedderId: 'e1' });
    expect(ids(await sameAgain.searchVector([1, 0], { limit: 1 }))).toEqual(['d#0']);
    await sameAgain.close();

    const noEmbedder = await mustOpen(dir);
    expect(noEmbedder.vectorDimension).toBe(2);
    await noEmbedder.close();

    const reset = await mustOpen(dir, { vectorDimension: 3, embedderId: 'e3', onModelMismatch: 'reset' });
    scope.track(reset);
    expect(reset.vectorDimension).toBe(3);
    expect(await reset.searchVector([1, 0, 0], { limit: 1 })).toEqual([]);
    expect((await reset.listUnembedded(5)).map((q) => q.id)).toEqual(['d#0']);
    expect(ids(await reset.searchBm25('fuse', { limit: 1 }))).toEqual(['d#0']);
  });
});

describe('LanceDB chunk store: failures as values', () => {
  it('reports a damaged table as corrupt', async () => {
    const dir = await scope.folder();
    await fs.mkdir(path.join(dir, 'chunks.lance', '_versions'), { recursive: true });
    await fs.writeFile(path.join(dir, 'chunks.lance', '_versions', '1.manifest'), 'not a manifest');
    const result = await openLanceStore(dir);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('corrupt');
      expect(result.error.message).toMatch(/damaged/);
      expect(result.error.message).not.toMatch(/\.rs:\d+/);
    }
  });

  it('creates the table again when a killed first open left it without a committed version', async () => {
    const dir = await scope.folder();
    await (await mustOpen(dir)).close();
    // What a kill inside createEmptyTable leaves: the transaction file, no manifest (a staged one at most).
    const versions = path.join(dir, 'chunks.lance', '_versions');
    for (const f of await fs.readdir(versions)) await fs.rm(path.join(versions, f));
    await fs.writeFile(path.join(versions, '1.manifest-staged'), 'half');
    expect((await fs.readdir(path.join(dir, 'chunks.lance', '_transactions'))).length).toBeGreaterThan(0);
    const reopened = await mustOpen(dir);
    scope.track(reopened);
    expect(await reopened.countChunks()).toBe(0);
    await reopened.addChunks([record('d', 0, 'fuse')]);
    expect((await reopened.listChunks('d')).map((r) => r.text)).toEqual(['fuse']);
  });

  it('reports missing data files as corrupt when the table is read', async () => {
    const dir = await scope.folder();
    const store = await mustOpen(dir);
    await store.addChunks([record('d', 0, 'fuse')]);
    await store.close();
    const dataDir = path.join(dir, 'chunks.lance', 'data');
    for (const f of await fs.readdir(dataDir)) await fs.rm(path.join(dataDir, f));
    const reopened = await mustOpen(dir);
    scope.track(reopened);
    await expect(reopened.listChunks('d')).rejects.toMatchObject({ code: 'corrupt' });
  });

  it('refuses a file where the database folder should be, and bad options', async () => {
    const dir = await scope.folder();
    const file = path.join(dir, 'db');
    await fs.writeFile(file, 'x');
    const asFile = await openLanceStore(file);
    expect(asFile.ok ? null : asFile.error.code).toBe('unreadable');
    const badDim = await openLanceStore(path.join(dir, 'x'), { vectorDimension: 0 });
    expect(badDim.ok ? null : badDim.error.code).toBe('invalid-input');
  });

  it('rejects calls after close', async () => {
    const { store } = await freshStore();
    await store.close();
    await expect(store.countChunks()).rejects.toMatchObject({ code: 'unavailable' });
  });
});
