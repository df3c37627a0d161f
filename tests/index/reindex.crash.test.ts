import { describe, expect, it } from 'vitest';
import { cp, readdir } from 'node:fs/promises';
import path from 'node:path';
import { checkConsistent, killShares, runCliThenKill } from '../helpers/crash';
import { corpusRoots, tempDir } from '../helpers/temp';

/**
 * Kills `manualmate reindex` with SIGKILL at pseudo-random moments (15 times, spread over the time
 * an uninterrupted reindex of the same library took just before) and checks after each that the
 * library opens, lists the same documents as ready with the same chunk counts, holds exactly those
 * chunks, searches, and keeps no rebuild folder (`index.next`, `index.old`) or temp file once open.
 */

/** Copies of the fixture corpora, so that a reindex lasts a few seconds and most kills land inside it. */
const COPIES = 6;
/** Kills per run; every one into the same library, since a reindex rebuilds it whole each time. */
const KILLS = 15;
const LIBRARY = 'manuals';

describe('reindex killed at random moments', () => {
  it('never leaves a library that fails to open, a rebuild folder, or documents whose chunks do not match', { timeout: 300_000 }, async () => {
    const tmp = await tempDir();
    try {
      const folder = path.join(tmp.dir, 'generated');
      for (let i = 1; i <= COPIES; i++) {
        for (const corpus of ['radxa-docs', 'esp-dev-kits']) await cp(path.join(corpusRoots.fixture, corpus), path.join(folder, `${corpus}-${i}`), { recursive: true });
      }
      const dataDir = path.join(tmp.dir, 'data');
      const cli = (args: string[], afterMs: number) => runCliThenKill([...args, '--library', LIBRARY, '--data-dir', dataDir, '--json'], afterMs);
      await cli(['import', folder], 600_000);
      const listed = async (): Promise<string[]> => {
        let rows: string[] = [];
        await checkConsistent(dataDir, LIBRARY, async ({ lib, docs }) => {
          rows = docs.map((d) => `${d.id} ${d.status} ${d.chunks}`);
          // The rebuild's own folders are settled when the index opens: finished or undone, never left.
          expect((await readdir(lib.dir)).filter((name) => /^index\./.test(name))).toEqual([]);
        });
        return rows;
      };
      const before = await listed();
      expect(before.filter((row) => row.includes(' ready ')).length).toBeGreaterThan(COPIES * 10);
      // Kills spread over the time one whole reindex takes here, timed first; a run that ends
      // before its kill times it again (see import.crash.suite.ts).
      let whole = (await cli(['reindex'], 600_000)).ms;
      let killedRuns = 0;
      for (const share of killShares(20261206, KILLS, 0.2, 1)) {
        const { killed, ms } = await cli(['reindex'], Math.round(share * whole));
        if (killed) killedRuns++;
        else whole = Math.min(whole, ms);
        expect(await listed()).toEqual(before);
      }
      expect(killedRuns).toBeGreaterThanOrEqual(KILLS / 2);
    } finally {
      await tmp.cleanup();
    }
  });
});
