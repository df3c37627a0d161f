import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { DocumentEvidence } from '../../src-main/search/document-evidence';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { tempDir } from '../helpers/temp';

/**
 * `search.prepare` builds what a library's first search needs (the renderer asks for it when a
 * library is opened): the first search after it builds none of it again.
 */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of cleanups.splice(0)) await c();
});

async function engineOver(dataDir: string): Promise<Engine> {
  const engine = createEngine({ dataDir, bundledModelsDir: path.join(dataDir, 'none') });
  cleanups.unshift(() => engine.dispose());
  return engine;
}

describe('search.prepare', () => {
  it('derives the vocabulary and indexes the document names before the first search, which then reuses them', async () => {
    const tmp = await tempDir();
    cleanups.push(tmp.cleanup);
    const dataDir = path.join(tmp.dir, 'data');
    for (const [file, model] of [['rac-225b.md', 'RAC-225B'], ['rac-226b.md', 'RAC-226B']] as const) {
      await writeFile(path.join(tmp.dir, file), `# ${model} service manual\n\n## Fuses\n\nThe ${model} takes a 10 A slow-blow fuse.\n`);
    }
    const first = await engineOver(dataDir);
    const imported = await first.importPaths('Aircon', [path.join(tmp.dir, 'rac-225b.md'), path.join(tmp.dir, 'rac-226b.md')]);
    expect(imported.ok).toBe(true);
    await first.dispose();

    // A new session over the stored library: nothing of it is loaded yet.
    const engine = await engineOver(dataDir);
    const names = vi.spyOn(DocumentEvidence, 'build');
    const models = vi.spyOn(ModelVocabulary.prototype, 'models');
    expect(await engine.handlers['search.prepare']({ library: 'Aircon' })).toEqual({ ok: true, value: { prepared: true } });
    expect(names).toHaveBeenCalledTimes(1);
    expect(models).toHaveBeenCalledTimes(1);
    const res = await engine.handlers['search.query']({ library: 'Aircon', query: 'RAC-226B fuse', topK: 5, retriever: 'bm25' });
    expect(res.ok && res.value.results[0]?.doc).toBe('rac-226b.md');
    expect(names).toHaveBeenCalledTimes(1);
  });

  it('says which library it cannot find', async () => {
    const tmp = await tempDir();
    cleanups.push(tmp.cleanup);
    const engine = await engineOver(path.join(tmp.dir, 'data'));
    const res = await engine.handlers['search.prepare']({ library: 'Nowhere' });
    expect(res.ok).toBe(false);
    expect(!res.ok && res.error.code).toBe('not-found');
  });
});
