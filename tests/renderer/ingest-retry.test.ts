import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { create, type StoreApi } from 'zustand';
import type { Handlers, RendererBridge } from '../../src-main/contract/api';
import { apiOf } from '../../src-main/engine/dispatch';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { guardImportStart, PathGrants } from '../../src-main/electron/path-grants';
import type { Store } from '../../src-renderer/src/store/index';
import type { ImportJob } from '../../src-renderer/src/store/ingest.slice';
import { tempDir } from '../helpers/temp';

/**
 * Retry in the desktop app: the renderer's ingest slice over the contract as Electron's preload
 * gives it (every call through `dispatch`, `import.start` behind the path grants), a real engine in
 * a temp folder. A failed file goes by an id its path alone does not give ("manual (2).md", or
 * "docs/sub/x.md" inside a dropped folder); its Retry must import it again under that id.
 */

let engine: Engine;
let dir: string;
let cleanup: () => Promise<void>;
let grants: PathGrants;
let store: StoreApi<Store>;
let unsubscribe: (() => void) | undefined;

/** Bytes no text parser takes: the file fails until it is replaced by a manual. */
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

// One engine for the file: the renderer's client takes the preload's bridge once, when it loads.
beforeAll(async () => {
  const tmp = await tempDir();
  dir = await realpath(tmp.dir);
  cleanup = tmp.cleanup;
  engine = createEngine({ dataDir: path.join(dir, 'data'), bundledModelsDir: path.join(dir, 'none') });
  grants = new PathGrants();
  const handlers: Handlers = { ...engine.handlers, 'import.start': guardImportStart(engine.handlers['import.start'], grants) };
  const manualmate: RendererBridge = { api: apiOf(handlers, () => undefined), onEvent: (listener) => engine.subscribe(listener) };
  // What the preload puts on the page before the renderer's modules load.
  (globalThis as unknown as { window: { manualmate: RendererBridge } }).window = { manualmate };
});

beforeEach(async () => {
  const { createIngestSlice } = await import('../../src-renderer/src/store/ingest.slice');
  // The ingest slice with what it asks of the other slices (lists the test reads from the engine).
  store = create<Store>()(
    (set, get, api) =>
      ({
        ...createIngestSlice(set, get, api),
        selectedLibrary: null,
        loadDocuments: async () => undefined,
        loadLibraries: async () => undefined,
        scheduleDocumentsRefresh: () => undefined,
        handleIndexProgress: () => undefined,
        handleChatEvent: () => undefined,
      }) as unknown as Store,
  );
  unsubscribe?.();
  unsubscribe = engine.subscribe((e) => store.getState().handleEngineEvent(e));
});

afterAll(async () => {
  unsubscribe?.();
  await engine.dispose();
  await cleanup();
});

async function write(rel: string, data: string | Uint8Array): Promise<string> {
  const file = path.join(dir, 'in', rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, data);
  return file;
}

/** The card of the latest import but those in `before` (a finished card can go once retried), once the engine has finished it. */
async function finishedJob(before: readonly ImportJob[] = []): Promise<ImportJob> {
  for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 20))) {
    const job = store.getState().jobs.filter((j) => !before.some((b) => b.key === j.key)).at(-1);
    if (job && (job.phase === 'done' || job.phase === 'error' || job.phase === 'stopped')) return job;
  }
  throw new Error('the import did not finish');
}

async function documents(library: string): Promise<Record<string, string>> {
  const res = await engine.api['documents.list']({ library });
  if (!res.ok) throw new Error(res.error.message);
  return Object.fromEntries(res.value.map((d) => [d.id, d.status]));
}

async function docsAbout(library: string, query: string): Promise<string[]> {
  const res = await engine.api['search.query']({ library, query, topK: 5, retriever: 'bm25' });
  if (!res.ok) throw new Error(res.error.message);
  return res.value.results.map((h) => h.doc);
}

