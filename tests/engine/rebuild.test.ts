import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import type { EngineEvent } from '../../src-main/contract/api';
import { INDEX_VERSION } from '../../src-main/storage/library.store';
import { isPermanentImportFailure } from '../../src-main/core/result';
import { tempDir } from '../helpers/temp';

/**
 * Rebuilding a library's index from its stored documents (`libraries.rebuild`, `manualmate
 * reindex`): what an older version built is replaced by what the current code derives, nothing
 * stored is lost, and an interrupted rebuild leaves the previous index working.
 */

let engine: Engine;
let dir: string;
let dataDir: string;
let cleanup: () => Promise<void>;

const open = () => createEngine({ dataDir, bundledModelsDir: path.join(dir, 'none') });

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  dataDir = path.join(dir, 'data');
  engine = open();
});
afterEach(async () => {
  await engine.dispose();
  await cleanup();
});

const RAC225 = '# RAC-225B service manual\n\n## Fuses\n\nThe RAC-225B takes a 10 A slow-blow fuse on the control board.\n\n## Filters\n\nClean the RAC-225B air filter every two weeks.\n';
const RAC228 = '# RAC-228B service manual\n\n## Fuses\n\nThe RAC-228B takes a 15 A slow-blow fuse on the control board.\n';

function unwrap<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Imports the two manuals (and a byte-identical copy of the first) into library "Shop". */
async function importManuals(): Promise<string> {
  const folder = path.join(dir, 'manuals');
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'rac-225b.md'), RAC225);
  await writeFile(path.join(folder, 'rac-225b-copy.md'), RAC225);
  await writeFile(path.join(folder, 'rac-228b.md'), RAC228);
  const summary = unwrap(await engine.importPaths('Shop', [folder]));
  expect(summary.summary.failed).toBe(0);
  await engine.idle();
  return (await engine.libraries.get('Shop'))!.dir;
}

/** Makes the library look built by the previous version: no version stamp, an empty vocabulary. */
async function ageLibrary(libDir: string): Promise<void> {
  await engine.dispose();
  const configFile = path.join(libDir, 'library.json');
  const config = JSON.parse(await readFile(configFile, 'utf8')) as Record<string, unknown>;
  delete config['indexVersion'];
  await writeFile(configFile, JSON.stringify(config));
  await writeFile(path.join(libDir, 'enrichment.json'), '{}');
  engine = open();
}

const summaryOf = async () => unwrap(await engine.handlers['libraries.list']({})).find((l) => l.name === 'Shop')!;

