import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { createEngine } from '../../src-main/engine/engine';
import { checkConsistent, killShares, runCliThenKill } from '../helpers/crash';
import { tempDir } from '../helpers/temp';

/**
 * Kills `manualmate import` with SIGKILL at pseudo-random moments (20 times, spread over the time
 * an uninterrupted import of the same folder took just before) and checks that the
 * library still opens, holds no temp file once open, that every document listed as ready has
 * exactly its chunks in the index, and that nothing is left listed mid-import. A final uninterrupted run then completes the import.
 */

/** Kills per run of the suite, each into a fresh library. */
const KILLS = 20;

/** Runs an import and kills it after `afterMs`; `ms` is how long it ran (the whole import when not killed). */
function importThenKill(corpus: string, dataDir: string, library: string, afterMs: number): Promise<{ killed: boolean; ms: number }> {
  return runCliThenKill(['import', corpus, '--library', library, '--data-dir', dataDir, '--json'], afterMs);
}

/**
 * `corpus(tmp)` returns the folder to import (made inside `tmp` if it needs making) and how many
 * documents a complete import of it lists as ready; it must take several seconds to import so that
 * most kills land inside the import.
 */
export function describeImportCrash(title: string, corpus: (tmp: string) => Promise<{ folder: string; documents: number }>): void {
  describe(title, () => {
    it('never leaves a library that fails to open, a temp file or a half-imported document listed as ready', { timeout: 600_000 }, async () => {
      const tmp = await tempDir();
      try {
        const { folder, documents } = await corpus(tmp.dir);
        // The kills are spread over the time one whole import takes on this machine, timed first:
        // fixed delays stopped landing inside the import once it got faster. A run that finishes
        // before its kill times a whole import again, and the later kills use the shorter time: on
        // a machine whose load falls during the test (CI beside another job), kills timed from a
        // slow first import landed after most imports had finished.
        let whole = (await importThenKill(folder, tmp.dir, 'timing', 600_000)).ms;
        // Each run starts a fresh library, so every kill lands somewhere inside a full import.
        let killedRuns = 0;
        const runs = killShares(20261129, KILLS, 0.15, 0.9).map((share, i) => ({ library: `crashy-${i}`, share }));
        for (const run of runs) {
          const { killed, ms } = await importThenKill(folder, tmp.dir, run.library, Math.round(run.share * whole));
          if (killed) killedRuns++;
          else whole = Math.min(whole, ms);
          await checkConsistent(tmp.dir, run.library);
        }
        expect(killedRuns).toBeGreaterThanOrEqual(KILLS / 2);
        // Importing again into a killed library completes it.
        const engine = createEngine({ dataDir: tmp.dir, bundledModelsDir: path.join(tmp.dir, 'no-models') });
        try {
          const res = await engine.importPaths(runs[0]!.library, [folder]);
          if (!res.ok) throw new Error(res.error.message);
          expect(res.value.summary.failed).toBe(0);
        } finally {
          await engine.dispose();
        }
        const { ready } = await checkConsistent(tmp.dir, runs[0]!.library);
        expect(ready).toBe(documents);
      } finally {
        await tmp.cleanup();
      }
    });
  });
}
