import { describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine } from '../../src-main/engine/engine';
import { snapshotLibrary } from '../../src-main/engine/team-snapshot';
import { WriterLock } from '../../src-main/engine/writer-lock';
import { openLanceStore } from '../../src-main/storage/lance.store';
import { dieInside } from '../helpers/crash';
import { corpusRoots, tempDir } from '../helpers/temp';

/**
 * Publishing a library that a killed process left unrepaired: the files a publish freezes
 * (`snapshotLibrary`) are the library as it opens, since journal.json stays on this computer and
 * a subscriber never repairs what it is sent.
 */

const manual = (model: string) => `# ${model} pump manual\n\n## Seals\n\nReplace the ${model} shaft seal after 2000 hours.\n`;

/** Freezes `library` as a publishing process started afresh would (its own engine, nothing open yet). */
async function snapshotOf(dataDir: string, library: string, check: (dir: string, files: string[]) => Promise<void>): Promise<void> {
  const engine = createEngine({ dataDir, bundledModelsDir: path.join(dataDir, 'no-models') });
  try {
    const lib = (await engine.libraries.get(library))!;
    const snapshot = await snapshotLibrary(lib, dataDir, { lock: new WriterLock(), indexes: engine.indexes, stopJobs: async () => undefined, startBackground: () => undefined });
    if (!snapshot.ok) throw new Error(snapshot.error.message);
    try {
      await check(snapshot.value.dir, snapshot.value.files.map((f) => f.path));
    } finally {
      await snapshot.value.discard();
    }
  } finally {
    await engine.dispose();
  }
}

describe('publishing a library left by a killed process', () => {
  it('ships no row of a document that an import killed mid-commit never listed', { timeout: 60_000 }, async () => {
    const tmp = await tempDir();
    try {
      const dataDir = path.join(tmp.dir, 'data');
      const file = async (model: string) => {
        const f = path.join(tmp.dir, `${model}.md`);
        await writeFile(f, manual(model));
        return f;
      };
      const engine = createEngine({ dataDir, bundledModelsDir: path.join(tmp.dir, 'none') });
      expect((await engine.importPaths('Pumps', [await file('P-100')])).ok).toBe(true);
      await engine.idle();
      await engine.dispose();
      // An import of P-200 is killed as it lists it: its rows are written, its record is not.
      expect((await dieInside(dataDir, 'Library.putDocuments', 'import.start', { library: 'Pumps', paths: [await file('P-200')] })).killed).toBe(true);
      await snapshotOf(dataDir, 'Pumps', async (dir) => {
        const listed = JSON.parse(await readFile(path.join(dir, 'documents.json'), 'utf8')) as { documents: { id: string }[] };
        expect(listed.documents.map((d) => d.id)).toEqual(['P-100.md']);
        const store = await openLanceStore(path.join(dir, 'index'));
        if (!store.ok) throw new Error(store.error.message);
        try {
          expect((await store.value.listChunks('P-200.md')).length, 'rows of the unlisted P-200.md').toBe(0);
          expect((await store.value.listChunks('P-100.md')).length).toBeGreaterThan(0);
        } finally {
          await store.value.close();
        }
      });
    } finally {
      await tmp.cleanup();
    }
  });

  it('ships a rebuild killed after its swap finished, not its pending records', { timeout: 120_000 }, async () => {
    const tmp = await tempDir();
    try {
      const engine = createEngine({ dataDir: tmp.dir, bundledModelsDir: path.join(tmp.dir, 'none') });
      const imported = await engine.importPaths('Kits', [path.join(corpusRoots.fixture, 'esp-dev-kits')]);
      await engine.idle();
      await engine.dispose();
      if (!imported.ok) throw new Error(imported.error.message);
      // One document's stored text is lost: the rebuilt index has no rows for it, and its records list it as failed.
      const docsFile = path.join((await engine.libraries.get('Kits'))!.dir, 'documents.json');
      const stored = JSON.parse(await readFile(docsFile, 'utf8')) as { documents: Record<string, unknown>[] };
      const lost = stored.documents[0]!;
      delete lost['normalized'];
      lost['contentHash'] = '0'.repeat(64);
      await writeFile(docsFile, JSON.stringify(stored));
      // Killed right after the swap: the new index is live, its records wait in rebuild-finish.json.
      expect((await dieInside(tmp.dir, 'LibraryIndex.adopt', 'libraries.rebuild', { library: 'Kits' })).killed).toBe(true);
      await snapshotOf(tmp.dir, 'Kits', async (dir, files) => {
        // What the rebuild left to write beside its index is written, not shipped for nobody to finish.
        expect(files.filter((f) => f === 'index/rebuild-finish.json' || f === 'index/enrichment.json')).toEqual([]);
        const listed = JSON.parse(await readFile(path.join(dir, 'documents.json'), 'utf8')) as { documents: { id: string; chunks: number; status: string }[] };
        const store = await openLanceStore(path.join(dir, 'index'));
        if (!store.ok) throw new Error(store.error.message);
        try {
          expect(listed.documents.find((d) => d.id === lost['id'])?.status).toBe('failed');
          // The records shipped are the rebuilt index's: each ready document has exactly its chunks.
          for (const d of listed.documents.filter((r) => r.status === 'ready')) expect((await store.value.listChunks(d.id)).length, d.id).toBe(d.chunks);
        } finally {
          await store.value.close();
        }
      });
    } finally {
      await tmp.cleanup();
    }
  });
});
