import { describe, expect, it, vi } from 'vitest';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EngineEvent } from '../../src-main/contract/api';
import { SEMANTIC_NEEDS_EMBEDDER } from '../../src-main/chunking/semantic.chunker';
import { fail } from '../../src-main/core/result';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { chunkingInputs } from '../../src-main/index/llm-upgrade.job';
import type { WriteTurn } from '../../src-main/index/write-turn';
import { ScriptedLlm } from '../enrich/helpers';
import { ensureTinyGguf } from '../models/tiny-gguf';
import { ensureTinyOnnx } from '../models/tiny-onnx';
import { tempDir } from '../helpers/temp';

/**
 * A library chunked semantically (which embeds every sentence) and set to LLM enrichment, whose
 * embedder's folder was deleted from the models folder: the upgrade cannot chunk its documents
 * anew. The run that finds so marks each with why (shown on its row) and with what chunking
 * depended on (the embedder as the models folders hold it), and says so once; later starts and
 * openings neither run the upgrade for them nor load the chat model while that stays as it was.
 * The embedder put back, or another one chosen, the marks lapse and the upgrade reaches them
 * without a rebuild; importing a marked file again retries it. The embedder is the real tiny ONNX one,
 * copied into the data folder's models folder so it can be deleted; the chat model is scripted (the
 * tiny GGUF is there to be a chat model the settings accept).
 */

const manual = (model: string) => `# ${model} pump manual\n\n## Seals\n\nReplace the ${model} shaft seal after 2000 hours. Check the ${model} impeller too.\n`;

type Progress = Extract<EngineEvent, { type: 'index.progress' }>;

/** An app over `dataDir` whose chat model answers from a script, with the enrichment progress it reports and its model loads. */
async function appOver(dataDir: string, bundled: string): Promise<{ app: Engine; enriching: Progress[]; loads: () => number }> {
  const app = createEngine({ dataDir, bundledModelsDir: bundled, threads: 1 });
  const llm = vi.spyOn(app.models, 'llm').mockResolvedValue(new ScriptedLlm(() => ({})));
  const enriching: Progress[] = [];
  app.subscribe((e) => e.type === 'index.progress' && e.task === 'enriching' && enriching.push(e));
  return { app, enriching, loads: () => llm.mock.calls.length };
}

/**
 * A library "Pumps" chunked semantically, set to LLM enrichment, with P-100.md and P-200.md imported
 * before any chat model was chosen (both await their upgrade), then its embedder's folder deleted.
 */
async function withEmbedderGone(test: (t: { dataDir: string; bundled: string; chat: string; embedderDir: string; file: (model: string) => string }) => Promise<void>) {
  const tmp = await tempDir();
  const dataDir = path.join(tmp.dir, 'data');
  const bundled = path.join(tmp.dir, 'bundled');
  await mkdir(bundled);
  const chat = path.basename(await ensureTinyGguf(path.join(bundled, 'chat.gguf')));
  const embedderDir = path.join(dataDir, 'models', 'embed');
  await ensureTinyOnnx(embedderDir);
  const file = (model: string) => path.join(tmp.dir, `${model}.md`);
  for (const model of ['P-100', 'P-200']) await writeFile(file(model), manual(model));
  try {
    const first = await appOver(dataDir, bundled);
    try {
      expect(await first.app.api['libraries.create']({ name: 'Pumps', strategy: 'semantic', embedder: 'embed', enrich: 'llm-single' })).toMatchObject({ ok: true });
      expect((await first.app.importPaths('Pumps', [file('P-100'), file('P-200')])).ok).toBe(true);
      await first.app.idle();
    } finally {
      await first.app.dispose();
    }
    await rm(embedderDir, { recursive: true });
    await test({ dataDir, bundled, chat, embedderDir, file });
  } finally {
    await tmp.cleanup();
  }
}

/**
 * A chat model chosen for "Pumps" (see `withEmbedderGone`): the upgrade finds it cannot chunk either
 * document, marks each with why and what chunking depended on, and says so once.
 */