describe('Retry of a file imported by path (the desktop app)', () => {
  it('imports a failed file the engine renamed under its own name again, leaving the first of its name alone', async () => {
    const library = 'Renamed';
    const first = await write('a/manual.md', '# Pump P-4\n\nThe P-4 impeller is part IM-4.\n');
    const second = await write('b/manual.md', PNG_HEAD);
    await grants.grant([first, second], 'dialog');
    await store.getState().startImport(library, [first, second]);
    const job = await finishedJob();
    expect(job.files['manual (2).md']).toMatchObject({ stage: 'failed' });

    await writeFile(second, '# Fan F-9\n\nThe F-9 blade is part BL-9.\n');
    expect(store.getState().canRetry(library, 'manual (2).md')).toBe(true);
    await store.getState().retryFile(job.key, 'manual (2).md');
    const retried = await finishedJob([job]);
    expect(retried.summary?.results.map((r) => [r.file, r.status])).toEqual([['manual (2).md', 'imported']]);
    expect(await documents(library)).toEqual({ 'manual.md': 'ready', 'manual (2).md': 'ready' });
    expect(await docsAbout(library, 'impeller')).toEqual(['manual.md']);
    expect(await docsAbout(library, 'blade')).toEqual(['manual (2).md']);
  });

  it('imports a failed file of a dropped folder again under its place in the folder, not as a new document', async () => {
    const library = 'Folder';
    const folder = path.join(dir, 'in', 'docs');
    await write('docs/intro.md', '# Valve V-3\n\nThe V-3 seat is part S-3.\n');
    const x = await write('docs/sub/x.md', PNG_HEAD);
    await grants.grant([folder], 'drop');
    await store.getState().startImport(library, [folder]);
    const job = await finishedJob();
    expect(job.files['docs/sub/x.md']).toMatchObject({ stage: 'failed' });

    await writeFile(x, '# Valve V-3 seals\n\nReplace the V-3 seal kit SK-3 yearly.\n');
    expect(store.getState().canRetry(library, 'docs/sub/x.md')).toBe(true);
    await store.getState().retryFile(job.key, 'docs/sub/x.md');
    const retried = await finishedJob([job]);
    expect(retried.summary?.results.map((r) => [r.file, r.status])).toEqual([['docs/sub/x.md', 'imported']]);
    expect(await documents(library)).toEqual({ 'docs/intro.md': 'ready', 'docs/sub/x.md': 'ready' });
  });

  it('imports a failed file of the second of two dotted folders of one name again in place, as the engine named it', async () => {
    const library = 'Dotted';
    const first = path.join(dir, 'in', 'a', 'v1.2');
    const second = path.join(dir, 'in', 'b', 'v1.2');
    await write('a/v1.2/setup.md', '# Board B-1\n\nThe B-1 takes 5 V.\n');
    await write('b/v1.2/setup.md', '# Board B-2\n\nThe B-2 takes 12 V.\n');
    const x = await write('b/v1.2/sub/x.md', PNG_HEAD);
    await grants.grant([first, second], 'drop');
    await store.getState().startImport(library, [first, second]);
    const job = await finishedJob();
    // The engine numbers a folder after its whole name: "v1.2 (2)", never "v1 (2).2".
    expect(job.files['v1.2 (2)/sub/x.md']).toMatchObject({ stage: 'failed' });

    await writeFile(x, '# Board B-2 pins\n\nPin 7 of the B-2 is the reset line.\n');
    expect(store.getState().canRetry(library, 'v1.2 (2)/sub/x.md')).toBe(true);
    await store.getState().retryFile(job.key, 'v1.2 (2)/sub/x.md');
    const retried = await finishedJob([job]);
    expect(retried.summary?.results.map((r) => [r.file, r.status])).toEqual([['v1.2 (2)/sub/x.md', 'imported']]);
    expect(await documents(library)).toEqual({ 'v1.2/setup.md': 'ready', 'v1.2 (2)/setup.md': 'ready', 'v1.2 (2)/sub/x.md': 'ready' });
    expect(await docsAbout(library, 'reset line')).toEqual(['v1.2 (2)/sub/x.md']);
  });

  it('sends the files of "Retry all" as one import, each under the id it failed under', async () => {
    const library = 'All';
    const first = path.join(dir, 'in', 'all', 'a', 'docs');
    const second = path.join(dir, 'in', 'all', 'b', 'docs');
    const x = await write('all/a/docs/sub/x.md', PNG_HEAD);
    const y = await write('all/a/docs/y.md', PNG_HEAD);
    const z = await write('all/b/docs/z.md', PNG_HEAD);
    await grants.grant([first, second], 'drop');
    await store.getState().startImport(library, [first, second]);
    const job = await finishedJob();
    const files = ['docs/sub/x.md', 'docs/y.md', 'docs (2)/z.md'];
    for (const f of files) expect(job.files[f]).toMatchObject({ stage: 'failed' });

    await writeFile(x, '# Valve V-3 seals\n\nReplace the V-3 seal kit SK-3 yearly.\n');
    await writeFile(y, '# Valve V-3 torque\n\nTighten the V-3 bonnet to 40 Nm.\n');
    await writeFile(z, '# Valve V-3 packing\n\nGraphite rings, five per stem.\n');
    const before = store.getState().jobs;
    await store.getState().retryFiles(job.key, files);
    const retried = await finishedJob(before);
    // One job, not one per file: imports into a library run one after another.
    expect(store.getState().jobs.filter((j) => !before.some((b) => b.key === j.key))).toHaveLength(1);
    expect(retried.summary?.results.map((r) => [r.file, r.status]).sort()).toEqual([
      ['docs (2)/z.md', 'imported'],
      ['docs/sub/x.md', 'imported'],
      ['docs/y.md', 'imported'],
    ]);
    expect(await documents(library)).toEqual({ 'docs/sub/x.md': 'ready', 'docs/y.md': 'ready', 'docs (2)/z.md': 'ready' });
  });

  it('still retries files whose ids differ in letter case only, which one import cannot take together', async () => {
    const library = 'Case';
    const folder = path.join(dir, 'in', 'case', 'docs');
    const upper = await write('case/docs/Pump.md', PNG_HEAD);
    const lower = await write('case/docs/pump.md', Buffer.concat([PNG_HEAD, Buffer.from([1])]));
    await grants.grant([folder], 'drop');
    await store.getState().startImport(library, [folder]);
    const job = await finishedJob();
    const files = ['docs/Pump.md', 'docs/pump.md'];
    for (const f of files) expect(job.files[f]).toMatchObject({ stage: 'failed' });

    await writeFile(upper, '# Pump P-7\n\nThe P-7 seal is part SE-7.\n');
    await writeFile(lower, '# Pump P-8\n\nThe P-8 seal is part SE-8.\n');
    const before = store.getState().jobs;
    await store.getState().retryFiles(job.key, files);
    for (const until = Date.now() + 30_000; Object.values(await documents(library)).some((s) => s !== 'ready') && Date.now() < until; ) await new Promise((r) => setTimeout(r, 20));
    expect(await documents(library)).toEqual({ 'docs/Pump.md': 'ready', 'docs/pump.md': 'ready' });
    expect(store.getState().jobs.filter((j) => !before.some((b) => b.key === j.key)).every((j) => j.error === null)).toBe(true);
  });
});
