import { describe, expect, it } from 'vitest';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EngineEvent } from '../../src-main/contract/api';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { ensureTinyOnnx } from '../models/tiny-onnx';
import { tempDir } from '../helpers/temp';

/**
 * A library with an embedder whose folder was deleted from the models folder (the library still
 * names it). Embedding says it stopped, and why, once per library and session: later imports and
 * openings neither say it again nor run the embedding, until the models folder changes (the folder
 * put back), when every chunk awaiting its vector is embedded. The embedder is the real tiny
 * ONNX one, copied into the data folder's models folder so it can be deleted.
 */

const manual = (model: string) => `# ${model} pump manual\n\n## Seals\n\nReplace the ${model} shaft seal after 2000 hours.\n`;

type Progress = Extract<EngineEvent, { type: 'index.progress' }>;

/** An app over `dataDir`, with the embedding progress it reports. */
function appOver(dataDir: string, bundled: string): { app: Engine; embedding: Progress[] } {
  const app = createEngine({ dataDir, bundledModelsDir: bundled, threads: 1 });
  const embedding: Progress[] = [];
  app.subscribe((e) => e.type === 'index.progress' && e.task === 'embedding' && embedding.push(e));
  return { app, embedding };
}

describe('a library whose embedder folder was deleted from the models folder', () => {
  it('says embedding stopped once, and tries again only when the models folder changes', { timeout: 180_000 }, async () => {
    const tmp = await tempDir();
    const dataDir = path.join(tmp.dir, 'data');
    const bundled = path.join(tmp.dir, 'bundled');
    await mkdir(bundled);
    const embedderDir = path.join(dataDir, 'models', 'embed');
    await ensureTinyOnnx(embedderDir);
    const file = (model: string) => path.join(tmp.dir, `${model}.md`);
    for (const model of ['P-100', 'P-200', 'P-300', 'P-400']) await writeFile(file(model), manual(model));
    try {
      const first = appOver(dataDir, bundled);
      try {
        expect(await first.app.api['libraries.create']({ name: 'Pumps', embedder: 'embed' })).toMatchObject({ ok: true });
        expect((await first.app.importPaths('Pumps', [file('P-100')])).ok).toBe(true);
        await first.app.idle();
      } finally {
        await first.app.dispose();
      }
      await rm(embedderDir, { recursive: true });

      const next = appOver(dataDir, bundled);
      try {
        await next.app.resumeBackground();
        expect((await next.app.importPaths('Pumps', [file('P-200')])).ok).toBe(true);
        await next.app.idle();
        expect(next.embedding.filter((p) => p.error).map((p) => p.error)).toEqual([expect.stringMatching(/"embed" .*could not be loaded/)]);

        // Another import and the library opened again: not said again.
        const before = next.embedding.length;
        expect((await next.app.importPaths('Pumps', [file('P-300')])).ok).toBe(true);
        expect(await next.app.api['search.prepare']({ library: 'Pumps' })).toMatchObject({ ok: true });
        await next.app.idle();
        expect(next.embedding.slice(before), 'embedding reports after the first').toEqual([]);

        // The folder put back: the next import embeds every chunk awaiting its vector.
        await ensureTinyOnnx(embedderDir);
        expect((await next.app.importPaths('Pumps', [file('P-400')])).ok).toBe(true);
        await next.app.idle();
        const lib = (await next.app.libraries.get('Pumps'))!;
        expect(await (await next.app.indexes.open(lib)).pendingEmbeddings()).toBe(0);
        expect(next.embedding.at(-1)?.error).toBeUndefined();
      } finally {
        await next.app.dispose();
      }
    } finally {
      await tmp.cleanup();
    }
  });
});
