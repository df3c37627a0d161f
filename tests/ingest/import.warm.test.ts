import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runImport, type DocumentIndexer } from '../../src-main/ingest/import.job';
import { ParsePool } from '../../src-main/ingest/parse-pool';
import { LibraryManager } from '../../src-main/storage/library.store';
import { tempDir } from '../helpers/temp';

let tmp: Awaited<ReturnType<typeof tempDir>>;
let pool: ParsePool;

beforeEach(async () => {
  tmp = await tempDir('manualmate-warm-');
  pool = new ParsePool({ size: 1 });
});
afterEach(async () => {
  await pool.close();
  await tmp.cleanup();
});

describe('import start-up', () => {
  it('has the indexer load what learning needs once, after the first files went to the parse pool and before the first document is learned', async () => {
    const dir = path.join(tmp.dir, 'in');
    await mkdir(dir);
    for (const n of ['a', 'b']) await writeFile(path.join(dir, `${n}.md`), `# ${n}\n\nThe RAC-225B manual, part ${n}.\n`);
    const made = await new LibraryManager(path.join(tmp.dir, 'data')).create('Warm');
    if (!made.ok) throw new Error(made.error.message);
    // A recording indexer: the order of the calls is what is under test, not enrichment.
    const calls: string[] = [];
    const indexer: DocumentIndexer = {
      warm: () => void calls.push('warm'),
      learn: async (docs) => void calls.push(...docs.map((d) => `learn ${d.id}`)),
      prepare: async (doc) => ({ doc, chunks: 0, models: [], rows: [] }),
      commit: async (_batch, persist) => {
        calls.push('commit');
        await persist();
      },
    };
    const parse = pool.parse.bind(pool);
    pool.parse = (fileName, bytes, signal) => {
      calls.push(`parse ${fileName}`);
      return parse(fileName, bytes, signal);
    };
    const summary = await runImport({ library: made.value, paths: [dir], indexer, pool });
    expect(summary.summary.imported).toBe(2);
    // The files go to the parse worker first: the load overlaps its start and first parses.
    expect(calls).toEqual(['parse a.md', 'parse b.md', 'warm', 'learn in/a.md', 'learn in/b.md', 'commit']);
  });
});