async function markBoth(dataDir: string, bundled: string, chat: string): Promise<void> {
  const chosen = await appOver(dataDir, bundled);
  try {
    expect(await chosen.app.handlers['settings.update']({ chatModel: chat })).toMatchObject({ ok: true });
    await chosen.app.idle();
    const lib = (await chosen.app.libraries.get('Pumps'))!;
    for (const id of ['P-100.md', 'P-200.md']) {
      const rec = (await lib.document(id))!;
      expect(rec.enrichedWith).toBeUndefined();
      expect(rec.upgradeFailed, id).toEqual({ mode: 'llm-single', reason: expect.stringContaining(SEMANTIC_NEEDS_EMBEDDER), inputs: chunkingInputs('embed', []) });
    }
    // Shown on its row, said once in the enriching status, and the count reaches its total.
    const listed = await chosen.app.api['documents.list']({ library: 'Pumps' });
    expect(listed.ok && listed.value.map((d) => d.notice)).toEqual([expect.stringContaining(SEMANTIC_NEEDS_EMBEDDER), expect.stringContaining(SEMANTIC_NEEDS_EMBEDDER)]);
    expect(chosen.enriching.filter((p) => !p.error).at(-1)).toMatchObject({ done: 2, total: 2 });
    expect(chosen.enriching.filter((p) => p.error).map((p) => p.error)).toEqual([expect.stringMatching(/"P-100\.md", "P-200\.md" are not enriched .*Semantic chunking needs an embedding model/)]);
    expect(chosen.loads(), 'chat model loads').toBe(0);
  } finally {
    await chosen.app.dispose();
  }
}

