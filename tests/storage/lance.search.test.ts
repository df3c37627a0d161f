import { afterEach, describe, expect, it } from 'vitest';
import type { LanceStoreOptions } from '../../src-main/storage/lance.store';
import { mustOpen, record, storeScope } from './fixtures';

/** Two-phase reads (stubs, then `hydrate`), query expansion and the vector index. */

const scope = storeScope();
const freshStore = async (options: LanceStoreOptions = {}) => (await scope.open(options)).store;
afterEach(() => scope.closeAll());

const ids = (hits: { record: { id: string } }[]) => hits.map((h) => h.record.id);

describe('LanceDB chunk store: stubs and hydration', () => {
  it('finds candidates as stubs and completes them in order with the same scores', async () => {
    const store = await freshStore();
    await store.addChunks([
      record('manual', 0, 'Replace the fuse with a 10 A slow-blow type.', { model: 'RAC-225B', title: 'RAC-225B manual', category: 'air conditioner', nouns: ['fuse'] }),
      record('manual', 1, 'The fuse holder sits behind the cover; the fuse is rated 250 V.', { model: 'RAC-225B' }),
      record('other', 0, 'Clean the filter every two weeks.'),
    ]);
    await store.ensureIndexes();
    const stubs = await store.searchBm25('fuse', { limit: 10, light: true });
    expect(ids(stubs).sort()).toEqual(['manual#0', 'manual#1']);
    for (const s of stubs) {
      expect(s.record.text).toBe('');
      expect(s.record.model).toBe('RAC-225B');
      expect(typeof s.rowId).toBe('bigint');
    }
    const full = await store.hydrate(stubs);
    expect(ids(full)).toEqual(ids(stubs));
    expect(full.map((h) => h.score)).toEqual(stubs.map((h) => h.score));
    const first = full.find((h) => h.record.id === 'manual#0')!.record;
    expect(first.text).toContain('10 A slow-blow');
    expect(first).toMatchObject({ title: 'RAC-225B manual', category: 'air conditioner', nouns: ['fuse'], headingPath: ['Manual', 'Section 0'], pageStart: 1 });
  });

  it('hydrates the right rows after writes moved them, and drops rows that are gone', async () => {
    const store = await freshStore();
    await store.addChunks(Array.from({ length: 20 }, (_, i) => record(`doc${i}`, 0, `heater element number ${i} resistance check`)));
    await store.ensureIndexes();
    const stubs = await store.searchBm25('heater element', { limit: 20, light: true });
    expect(stubs).toHaveLength(20);
    // Deleting and compacting rewrites the table: the stubs' row addresses now point elsewhere.
    await store.deleteDocument('doc3');
    await store.deleteDocument('doc0');
    await store.ensureIndexes();
    const full = await store.hydrate(stubs);
    expect(ids(full)).toEqual(ids(stubs).filter((id) => id !== 'doc3#0' && id !== 'doc0#0'));
    for (const h of full) expect(h.record.text).toBe(`heater element number ${h.record.docId.slice(3)} resistance check`);
  });

  it("reads a row's own indexed text once a library without prefixes gets a prefixed row", async () => {
    const store = await freshStore();
    await store.addChunks([record('plain', 0, 'The fuse is rated 10 A.'), record('plain', 1, 'The filter is washable.')]);
    await store.ensureIndexes();
    const [plain] = await store.hydrate(await store.searchBm25('fuse', { limit: 1, light: true }));
    expect(plain!.record.indexedText).toBe('The fuse is rated 10 A.');
    // The same store, after a prefixed row arrives: its prefix is read back, by row and by id.
    await store.addChunks([record('prefixed', 0, 'Replace the fuse.', { indexedText: '[Section: Fuses]\nReplace the fuse.' })]);
    const hits = await store.hydrate(await store.searchBm25('replace fuse', { limit: 3, light: true }));
    expect(hits.find((h) => h.record.id === 'prefixed#0')!.record.indexedText).toBe('[Section: Fuses]\nReplace the fuse.');
    expect(hits.find((h) => h.record.id === 'plain#0')!.record.indexedText).toBe('The fuse is rated 10 A.');
    const [byId] = await store.getChunks(['prefixed#0'], { light: true });
    expect(byId!.indexedText).toBe('[Section: Fuses]\nReplace the fuse.');
  });

  it('reads winners light by id', async () => {
    const store = await freshStore();
    await store.addChunks([record('d', 0, 'first', { keywords: ['k'], summary: 'sum' }), record('d', 1, 'second')]);
    const [light] = await store.getChunks(['d#0'], { light: true });
    expect(light).toMatchObject({ id: 'd#0', text: 'first', keywords: [], summary: null });
    const [whole] = await store.getChunks(['d#0']);
    expect(whole).toMatchObject({ keywords: ['k'], summary: 'sum' });
  });
});

describe('LanceDB chunk store: query expansion', () => {
  it('adds expansion matches at a lower weight than the question’s own words', async () => {
    const store = await freshStore();
    await store.addChunks([
      record('a', 0, 'Memory: LPDDR4X, up to 16 GB.'),
      record('b', 0, 'RAM slots: none, the RAM is soldered.'),
      record('c', 0, 'Unrelated text about the case.'),
    ]);
    await store.ensureIndexes();
    const plain = await store.searchBm25('RAM', { limit: 10 });
    expect(ids(plain)).toEqual(['b#0']);
    const expanded = await store.searchBm25('RAM', { limit: 10, expansion: 'memory lpddr4x' });
    expect(ids(expanded)).toEqual(['b#0', 'a#0']);
    const light = await store.searchBm25('RAM', { limit: 10, expansion: 'memory lpddr4x', light: true });
    expect(ids(light)).toEqual(['b#0', 'a#0']);
    expect(light.every((h) => typeof h.rowId === 'bigint')).toBe(true);
    expect(ids(await store.searchBm25('RAM', { limit: 1, expansion: 'memory lpddr4x' }))).toEqual(['b#0']);
  });
});

