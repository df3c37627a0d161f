import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { createEngine } from '../../src-main/engine/engine';
import { checkConsistent, dieInside } from '../helpers/crash';
import { corpusRoots, tempDir } from '../helpers/temp';

/**
 * `documents.remove` killed (SIGKILL, in a real process) at each step after its first write: the
 * document is either still listed with all its chunks or gone with them, and the library opens.
 */

/** Where the removal is killed, in the order it gets there: rows deleted, then the record removed, then its stored files. */
const KILL_POINTS = ['LibraryIndex.saveEnrichment', 'Library.removeDocuments', 'Library.dropUnlisted'];

describe('removing a document, killed part-way', () => {
  it('leaves the document listed with all its chunks or gone with them', { timeout: 120_000 }, async () => {
    const tmp = await tempDir();
    try {
      const engine = createEngine({ dataDir: tmp.dir, bundledModelsDir: path.join(tmp.dir, 'none') });
      const imported = await engine.importPaths('Boards', [path.join(corpusRoots.fixture, 'esp-dev-kits')]);
      const ids = (await (await engine.libraries.get('Boards'))!.documents()).map((d) => d.id);
      await engine.dispose();
      if (!imported.ok) throw new Error(imported.error.message);
      for (const [i, where] of KILL_POINTS.entries()) {
        const id = ids[i]!;
        expect((await dieInside(tmp.dir, where, 'documents.remove', { library: 'Boards', id })).killed, where).toBe(true);
        await checkConsistent(tmp.dir, 'Boards', async ({ engine: reopened, lib, docs }) => {
          if (docs.some((d) => d.id === id)) return;
          expect((await (await reopened.indexes.open(lib)).listChunks(id)).length, `${id} (removed) rows, killed in ${where}`).toBe(0);
        });
      }
    } finally {
      await tmp.cleanup();
    }
  });
});
