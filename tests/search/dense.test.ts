import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import type { EngineEvent } from '../../src-main/contract/api';
import { ensureTinyOnnx } from '../models/tiny-onnx';
import { tempDir } from '../helpers/temp';

/** Dense and hybrid retrieval with the real LanceDB and the tiny generated ONNX embedder. */

let engine: Engine;
let dir: string;
let cleanup: () => Promise<void>;
const events: EngineEvent[] = [];

const doc = (model: string, part: string) =>
  `# ${model} pump manual\n\n## Seals\n\nReplace the ${model} shaft seal with part ${part} after 2000 hours.\n\n## Priming\n\nPrime the ${model} pump with clean water before the first start.\n`;

beforeAll(async () => {
  const onnx = await ensureTinyOnnx();
  ({ dir, cleanup } = await tempDir());
  engine = createEngine({ dataDir: path.join(dir, 'data'), bundledModelsDir: path.dirname(onnx) });
  engine.subscribe((e) => events.push(e));
  await mkdir(path.join(dir, 'pumps'), { recursive: true });
  await writeFile(path.join(dir, 'pumps', 'p-100.md'), doc('P-100', 'SK-11'));
  await writeFile(path.join(dir, 'pumps', 'p-200.md'), doc('P-200', 'SK-22'));
  const res = await engine.importPaths('Pumps', [path.join(dir, 'pumps')]);
  if (!res.ok) throw new Error(res.error.message);
});
afterAll(async () => {
  await engine.dispose();
  await cleanup();
});

function unwrap<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const search = (query: string, retriever: 'bm25' | 'dense' | 'hybrid', models?: string[]) =>
  engine.handlers['search.query']({ library: 'Pumps', query, topK: 5, retriever, ...(models ? { models } : {}) });

