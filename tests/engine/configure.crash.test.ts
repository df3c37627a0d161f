import { describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine } from '../../src-main/engine/engine';
import { ensureTinyOnnx } from '../models/tiny-onnx';
import { checkConsistent, dieInside } from '../helpers/crash';
import { tempDir } from '../helpers/temp';

/**
 * `libraries.configure` switching a library's embedder, killed (SIGKILL, in a real process) once the
 * vector column is reset for the new model and before the library saves it: the library still opens,
 * searches, and embeds again with the embedder it names.
 */

const doc = (model: string) => `# ${model} pump manual\n\n## Seals\n\nReplace the ${model} shaft seal after 2000 hours.\n`;

describe('switching the embedder, killed part-way', () => {
  it('leaves a library that opens and embeds with the embedder it names', { timeout: 120_000 }, async () => {
    const tmp = await tempDir();
    try {
      // Two embedders: the tiny generated one, under two names (two model ids).
      const models = path.join(tmp.dir, 'models');
      for (const name of ['tiny-a', 'tiny-b']) await ensureTinyOnnx(path.join(models, name));
      const pumps = path.join(tmp.dir, 'pumps');
      await mkdir(pumps, { recursive: true });
      for (const model of ['P-100', 'P-200']) await writeFile(path.join(pumps, `${model}.md`), doc(model));
      const engine = createEngine({ dataDir: tmp.dir, bundledModelsDir: path.join(tmp.dir, 'none') });
      try {
        expect((await engine.importPaths('Pumps', [pumps])).ok).toBe(true);
        const ids = await engine.handlers['models.list']({});
        if (!ids.ok) throw new Error(ids.error.message);
        expect(ids.value.map((m) => m.id).sort()).toEqual(['tiny-a', 'tiny-b']);
        expect(await engine.handlers['libraries.configure']({ library: 'Pumps', embedder: 'tiny-a' })).toMatchObject({ ok: true });
        await engine.idle();
      } finally {
        await engine.dispose();
      }
      expect((await dieInside(tmp.dir, 'Library.saveConfig', 'libraries.configure', { library: 'Pumps', embedder: 'tiny-b' })).killed).toBe(true);
      await checkConsistent(tmp.dir, 'Pumps', async ({ engine: reopened, lib }) => {
        const embedder = lib.config.embedder!.id;
        // The vectors the switch dropped are made again, as the app does at its start.
        await reopened.resumeBackground();
        await reopened.idle();
        const dense = await reopened.handlers['search.query']({ library: 'Pumps', query: 'P-200 shaft seal', topK: 3, retriever: 'dense' });
        expect(dense.ok ? dense.value.results.length : dense.error.message, `dense search with ${embedder}`).toBeGreaterThan(0);
      });
    } finally {
      await tmp.cleanup();
    }
  });
});
