import { describe, expect, it, vi } from 'vitest';
import { copyFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EngineEvent } from '../../src-main/contract/api';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { STORED_TEXT_LOST } from '../../src-main/index/llm-upgrade.job';
import { ScriptedLlm } from '../enrich/helpers';
import { ensureTinyGguf } from '../models/tiny-gguf';
import { tempDir } from '../helpers/temp';

/**
 * A library set to LLM enrichment in which one document's stored normalized text was deleted from
 * the library folder: the LLM upgrade can never reach it. The run that finds so marks it, with the
 * reason in words, and says so once; later starts of the app, openings of the library and imports
 * neither start the upgrade for it nor load the chat model. Importing the file again enriches it. The chat model is scripted (the tiny GGUF is there to be a chat model
 * the settings accept).
 */

const manual = (model: string) => `# ${model} pump manual\n\n## Seals\n\nReplace the ${model} shaft seal after 2000 hours.\n`;

type Progress = Extract<EngineEvent, { type: 'index.progress' }>;

/** An app over `dataDir` whose chat model answers from a script, with the enrichment progress it reports and its model loads. */
async function appOver(dataDir: string): Promise<{ app: Engine; enriching: Progress[]; loads: () => number }> {
  const gguf = await ensureTinyGguf();
  const app = createEngine({ dataDir, bundledModelsDir: path.dirname(gguf), threads: 1 });
  const llm = vi.spyOn(app.models, 'llm').mockResolvedValue(new ScriptedLlm(() => ({})));
  const enriching: Progress[] = [];
  app.subscribe((e) => e.type === 'index.progress' && e.task === 'enriching' && enriching.push(e));
  return { app, enriching, loads: () => llm.mock.calls.length };
}

