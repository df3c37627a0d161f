import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { LibraryIndex } from '../../src-main/index/library-index';
import { checkConsistent, dieInside } from '../helpers/crash';
import { tempDir } from '../helpers/temp';

/**
 * An import writes the rows of new documents prepared early while it prepares the rest of its
 * batch (`BatchWrite`): whatever happens before the commit lists them (a kill, a cancel, a
 * removal in the same library), no row of an unlisted document stays and no listed document
 * lacks its rows. Real engine, real LanceDB, a real process for the kill.
 */

/** `n` manuals of ~64 KB each: three of them fill more than one early write (512 K characters). */
async function manuals(dir: string, n: number): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  for (let i = 0; i < n; i++) {
    const model = `PX-${100 + i}`;
    const sections = Array.from(
      { length: 60 },
      (_, s) => `## Section ${s + 1}\n\nCheck the ${model} seal number ${s} after ${s * 10 + i} hours; replace the impeller of the ${model} when the flow drops below ${s + 3} litres per minute. `.repeat(6),
    );
    const f = path.join(dir, `${model}.md`);
    await writeFile(f, `# ${model} pump manual\n\n${sections.join('\n\n')}\n`);
    files.push(f);
  }
  return files;
}

let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  tmp = await tempDir('manualmate-batch-write-');
});
afterEach(async () => {
  vi.restoreAllMocks();
  await tmp.cleanup();
});

/** Rows in the library's index per document, and the journal, read straight from disk. */
async function onDisk(libDir: string): Promise<{ rows: number; journal: string[] }> {
  const lancedb = await import('@lancedb/lancedb');
  const db = await lancedb.connect(path.join(libDir, 'index'));
  try {
    const names = await db.tableNames();
    const rows = names.length === 0 ? 0 : await (await db.openTable(names[0]!)).countRows();
    const journal = (JSON.parse(await readFile(path.join(libDir, 'journal.json'), 'utf8')) as { docIds: string[] }).docIds;
    return { rows, journal };
  } finally {
    db.close();
  }
}

