import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { tempDir } from '../helpers/temp';
import { unwrap } from './fixtures';

// Query analysis (model mentions in the question) is the costly part of reading a question; the
// search, the chat plan, the unknown-model guard and the relevance gate all read one analysis.
describe('one analysis per question', () => {
  let engine: Engine;
  let cleanup: () => Promise<void>;
  const question = 'What fuse does the RAC-225B take?';

  beforeAll(async () => {
    const tmp = await tempDir('manualmate-analysis-');
    cleanup = tmp.cleanup;
    for (const [name, body] of [
      ['rac-225b.md', '# RAC-225B service manual\n\n## Fuses\n\nThe RAC-225B takes a 10 A slow-blow fuse on the control board.\n'],
      ['rac-228b.md', '# RAC-228B service manual\n\n## Fuses\n\nThe RAC-228B takes a 15 A slow-blow fuse on the control board.\n'],
    ]) {
      await writeFile(path.join(tmp.dir, name!), body!);
    }
    engine = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none') });
    unwrap(await engine.importPaths('lib', [path.join(tmp.dir, 'rac-225b.md'), path.join(tmp.dir, 'rac-228b.md')]));
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    await engine.dispose();
    await cleanup();
  });

  /** How often the question itself went through model detection while `run` ran. */
  async function analysesOf(run: () => Promise<unknown>): Promise<number> {
    const spy = vi.spyOn(ModelVocabulary.prototype, 'findMentions');
    try {
      await run();
      return spy.mock.calls.filter(([text]) => text === question).length;
    } finally {
      spy.mockRestore();
    }
  }

  it('analyses a searched question once', async () => {
    let found: string[] = [];
    const n = await analysesOf(async () => {
      const res = unwrap(await engine.api['search.query']({ library: 'lib', query: question, topK: 5, retriever: 'bm25' }));
      found = res.resolvedModels;
    });
    expect(found).toEqual(['RAC-225B']);
    expect(n).toBe(1);
  });

  it('analyses a chat question once for its plan, search and answer', async () => {
    const conversation = unwrap(await engine.api['chat.create']({ library: 'lib' }));
    let models: string[] = [];
    const n = await analysesOf(async () => {
      const turn = unwrap(await engine.api['chat.ask']({ library: 'lib', id: conversation.id, question }));
      models = turn.resolvedModels ?? [];
    });
    expect(models).toEqual(['RAC-225B']);
    expect(n).toBe(1);
  });
});
