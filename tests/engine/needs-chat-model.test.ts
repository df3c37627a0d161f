import { describe, expect, it, vi } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EngineEvent } from '../../src-main/contract/api';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { ScriptedLlm } from '../enrich/helpers';
import { ensureTinyGguf } from '../models/tiny-gguf';
import { tempDir } from '../helpers/temp';

/**
 * A library set to LLM enrichment with documents awaiting their upgrade, and no chat model chosen:
 * the app says that enrichment needs a chat model once per library and session, not again at
 * each opening of the library or import (Settings shows it as long as it holds). Choosing a
 * model and unsetting it again makes it said again.
 */

const manual = (model: string) => `# ${model} pump manual\n\n## Seals\n\nReplace the ${model} shaft seal after 2000 hours.\n`;

/** An app over `dataDir` (the tiny GGUF is a chat model it can choose), with the "needs a chat model" reports it makes. */
async function appOver(dataDir: string): Promise<{ app: Engine; told: () => string[] }> {
  const gguf = await ensureTinyGguf();
  const app = createEngine({ dataDir, bundledModelsDir: path.dirname(gguf), threads: 1 });
  const told: string[] = [];
  app.subscribe((e: EngineEvent) => {
    if (e.type === 'index.progress' && e.task === 'enriching' && e.error && /needs a chat model/.test(e.error)) told.push(e.library);
  });
  return { app, told: () => [...told] };
}

describe('an LLM library whose documents await their upgrade, with no chat model chosen', () => {
  it('says it needs a chat model once per session, not at every opening or import', { timeout: 120_000 }, async () => {
    const tmp = await tempDir();
    const dataDir = path.join(tmp.dir, 'data');
    const file = (model: string) => path.join(tmp.dir, `${model}.md`);
    for (const model of ['P-100', 'P-200', 'P-300', 'P-400', 'P-500']) await writeFile(file(model), manual(model));
    try {
      const first = await appOver(dataDir);
      try {
        expect(await first.app.api['libraries.create']({ name: 'Pumps', enrich: 'llm-single' })).toMatchObject({ ok: true });
        expect(await first.app.api['libraries.create']({ name: 'Fans', enrich: 'llm' })).toMatchObject({ ok: true });
        expect((await first.app.importPaths('Pumps', [file('P-100')])).ok).toBe(true);
        await first.app.idle();
        expect(first.told()).toEqual(['Pumps']);
        expect((await first.app.importPaths('Pumps', [file('P-200')])).ok).toBe(true);
        expect(await first.app.api['search.prepare']({ library: 'Pumps' })).toMatchObject({ ok: true });
        await first.app.idle();
        expect(first.told(), 'after a second import').toEqual(['Pumps']);
        // Each library is told for itself.
        expect((await first.app.importPaths('Fans', [file('P-300')])).ok).toBe(true);
        await first.app.idle();
        expect(first.told()).toEqual(['Pumps', 'Fans']);
      } finally {
        await first.app.dispose();
      }

      // The next start says it once again, at start, and not at the next import.
      const next = await appOver(dataDir);
      try {
        await next.app.resumeBackground();
        await next.app.idle();
        expect(next.told().filter((l) => l === 'Pumps')).toEqual(['Pumps']);
        expect((await next.app.importPaths('Pumps', [file('P-400')])).ok).toBe(true);
        await next.app.idle();
        expect(next.told().filter((l) => l === 'Pumps'), 'after an import').toEqual(['Pumps']);

        // A model chosen (it upgrades what awaited it), then unset: the next import is told again.
        vi.spyOn(next.app.models, 'llm').mockResolvedValue(new ScriptedLlm(() => ({})));
        expect(await next.app.handlers['settings.update']({ chatModel: path.basename(await ensureTinyGguf()) })).toMatchObject({ ok: true });
        await next.app.idle();
        expect(await next.app.handlers['settings.update']({ chatModel: null })).toMatchObject({ ok: true });
        expect((await next.app.importPaths('Pumps', [file('P-500')])).ok).toBe(true);
        await next.app.idle();
        expect(next.told().filter((l) => l === 'Pumps'), 'after the model was unset').toEqual(['Pumps', 'Pumps']);
      } finally {
        await next.app.dispose();
      }
    } finally {
      await tmp.cleanup();
    }
  });
});