describe('rows written ahead of an import batch\'s commit', () => {
  it('are dropped on the next open when the process is killed before the commit lists them', { timeout: 120_000 }, async () => {
    const files = await manuals(path.join(tmp.dir, 'in'), 24);
    const dataDir = path.join(tmp.dir, 'data');
    // The second time the journal is named, the first early write's rows are on disk (the writes
    // run one after the other) and none of the batch is listed.
    const killed = await dieInside(dataDir, 'Library.setJournal#2', 'import.start', { library: 'Pumps', paths: files });
    expect(killed.killed).toBe(true);
    const engine = createEngine({ dataDir, bundledModelsDir: path.join(tmp.dir, 'none') });
    let libDir: string;
    try {
      libDir = (await engine.libraries.get('Pumps'))!.dir;
    } finally {
      await engine.dispose();
    }
    const left = await onDisk(libDir);
    expect(left.rows, 'rows the killed process wrote ahead').toBeGreaterThan(0);
    expect(left.journal.length).toBeGreaterThan(0);

    const { ready } = await checkConsistent(dataDir, 'Pumps', async ({ engine: opened, lib }) => {
      const index = await opened.indexes.open(lib);
      expect(await index.store.countChunks(), 'rows of unlisted documents').toBe(0);
      expect(await lib.journal()).toEqual([]);
    });
    expect(ready).toBe(0);
  });

  describe('in the app', () => {
    let engine: Engine;
    beforeEach(() => {
      engine = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none') });
    });
    afterEach(async () => {
      await engine.dispose();
    });

    /** Calls `then` once, right after the import's first early write was handed over. */
    const onFirstWriteAhead = (then: () => void) => {
      const original = LibraryIndex.prototype.writeAhead;
      let calls = 0;
      return vi.spyOn(LibraryIndex.prototype, 'writeAhead').mockImplementation(function (this: LibraryIndex, prepared) {
        original.call(this, prepared);
        if (++calls === 1) then();
      });
    };

    it('list every document of the batch once, with all its rows', { timeout: 120_000 }, async () => {
      const files = await manuals(path.join(tmp.dir, 'in'), 24);
      const spy = onFirstWriteAhead(() => undefined);
      const res = await engine.importPaths('Pumps', files);
      expect(res.ok && res.value.summary.imported).toBe(24);
      expect(spy.mock.calls.length, 'early writes').toBeGreaterThanOrEqual(2);
      const lib = (await engine.libraries.get('Pumps'))!;
      const index = await engine.indexes.open(lib);
      const docs = await lib.documents();
      expect(await index.store.countChunks()).toBe(docs.reduce((n, d) => n + d.chunks, 0));
      for (const d of docs) expect((await index.listChunks(d.id)).length, d.id).toBe(d.chunks);
      // The first document (written ahead) and the last (written at the commit) are found.
      for (const model of ['PX-100', 'PX-123']) {
        const hit = await engine.handlers['search.query']({ library: 'Pumps', query: `${model} impeller flow`, topK: 1, retriever: 'bm25' });
        expect(hit.ok && hit.value.results[0]?.doc).toBe(`${model}.md`);
      }
      expect(await lib.journal()).toEqual([]);
    });

    it('are not found by a search until the commit lists their documents', { timeout: 120_000 }, async () => {
      await manuals(path.join(tmp.dir, 'kept'), 1);
      expect((await engine.importPaths('Pumps', [path.join(tmp.dir, 'kept', 'PX-100.md')])).ok).toBe(true);
      await engine.idle();
      const files = (await manuals(path.join(tmp.dir, 'in'), 24)).slice(1);
      const index = await engine.indexes.open((await engine.libraries.get('Pumps'))!);
      const found: (string | undefined)[] = [];
      const addChunks = index.store.addChunks.bind(index.store);
      let writes = 0;
      vi.spyOn(index.store, 'addChunks').mockImplementation(async (records) => {
        await addChunks(records);
        // After the first early write: PX-101's rows are in the store, its document not listed.
        if (++writes === 1) {
          const hit = await engine.handlers['search.query']({ library: 'Pumps', query: 'PX-101 impeller flow', topK: 3, retriever: 'bm25' });
          found.push(...(hit.ok ? hit.value.results.map((h) => h.doc) : ['search failed']));
        }
      });
      expect((await engine.importPaths('Pumps', files)).ok).toBe(true);
      expect(writes).toBeGreaterThanOrEqual(2);
      expect(found).not.toContain('PX-101.md');
      expect(found).not.toContain('search failed');
      const after = await engine.handlers['search.query']({ library: 'Pumps', query: 'PX-101 impeller flow', topK: 1, retriever: 'bm25' });
      expect(after.ok && after.value.results[0]?.doc).toBe('PX-101.md');
    });

    it('are dropped when the import is cancelled before its commit', { timeout: 120_000 }, async () => {
      await manuals(path.join(tmp.dir, 'kept'), 1);
      expect((await engine.importPaths('Pumps', [path.join(tmp.dir, 'kept', 'PX-100.md')])).ok).toBe(true);
      await engine.idle();
      const files = (await manuals(path.join(tmp.dir, 'in'), 24)).slice(1);
      const abort = new AbortController();
      onFirstWriteAhead(() => abort.abort());
      const res = await engine.importPaths('Pumps', files, { signal: abort.signal });
      expect(res.ok && res.value.summary.imported).toBe(0);
      const lib = (await engine.libraries.get('Pumps'))!;
      const index = await engine.indexes.open(lib);
      expect((await lib.documents()).filter((d) => d.status === 'ready').map((d) => d.id)).toEqual(['PX-100.md']);
      const kept = (await lib.document('PX-100.md'))!.chunks;
      expect(await index.store.countChunks(), 'rows besides the kept document').toBe(kept);
      expect(await lib.journal()).toEqual([]);
    });

    it('keep a removal in the same library from journaling over them', { timeout: 120_000 }, async () => {
      await manuals(path.join(tmp.dir, 'kept'), 1);
      expect((await engine.importPaths('Pumps', [path.join(tmp.dir, 'kept', 'PX-100.md')])).ok).toBe(true);
      await engine.idle();
      const files = (await manuals(path.join(tmp.dir, 'in'), 24)).slice(1);
      const lib = (await engine.libraries.get('Pumps'))!;
      // Journals each write names, in order: the removal's must not come between the batch's.
      const named: string[][] = [];
      const setJournal = lib.setJournal.bind(lib);
      vi.spyOn(lib, 'setJournal').mockImplementation(async (ids: string[]) => {
        named.push([...ids]);
        await setJournal(ids);
      });
      let removal: Promise<unknown> = Promise.resolve();
      onFirstWriteAhead(() => {
        removal = engine.handlers['documents.remove']({ library: 'Pumps', id: 'PX-100.md' });
      });
      const res = await engine.importPaths('Pumps', files);
      expect(res.ok && res.value.summary.imported).toBe(23);
      expect(((await removal) as { ok: boolean }).ok).toBe(true);
      const removalAt = named.findIndex((ids) => ids.includes('PX-100.md'));
      const batchCleared = named.findIndex((ids, k) => k > 0 && ids.length === 0 && named[k - 1]!.includes('PX-101.md'));
      expect(removalAt, 'the removal journaled').toBeGreaterThan(-1);
      expect(batchCleared, 'the batch journaled and cleared').toBeGreaterThan(-1);
      expect(removalAt, 'the removal waited for the batch').toBeGreaterThan(batchCleared);
      const index = await engine.indexes.open(lib);
      const docs = await lib.documents();
      expect(docs.map((d) => d.id)).not.toContain('PX-100.md');
      expect(await index.store.countChunks()).toBe(docs.reduce((n, d) => n + d.chunks, 0));
    });
  });
});
