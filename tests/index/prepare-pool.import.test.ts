import { cp } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { corpusRoots, tempDir } from '../helpers/temp';

/**
 * An import large enough for the prepare workers stores exactly the rows of the same import
 * prepared on the import's thread alone. Each variant loads the engine afresh (the pool is one per
 * process, sized from MANUALMATE_PREPARE_WORKERS when first used).
 */

const cleanups: (() => Promise<void>)[] = [];
/** Six copies of both fixture corpora (~240 KB each): over the 1 MB of text a batch needs for the workers. */
let corpus: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  corpus = await tempDir();
  for (let i = 0; i < 6; i++) for (const c of ['radxa-docs', 'esp-dev-kits']) await cp(path.join(corpusRoots.fixture, c), path.join(corpus.dir, `copy${i}`, c), { recursive: true });
});
afterAll(() => corpus.cleanup());
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  vi.unstubAllEnvs();
});

async function importWith(workers: string): Promise<{ rows: string; byWorkers: number }> {
  vi.resetModules();
  vi.stubEnv('MANUALMATE_PREPARE_WORKERS', workers);
  const { createEngine } = await import('../../src-main/engine/engine');
  const { sharedPreparePool } = await import('../../src-main/index/prepare-pool');
  const tmp = await tempDir();
  cleanups.push(tmp.cleanup);
  const engine = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none') });
  // A worker started before the batch: on a loaded machine one that starts late finds every
  // document already prepared on the import's thread, and the comparison would prove nothing.
  if (workers !== '0') expect(await sharedPreparePool().ready()).toBe(true);
  try {
    const res = await engine.importPaths('Boards', [corpus.dir]);
    if (!res.ok) throw new Error(res.error.message);
    expect(res.value.summary.failed).toBe(0);
    const library = (await engine.libraries.list())[0]!;
    const index = await engine.indexes.open(library);
    const ids = (await library.documents()).map((d) => d.id).sort();
    const rows: unknown[] = [];
    for (const id of ids) rows.push(await index.listChunks(id));
    return { rows: JSON.stringify(rows), byWorkers: sharedPreparePool().prepared.byWorkers };
  } finally {
    await engine.dispose();
  }
}

describe('an import prepared on worker threads', () => {
  it('stores the rows an import prepared on its own thread stores', { timeout: 300_000 }, async () => {
    const alone = await importWith('0');
    expect(alone.byWorkers).toBe(0);
    const spread = await importWith('1');
    expect(spread.byWorkers).toBeGreaterThan(0);
    expect(spread.rows).toEqual(alone.rows);
  });
});
