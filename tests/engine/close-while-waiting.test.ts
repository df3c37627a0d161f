import { describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine } from '../../src-main/engine/engine';
import { BACKGROUND_WRITE_PURPOSE, LIBRARY_LOCK_FILE } from '../../src-main/engine/writer-lock';
import { checkConsistent } from '../helpers/crash';
import { runNode } from '../helpers/run-node';
import { repoRoot, tempDir } from '../helpers/temp';
import { holdInAnotherProcess, killed } from '../helpers/lock-holder';

/**
 * Quitting the app (`engine.dispose()`, which the Electron shell runs on quit) while a background
 * step of the app waits for its turn on a library another process holds: the step has not begun
 * writing, so it does not run, and the quit does not wait for the other process (a step waited up
 * to `OPENING_WAIT_MS` for it). Real processes: the CLI writes the library, a holder process keeps
 * its lock file until it is killed. No timings: the check is that dispose resolved while the
 * holder still held the lock, which it holds until the test kills it, and that the step ended
 * cancelled, not because its wait ran out (which it says in the log).
 */

const bin = path.join(repoRoot, 'bin', 'manualmate.mjs');
const manual = (model: string) => `# ${model} pump manual\n\n## Seals\n\nReplace the ${model} shaft seal after 2000 hours.\n`;

/**
 * What both tests start from: the app imported P-100 into "Pumps" and has the library open; the
 * CLI, another process, imported P-200 into it (not yet folded into the app's indexes); then a
 * holder process took the library's lock for `purpose`. The caller kills the holder and disposes
 * the app; should a step before the hold fail, the app is disposed here.
 */
async function heldAfterCliImport(purpose: string) {
  const tmp = await tempDir();
  const dataDir = path.join(tmp.dir, 'data');
  const logged: string[] = [];
  const app = createEngine({ dataDir, bundledModelsDir: path.join(tmp.dir, 'no-models'), log: (m) => logged.push(m) });
  try {
    for (const model of ['P-100', 'P-200']) await writeFile(path.join(tmp.dir, `${model}.md`), manual(model));
    expect((await app.importPaths('Pumps', [path.join(tmp.dir, 'P-100.md')])).ok).toBe(true);
    await app.idle();
    const cli = await runNode([bin, 'import', path.join(tmp.dir, 'P-200.md'), '--library', 'Pumps', '--data-dir', dataDir, '--json']);
    expect(cli.code, cli.stderr).toBe(0);
    const lib = (await app.libraries.get('Pumps'))!;
    const lockFile = path.join(lib.dir, LIBRARY_LOCK_FILE);
    const other = await holdInAnotherProcess(lockFile, purpose);
    return { tmp, dataDir, logged, app, lib, lockFile, other };
  } catch (err) {
    await app.dispose();
    throw err;
  }
}

describe('closing the engine while a background step waits for another process', () => {
  // "background update": the holder is one of the short holds a step waits out (`waitLock`);
  // "import": a long hold, which a step asks for again every moment until its wait is over.
  it.each([BACKGROUND_WRITE_PURPOSE, 'import'])('returns while the other process still holds the library (%s), and loses nothing', { timeout: 120_000 }, async (purpose) => {
    const { tmp, dataDir, logged, app, lockFile, other } = await heldAfterCliImport(purpose);
    try {
      // Reading the library takes in what the CLI wrote and starts folding it into the indexes,
      // a step that waits for the lock the other process holds.
      const listed = await app.api['documents.list']({ library: 'Pumps' });
      expect(listed.ok && listed.value.map((d) => d.id)).toEqual(['P-100.md', 'P-200.md']);
      let idle = false;
      void app.idle().then(() => (idle = true));
      await new Promise((resolve) => setImmediate(resolve));
      expect(idle, 'a background step is waiting').toBe(false);

      const holderExit = new Promise<string>((resolve) => other.once('exit', () => resolve('holder exited')));
      const closed = app.dispose().then(() => 'closed');
      expect(await Promise.race([closed, holderExit])).toBe('closed');
      expect(idle, 'the waiting step ended with the close').toBe(true);
      // Ended by the close, not by its wait running out (then it gives up as "busy" and says so).
      expect(logged.filter((m) => /busy|Another process is writing/i.test(m))).toEqual([]);
      expect(logged.filter((m) => m.includes('left unfolded: the engine closed'))).toHaveLength(1);
      // The other process holds the lock still: the close did not wait for it.
      expect(other.exitCode).toBeNull();
      expect(JSON.parse(await readFile(lockFile, 'utf8'))).toMatchObject({ pid: other.pid, purpose });
    } finally {
      await killed(other);
      await app.dispose();
    }
    // Nothing stored is lost: both documents, ready, with their chunks.
    await checkConsistent(dataDir, 'Pumps', async ({ docs }) => {
      expect(docs.map((d) => [d.id, d.status])).toEqual([
        ['P-100.md', 'ready'],
        ['P-200.md', 'ready'],
      ]);
    });
    await tmp.cleanup();
  });

  it("folds what a CLI wrote at the CLI's exit (finishFolds), behind another process's short hold", { timeout: 120_000 }, async () => {
    const { tmp, logged, app, lib, other } = await heldAfterCliImport(BACKGROUND_WRITE_PURPOSE);
    try {
      // The fold of what the CLI wrote waits for the holder.
      expect((await app.api['documents.list']({ library: 'Pumps' })).ok).toBe(true);
      let settled = false;
      const closed = app.dispose({ finishFolds: true }).then(() => (settled = true));
      // While the holder holds, the close waits for the fold (which waits for its turn).
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(settled, 'dispose waits for the fold behind the hold').toBe(false);
      await killed(other);
      await closed;
      expect(logged.filter((m) => m.includes('left unfolded'))).toEqual([]);
      // Folded: no row of the library is left outside its indexes.
      const lancedb = await import('@lancedb/lancedb');
      const db = await lancedb.connect(await lib.storeDir());
      const table = await db.openTable('chunks');
      const indices = await table.listIndices();
      const stats = await Promise.all(indices.map((i) => table.indexStats(i.name)));
      table.close();
      db.close();
      expect(indices.length).toBeGreaterThan(0);
      expect(stats.map((st) => st?.numUnindexedRows)).toEqual(indices.map(() => 0));
    } finally {
      await killed(other);
      await app.dispose();
    }
    await tmp.cleanup();
  });
});
