import { describe, expect, it, vi } from 'vitest';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EngineEvent } from '../../src-main/contract/api';
import { createEngine } from '../../src-main/engine/engine';
import { ensureTinyGguf } from '../models/tiny-gguf';
import { tempDir } from '../helpers/temp';

/**
 * A library set to LLM enrichment whose chosen chat model's file was deleted from the models
 * folder (the app's setting still names it). The upgrade says it stopped, and why, once per library
 * and session: later imports and openings neither say it again nor try to load the model, until
 * the models folder changes (the file put back), when the upgrade runs. The chat model is the real
 * tiny GGUF, copied into the data folder's models folder so that it can be deleted.
 */

const manual = (model: string) => `# ${model} pump manual\n\n## Seals\n\nReplace the ${model} shaft seal after 2000 hours.\n`;

type Progress = Extract<EngineEvent, { type: 'index.progress' }>;

describe('an LLM library whose chat model file was deleted from the models folder', () => {
  it('says the enrichment stopped once, and tries again only when the models folder changes', { timeout: 180_000 }, async () => {
    const tmp = await tempDir();
    const dataDir = path.join(tmp.dir, 'data');
    const chatFile = path.join(dataDir, 'models', 'chat.gguf');
    const file = (model: string) => path.join(tmp.dir, `${model}.md`);
    for (const model of ['P-100', 'P-200', 'P-300']) await writeFile(file(model), manual(model));
    const noBundled = path.join(tmp.dir, 'bundled');
    await mkdir(noBundled);
    await ensureTinyGguf(chatFile);
    const app = createEngine({ dataDir, bundledModelsDir: noBundled, threads: 1 });
    const loads = vi.spyOn(app.models, 'llm');
    const enriching: Progress[] = [];
    app.subscribe((e) => e.type === 'index.progress' && e.task === 'enriching' && enriching.push(e));
    try {
      expect(await app.api['libraries.create']({ name: 'Pumps', enrich: 'llm-single' })).toMatchObject({ ok: true });
      expect(await app.handlers['settings.update']({ chatModel: 'chat.gguf' })).toMatchObject({ ok: true });
      await app.idle();
      await rm(chatFile);

      expect((await app.importPaths('Pumps', [file('P-100')])).ok).toBe(true);
      await app.idle();
      const stopped = enriching.filter((p) => p.error);
      expect(stopped.map((p) => p.error)).toEqual([expect.stringMatching(/^Enrichment stopped: .*"chat\.gguf"/)]);
      expect(loads).toHaveBeenCalledTimes(1);

      // Another import and the library opened again: not said again, no run, no load.
      const before = enriching.length;
      expect((await app.importPaths('Pumps', [file('P-200')])).ok).toBe(true);
      expect(await app.api['search.prepare']({ library: 'Pumps' })).toMatchObject({ ok: true });
      await app.idle();
      expect(enriching.slice(before), 'enrichment reports after the first').toEqual([]);
      expect(loads).toHaveBeenCalledTimes(1);

      // The file put back: the next import upgrades every document that awaited the model.
      await ensureTinyGguf(chatFile);
      expect((await app.importPaths('Pumps', [file('P-300')])).ok).toBe(true);
      await app.idle();
      const lib = (await app.libraries.get('Pumps'))!;
      expect((await lib.documents()).map((d) => [d.id, d.enrichedWith])).toEqual([
        ['P-100.md', 'llm-single'],
        ['P-200.md', 'llm-single'],
        ['P-300.md', 'llm-single'],
      ]);
      expect(enriching.at(-1)).toMatchObject({ done: 3, total: 3 });
      expect(enriching.at(-1)?.error).toBeUndefined();
    } finally {
      await app.dispose();
      await tmp.cleanup();
    }
  });
});
