import { describe, expect, it, vi } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { BACKGROUND_WRITE_PURPOSE, LIBRARY_LOCK_FILE } from '../../src-main/engine/writer-lock';
import { tryLock } from '../../src-main/storage/lock-file';
import { embedText } from '../../src-main/index/embed.job';
import type { ChatMessage, Embedder, GenerateOptions, Llm } from '../../src-main/models/types';
import { ScriptedLlm } from '../enrich/helpers';
import { checkConsistent } from '../helpers/crash';
import { runNode } from '../helpers/run-node';
import { ensureTinyGguf } from '../models/tiny-gguf';
import { ensureTinyOnnx } from '../models/tiny-onnx';
import { repoRoot, tempDir } from '../helpers/temp';

/**
 * The app's background work on a library (the LLM upgrade, embedding) while `manualmate import` writes the
 * same library from a real CLI process: nothing that process wrote is lost when the job writes
 * next. The chat model is scripted and held at its first call until the CLI has finished, so the
 * CLI always lands in the middle of the job (the tiny GGUF is only there to be a chat model the
 * settings accept); the embedder is the real tiny ONNX one, held the same way. Last, the same job
 * beside an import of the app itself.
 */

const bin = path.join(repoRoot, 'bin', 'manualmate.mjs');
const manual = (model: string) => `# ${model} pump manual\n\n## Seals\n\nReplace the ${model} shaft seal after 2000 hours.\n`;

/** A scripted model whose answers wait until `open` is called. */
function heldLlm(): { llm: Llm; open: () => void; asked: Promise<void> } {
  const inner = new ScriptedLlm(() => ({}));
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let asked!: () => void;
  const firstCall = new Promise<void>((resolve) => (asked = resolve));
  const llm: Llm = {
    id: inner.id,
    contextSize: inner.contextSize,
    countTokens: (t) => inner.countTokens(t),
    chat: async (m: ChatMessage[], o: GenerateOptions) => (asked(), await opened, inner.chat(m, o)),
    chatJson: async (m: ChatMessage[], s: object, o: GenerateOptions) => (asked(), await opened, inner.chatJson(m, s, o)),
    dispose: async () => undefined,
  };
  return { llm, open, asked: firstCall };
}

async function withLlmApp(test: (t: { app: Engine; dataDir: string; file: (model: string) => Promise<string>; held: ReturnType<typeof heldLlm> }) => Promise<void>) {
  const tmp = await tempDir();
  const dataDir = path.join(tmp.dir, 'data');
  const file = async (model: string) => {
    const f = path.join(tmp.dir, `${model}.md`);
    await writeFile(f, manual(model));
    return f;
  };
  const gguf = await ensureTinyGguf();
  const app = createEngine({ dataDir, bundledModelsDir: path.dirname(gguf), threads: 1 });
  const held = heldLlm();
  vi.spyOn(app.models, 'llm').mockResolvedValue(held.llm);
  try {
    expect((await app.importPaths('Pumps', [await file('P-100')])).ok).toBe(true);
    await app.idle();
    expect(await app.handlers['settings.update']({ chatModel: path.basename(gguf) })).toMatchObject({ ok: true });
    await test({ app, dataDir, file, held });
  } finally {
    held.open();
    await app.dispose();
    await tmp.cleanup();
  }
}

const cliImport = async (dataDir: string, file: string) => {
  const run = await runNode([bin, 'import', file, '--library', 'Pumps', '--data-dir', dataDir, '--json']);
  expect(run.code, run.stderr).toBe(0);
};