describe('dense and hybrid retrieval', () => {
  it('says plainly that a library without an embedder searches by keywords', async () => {
    const res = await search('shaft seal', 'dense');
    expect(res).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringMatching(/keyword \(BM25\) search/) } });
    expect((await search('shaft seal', 'bm25')).ok).toBe(true);
  });

  const chunks = async () => {
    const docs = unwrap(await engine.handlers['documents.list']({ library: 'Pumps' }));
    return (await Promise.all(docs.map(async (d) => unwrap(await engine.handlers['documents.chunks']({ library: 'Pumps', id: d.id }))))).flat();
  };

  it('stores no heuristic nouns while nothing reads them, and says so in the inspector', async () => {
    expect((await engine.libraries.get('Pumps'))!.config.nounsOmitted).toBe(true);
    const before = await chunks();
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((c) => c.signature.nouns.length === 0 && c.nounsOmitted)).toBe(true);
    // The model is still every chunk's.
    expect(before.every((c) => c.signature.model === 'P-100' || c.signature.model === 'P-200')).toBe(true);
  });

  it('embeds every chunk in the background once an embedder is chosen, with progress', async () => {
    const models = await engine.handlers['models.list']({});
    expect(models.ok && models.value.some((m) => m.id === 'tiny-embedder' && m.kinds.includes('embedder'))).toBe(true);
    const lib = await engine.handlers['libraries.configure']({ library: 'Pumps', embedder: 'tiny-embedder' });
    expect(lib).toMatchObject({ ok: true, value: { embedder: 'tiny-embedder' } });
    // The nouns CHOP embeds with each chunk were filled in first, by a rebuild.
    expect((await engine.libraries.get('Pumps'))!.config.nounsOmitted).toBe(false);
    const after = await chunks();
    expect(after.some((c) => c.signature.nouns.length > 0 && /Nouns: /.test(c.prefix))).toBe(true);
    expect(after.some((c) => c.nounsOmitted)).toBe(false);
    expect(events.some((e) => e.type === 'index.progress' && e.task === 'rebuilding' && e.library === 'Pumps')).toBe(true);
    await engine.idle();
    const progress = events.filter((e) => e.type === 'index.progress');
    expect(progress.length).toBeGreaterThan(1);
    const last = progress[progress.length - 1]!;
    expect(last).toMatchObject({ task: 'embedding', library: 'Pumps' });
    if (last.type === 'index.progress') expect(last.done).toBe(last.total);
    const index = await engine.indexes.open((await engine.libraries.get('Pumps'))!);
    expect(await index.pendingEmbeddings()).toBe(0);
  });

  it('answers dense and hybrid queries, honouring the model filter', async () => {
    for (const retriever of ['dense', 'hybrid'] as const) {
      const res = await search('shaft seal part', retriever);
      if (!res.ok) throw new Error(res.error.message);
      expect(res.value.results.length).toBeGreaterThan(0);
      expect(res.value.retriever).toBe(retriever);
      const filtered = await search('shaft seal part', retriever, ['P-200']);
      if (!filtered.ok) throw new Error(filtered.error.message);
      expect(filtered.value.results.length).toBeGreaterThan(0);
      expect(filtered.value.results.every((h) => h.doc === 'pumps/p-200.md')).toBe(true);
    }
    const named = await search('P-200 shaft seal part', 'hybrid');
    if (!named.ok) throw new Error(named.error.message);
    expect(named.value.resolvedModels).toEqual(['P-200']);
    expect(named.value.results[0]?.doc).toBe('pumps/p-200.md');
  });

  it('embeds documents imported later, and forgets removed ones', async () => {
    await writeFile(path.join(dir, 'p-300.md'), doc('P-300', 'SK-33'));
    const res = await engine.importPaths('Pumps', [path.join(dir, 'p-300.md')]);
    expect(res.ok).toBe(true);
    await engine.idle();
    const index = await engine.indexes.open((await engine.libraries.get('Pumps'))!);
    expect(await index.pendingEmbeddings()).toBe(0);
    const dense = await search('P-300 shaft seal', 'dense', ['P-300']);
    expect(dense.ok && dense.value.results.some((h) => h.doc === 'p-300.md')).toBe(true);
    await engine.handlers['documents.remove']({ library: 'Pumps', id: 'p-300.md' });
    const after = await search('P-300 shaft seal', 'dense');
    expect(after.ok && after.value.results.some((h) => h.doc === 'p-300.md')).toBe(false);
  });

  it('keeps the vectors of unchanged chunks through an index rebuild, so dense search works at once', async () => {
    await engine.idle();
    const rebuilt = await engine.rebuild('Pumps');
    if (!rebuilt.ok) throw new Error(rebuilt.error.message);
    expect(rebuilt.value.chunks).toBeGreaterThan(0);
    // Same code, same documents: every embedder input is unchanged, so nothing waits for a vector.
    expect(rebuilt.value.vectorsKept).toBe(rebuilt.value.chunks);
    const index = await engine.indexes.open((await engine.libraries.get('Pumps'))!);
    expect(await index.pendingEmbeddings()).toBe(0);
    const dense = await search('shaft seal part', 'dense', ['P-200']);
    expect(dense.ok && dense.value.results[0]?.doc).toBe('pumps/p-200.md');
  });

  it('embeds again only the chunks whose embedder input a rebuild changed', async () => {
    const lib = (await engine.libraries.get('Pumps'))!;
    // With the section path in the indexed text, every chunk's embedder input changes.
    await lib.saveConfig({ prefix: { ...lib.config.prefix, headingPath: true } });
    try {
      const rebuilt = await engine.rebuild('Pumps');
      if (!rebuilt.ok) throw new Error(rebuilt.error.message);
      expect(rebuilt.value.vectorsKept).toBe(0);
      await engine.idle();
      const index = await engine.indexes.open(lib);
      expect(await index.pendingEmbeddings()).toBe(0);
    } finally {
      await lib.saveConfig({ prefix: { ...lib.config.prefix, headingPath: false } });
      const back = await engine.rebuild('Pumps');
      expect(back.ok && back.value.vectorsKept).toBe(0);
      await engine.idle();
    }
  });

  it('never swaps in an index without vectors when an embedder is chosen during a rebuild', async () => {
    expect(await engine.handlers['libraries.configure']({ library: 'Pumps', embedder: null })).toMatchObject({ ok: true });
    const [configured, rebuilt] = await Promise.all([
      engine.handlers['libraries.configure']({ library: 'Pumps', embedder: 'tiny-embedder' }),
      engine.handlers['libraries.rebuild']({ library: 'Pumps' }),
    ]);
    expect([configured.ok, rebuilt.ok].filter(Boolean)).toHaveLength(1);
    await engine.idle();
    if (!configured.ok) expect(unwrap(await engine.handlers['libraries.configure']({ library: 'Pumps', embedder: 'tiny-embedder' })).embedder).toBe('tiny-embedder');
    await engine.idle();
    const dense = await search('P-200 shaft seal', 'dense', ['P-200']);
    expect(dense.ok && dense.value.results[0]?.doc).toBe('pumps/p-200.md');
  });

  it('chunks with the semantic strategy through the library\'s embedder, and will not drop the embedder it needs', async () => {
    const lib = await engine.handlers['libraries.configure']({ library: 'Pumps', strategy: 'semantic' });
    expect(lib).toMatchObject({ ok: true, value: { strategy: 'semantic' } });
    if (!lib.ok) return;
    expect(lib.value.chunks).toBeGreaterThan(0);
    const index = await engine.indexes.open((await engine.libraries.get('Pumps'))!);
    const stored = await index.listChunks('pumps/p-200.md');
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.every((c) => c.strategy === 'semantic')).toBe(true);
    expect((await search('P-200 shaft seal', 'bm25')).ok).toBe(true);
    const drop = await engine.handlers['libraries.configure']({ library: 'Pumps', embedder: null });
    expect(drop).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringMatching(/semantic chunking/) } });
    expect(await engine.handlers['libraries.configure']({ library: 'Pumps', strategy: 'structure' })).toMatchObject({ ok: true, value: { strategy: 'structure' } });
    await engine.idle();
  });

  it('refuses dense search when the configured embedder is not the one that made the vectors', async () => {
    const lib = (await engine.libraries.get('Pumps'))!;
    const saved = lib.config.embedder;
    await lib.saveConfig({ embedder: { id: 'another-embedder', dimension: 32 } });
    try {
      const res = await search('shaft seal', 'dense');
      expect(res).toMatchObject({ ok: false, error: { code: 'model-mismatch', message: expect.stringMatching(/Re-embed/) } });
    } finally {
      await lib.saveConfig({ embedder: saved });
    }
  });

  it('resumes embedding that an earlier run left unfinished when the app starts', async () => {
    await writeFile(path.join(dir, 'p-400.md'), doc('P-400', 'SK-44'));
    const res = await engine.importPaths('Pumps', [path.join(dir, 'p-400.md')]);
    expect(res.ok).toBe(true);
    // Quitting right after the import stops its embedding job (as a CLI import does).
    await engine.dispose();
    engine = createEngine({ dataDir: path.join(dir, 'data'), bundledModelsDir: path.dirname(await ensureTinyOnnx()) });
    const index = await engine.indexes.open((await engine.libraries.get('Pumps'))!);
    expect(await index.pendingEmbeddings()).toBeGreaterThan(0);
    await engine.resumeBackground();
    await engine.idle();
    expect(await index.pendingEmbeddings()).toBe(0);
    const dense = await search('P-400 shaft seal', 'dense', ['P-400']);
    expect(dense.ok && dense.value.results[0]?.doc).toBe('p-400.md');
  });

  it('never sets an embedder over chunks that an import running meanwhile stores without nouns', async () => {
    await mkdir(path.join(dir, 'race'), { recursive: true });
    for (const m of ['R-1', 'R-2', 'R-3']) await writeFile(path.join(dir, 'race', `${m.toLowerCase()}.md`), doc(m, `SK-${m}`));
    unwrap(await engine.handlers['libraries.create']({ name: 'Race' }));
    // An embedder chosen while the library's first import (which reads no nouns yet) is parsing.
    let configured: Promise<unknown> | undefined;
    const imported = await engine.importPaths('Race', [path.join(dir, 'race')], {
      onProgress: () => (configured ??= engine.handlers['libraries.configure']({ library: 'Race', embedder: 'tiny-embedder' })),
    });
    expect(imported.ok).toBe(true);
    const set = (await configured) as { ok: boolean; error?: { code: string } };
    await engine.idle();
    if (!set.ok) expect(set.error?.code).toBe('busy');
    const lib = (await engine.libraries.get('Race'))!;
    if (lib.config.embedder === null) return;
    // With an embedder, every chunk carries the nouns CHOP embeds with it.
    const docs = unwrap(await engine.handlers['documents.list']({ library: 'Race' }));
    const chunks = (await Promise.all(docs.map(async (d) => unwrap(await engine.handlers['documents.chunks']({ library: 'Race', id: d.id }))))).flat();
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.filter((c) => c.signatureSource === 'extracted' && c.signature.nouns.length === 0)).toEqual([]);
  });

  it('leaves no embedder over chunks without nouns when the new strategy chosen with it is cancelled', async () => {
    await mkdir(path.join(dir, 'halt'), { recursive: true });
    for (const m of ['H-1', 'H-2']) await writeFile(path.join(dir, 'halt', `${m.toLowerCase()}.md`), doc(m, `SK-${m}`));
    unwrap(await engine.handlers['libraries.create']({ name: 'Halt' }));
    unwrap(await engine.importPaths('Halt', [path.join(dir, 'halt')]));
    expect((await engine.libraries.get('Halt'))!.config.nounsOmitted).toBe(true);
    let cancelled: Promise<unknown> | undefined;
    const stop = engine.subscribe((e) => {
      if (e.type === 'index.progress' && e.task === 'rebuilding' && e.library === 'Halt') cancelled ??= engine.handlers['libraries.cancelRebuild']({ library: 'Halt' });
    });
    const res = await engine.handlers['libraries.configure']({ library: 'Halt', strategy: 'recursive', embedder: 'tiny-embedder' });
    stop();
    expect(res).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    await cancelled;
    await engine.idle();
    // The library is as it was: no embedder reading the chunks stored without their nouns.
    expect((await engine.libraries.get('Halt'))!.config).toMatchObject({ embedder: null, nounsOmitted: true, strategy: 'structure' });
  });
});
