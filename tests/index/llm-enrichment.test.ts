import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import type { EngineEvent } from '../../src-main/contract/api';
import { ensureTinyGguf } from '../models/tiny-gguf';
import { tempDir } from '../helpers/temp';

/**
 * The background LLM upgrade with the real node-llama-cpp and the tiny generated GGUF: the model's
 * output is nonsense, so chunks end up schema-valid or fall back to the heuristic with a reason;
 * what is tested is the job: it needs a chat model, reports progress, records calls and tokens,
 * and leaves a searchable library.
 */

let engine: Engine;
let dir: string;
let cleanup: () => Promise<void>;
const events: EngineEvent[] = [];

beforeAll(async () => {
  const gguf = await ensureTinyGguf();
  ({ dir, cleanup } = await tempDir());
  engine = createEngine({ dataDir: path.join(dir, 'data'), bundledModelsDir: path.dirname(gguf), threads: 1 });
  engine.subscribe((e) => events.push(e));
  await writeFile(
    path.join(dir, 'rac.md'),
    '# RAC-225B service manual\n\n## Fuses\n\nThe RAC-225B takes a 10 A slow-blow fuse on the control board. Check it first when the unit is dead.\n\n## Filters\n\nClean the RAC-225B air filter every two weeks with lukewarm water and let it dry before refitting.\n',
  );
  const res = await engine.importPaths('Aircon', [path.join(dir, 'rac.md')]);
  if (!res.ok) throw new Error(res.error.message);
});
afterAll(async () => {
  await engine.dispose();
  await cleanup();
});

describe('LLM enrichment in the background', () => {
  it('explains that it needs a chat model, and keeps heuristic chunks meanwhile', async () => {
    const res = await engine.handlers['libraries.configure']({ library: 'Aircon', enrich: 'llm-single' });
    expect(res.ok).toBe(true);
    await engine.idle();
    const err = events.find((e) => e.type === 'index.progress' && e.task === 'enriching' && e.error);
    expect(err).toMatchObject({ error: expect.stringMatching(/needs a chat model/) });
    const hits = await engine.handlers['search.query']({ library: 'Aircon', query: 'slow-blow fuse', topK: 3, retriever: 'bm25' });
    expect(hits.ok && hits.value.results[0]?.doc).toBe('rac.md');
  });

  it('upgrades every document once a chat model is chosen, recording calls and tokens', async () => {
    const bad = await engine.handlers['settings.update']({ chatModel: 'no-such-model.gguf' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'not-found' } });
    const set = await engine.handlers['settings.update']({ chatModel: 'tiny-llama.gguf' });
    expect(set).toEqual({ ok: true, value: { chatModel: 'tiny-llama.gguf' } });
    await engine.idle();
    const progress = events.filter((e) => e.type === 'index.progress' && e.task === 'enriching' && !e.error);
    const last = progress[progress.length - 1];
    expect(last).toMatchObject({ done: 1, total: 1 });
    const lib = (await engine.libraries.get('Aircon'))!;
    const rec = await lib.document('rac.md');
    expect(rec?.enrichedWith).toBe('llm-single');
    expect(rec?.llmCalls).toBeGreaterThanOrEqual(rec?.chunks ?? 1);
    expect(rec?.llmTokens).toBeGreaterThan(0);
    const chunks = await engine.handlers['documents.chunks']({ library: 'Aircon', id: 'rac.md' });
    expect(chunks.ok && chunks.value.length).toBe(rec?.chunks);
    const hits = await engine.handlers['search.query']({ library: 'Aircon', query: 'slow-blow fuse', topK: 3, retriever: 'bm25' });
    expect(hits.ok && hits.value.results[0]?.doc).toBe('rac.md');
  });

  it('does not redo documents already upgraded with the same mode', async () => {
    const before = events.length;
    await engine.handlers['libraries.configure']({ library: 'Aircon', enrich: 'llm-single' });
    await engine.idle();
    const again = events.slice(before).filter((e) => e.type === 'index.progress' && e.task === 'enriching');
    expect(again.every((e) => e.type === 'index.progress' && e.total === 0)).toBe(true);
  });
});
