import { describe, expect, it } from 'vitest';
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine } from '../../src-main/engine/engine';
import { checkConsistent, dieInside, killShares, runCliThenKill } from '../helpers/crash';
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

  it('finishes a rebuild killed after its swap: documents, chunks and index version match the new index', { timeout: 120_000 }, async () => {
    const tmp = await tempDir();
    try {
      // Moments right after the swap, too narrow to hit by timing: the swap is done, the metadata not yet written.
      for (const [i, where] of ['LibraryIndex.adopt', 'Library.putDocuments'].entries()) {
        const library = `lost-${i}`;
        const engine = createEngine({ dataDir: tmp.dir, bundledModelsDir: path.join(tmp.dir, 'none') });
        const imported = await engine.importPaths(library, [path.join(corpusRoots.fixture, 'esp-dev-kits')]);
        const dir = (await engine.libraries.get(library))!.dir;
        await engine.dispose();
        if (!imported.ok) throw new Error(imported.error.message);
        // One document's stored text is lost: the rebuilt index has no rows for it, and the rebuild lists it as failed.
        const docsFile = path.join(dir, 'documents.json');
        const stored = JSON.parse(await readFile(docsFile, 'utf8')) as { documents: Record<string, unknown>[] };
        const lost = stored.documents[0]!;
        delete lost['normalized'];
        lost['contentHash'] = '0'.repeat(64);
        await writeFile(docsFile, JSON.stringify(stored));
        expect((await dieInside(tmp.dir, where, 'libraries.rebuild', { library })).killed, where).toBe(true);
        await checkConsistent(tmp.dir, library, async ({ lib, docs }) => {
          expect(docs.find((d) => d.id === lost['id'])?.status, `killed in ${where}`).toBe('failed');
          expect(lib.indexOutdated, `killed in ${where}`).toBe(false);
        });
      }
    } finally {
      await tmp.cleanup();
    }
  });
});
