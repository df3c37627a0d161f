import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runImport, type DocumentIndexer } from '../../src-main/ingest/import.job';
import { ParsePool, type PoolParseResult } from '../../src-main/ingest/parse-pool';
import { LibraryManager, type Library } from '../../src-main/storage/library.store';
import { tempDir } from '../helpers/temp';

/**
 * While the import waits for a file's parse it drafts the documents already learned
 * (`DocumentIndexer.draft`). A real parse pool whose parse of `b.md` waits for a gate the draft of
 * `a.md` opens, so the wait is certain; a recording indexer, since the order of calls is under test.
 */

/** A parse pool that holds `b.md` back until `open` is called. */
class GatedPool extends ParsePool {
  private release!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.release = resolve));
  open(): void {
    this.release();
  }
  override async parse(fileName: string, bytes: Uint8Array, signal?: AbortSignal): Promise<PoolParseResult> {
    if (fileName === 'b.md') await this.gate;
    return super.parse(fileName, bytes, signal);
  }
}

let tmp: Awaited<ReturnType<typeof tempDir>>;
let pool: GatedPool;
let library: Library;
let dir: string;

beforeEach(async () => {
  tmp = await tempDir('manualmate-draft-');
  pool = new GatedPool({ size: 1 });
  dir = path.join(tmp.dir, 'in');
  await mkdir(dir);
  for (const n of ['a', 'b']) await writeFile(path.join(dir, `${n}.md`), `# ${n}\n\nThe RAC-225B manual, part ${n}.\n`);
  const made = await new LibraryManager(path.join(tmp.dir, 'data')).create('Draft');
  if (!made.ok) throw new Error(made.error.message);
  library = made.value;
});
afterEach(async () => {
  await pool.close();
  await tmp.cleanup();
});

/** An indexer recording its calls; `step(doc, n)` runs in the n-th step (from 1) of a document's draft. */
function recorder(step: (id: string, n: number) => void): { indexer: DocumentIndexer; calls: string[] } {
  const calls: string[] = [];
  const indexer: DocumentIndexer = {
    learn: async (docs) => void calls.push(...docs.map((d) => `learn ${d.id}`)),
    async *draft(doc) {
      for (let n = 1; n <= 3; n++) {
        calls.push(`draft ${doc.id} ${n}`);
        step(doc.id, n);
        yield;
      }
    },
    prepare: async (doc) => {
      calls.push(`prepare ${doc.id}`);
      return { doc, chunks: 1, models: [], rows: [] };
    },
    commit: async (_batch, persist) => {
      calls.push('commit');
      await persist();
    },
    forgetUncommitted: async () => void calls.push('forget'),
  };
  return { indexer, calls };
}

describe('drafting while a file parses', () => {
  it('drafts a learned document while the next one is still parsing, then learns and prepares both', async () => {
    const { indexer, calls } = recorder((_id, n) => n === 2 && pool.open());
    const summary = await runImport({ library, paths: [dir], indexer, pool });
    expect(summary.summary.imported).toBe(2);
    expect(calls.slice(0, 3)).toEqual(['learn in/a.md', 'draft in/a.md 1', 'draft in/a.md 2']);
    expect(calls.indexOf('learn in/b.md')).toBeGreaterThan(calls.indexOf('draft in/a.md 2'));
    expect(calls.slice(-3)).toEqual(['prepare in/a.md', 'prepare in/b.md', 'commit']);
  });

  it('drops a draft that throws and still imports its document', async () => {
    const { indexer, calls } = recorder((id) => {
      pool.open();
      throw new Error(`draft of ${id} broke`);
    });
    const summary = await runImport({ library, paths: [dir], indexer, pool });
    expect(summary.summary).toMatchObject({ imported: 2, failed: 0 });
    // The failed draft is not stepped again.
    expect(calls.filter((c) => c.startsWith('draft in/a.md'))).toEqual(['draft in/a.md 1']);
    expect((await library.documents()).map((d) => [d.id, d.status])).toEqual([
      ['in/a.md', 'ready'],
      ['in/b.md', 'ready'],
    ]);
  });

  it('when cancelled during a draft, commits nothing and forgets what was learned', async () => {
    const controller = new AbortController();
    const { indexer, calls } = recorder(() => {
      controller.abort();
      pool.open();
    });
    const summary = await runImport({ library, paths: [dir], indexer, pool, signal: controller.signal });
    expect(summary.summary).toMatchObject({ imported: 0, failed: 0, cancelled: 2 });
    // Drafting stops at the abort: no step after it, no preparation, no commit.
    expect(calls).toEqual(['learn in/a.md', 'draft in/a.md 1', 'forget']);
    expect(await library.documents()).toEqual([]);
  });
});
