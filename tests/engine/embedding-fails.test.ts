import { describe, expect, it, vi } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EngineEvent } from '../../src-main/contract/api';
import { createEngine } from '../../src-main/engine/engine';
import { ensureTinyOnnx } from '../models/tiny-onnx';
import { tempDir } from '../helpers/temp';

type Progress = Extract<EngineEvent, { type: 'index.progress' }>;

/**
 * The embedder loads, then fails while it embeds (the runtime out of memory, a damaged model
 * file): the background run used to end with a line in the log only, so the app's status line
 * stayed at "Embedding 0 / 2 chunks" for good. It says embedding stopped and why, and the next
 * import embeds what is waiting. The embedder is the real tiny ONNX one; only its failure is made.
 */
describe('an embedding run whose embedder fails while embedding', () => {
  it('says embedding stopped and why, and the next import embeds what waits', { timeout: 120_000 }, async () => {
    const tmp = await tempDir();
    const dataDir = path.join(tmp.dir, 'data');
    await ensureTinyOnnx(path.join(dataDir, 'models', 'embed'));
    await mkdir(path.join(tmp.dir, 'bundled'));
    const app = createEngine({ dataDir, bundledModelsDir: path.join(tmp.dir, 'bundled'), threads: 1 });
    const embedding: Progress[] = [];
    app.subscribe((e) => e.type === 'index.progress' && e.task === 'embedding' && embedding.push(e));
    try {
      const embedder = await app.models.embedder('embed');
      const failing = vi.spyOn(embedder, 'embed').mockRejectedValueOnce(new Error('the runtime ran out of memory'));
      expect(await app.api['libraries.create']({ name: 'Pumps', embedder: 'embed' })).toMatchObject({ ok: true });
      const file = (model: string) => path.join(tmp.dir, `${model}.md`);
      for (const model of ['P-100', 'P-200']) await writeFile(file(model), `# ${model} pump\n\nReplace the ${model} shaft seal after 2000 hours.\n`);
      expect((await app.importPaths('Pumps', [file('P-100')])).ok).toBe(true);
      await app.idle();
      expect(failing).toHaveBeenCalledTimes(1);
      expect(embedding.filter((p) => p.error).map((p) => p.error)).toEqual(['Embedding stopped: the runtime ran out of memory. It resumes with the next import or the next start of the app.']);

      expect((await app.importPaths('Pumps', [file('P-200')])).ok).toBe(true);
      await app.idle();
      expect(embedding.at(-1)?.error).toBeUndefined();
      const dense = await app.api['search.query']({ library: 'Pumps', query: 'shaft seal', retriever: 'dense' });
      expect(dense.ok && dense.value.results.length).toBe(2);
    } finally {
      await app.dispose();
      await tmp.cleanup();
    }
  });
});
