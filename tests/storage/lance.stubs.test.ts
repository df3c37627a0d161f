import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRequire } from 'node:module';
import type * as ArrowModule from 'apache-arrow';
import type { ChunkHit, ChunkStore } from '../../src-main/storage/chunk-store';
import { plainRows } from '../../src-main/storage/lance.batch';
import { StubIndex } from '../../src-main/storage/lance.stubs';
import { record, storeScope } from './fixtures';

/**
 * Light searches through the in-memory stub index (`lance.stubs.ts`): the same stubs, scores and
 * row addresses as reading the stub columns, a table row view's parent by address, and nothing
 * stale after writes and compaction.
 */

const arrow = createRequire(import.meta.url)('apache-arrow') as typeof ArrowModule;
const scope = storeScope();
afterEach(async () => {
  vi.restoreAllMocks();
  await scope.closeAll();
});

const DIM = 4;
const vec = (i: number) => [Math.cos(i), Math.sin(i), Math.cos(2 * i), Math.sin(2 * i)].map((x) => x / Math.SQRT2);

/** A library with a spec table of one model and its row views, and prose of two models. */
async function library(): Promise<ChunkStore> {
  const { store } = await scope.open({ vectorDimension: DIM });
  await store.addChunks([
    record('x1/spec.md', 0, '| Fuse | 10 A slow-blow |\n| Voltage | 230 V |', { model: 'X1', vector: vec(0) }),
    record('x1/spec.md', 1, '| Fuse | 10 A slow-blow |', { model: 'X1', parentId: 'x1/spec.md#0', vector: vec(1) }),
    record('x1/spec.md', 2, '| Voltage | 230 V |', { model: 'X1', parentId: 'x1/spec.md#0', vector: vec(2) }),
    record('x1/guide.md', 0, 'Replace the fuse after a power surge.', { model: 'X1', vector: vec(3) }),
    record('x2/guide.md', 0, 'The X2 fuse sits behind the rear cover.', { model: 'X2', vector: vec(4) }),
    record('x2/guide.md', 1, 'Clean the filter every two weeks.', { model: 'X2', vector: vec(5) }),
  ]);
  await store.ensureIndexes();
  return store;
}

/** What a light hit says, in a comparable form. */
const view = (hits: ChunkHit[]) => hits.map((h) => ({ id: h.record.id, model: h.record.model, parentId: h.record.parentId, score: h.score, rowId: h.rowId }));