describe('documents the LLM upgrade cannot chunk anew (their semantic chunking lost its embedder)', () => {
  it('are not marked by a run that cannot write for another process holding the library', { timeout: 120_000 }, async () => {
    await withEmbedderGone(async ({ dataDir, bundled }) => {
      const { app } = await appOver(dataDir, bundled);
      try {
        const lib = (await app.libraries.get('Pumps'))!;
        const index = await app.indexes.open(lib);
        const busy: WriteTurn = async () => fail('busy', 'Another process is writing "Pumps".');
        const inputs = async () => chunkingInputs('embed', []);
        const res = await index.upgradeEnrichment('llm-single', new ScriptedLlm(() => ({})), new AbortController().signal, () => undefined, inputs, busy);
        expect(res).toMatchObject({ ok: false, error: { code: 'busy' } });
        expect((await lib.documents()).map((d) => [d.id, d.upgradeFailed])).toEqual([
          ['P-100.md', undefined],
          ['P-200.md', undefined],
        ]);
      } finally {
        await app.dispose();
      }
    });
  });

  it('are marked once with why and what chunking depended on, passed by while that stays as it was, and retried when imported again', { timeout: 180_000 }, async () => {
    await withEmbedderGone(async ({ dataDir, bundled, chat, file }) => {
      await markBoth(dataDir, bundled, chat);
      // The next start and an opening: no enriching run.
      const next = await appOver(dataDir, bundled);
      try {
        await next.app.resumeBackground();
        await next.app.idle();
        expect(await next.app.api['search.prepare']({ library: 'Pumps' })).toMatchObject({ ok: true });
        await next.app.idle();
        expect(next.enriching.filter((p) => p.total > 0 || p.error), 'enrichment runs and reports').toEqual([]);
        expect(next.loads(), 'chat model loads').toBe(0);

        // Its file imported again (the embedder still gone): tried again, said again, marked again,
        // and still there, ready and searchable with its rule-based chunks.
        const again = await next.app.importPaths('Pumps', [file('P-100')]);
        expect(again.ok && again.value.results.map((r) => r.status)).toEqual(['already']);
        await next.app.idle();
        expect(next.enriching.filter((p) => p.error).map((p) => p.error)).toEqual([expect.stringMatching(/^"P-100\.md" is not enriched .*Semantic chunking needs an embedding model/)]);
        const lib = (await next.app.libraries.get('Pumps'))!;
        expect(await lib.document('P-100.md')).toMatchObject({ status: 'ready', upgradeFailed: { mode: 'llm-single', inputs: chunkingInputs('embed', []) } });
        const hits = await next.app.api['search.query']({ library: 'Pumps', query: 'P-100 shaft seal', topK: 3, retriever: 'bm25' });
        expect(hits.ok && hits.value.results.map((h) => h.doc)).toContain('P-100.md');
      } finally {
        await next.app.dispose();
      }
    });
  });

  it('lapse once the embedder is put back: the next start upgrades them, without a rebuild', { timeout: 180_000 }, async () => {
    await withEmbedderGone(async ({ dataDir, bundled, chat, embedderDir }) => {
      await markBoth(dataDir, bundled, chat);
      await ensureTinyOnnx(embedderDir);
      const next = await appOver(dataDir, bundled);
      try {
        await next.app.resumeBackground();
        await next.app.idle();
        const lib = (await next.app.libraries.get('Pumps'))!;
        expect((await lib.documents()).map((d) => [d.id, d.enrichedWith, d.upgradeFailed])).toEqual([
          ['P-100.md', 'llm-single', undefined],
          ['P-200.md', 'llm-single', undefined],
        ]);
        expect(next.enriching.filter((p) => p.error)).toEqual([]);
      } finally {
        await next.app.dispose();
      }
    });
  });

  it('stop showing their reason on their rows once they lapse (the embedder put back), before the upgrade reaches them', { timeout: 180_000 }, async () => {
    await withEmbedderGone(async ({ dataDir, bundled, chat, embedderDir }) => {
      await markBoth(dataDir, bundled, chat);
      // A start with the embedder still gone: the marks hold, their reasons show.
      const held = await appOver(dataDir, bundled);
      try {
        const listed = await held.app.api['documents.list']({ library: 'Pumps' });
        expect(listed.ok && listed.value.map((d) => d.notice)).toEqual([expect.stringContaining(SEMANTIC_NEEDS_EMBEDDER), expect.stringContaining(SEMANTIC_NEEDS_EMBEDDER)]);
      } finally {
        await held.app.dispose();
      }
      await ensureTinyOnnx(embedderDir);
      // No background work started: the marks are still stored, but the next upgrade tries both again.
      const next = await appOver(dataDir, bundled);
      try {
        const lib = (await next.app.libraries.get('Pumps'))!;
        expect((await lib.documents()).map((d) => d.upgradeFailed?.mode)).toEqual(['llm-single', 'llm-single']);
        const listed = await next.app.api['documents.list']({ library: 'Pumps' });
        expect(listed.ok && listed.value.map((d) => [d.id, d.status, d.notice])).toEqual([
          ['P-100.md', 'ready', undefined],
          ['P-200.md', 'ready', undefined],
        ]);
      } finally {
        await next.app.dispose();
      }
    });
  });

  it('lapse once the library is given another embedder', { timeout: 180_000 }, async () => {
    await withEmbedderGone(async ({ dataDir, bundled, chat }) => {
      await markBoth(dataDir, bundled, chat);
      await ensureTinyOnnx(path.join(dataDir, 'models', 'other-embed'));
      const next = await appOver(dataDir, bundled);
      try {
        expect(await next.app.api['libraries.configure']({ library: 'Pumps', embedder: 'other-embed' })).toMatchObject({ ok: true });
        await next.app.idle();
        const lib = (await next.app.libraries.get('Pumps'))!;
        expect((await lib.documents()).map((d) => [d.id, d.enrichedWith, d.upgradeFailed])).toEqual([
          ['P-100.md', 'llm-single', undefined],
          ['P-200.md', 'llm-single', undefined],
        ]);
      } finally {
        await next.app.dispose();
      }
    });
  });

  it('are retried when their file is imported again; a mark kept without its inputs (from before) holds otherwise', { timeout: 180_000 }, async () => {
    await withEmbedderGone(async ({ dataDir, bundled, chat, embedderDir, file }) => {
      await markBoth(dataDir, bundled, chat);
      // Marks as an earlier version of the app wrote them: without what chunking depended on.
      const old = await appOver(dataDir, bundled);
      try {
        const lib = (await old.app.libraries.get('Pumps'))!;
        const records = await lib.documents();
        await lib.putDocuments(records.map(({ upgradeFailed, ...rest }) => ({ ...rest, upgradeFailed: { mode: upgradeFailed!.mode, reason: upgradeFailed!.reason } })));
      } finally {
        await old.app.dispose();
      }
      await ensureTinyOnnx(embedderDir);
      const next = await appOver(dataDir, bundled);
      try {
        // Such a mark holds (its reason shows) and needs no chunking inputs: listing does not scan the models folders.
        const scans = vi.spyOn(next.app.models, 'list');
        const listed = await next.app.api['documents.list']({ library: 'Pumps' });
        expect(listed.ok && listed.value.map((d) => d.notice)).toEqual([expect.stringContaining(SEMANTIC_NEEDS_EMBEDDER), expect.stringContaining(SEMANTIC_NEEDS_EMBEDDER)]);
        expect(scans).not.toHaveBeenCalled();
        scans.mockRestore();
        // The embedder is back, but such a mark holds as it did: no enriching run at start.
        await next.app.resumeBackground();
        await next.app.idle();
        expect(next.enriching.filter((p) => p.total > 0 || p.error), 'enrichment runs and reports').toEqual([]);
        // The same file imported again, as its reason says: the upgrade tries it again.
        const again = await next.app.importPaths('Pumps', [file('P-100')]);
        expect(again.ok && again.value.results.map((r) => r.status)).toEqual(['already']);
        await next.app.idle();
        const lib = (await next.app.libraries.get('Pumps'))!;
        expect((await lib.documents()).map((d) => [d.id, d.enrichedWith, d.upgradeFailed?.mode])).toEqual([
          ['P-100.md', 'llm-single', undefined],
          ['P-200.md', undefined, 'llm-single'],
        ]);
      } finally {
        await next.app.dispose();
      }
    });
  });
});