describe("the app's background work beside another process writing its library", () => {
  it('keeps a document that `manualmate import` added while the LLM upgrade ran', { timeout: 120_000 }, async () => {
    await withLlmApp(async ({ app, dataDir, file, held }) => {
      expect(await app.handlers['libraries.configure']({ library: 'Pumps', enrich: 'llm-single' })).toMatchObject({ ok: true });
      await held.asked;
      await cliImport(dataDir, await file('P-200'));
      held.open();
      await app.idle();
      await app.dispose();
      await checkConsistent(dataDir, 'Pumps', async ({ docs }) => {
        expect(docs.map((d) => d.id)).toEqual(['P-100.md', 'P-200.md']);
        expect(docs.find((d) => d.id === 'P-100.md')?.enrichedWith, 'the upgrade still reached P-100.md').toBe('llm-single');
      });
    });
  });

  it('upgrades the document `manualmate import` added while the LLM upgrade ran, once that run ends', { timeout: 120_000 }, async () => {
    await withLlmApp(async ({ app, dataDir, file, held }) => {
      expect(await app.handlers['libraries.configure']({ library: 'Pumps', enrich: 'llm-single' })).toMatchObject({ ok: true });
      await held.asked;
      await cliImport(dataDir, await file('P-200'));
      held.open();
      await app.idle();
      const lib = (await app.libraries.get('Pumps'))!;
      expect((await lib.documents()).map((d) => [d.id, d.enrichedWith])).toEqual([
        ['P-100.md', 'llm-single'],
        ['P-200.md', 'llm-single'],
      ]);
    });
  });

  it("waits out a background job's write step in the app rather than refusing the import", { timeout: 120_000 }, async () => {
    await withLlmApp(async ({ app, dataDir, file }) => {
      const lib = (await app.libraries.get('Pumps'))!;
      // A write step of the app's job, as this (other) process holds it: longer than the CLI takes
      // to start (~3 s here), shorter than it waits (`OPENING_WAIT_MS`), then let go.
      const step = await tryLock(path.join(lib.dir, LIBRARY_LOCK_FILE), BACKGROUND_WRITE_PURPOSE);
      if (!step.ok) throw new Error('lock not taken');
      const letGo = new Promise<void>((resolve) => setTimeout(() => void step.release().then(resolve), 6000));
      await cliImport(dataDir, await file('P-200'));
      await letGo;
      const listed = await app.api['documents.list']({ library: 'Pumps' });
      expect(listed.ok && listed.value.map((d) => d.id)).toEqual(['P-100.md', 'P-200.md']);
    });
  });

  it('lists and finds what `manualmate import` added while the LLM upgrade is still running', { timeout: 120_000 }, async () => {
    await withLlmApp(async ({ app, dataDir, file, held }) => {
      expect(await app.handlers['libraries.configure']({ library: 'Pumps', enrich: 'llm-single' })).toMatchObject({ ok: true });
      await held.asked;
      await cliImport(dataDir, await file('P-200'));
      // The job waits for its model: the app reads the library meanwhile.
      const listed = await app.api['documents.list']({ library: 'Pumps' });
      expect(listed.ok && listed.value.map((d) => d.id)).toEqual(['P-100.md', 'P-200.md']);
      const found = await app.api['search.query']({ library: 'Pumps', query: 'P-200 shaft seal', topK: 3, retriever: 'bm25' });
      expect(found.ok ? found.value.results[0]?.doc : found.error.message).toBe('P-200.md');
      held.open();
      await app.idle();
      const after = await app.api['documents.list']({ library: 'Pumps' });
      expect(after.ok && after.value.map((d) => d.id)).toEqual(['P-100.md', 'P-200.md']);
    });
  });

  it('gives no chunk a vector made from text that `manualmate import` replaced while the embedder worked', { timeout: 120_000 }, async () => {
    const tmp = await tempDir();
    const dataDir = path.join(tmp.dir, 'data');
    const onnx = await ensureTinyOnnx();
    const app = createEngine({ dataDir, bundledModelsDir: path.dirname(onnx), threads: 1 });
    const loadEmbedder = app.models.embedder.bind(app.models);
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    let asked!: () => void;
    const embedding = new Promise<void>((resolve) => (asked = resolve));
    vi.spyOn(app.models, 'embedder').mockImplementation(async (id: string): Promise<Embedder> => {
      const real = await loadEmbedder(id);
      return { id: real.id, dimension: real.dimension, embed: async (t, o) => (asked(), await opened, real.embed(t, o)), dispose: () => real.dispose() };
    });
    const manualFile = path.join(tmp.dir, 'P-100.md');
    try {
      expect(await app.api['libraries.create']({ name: 'Pumps', embedder: path.basename(onnx) })).toMatchObject({ ok: true });
      await writeFile(manualFile, manual('P-100'));
      expect((await app.importPaths('Pumps', [manualFile])).ok).toBe(true);
      await embedding;
      // The embedder has the old text of P-100.md's chunks; the CLI imports a new version under the same ids.
      await writeFile(manualFile, `# P-100 pump manual\n\n## Impeller\n\nInspect the P-100 impeller for cavitation pitting every 500 hours.\n`);
      await cliImport(dataDir, manualFile);
      open();
      await app.idle();
      const lib = (await app.libraries.get('Pumps'))!;
      const index = await app.indexes.open(lib);
      const rows = await index.listChunks('P-100.md');
      expect(rows.map((r) => r.text).join(' ')).toContain('impeller');
      const embedded = await index.store.listEmbedded(rows.map((r) => r.id));
      expect(embedded.length, 'rows with a vector').toBe(rows.length);
      const real = await loadEmbedder(path.basename(onnx));
      for (const row of embedded) {
        const [expected] = await real.embed([embedText(row)]);
        const cosine = row.vector.reduce((sum, x, i) => sum + x * expected![i]!, 0);
        expect(cosine, `the vector of ${row.id} is its text's`).toBeGreaterThan(0.999);
      }
    } finally {
      open();
      await app.dispose();
      await tmp.cleanup();
    }
  });

  it('embeds the chunks of a document `manualmate import` added while the app had the library open', { timeout: 120_000 }, async () => {
    const tmp = await tempDir();
    const dataDir = path.join(tmp.dir, 'data');
    const onnx = await ensureTinyOnnx();
    const app = createEngine({ dataDir, bundledModelsDir: path.dirname(onnx), threads: 1 });
    try {
      expect(await app.api['libraries.create']({ name: 'Pumps', embedder: path.basename(onnx) })).toMatchObject({ ok: true });
      for (const model of ['P-100', 'P-200']) await writeFile(path.join(tmp.dir, `${model}.md`), manual(model));
      expect((await app.importPaths('Pumps', [path.join(tmp.dir, 'P-100.md')])).ok).toBe(true);
      await app.idle();
      const index = await app.indexes.open((await app.libraries.get('Pumps'))!);
      expect(await index.pendingEmbeddings()).toBe(0);
      // The CLI stops its own background work when it exits: the open app embeds what it imported.
      await cliImport(dataDir, path.join(tmp.dir, 'P-200.md'));
      const found = await app.api['search.query']({ library: 'Pumps', query: 'P-200 shaft seal', topK: 3, retriever: 'bm25' });
      expect(found.ok && found.value.results[0]?.doc).toBe('P-200.md');
      await app.idle();
      const now = await app.indexes.open((await app.libraries.get('Pumps'))!);
      expect((await now.listChunks('P-200.md')).length, 'chunks of P-200.md').toBeGreaterThan(0);
      expect(await now.pendingEmbeddings(), 'chunks without a vector').toBe(0);
    } finally {
      await app.dispose();
      await tmp.cleanup();
    }
  });
});