describe('LanceDB chunk store: the stub index', () => {
  it('gives every light search the stubs, scores and row addresses that reading the stub columns gives', async () => {
    const store = await library();
    const searches = [
      () => store.searchBm25('fuse', { limit: 10, light: true }),
      () => store.searchBm25('fuse voltage', { limit: 10, light: true, expansion: 'cover' }),
      () => store.searchBm25('fuse', { limit: 10, light: true, filter: { models: ['X1'] }, expansion: 'surge' }),
      () => store.searchBm25('fuse', { limit: 2, light: true, filter: { docIds: ['x1/spec.md'] } }),
      () => store.searchVector(vec(1), { limit: 4, light: true }),
      () => store.searchHybrid('fuse', vec(4), { limit: 5, light: true }),
    ];
    const before = [];
    for (const run of searches) before.push(view(await run()));
    await store.prepareSearch();
    for (const [i, run] of searches.entries()) expect(view(await run())).toEqual(before[i]);
  });

  it('builds an empty stub index for an empty library, and searches it as before', async () => {
    // The scan of an empty table has no `_rowid` column: building from it threw inside a timer's
    // promise, an unhandled rejection that ended the web bridge's process.
    const { store } = await scope.open({ vectorDimension: DIM });
    expect(await store.searchBm25('fuse', { limit: 10, light: true })).toEqual([]);
    await expect(store.prepareSearch()).resolves.toBeUndefined();
    expect(await store.searchBm25('fuse', { limit: 10, light: true })).toEqual([]);
    await store.addChunks([record('x1/guide.md', 0, 'Replace the fuse after a power surge.', { model: 'X1', vector: vec(3) })]);
    expect((await store.searchBm25('fuse', { limit: 10, light: true })).map((h) => h.record.id)).toEqual(['x1/guide.md#0']);
  });

  it('holds no rows when the scan has none', () => {
    // As LanceDB scans an empty table with row ids: the stub columns, no `_rowid`.
    const utf8 = () => arrow.vectorFromArray([] as string[], new arrow.Utf8());
    const empty = new arrow.Table({ id: utf8(), model: utf8(), parent_id: utf8() });
    expect(StubIndex.fromArrow(empty).size).toBe(0);
  });

  it('holds result columns only from a scan of its own rows in its order, and only within the budget', () => {
    const utf8 = (values: (string | null)[]) => arrow.vectorFromArray(values, new arrow.Utf8());
    const rowIds = (values: bigint[]) => arrow.makeVector(BigUint64Array.from(values));
    const stubs = () => StubIndex.fromArrow(new arrow.Table({ id: utf8(['a#0', 'b#0']), model: utf8(['X1', null]), parent_id: utf8([null, null]), _rowid: rowIds([5n, (1n << 32n) + 2n]) }));
    const scan = (ids: bigint[]) => new arrow.Table({ text: utf8(['alpha', 'beta']), result_json: utf8(['{}', '{"a":1}']), _rowid: rowIds(ids) });
    const held = stubs();
    expect(held.result(5n)).toBeNull();
    expect(held.holdResults(scan([5n, (1n << 32n) + 2n]), ['text', 'result_json'])).toBe(true);
    expect(held.result((1n << 32n) + 2n)).toEqual({ text: 'beta', result_json: '{"a":1}' });
    expect(held.result(5n)).toEqual({ text: 'alpha', result_json: '{}' });
    expect(held.result(6n)).toBeNull();
    const reordered = stubs();
    expect(reordered.holdResults(scan([(1n << 32n) + 2n, 5n]), ['text', 'result_json'])).toBe(false);
    expect(reordered.result(5n)).toBeNull();
    const small = stubs();
    expect(small.holdResults(scan([5n, (1n << 32n) + 2n]), ['text', 'result_json'], 8)).toBe(false);
    expect(small.result(5n)).toBeNull();
  });

  it("gives a table row view its parent's address, and the parent read by it is the record read by id", async () => {
    const store = await library();
    expect((await store.searchBm25('slow-blow', { limit: 10, light: true })).some((h) => h.parent)).toBe(false);
    await store.prepareSearch();
    const hits = await store.searchBm25('slow-blow', { limit: 10, light: true });
    const rowView = hits.find((h) => h.record.id === 'x1/spec.md#1')!;
    expect(rowView.parent).toMatchObject({ record: { id: 'x1/spec.md#0', model: 'X1', parentId: null } });
    expect(typeof rowView.parent!.rowId).toBe('bigint');
    expect(hits.find((h) => h.record.id === 'x1/spec.md#0')?.parent).toBeUndefined();
    const [parent] = await store.hydrate([rowView.parent!]);
    const [byId] = await store.getChunks(['x1/spec.md#0'], { light: true });
    expect(parent!.record).toEqual(byId);
  });

  it('finds rows written after the index was built with their own stubs, and old rows no longer there are not found', async () => {
    const store = await library();
    await store.prepareSearch();
    await store.replaceDocument('x2/guide.md', [record('x2/guide.md', 0, 'The X2 fuse is now under the lid.', { model: 'X2 Pro', vector: vec(6) })]);
    await store.addChunks([
      record('x3/spec.md', 0, '| Fuse | 16 A |', { model: 'X3', vector: vec(7) }),
      record('x3/spec.md', 1, '| Fuse | 16 A |', { model: 'X3', parentId: 'x3/spec.md#0', vector: vec(8) }),
    ]);
    const hits = await store.searchBm25('fuse', { limit: 20, light: true });
    const byId = new Map(hits.map((h) => [h.record.id, h]));
    expect(byId.get('x2/guide.md#0')!.record.model).toBe('X2 Pro');
    expect(byId.has('x2/guide.md#1')).toBe(false);
    // A new view's parent is not in the index: the view comes without it (the table is read by id).
    expect(byId.get('x3/spec.md#1')).toMatchObject({ record: { model: 'X3', parentId: 'x3/spec.md#0' } });
    expect(byId.get('x3/spec.md#1')!.parent).toBeUndefined();
    const full = await store.hydrate(hits);
    expect(full.find((h) => h.record.id === 'x2/guide.md#0')!.record.text).toBe('The X2 fuse is now under the lid.');
  });

  it('is rebuilt after a compaction moved every row, and searches meanwhile read their stubs', async () => {
    const store = await library();
    await store.prepareSearch();
    const before = view(await store.searchBm25('fuse', { limit: 10, light: true }));
    await store.deleteDocument('x2/guide.md');
    await store.ensureIndexes();
    const expected = before.filter((h) => !h.id.startsWith('x2/')).map(({ id, model, parentId }) => ({ id, model, parentId }));
    const strip = (hits: ChunkHit[]) => view(hits).map(({ id, model, parentId }) => ({ id, model, parentId }));
    expect(strip(await store.searchBm25('fuse', { limit: 10, light: true }))).toEqual(expected);
    await store.prepareSearch();
    const after = await store.searchBm25('fuse', { limit: 10, light: true });
    expect(strip(after)).toEqual(expected);
    expect(after.find((h) => h.record.id === 'x1/spec.md#1')!.parent?.record.id).toBe('x1/spec.md#0');
    const full = await store.hydrate(after);
    expect(full.map((h) => h.record.id)).toEqual(after.map((h) => h.record.id));
  });

  it('is built again right after a fold that compacted it away, in a store that searched; not by a cleanup, nor in one that never searched', async () => {
    // A fold's compaction moves every row: a store that held stubs builds them again at once (the
    // app's library, searched next), one that never searched leaves them (a one-shot CLI import),
    // and the later cleanup of old versions, which changes no index, waits for a search.
    const { store } = await scope.open({ vectorDimension: DIM, versionRetentionMs: 1000 });
    const { store: unsearched } = await scope.open({ vectorDimension: DIM });
    const cleanedUp = () => (store as ChunkStore & { cleanedUp(): Promise<void> }).cleanedUp();
    for (const s of [store, unsearched]) {
      await s.addChunks([record('x1/guide.md', 0, 'Replace the fuse after a power surge.', { model: 'X1', vector: vec(0) })]);
      await s.ensureIndexes();
    }
    // The first fold's cleanup has run before the stubs are held (it would drop them).
    await cleanedUp();
    await store.prepareSearch();
    const builds = vi.spyOn(StubIndex, 'fromArrow');
    for (const s of [store, unsearched]) {
      await s.addChunks([record('x2/guide.md', 0, 'The X2 fuse sits behind the rear cover.', { model: 'X2', vector: vec(1) })]);
      await s.ensureIndexes();
    }
    // Built unawaited after the fold: waited for, not timed.
    await vi.waitFor(() => expect(builds).toHaveBeenCalledTimes(1), { timeout: 30_000, interval: 20 });
    await cleanedUp();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(builds).toHaveBeenCalledTimes(1);
    // The next light search reads its own stubs and finds both documents.
    expect((await store.searchBm25('fuse', { limit: 10, light: true })).map((h) => h.record.id).sort()).toEqual(['x1/guide.md#0', 'x2/guide.md#0']);
  });

  it('loads the full-text index once after a fold, when the store and the library index both prepare', async () => {
    // After an import's fold the store rebuilds what was held (its own timer) and the library
    // index prepares again (`optimizeIndexes`): one full-text prewarm serves both.
    const { store } = await scope.open({ vectorDimension: DIM });
    await store.addChunks([record('x1/guide.md', 0, 'Replace the fuse after a power surge.', { model: 'X1', vector: vec(0) })]);
    await store.ensureIndexes();
    await store.prepareSearch();
    const table = (store as unknown as { table: object }).table;
    const prewarms = vi.spyOn(Object.getPrototypeOf(table) as { prewarmIndex(name: string): Promise<void> }, 'prewarmIndex');
    await store.prepareSearch();
    expect(prewarms).not.toHaveBeenCalled();
    const builds = vi.spyOn(StubIndex, 'fromArrow');
    await store.addChunks([record('x2/guide.md', 0, 'The X2 fuse sits behind the rear cover.', { model: 'X2', vector: vec(1) })]);
    await store.ensureIndexes();
    await store.prepareSearch();
    // The store's own rebuild has run (its stubs are built) and found the prewarm under way or done.
    await vi.waitFor(() => expect(builds).toHaveBeenCalledTimes(1), { timeout: 30_000, interval: 20 });
    await store.prepareSearch();
    expect(prewarms).toHaveBeenCalledTimes(1);
    expect((await store.searchBm25('fuse', { limit: 10 })).map((h) => h.record.id).sort()).toEqual(['x1/guide.md#0', 'x2/guide.md#0']);
  });

  it("knows each row's document, and the records read through it are those read by id", async () => {
    const store = await library();
    await store.addChunks([record('x4/größe-übersicht.md', 0, 'Die Sicherung (fuse) sitzt hinten.', { model: 'X4', vector: vec(9) })]);
    await store.ensureIndexes();
    await store.prepareSearch();
    const hits = await store.searchBm25('fuse', { limit: 10, light: true });
    expect(hits.map((h) => h.record.docId)).toEqual(hits.map((h) => h.record.id.replace(/#\d+$/, '')));
    expect(hits.map((h) => h.record.docId)).toContain('x4/größe-übersicht.md');
    const withParents = [...hits, ...hits.flatMap((h) => (h.parent ? [h.parent] : []))];
    expect(withParents.some((h) => h.record.id === 'x1/spec.md#0' && h.record.docId === 'x1/spec.md')).toBe(true);
    const read = await store.hydrate(withParents);
    const byId = new Map((await store.getChunks(withParents.map((h) => h.record.id), { light: true })).map((r) => [r.id, r]));
    expect(read).toHaveLength(withParents.length);
    for (const h of read) expect(h.record).toEqual(byId.get(h.record.id));
  });

  it('reads the rows of a search from memory once held: the records read from disk, prefixed texts included', async () => {
    const store = await library();
    await store.addChunks([record('x5/guide.md', 0, 'Check the fuse first.', { model: 'X5', indexedText: 'X5 | Guide\nCheck the fuse first.', vector: vec(10) })]);
    await store.ensureIndexes();
    const fromDisk = await store.hydrate(await store.searchBm25('fuse', { limit: 10, light: true }));
    await store.prepareSearch();
    const hits = await store.searchBm25('fuse', { limit: 10, light: true });
    const fromMemory = await store.hydrate([...hits, ...hits.flatMap((h) => (h.parent ? [h.parent] : []))]);
    // LanceDB orders tied rows differently from one search to the next.
    const byRecordId = (list: ChunkHit[]) => [...list].sort((a, b) => a.record.id.localeCompare(b.record.id));
    expect(byRecordId(fromMemory.slice(0, hits.length))).toEqual(byRecordId(fromDisk));
    expect(fromMemory.find((h) => h.record.id === 'x5/guide.md#0')!.record.indexedText).toBe('X5 | Guide\nCheck the fuse first.');
    const byId = new Map((await store.getChunks(fromMemory.map((h) => h.record.id), { light: true })).map((r) => [r.id, r]));
    for (const h of fromMemory) expect(h.record).toEqual(byId.get(h.record.id));
    // A row written after the index was built is read from disk beside the held ones.
    await store.addChunks([record('x6/guide.md', 0, 'The fuse of the X6.', { model: 'X6', vector: vec(11) })]);
    const mixed = await store.hydrate(await store.searchBm25('fuse', { limit: 20, light: true }));
    expect(mixed.find((h) => h.record.id === 'x6/guide.md#0')!.record.text).toBe('The fuse of the X6.');
    expect(mixed.find((h) => h.record.id === 'x5/guide.md#0')!.record.text).toBe('Check the fuse first.');
  });

  it('leaves a view whose parent row does not exist to be read as before', async () => {
    const { store } = await scope.open();
    await store.addChunks([record('d', 0, 'fuse rating table'), record('d', 1, 'fuse rating row', { parentId: 'gone#0' })]);
    await store.ensureIndexes();
    await store.prepareSearch();
    const hits = await store.searchBm25('fuse rating', { limit: 5, light: true });
    expect(hits.find((h) => h.record.id === 'd#1')).toMatchObject({ record: { parentId: 'gone#0' } });
    expect(hits.find((h) => h.record.id === 'd#1')!.parent).toBeUndefined();
  });
});

describe('plainRows', () => {
  it("gives the values LanceDB's row proxies give, column by column over every batch", () => {
    const first = arrow.tableFromArrays({ id: ['a', 'b'], score: new Float32Array([1.5, 2]), n: new BigUint64Array([1n, 2n]) });
    const table = first.concat(arrow.tableFromArrays({ id: ['c'], score: new Float32Array([3]), n: new BigUint64Array([3n]) }));
    expect(table.batches.length).toBe(2);
    const proxies = table.toArray() as Record<string, unknown>[];
    const rows = plainRows(table);
    expect(rows).toHaveLength(3);
    rows.forEach((row, i) => {
      for (const f of ['id', 'score', 'n']) expect(row[f]).toEqual(proxies[i]![f]);
    });
    expect(rows[2]).toEqual({ id: 'c', score: 3, n: 3n });
  });
});
