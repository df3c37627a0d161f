import { describe, expect, it, vi } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EngineEvent } from '../../src-main/contract/api';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { ScriptedLlm } from '../enrich/helpers';
import { runNode } from '../helpers/run-node';
import { ensureTinyGguf } from '../models/tiny-gguf';
import { ensureTinyOnnx } from '../models/tiny-onnx';
import { repoRoot, tempDir } from '../helpers/temp';

/**
 * `manualmate import` (a real CLI process) into a library set to LLM enrichment, or with an
 * embedder, while the app does not have that library open: the CLI stops the upgrade and the
 * embedding when it exits, and the app does them once it opens the library, at its start or when
 * the user turns to that library, reporting progress as after an import. The chat model is
 * scripted (the tiny GGUF is there to be a chat model the settings accept); the embedder is the
 * real tiny ONNX one.
 */

const bin = path.join(repoRoot, 'bin', 'manualmate.mjs');
const manual = (model: string) => `# ${model} pump manual\n\n## Seals\n\nReplace the ${model} shaft seal after 2000 hours.\n`;

/** An app over `dataDir` whose chat model answers from a script, with the progress it reports. */
async function appOver(dataDir: string): Promise<{ app: Engine; progress: Extract<EngineEvent, { type: 'index.progress' }>[] }> {
  const gguf = await ensureTinyGguf();
  await ensureTinyOnnx();
  const app = createEngine({ dataDir, bundledModelsDir: path.dirname(gguf), threads: 1 });
  vi.spyOn(app.models, 'llm').mockResolvedValue(new ScriptedLlm(() => ({})));
  const progress: Extract<EngineEvent, { type: 'index.progress' }>[] = [];
  app.subscribe((e) => e.type === 'index.progress' && progress.push(e));
  return { app, progress };
}

/**
 * A library "Pumps" with P-100.md upgraded (and embedded, with `embedder`) by an app that then
 * quit, and P-200.md imported by the CLI after that; `test` gets the data folder.
 */
async function withCliImportWhileClosed(options: { embedder: boolean; importLater?: boolean }, test: (dataDir: string, cliImport: () => Promise<void>) => Promise<void>) {
  const tmp = await tempDir();
  const dataDir = path.join(tmp.dir, 'data');
  for (const model of ['P-100', 'P-200']) await writeFile(path.join(tmp.dir, `${model}.md`), manual(model));
  const cliImport = async () => {
    const run = await runNode([bin, 'import', path.join(tmp.dir, 'P-200.md'), '--library', 'Pumps', '--data-dir', dataDir, '--json']);
    expect(run.code, run.stderr).toBe(0);
  };
  try {
    const { app } = await appOver(dataDir);
    try {
      expect(await app.handlers['settings.update']({ chatModel: path.basename(await ensureTinyGguf()) })).toMatchObject({ ok: true });
      const embedder = options.embedder ? { embedder: path.basename(await ensureTinyOnnx()) } : {};
      expect(await app.api['libraries.create']({ name: 'Pumps', enrich: 'llm-single', ...embedder })).toMatchObject({ ok: true });
      expect((await app.importPaths('Pumps', [path.join(tmp.dir, 'P-100.md')])).ok).toBe(true);
      await app.idle();
      const lib = (await app.libraries.get('Pumps'))!;
      expect((await lib.documents()).map((d) => d.enrichedWith)).toEqual(['llm-single']);
    } finally {
      await app.dispose();
    }
    if (!options.importLater) await cliImport();
    await test(dataDir, cliImport);
  } finally {
    await tmp.cleanup();
  }
}

const enrichedWith = async (app: Engine) => (await (await app.libraries.get('Pumps'))!.documents()).map((d) => [d.id, d.enrichedWith]);

describe('the background work owed to documents the CLI imported while the app did not have their library open', () => {
  it('upgrades them with the LLM when the app starts', { timeout: 120_000 }, async () => {
    await withCliImportWhileClosed({ embedder: false }, async (dataDir) => {
      const { app, progress } = await appOver(dataDir);
      try {
        expect(await enrichedWith(app)).toEqual([
          ['P-100.md', 'llm-single'],
          ['P-200.md', undefined],
        ]);
        await app.resumeBackground();
        await app.idle();
        expect(await enrichedWith(app)).toEqual([
          ['P-100.md', 'llm-single'],
          ['P-200.md', 'llm-single'],
        ]);
        expect(progress.filter((p) => p.task === 'enriching').at(-1)).toMatchObject({ library: 'Pumps', done: 1, total: 1 });
      } finally {
        await app.dispose();
      }
    });
  });

  it('upgrades them when the user turns to a library the running app had not opened', { timeout: 120_000 }, async () => {
    await withCliImportWhileClosed({ embedder: false, importLater: true }, async (dataDir, cliImport) => {
      const { app, progress } = await appOver(dataDir);
      try {
        await app.resumeBackground();
        await app.idle();
        // Nothing was owed at start; the CLI imports while the app runs with "Pumps" not open.
        await cliImport();
        expect(await app.api['search.prepare']({ library: 'Pumps' })).toMatchObject({ ok: true });
        await app.idle();
        expect(await enrichedWith(app)).toEqual([
          ['P-100.md', 'llm-single'],
          ['P-200.md', 'llm-single'],
        ]);
        expect(progress.filter((p) => p.task === 'enriching').at(-1)).toMatchObject({ library: 'Pumps', done: 1, total: 1 });
        // Once: a later read of the library starts nothing more.
        const reported = progress.length;
        expect(await app.api['search.prepare']({ library: 'Pumps' })).toMatchObject({ ok: true });
        await app.idle();
        expect(progress.length).toBe(reported);
      } finally {
        await app.dispose();
      }
    });
  });

  it('upgrades them first, then embeds their upgraded chunks, in a library with an embedder', { timeout: 120_000 }, async () => {
    await withCliImportWhileClosed({ embedder: true }, async (dataDir) => {
      const { app, progress } = await appOver(dataDir);
      try {
        await app.resumeBackground();
        await app.idle();
        expect(await enrichedWith(app)).toEqual([
          ['P-100.md', 'llm-single'],
          ['P-200.md', 'llm-single'],
        ]);
        const index = await app.indexes.open((await app.libraries.get('Pumps'))!);
        expect(await index.pendingEmbeddings(), 'chunks without a vector').toBe(0);
        const tasks = progress.filter((p) => p.done > 0).map((p) => p.task);
        expect(tasks.lastIndexOf('enriching'), JSON.stringify(tasks)).toBeLessThan(tasks.indexOf('embedding'));
      } finally {
        await app.dispose();
      }
    });
  });
});
