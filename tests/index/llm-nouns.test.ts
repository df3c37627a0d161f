import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import type { EngineEvent } from '../../src-main/contract/api';
import { NOUNS_FIRST } from '../../src-main/engine/background';
import { ensureTinyGguf } from '../models/tiny-gguf';
import { ensureTinyOnnx } from '../models/tiny-onnx';
import { tempDir } from '../helpers/temp';

/**
 * A library imported without heuristic nouns (nothing read them) that is switched to LLM
 * enrichment and given an embedder in one call: no rebuild (it would throw away LLM work), so the
 * embedder waits until the LLM upgrade has given every chunk its nouns. Real node-llama-cpp with
 * the tiny generated GGUF, real transformers.js with the tiny generated ONNX embedder.
 */

let engine: Engine;
let dir: string;
let cleanup: () => Promise<void>;
const events: EngineEvent[] = [];

beforeAll(async () => {
  const gguf = await ensureTinyGguf();
  const onnx = await ensureTinyOnnx();
  expect(path.dirname(onnx)).toBe(path.dirname(gguf));
  ({ dir, cleanup } = await tempDir());
  engine = createEngine({ dataDir: path.join(dir, 'data'), bundledModelsDir: path.dirname(gguf), threads: 1 });
  engine.subscribe((e) => events.push(e));
  await writeFile(path.join(dir, 'rac.md'), '# RAC-225B service manual\n\n## Fuses\n\nThe RAC-225B takes a 10 A slow-blow fuse on the control board. Check it first when the unit is dead.\n');
  const res = await engine.importPaths('Aircon', [path.join(dir, 'rac.md')]);
  if (!res.ok) throw new Error(res.error.message);
});
afterAll(async () => {
  await engine.dispose();
  await cleanup();
});

const pending = async () => (await engine.indexes.open((await engine.libraries.get('Aircon'))!)).pendingEmbeddings();

describe('an embedder over chunks stored without nouns, in an LLM-enriched library', () => {
  it('embeds nothing and says why while the LLM upgrade has not run', async () => {
    expect((await engine.libraries.get('Aircon'))!.config.nounsOmitted).toBe(true);
    const res = await engine.handlers['libraries.configure']({ library: 'Aircon', enrich: 'llm-single', embedder: 'tiny-embedder' });
    expect(res).toMatchObject({ ok: true, value: { embedder: 'tiny-embedder' } });
    await engine.idle();
    expect(events).toContainEqual(expect.objectContaining({ type: 'index.progress', task: 'embedding', error: NOUNS_FIRST }));
    expect(await pending()).toBeGreaterThan(0);
  });

  it('embeds every chunk once the upgrade has reached every document', async () => {
    expect(await engine.handlers['settings.update']({ chatModel: 'tiny-llama.gguf' })).toMatchObject({ ok: true });
    await engine.idle();
    expect((await engine.libraries.get('Aircon'))!.config.nounsOmitted).toBe(false);
    expect(await pending()).toBe(0);
    const chunks = await engine.handlers['documents.chunks']({ library: 'Aircon', id: 'rac.md' });
    expect(chunks.ok && chunks.value.length).toBeGreaterThan(0);
    expect(chunks.ok && chunks.value.some((c) => c.nounsOmitted)).toBe(false);
  });
});