describe('rebuilding a library index', () => {
  it('stamps new libraries with the current index version', async () => {
    await importManuals();
    expect((await summaryOf()).indexOutdated).toBe(false);
    expect((await engine.libraries.get('Shop'))!.config.indexVersion).toBe(INDEX_VERSION);
  });

  it('does not call an empty library from before versioning outdated, and stamps it on its first import', async () => {
    unwrap(await engine.handlers['libraries.create']({ name: 'Shop' }));
    const libDir = (await engine.libraries.get('Shop'))!.dir;
    await ageLibrary(libDir);
    expect((await engine.libraries.get('Shop'))!.indexOutdated).toBe(true);
    expect((await summaryOf()).indexOutdated).toBe(false);
    await importManuals();
    expect((await engine.libraries.get('Shop'))!.config.indexVersion).toBe(INDEX_VERSION);
    expect((await summaryOf()).indexOutdated).toBe(false);
  });

  it('relearns what an older index lacks, reports progress, and keeps every document and chunk', async () => {
    const libDir = await importManuals();
    const before = await summaryOf();
    await ageLibrary(libDir);
    expect((await summaryOf()).indexOutdated).toBe(true);
    // The emptied vocabulary no longer knows the model the question names.
    const stale = unwrap(await engine.handlers['search.query']({ library: 'Shop', query: 'RAC-228B fuse rating', topK: 5, retriever: 'bm25' }));
    expect(stale.resolvedModels).toEqual([]);

    const events: EngineEvent[] = [];
    engine.subscribe((e) => events.push(e));
    const { jobId } = unwrap(await engine.handlers['libraries.rebuild']({ library: 'Shop' }));
    expect(jobId).toMatch(/^rebuild-/);
    await engine.idle();

    const after = await summaryOf();
    expect(after.indexOutdated).toBe(false);
    expect(after.documents).toBe(before.documents);
    expect(after.chunks).toBe(before.chunks);
    const progress = events.filter((e): e is Extract<EngineEvent, { type: 'index.progress' }> => e.type === 'index.progress' && e.task === 'rebuilding');
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toMatchObject({ done: 3, total: 3 });
    expect(progress.some((e) => e.error)).toBe(false);
    expect(events.some((e) => e.type === 'library.changed')).toBe(true);

    const fresh = unwrap(await engine.handlers['search.query']({ library: 'Shop', query: 'RAC-228B fuse rating', topK: 5, retriever: 'bm25' }));
    expect(fresh.resolvedModels).toEqual(['RAC-228B']);
    expect(fresh.results[0]).toMatchObject({ doc: 'manuals/rac-228b.md', signature: { model: 'RAC-228B' } });
    expect(fresh.results[0]!.text).toContain('15 A');
    // The previous index folder is gone, and no rebuild folder is left behind.
    expect(existsSync(path.join(libDir, 'index'))).toBe(true);
    expect(existsSync(path.join(libDir, 'index.old'))).toBe(false);
    expect(existsSync(path.join(libDir, 'index.next'))).toBe(false);
  });

  it("reads the ordering codes that an older import did not store into the documents' records", async () => {
    const folder = path.join(dir, 'coded');
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'lens.md'), '# Lens Camera\n\nSKU: U082. A camera unit.\n');
    unwrap(await engine.importPaths('Shop', [folder]));
    await engine.idle();
    const libDir = (await engine.libraries.get('Shop'))!.dir;
    const docsFile = path.join(libDir, 'documents.json');
    const codesOf = async () => (JSON.parse(await readFile(docsFile, 'utf8')) as { documents: { codes?: string[] }[] }).documents.map((d) => d.codes);
    expect(await codesOf()).toEqual([['U082']]);
    const stored = JSON.parse(await readFile(docsFile, 'utf8')) as { documents: Record<string, unknown>[] };
    for (const d of stored.documents) delete d['codes'];
    await writeFile(docsFile, JSON.stringify(stored));
    await ageLibrary(libDir);
    unwrap(await engine.handlers['libraries.rebuild']({ library: 'Shop' }));
    await engine.idle();
    expect(await codesOf()).toEqual([['U082']]);
  });

  it('lists a document whose stored text is lost as one that importing the file again can restore', async () => {
    const libDir = await importManuals();
    await engine.dispose();
    const docsFile = path.join(libDir, 'documents.json');
    const stored = JSON.parse(await readFile(docsFile, 'utf8')) as { documents: Record<string, unknown>[] };
    const lost = stored.documents.find((d) => d['id'] === 'manuals/rac-228b.md')!;
    delete lost['normalized'];
    lost['contentHash'] = '0'.repeat(64);
    await writeFile(docsFile, JSON.stringify(stored));
    engine = open();
    unwrap(await engine.handlers['libraries.rebuild']({ library: 'Shop' }));
    await engine.idle();
    const doc = unwrap(await engine.handlers['documents.list']({ library: 'Shop' })).find((d) => d.id === 'manuals/rac-228b.md')!;
    expect(doc).toMatchObject({ status: 'failed', reason: expect.stringContaining('import the file again') });
    // The file itself is fine: the library view keeps its Retry and says no "will not help".
    expect(isPermanentImportFailure(doc.code)).toBe(false);
  });

  it('indexes byte-identical files under their own ids (they share one stored text)', async () => {
    await importManuals();
    unwrap(await engine.rebuild('Shop'));
    for (const id of ['manuals/rac-225b.md', 'manuals/rac-225b-copy.md']) {
      const chunks = unwrap(await engine.handlers['documents.chunks']({ library: 'Shop', id }));
      expect(chunks.length).toBeGreaterThan(0);
      const source = unwrap(await engine.handlers['documents.source']({ library: 'Shop', id }));
      expect(source.id).toBe(id);
    }
  });

  it('answers every search made while the rebuild swaps the new index in', async () => {
    await importManuals();
    let rebuilt = false;
    const rebuild = engine.rebuild('Shop').finally(() => (rebuilt = true));
    const answers: { ok: boolean; texts: string[] }[] = [];
    // Searches keep arriving until the rebuild has finished, so some overlap the swap.
    while (!rebuilt) {
      const batch = await Promise.all(
        [1, 2, 3].map(() => engine.handlers['search.query']({ library: 'Shop', query: 'RAC-228B fuse', topK: 3, retriever: 'bm25' })),
      );
      for (const r of batch) answers.push(r.ok ? { ok: true, texts: r.value.results.map((h) => h.text) } : { ok: false, texts: [r.error.message] });
    }
    expect(unwrap(await rebuild).documents).toBe(3);
    expect(answers.length).toBeGreaterThan(3);
    for (const a of answers) {
      expect(a.ok, a.texts.join()).toBe(true);
      expect(a.texts.some((t) => t.includes('15 A'))).toBe(true);
    }
  });

  it('refuses imports, removals and a second rebuild while one runs, in words', async () => {
    await importManuals();
    const extra = path.join(dir, 'extra.md');
    await writeFile(extra, '# Extra\n\nAnother page.\n');
    unwrap(await engine.handlers['libraries.rebuild']({ library: 'Shop' }));
    const imported = await engine.importPaths('Shop', [extra]);
    expect(imported).toMatchObject({ ok: false, error: { code: 'busy' } });
    if (!imported.ok) expect(imported.error.message).toMatch(/rebuilding its index/);
    expect(await engine.handlers['documents.remove']({ library: 'Shop', id: 'manuals/rac-228b.md' })).toMatchObject({ ok: false, error: { code: 'busy' } });
    expect(await engine.handlers['libraries.rebuild']({ library: 'Shop' })).toMatchObject({ ok: false, error: { code: 'busy' } });
    await engine.idle();
    // Once it has finished, imports go through again.
    expect(unwrap(await engine.importPaths('Shop', [extra])).summary.imported).toBe(1);
  });

  it('refuses semantic chunking without an embedder before changing anything', async () => {
    await importManuals();
    const before = await summaryOf();
    const res = await engine.handlers['libraries.configure']({ library: 'Shop', strategy: 'semantic' });
    expect(res).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringMatching(/needs an embedding model/) } });
    expect(await summaryOf()).toEqual(before);
    expect(unwrap(await engine.handlers['search.query']({ library: 'Shop', query: 'slow-blow fuse', topK: 5, retriever: 'bm25' })).results.length).toBeGreaterThan(0);
  });

  it('refuses an import job during a rebuild at once, instead of starting one that never ends', async () => {
    await importManuals();
    const extra = path.join(dir, 'extra.md');
    await writeFile(extra, '# Extra\n\nAnother page.\n');
    unwrap(await engine.handlers['libraries.rebuild']({ library: 'Shop' }));
    expect(await engine.handlers['import.start']({ library: 'Shop', paths: [extra] })).toMatchObject({ ok: false, error: { code: 'busy' } });
    await engine.idle();
  });

  it('never indexes a document again that a removal racing the rebuild took out', async () => {
    await importManuals();
    const [removed, rebuilt] = await Promise.all([
      engine.handlers['documents.remove']({ library: 'Shop', id: 'manuals/rac-228b.md' }),
      engine.handlers['libraries.rebuild']({ library: 'Shop' }),
    ]);
    // Whichever claimed the library first, the other was told it is busy.
    expect([removed.ok, rebuilt.ok].filter(Boolean)).toHaveLength(1);
    await engine.idle();
    if (removed.ok) {
      const hits = unwrap(await engine.handlers['search.query']({ library: 'Shop', query: 'RAC-228B 15 A fuse', topK: 10, retriever: 'bm25' }));
      expect(hits.results.some((h) => h.doc === 'manuals/rac-228b.md')).toBe(false);
    }
  });

  it('stops between documents when cancelled mid-rebuild, keeping the previous index', async () => {
    const libDir = await importManuals();
    await ageLibrary(libDir);
    const controller = new AbortController();
    const res = await engine.rebuild('Shop', {
      signal: controller.signal,
      onProgress: (done) => {
        if (done >= 1) controller.abort();
      },
    });
    expect(res).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect((await summaryOf()).indexOutdated).toBe(true);
    expect(existsSync(path.join(libDir, 'index.next'))).toBe(false);
    const stale = unwrap(await engine.handlers['search.query']({ library: 'Shop', query: 'RAC-228B fuse rating', topK: 5, retriever: 'bm25' }));
    expect(stale.resolvedModels).toEqual([]);
    expect(stale.results.length).toBeGreaterThan(0);
  });

  it('keeps the previous index when cancelled', async () => {
    const libDir = await importManuals();
    await ageLibrary(libDir);
    const controller = new AbortController();
    controller.abort();
    const res = await engine.rebuild('Shop', { signal: controller.signal });
    expect(res).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect((await summaryOf()).indexOutdated).toBe(true);
    const hits = unwrap(await engine.handlers['search.query']({ library: 'Shop', query: 'slow-blow fuse', topK: 5, retriever: 'bm25' }));
    expect(hits.results.length).toBeGreaterThan(0);
  });

  it('stops a running rebuild on request, keeping the previous index and saying so', async () => {
    const libDir = await importManuals();
    await ageLibrary(libDir);
    const events: EngineEvent[] = [];
    engine.subscribe((e) => events.push(e));
    unwrap(await engine.handlers['libraries.rebuild']({ library: 'Shop' }));
    expect(unwrap(await engine.handlers['libraries.cancelRebuild']({ library: 'Shop' }))).toEqual({ cancelled: true });
    const summary = await summaryOf();
    expect(summary).toMatchObject({ indexOutdated: true, rebuilding: false });
    const stopped = events.filter((e) => e.type === 'index.progress' && e.task === 'rebuilding' && e.error);
    expect(stopped.at(-1)).toMatchObject({ error: expect.stringMatching(/cancelled; the library keeps its previous index/) });
    expect(unwrap(await engine.handlers['search.query']({ library: 'Shop', query: 'slow-blow fuse', topK: 5, retriever: 'bm25' })).results.length).toBeGreaterThan(0);
    expect(unwrap(await engine.handlers['libraries.cancelRebuild']({ library: 'Shop' }))).toEqual({ cancelled: false });
    expect(existsSync(path.join(libDir, 'index.next'))).toBe(false);
  });

  it('finishes or undoes a swap that a crash interrupted', async () => {
    const libDir = await importManuals();
    await engine.dispose();
    // A crash between the swap's two renames: no live folder, the old one aside, a stale new one.
    await rename(path.join(libDir, 'index'), path.join(libDir, 'index.old'));
    await mkdir(path.join(libDir, 'index.next', 'half-written'), { recursive: true });
    engine = open();
    const hits = unwrap(await engine.handlers['search.query']({ library: 'Shop', query: 'RAC-225B air filter', topK: 5, retriever: 'bm25' }));
    expect(hits.results[0]?.text).toContain('air filter');
    expect(existsSync(path.join(libDir, 'index.old'))).toBe(false);
    expect(existsSync(path.join(libDir, 'index.next'))).toBe(false);
  });
});
