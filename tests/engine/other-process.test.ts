import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { checkConsistent } from '../helpers/crash';
import { runNode } from '../helpers/run-node';
import { repoRoot, tempDir } from '../helpers/temp';

/**
 * An app with a library open while `manualmate import` or `manualmate reindex` writes the same
 * library in another process (a real CLI process): the app's reads and its next writes see what
 * that process wrote, as a freshly started app would.
 */

const bin = path.join(repoRoot, 'bin', 'manualmate.mjs');
const manual = (model: string) => `# ${model} pump manual\n\n## Seals\n\nReplace the ${model} shaft seal after 2000 hours.\n`;

/** A temp folder with a data folder and an app engine over it, and how to write a manual beside it. */
async function withApp(test: (t: { app: Engine; dataDir: string; file: (model: string) => Promise<string>; cli: (...args: string[]) => Promise<void> }) => Promise<void>) {
  const tmp = await tempDir();
  const dataDir = path.join(tmp.dir, 'data');
  const file = async (model: string) => {
    const f = path.join(tmp.dir, `${model}.md`);
    await writeFile(f, manual(model));
    return f;
  };
  const cli = async (...args: string[]) => {
    const run = await runNode([bin, ...args, '--library', 'Pumps', '--data-dir', dataDir, '--json']);
    expect(run.code, run.stderr).toBe(0);
  };
  const app = createEngine({ dataDir, bundledModelsDir: path.join(tmp.dir, 'none') });
  try {
    await test({ app, dataDir, file, cli });
  } finally {
    await app.dispose();
    await tmp.cleanup();
  }
}

describe('an open app beside another process writing its library', () => {
  it('does not take its own first import (which makes the index folder) for another process\'s write', { timeout: 120_000 }, async () => {
    await withApp(async ({ app, file }) => {
      expect((await app.importPaths('Pumps', [await file('P-100')])).ok).toBe(true);
      const lib = (await app.libraries.get('Pumps'))!;
      // Reopening here ran a second index build beside the background one ("CreateIndex preempted").
      expect(await (await app.indexes.open(lib)).followDisk()).toBe(false);
      await app.idle();
    });
  });

  it('finds and lists a document that `manualmate import` added', { timeout: 120_000 }, async () => {
    await withApp(async ({ app, file, cli }) => {
      expect((await app.importPaths('Pumps', [await file('P-100')])).ok).toBe(true);
      await app.idle();
      // The app has read the library (its table, its records) before the other process writes.
      expect((await app.api['search.query']({ library: 'Pumps', query: 'P-100 shaft seal', topK: 3, retriever: 'bm25' })).ok).toBe(true);
      await cli('import', await file('P-200'));
      const listed = await app.api['documents.list']({ library: 'Pumps' });
      expect(listed.ok && listed.value.map((d) => d.id)).toEqual(['P-100.md', 'P-200.md']);
      const chunks = await app.api['documents.chunks']({ library: 'Pumps', id: 'P-200.md' });
      expect(chunks.ok && chunks.value.length, 'chunks of P-200.md').toBeGreaterThan(0);
      const found = await app.api['search.query']({ library: 'Pumps', query: 'P-200 shaft seal', topK: 3, retriever: 'bm25' });
      expect(found.ok && found.value.results[0]?.doc).toBe('P-200.md');
    });
  });

  it('removes a document that `manualmate import` added with all its rows', { timeout: 120_000 }, async () => {
    await withApp(async ({ app, dataDir, file, cli }) => {
      expect((await app.importPaths('Pumps', [await file('P-100')])).ok).toBe(true);
      await app.idle();
      expect((await app.api['search.query']({ library: 'Pumps', query: 'P-100 shaft seal', topK: 3, retriever: 'bm25' })).ok).toBe(true);
      await cli('import', await file('P-200'));
      // Removed at once, with no read of the library in between.
      expect((await app.api['documents.remove']({ library: 'Pumps', id: 'P-200.md' })).ok).toBe(true);
      await app.idle();
      await app.dispose();
      await checkConsistent(dataDir, 'Pumps', async ({ engine, lib, docs }) => {
        expect(docs.map((d) => d.id)).toEqual(['P-100.md']);
        expect((await (await engine.indexes.open(lib)).listChunks('P-200.md')).length, 'rows of the removed P-200.md').toBe(0);
      });
    });
  });

  it("keeps what `manualmate import` learned when the app commits next (the library's vocabulary)", { timeout: 120_000 }, async () => {
    await withApp(async ({ app, dataDir, file, cli }) => {
      expect((await app.importPaths('Pumps', [await file('P-100')])).ok).toBe(true);
      await app.idle();
      await cli('import', await file('P-200'));
      expect((await app.importPaths('Pumps', [await file('P-300')])).ok).toBe(true);
      await app.idle();
      await app.dispose();
      await checkConsistent(dataDir, 'Pumps', async ({ engine, lib, docs }) => {
        expect(docs.map((d) => d.id)).toEqual(['P-100.md', 'P-200.md', 'P-300.md']);
        const vocabulary = (await engine.indexes.open(lib)).enrichment.vocabulary;
        expect(['P-100.md', 'P-200.md', 'P-300.md'].map((id) => vocabulary.hasDocument(id))).toEqual([true, true, true]);
      });
    });
  });

  it('searches and lists chunks after `manualmate reindex` replaced the index folder it had open', { timeout: 120_000 }, async () => {
    await withApp(async ({ app, file, cli }) => {
      expect((await app.importPaths('Pumps', [await file('P-100'), await file('P-200')])).ok).toBe(true);
      await app.idle();
      expect((await app.api['search.query']({ library: 'Pumps', query: 'P-200 shaft seal', topK: 3, retriever: 'bm25' })).ok).toBe(true);
      await cli('reindex');
      const found = await app.api['search.query']({ library: 'Pumps', query: 'P-200 shaft seal', topK: 3, retriever: 'bm25' });
      expect(found.ok ? found.value.results[0]?.doc : found.error.message).toBe('P-200.md');
      const chunks = await app.api['documents.chunks']({ library: 'Pumps', id: 'P-100.md' });
      expect(chunks.ok ? chunks.value.length : 0, chunks.ok ? 'chunks of P-100.md' : chunks.error.message).toBeGreaterThan(0);
    });
  });
});