describe("the app's background work beside the app's own import", () => {
  it("writes no step of the LLM upgrade inside an import's commit (one journal names one writer's documents)", { timeout: 120_000 }, async () => {
    await withLlmApp(async ({ app, file, held }) => {
      const lib = (await app.libraries.get('Pumps'))!;
      expect(await app.handlers['libraries.configure']({ library: 'Pumps', enrich: 'llm-single' })).toMatchObject({ ok: true });
      await held.asked;
      const journals: string[][] = [];
      const setJournal = lib.setJournal.bind(lib);
      vi.spyOn(lib, 'setJournal').mockImplementation(async (ids: string[]) => {
        journals.push(ids);
        await setJournal(ids);
        // The import's commit has named its documents: the model answers now, and the commit
        // takes a moment longer, in which the upgrade's write would land.
        if (ids.includes('P-200.md')) {
          held.open();
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      });
      expect((await app.importPaths('Pumps', [await file('P-200')])).ok).toBe(true);
      await app.idle();
      // Each journal is cleared before the next writer names its documents: a crash in between
      // repairs what that writer left.
      const opened = journals.map((ids, i) => (ids.length > 0 ? (journals[i + 1]?.length ?? 0) : 0));
      expect(journals.some((ids) => ids.includes('P-100.md')), 'the upgrade wrote P-100.md').toBe(true);
      expect(opened.every((next) => next === 0), JSON.stringify(journals)).toBe(true);
    });
  });
});
