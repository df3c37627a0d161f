import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChunkStore } from '../../src-main/storage/chunk-store';
import { mustOpen, record, tempDir } from './fixtures';

let store: ChunkStore;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const tmp = await tempDir('mm-fts-');
  cleanup = tmp.cleanup;
  store = await mustOpen(tmp.dir);
});

afterAll(async () => {
  await store.close();
  await cleanup();
});

const ids = (hits: { record: { id: string } }[]) => hits.map((h) => h.record.id);

describe('full-text index', () => {
  it('builds over more rows than the 2-core hang threshold (~2,340) and answers queries', async () => {
    // Set by lance-env before LanceDB loaded: a single CPU worker is what hangs the build.
    expect(Number(process.env.LANCE_CPU_THREADS)).toBeGreaterThanOrEqual(2);
    const parts = ['fuse', 'relay', 'capacitor', 'heater', 'sensor', 'compressor'];
    const rows = Array.from({ length: 3000 }, (_, i) =>
      record(`manual-${i % 30}.pdf`, Math.floor(i / 30), `Replace the ${parts[i % parts.length]} on board revision ${i}. Torque the screws to ${i % 7} Nm.`),
    );
    rows[1234] = record('manual-4.pdf', 41, 'The thermostat uses a bimetallic strip calibrated at the factory.');
    await store.addChunks(rows);
    await store.ensureIndexes();

    const fts = (await store.indexStatus()).find((i) => i.kind === 'FTS');
    expect(fts).toMatchObject({ indexedRows: 3000, unindexedRows: 0 });
    expect(ids(await store.searchBm25('bimetallic thermostat', { limit: 5 }))[0]).toBe('manual-4.pdf#41');
    const compressors = await store.searchBm25('compressor', { limit: 1000 });
    expect(compressors).toHaveLength(500);
    expect(compressors.every((h) => h.record.text.includes('compressor'))).toBe(true);
    // Plain reads have no default row limit: a whole document comes back, in order.
    const manual = await store.listChunks('manual-0.pdf');
    expect(manual.map((r) => r.ordinal)).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it('stems English and ignores stop words', async () => {
    await store.addChunks([record('stem', 0, 'Replacing worn gaskets prevents leaks.')]);
    expect(ids(await store.searchBm25('replace gasket', { limit: 3, filter: { docIds: ['stem'] } }))).toEqual(['stem#0']);
    expect(await store.searchBm25('the of and', { limit: 3 })).toEqual([]);
    expect(await store.searchBm25('   ', { limit: 3 })).toEqual([]);
  });

  it('takes query text literally, with no query syntax to break', async () => {
    for (const q of ['"unbalanced', 'fuse AND OR NOT', 'a:b (c', '*', "it's", '\\']) {
      await expect(store.searchBm25(q, { limit: 3 })).resolves.toBeInstanceOf(Array);
    }
  });

  it('finds Chinese, Japanese and Korean text by a word of it', async () => {
    await store.addChunks([
      record('zh', 0, '电源适配器的规格是5V/3A，请使用原装电源适配器。'),
      record('zh', 1, '散热片必须安装在处理器上。'),
      record('ja', 0, '電源アダプターを接続してから、電源ボタンを押してください。'),
      record('ko', 0, '전원 어댑터를 연결한 후 전원 버튼을 누르십시오.'),
    ]);
    await store.ensureIndexes();
    expect(ids(await store.searchBm25('电源适配器', { limit: 3 }))[0]).toBe('zh#0');
    expect(ids(await store.searchBm25('散热片', { limit: 3 }))).toEqual(['zh#1']);
    expect(ids(await store.searchBm25('電源ボタン', { limit: 3 }))[0]).toBe('ja#0');
    expect(ids(await store.searchBm25('어댑터를', { limit: 3 }))).toEqual(['ko#0']);
    // A Chinese question, not a verbatim substring, still reaches the chunk through its words.
    expect(ids(await store.searchBm25('处理器的散热片怎么安装？', { limit: 3 }))[0]).toBe('zh#1');
  });
});