describe('a document whose stored text is lost, in a library set to LLM enrichment', () => {
  it('is upgraded after a rebuild that reads its text again (put back by hand)', { timeout: 120_000 }, async () => {
    const tmp = await tempDir();
    const dataDir = path.join(tmp.dir, 'data');
    const file = (model: string) => path.join(tmp.dir, `${model}.md`);
    for (const model of ['P-100', 'P-200']) await writeFile(file(model), manual(model));
    try {
      const { app } = await appOver(dataDir);
      try {
        expect(await app.api['libraries.create']({ name: 'Pumps', enrich: 'llm-single' })).toMatchObject({ ok: true });
        for (const model of ['P-100', 'P-200']) expect((await app.importPaths('Pumps', [file(model)])).ok).toBe(true);
        await app.idle();
        const lib = (await app.libraries.get('Pumps'))!;
        const pack = path.join(lib.dir, (await lib.document('P-200.md'))!.normalized!.file);
        await copyFile(pack, `${pack}.kept`);
        await rm(pack);
        expect(await app.handlers['settings.update']({ chatModel: path.basename(await ensureTinyGguf()) })).toMatchObject({ ok: true });
        await app.idle();
        expect((await lib.document('P-200.md'))?.upgradeFailed?.mode).toBe('llm-single');
        // The text comes back (a backup restored) and the user rebuilds the index.
        await copyFile(`${pack}.kept`, pack);
        expect(await app.api['libraries.rebuild']({ library: 'Pumps' })).toMatchObject({ ok: true });
        await app.idle();
        const back = (await lib.document('P-200.md'))!;
        expect(back.upgradeFailed).toBeUndefined();
        expect(back.enrichedWith).toBe('llm-single');
      } finally {
        await app.dispose();
      }
    } finally {
      await tmp.cleanup();
    }
  });

  it('is marked once with why, and neither starts the upgrade nor loads the model again until the file is imported again', { timeout: 120_000 }, async () => {
    const tmp = await tempDir();
    const dataDir = path.join(tmp.dir, 'data');
    const file = (model: string) => path.join(tmp.dir, `${model}.md`);
    for (const model of ['P-100', 'P-200', 'P-300']) await writeFile(file(model), manual(model));
    try {
      // Imported before any chat model was chosen: both await their upgrade.
      const first = await appOver(dataDir);
      try {
        expect(await first.app.api['libraries.create']({ name: 'Pumps', enrich: 'llm-single' })).toMatchObject({ ok: true });
        // Two imports, two packs: one document's text can go without the other's.
        for (const model of ['P-100', 'P-200']) expect((await first.app.importPaths('Pumps', [file(model)])).ok).toBe(true);
        await first.app.idle();
        const lib = (await first.app.libraries.get('Pumps'))!;
        const lost = (await lib.document('P-200.md'))!;
        const other = (await lib.document('P-100.md'))!;
        expect(lost.normalized?.file).toBeTruthy();
        expect(lost.normalized?.file).not.toBe(other.normalized?.file);
        await rm(path.join(lib.dir, lost.normalized!.file));
      } finally {
        await first.app.dispose();
      }

      // The user chooses a chat model: the upgrade reaches P-100.md and finds P-200.md's text gone.
      const chosen = await appOver(dataDir);
      try {
        await chosen.app.resumeBackground();
        await chosen.app.idle();
        expect(await chosen.app.handlers['settings.update']({ chatModel: path.basename(await ensureTinyGguf()) })).toMatchObject({ ok: true });
        await chosen.app.idle();
        const lib = (await chosen.app.libraries.get('Pumps'))!;
        expect((await lib.document('P-100.md'))?.enrichedWith).toBe('llm-single');
        const lost = (await lib.document('P-200.md'))!;
        expect(lost).toMatchObject({ status: 'ready', upgradeFailed: { mode: 'llm-single', reason: STORED_TEXT_LOST } });
        expect(lost.enrichedWith).toBeUndefined();
        // Said in words, and the run's count reaches its total (no bar left half-way).
        expect(chosen.enriching.filter((p) => !p.error).at(-1)).toMatchObject({ done: 2, total: 2 });
        expect(chosen.enriching.at(-1)?.error).toMatch(/"P-200\.md" is not enriched .*stored text is missing/);
        // Still searchable with its rule-based chunks.
        const hits = await chosen.app.api['search.query']({ library: 'Pumps', query: 'P-200 shaft seal', topK: 3, retriever: 'bm25' });
        expect(hits.ok && hits.value.results.map((h) => h.doc)).toContain('P-200.md');
      } finally {
        await chosen.app.dispose();
      }

      // The next start: nothing it can reach is owed.
      const next = await appOver(dataDir);
      try {
        await next.app.resumeBackground();
        await next.app.idle();
        expect(await next.app.api['search.prepare']({ library: 'Pumps' })).toMatchObject({ ok: true });
        await next.app.idle();
        expect(next.enriching, 'enrichment reports at start').toEqual([]);
        // An import that brings nothing new owes nothing either.
        expect((await next.app.importPaths('Pumps', [file('P-100')])).ok).toBe(true);
        await next.app.idle();
        expect(next.loads(), 'chat model loads').toBe(0);
        // A new document is upgraded alone.
        expect((await next.app.importPaths('Pumps', [file('P-300')])).ok).toBe(true);
        await next.app.idle();
        expect(next.enriching.filter((p) => p.total > 0).at(-1)).toMatchObject({ done: 1, total: 1 });
        expect(next.enriching.some((p) => p.error)).toBe(false);
        const lib = (await next.app.libraries.get('Pumps'))!;
        expect((await lib.document('P-300.md'))?.enrichedWith).toBe('llm-single');
        expect((await lib.document('P-200.md'))?.upgradeFailed?.mode).toBe('llm-single');

        // Imported again, as its reason says (the same bytes): its text is back and enriched.
        const again200 = await next.app.importPaths('Pumps', [file('P-200')]);
        expect(again200.ok && again200.value.results.map((r) => r.status)).toEqual(['replaced']);
        await next.app.idle();
        const again = (await lib.document('P-200.md'))!;
        expect(again.enrichedWith).toBe('llm-single');
        expect(again.upgradeFailed).toBeUndefined();
      } finally {
        await next.app.dispose();
      }
    } finally {
      await tmp.cleanup();
    }
  });
});