describe('LanceDB chunk store: vector index', () => {
  const dim = 8;
  // Deterministic, spread-out unit vectors.
  const vec = (i: number) => {
    const v = Array.from({ length: dim }, (_, k) => Math.sin((i + 1) * (k + 1) * 0.7));
    const n = Math.hypot(...v);
    return v.map((x) => x / n);
  };

  const vectorKinds = async (store: { indexStatus(): Promise<{ column: string; kind: string }[]> }) =>
    (await store.indexStatus()).filter((s) => s.column === 'vector').map((s) => s.kind);

  it('builds an HNSW index once enough rows are embedded and still finds nearest rows, exactly when filtered', async () => {
    const store = await freshStore({ vectorDimension: dim, vectorIndexMinRows: 300 });
    await store.addChunks(Array.from({ length: 299 }, (_, i) => record(`d${i % 7}`, i, `chunk ${i}`, { vector: vec(i) })));
    await store.ensureIndexes();
    expect(await vectorKinds(store)).toEqual([]);
    await store.addChunks([record('d0', 299, 'chunk 299', { vector: vec(299) })]);
    await store.ensureIndexes();
    expect(await vectorKinds(store)).toEqual(['IvfHnswSq']);
    // Each query is a row's own vector: the approximate index still puts that row first.
    for (const i of [0, 42, 150, 298]) expect((await store.searchVector(vec(i), { limit: 5 }))[0]!.record.id).toBe(`d${i % 7}#${i}`);
    // A filtered search is exact over the filtered rows.
    const inDoc = await store.searchVector(vec(43), { limit: 3, filter: { docIds: ['d1'] } });
    expect(inDoc[0]!.record.id).toBe('d1#43');
    expect(inDoc.every((h) => h.record.docId === 'd1')).toBe(true);
  });

  it('replaces an IVF-PQ index an older version built, and searches through either', async () => {
    const { dir, store } = await scope.open({ vectorDimension: dim, vectorIndexMinRows: 300 });
    await store.addChunks(Array.from({ length: 300 }, (_, i) => record(`d${i % 7}`, i, `chunk ${i}`, { vector: vec(i) })));
    await store.close();
    const lancedb = await import('@lancedb/lancedb');
    const db = await lancedb.connect(dir);
    const table = await db.openTable('chunks');
    await table.createIndex('vector', { config: lancedb.Index.ivfPq({ distanceType: 'cosine', numPartitions: 2, numSubVectors: 2 }) });
    table.close();
    db.close();

    const reopened = scope.track(await mustOpen(dir, { vectorDimension: dim, vectorIndexMinRows: 300 }));
    expect(await vectorKinds(reopened)).toEqual(['IvfPq']);
    expect((await reopened.searchVector(vec(42), { limit: 5 }))[0]!.record.id).toBe('d0#42');
    await reopened.ensureIndexes();
    expect(await vectorKinds(reopened)).toEqual(['IvfHnswSq']);
    expect((await reopened.searchHybrid('chunk 150', vec(150), { limit: 5 }))[0]!.record.id).toBe('d3#150');
    expect((await reopened.searchVector(vec(42), { limit: 5 }))[0]!.record.id).toBe('d0#42');
  });
});

describe('LanceDB chunk store: tables written before the packed result column', () => {
  it('opens them, writes rows without the column and reads light records from the separate columns', async () => {
    const { dir, store } = await scope.open();
    await store.addChunks([record('old', 0, 'Fuse rating of the heater: 10 A.', { model: 'RAC-225B', title: 'Old manual', nouns: ['fuse'] })]);
    await store.close();
    // The layout of a library written by the previous version: no result_json column.
    const lancedb = await import('@lancedb/lancedb');
    const db = await lancedb.connect(dir);
    const table = await db.openTable('chunks');
    await table.dropColumns(['result_json']);
    expect((await table.schema()).fields.some((f) => f.name === 'result_json')).toBe(false);
    table.close();
    db.close();

    const reopened = scope.track(await mustOpen(dir));
    await reopened.addChunks([record('new', 0, 'Fuse holder behind the cover.', { pageStart: 4, pageEnd: 5, headingPath: ['Service', 'Fuses'] })]);
    await reopened.ensureIndexes();
    const full = await reopened.hydrate(await reopened.searchBm25('fuse', { limit: 10, light: true }));
    expect(full.map((h) => h.record.id).sort()).toEqual(['new#0', 'old#0']);
    expect(full.find((h) => h.record.id === 'old#0')!.record).toMatchObject({ docId: 'old', title: 'Old manual', nouns: ['fuse'], text: 'Fuse rating of the heater: 10 A.' });
    expect(full.find((h) => h.record.id === 'new#0')!.record).toMatchObject({ pageStart: 4, pageEnd: 5, headingPath: ['Service', 'Fuses'] });
  });

  it('packs the result fields in new tables and reads the same records from them', async () => {
    const { store } = await scope.open();
    const input = record('doc', 3, 'Clean the filter every two weeks.', { pageStart: 7, pageEnd: 8, title: 'Care', category: 'air conditioner', nouns: ['filter'], headingPath: ['Care', 'Filter'] });
    await store.addChunks([input]);
    const [light] = await store.getChunks(['doc#3'], { light: true });
    const [whole] = await store.getChunks(['doc#3']);
    for (const field of ['docId', 'text', 'indexedText', 'headingPath', 'pageStart', 'pageEnd', 'start', 'end', 'title', 'category', 'nouns'] as const) {
      expect(light![field]).toEqual(whole![field]);
    }
  });
});
