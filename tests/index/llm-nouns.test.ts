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
 * enrichment and given an embedder in one call, with documents the LLM has upgraded already: no
 * rebuild (it would throw that work away), so the embedder waits until the upgrade has given every
 * chunk its nouns, and says so once while that lasts. Real node-llama-cpp with
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
  await doc('rac.md', 'RAC-225B');
  const res = await engine.importPaths('Aircon', [path.join(dir, 'rac.md')]);
  if (!res.ok) throw new Error(res.error.message);
});
afterAll(async () => {
  await engine.dispose();
  await cleanup();
});

const pending = async () => (await engine.indexes.open((await engine.libraries.get('Aircon'))!)).pendingEmbeddings();
const omitted = async () => (await engine.libraries.get('Aircon'))!.config.nounsOmitted;
/** How often the app has said that embedding waits for the nouns. */
const nounsFirst = () => events.filter((e) => e.type === 'index.progress' && e.task === 'embedding' && e.error === NOUNS_FIRST).length;
/** Whether the library's summary says embedding waits for the nouns: what a page shows, whenever it was opened. */
const waits = async () => {
  const listed = await engine.handlers['libraries.list']({});
  if (!listed.ok) throw new Error(listed.error.message);
  return listed.value.find((l) => l.name === 'Aircon')!.waitsForNouns;
};
const doc = (name: string, model: string) => writeFile(path.join(dir, name), `# ${model} service manual\n\n## Fuses\n\nThe ${model} takes a 10 A slow-blow fuse on the control board.\n`);

describe('an embedder over chunks stored without nouns, in an LLM-enriched library', () => {
  it('clears the mark once the LLM upgrade has reached every document', async () => {
    expect(await omitted()).toBe(true);
    // No embedder: nothing waits.
    expect(await waits()).toBe(false);
    expect(await engine.handlers['settings.update']({ chatModel: 'tiny-llama.gguf' })).toMatchObject({ ok: true });
    expect(await engine.handlers['libraries.configure']({ library: 'Aircon', enrich: 'llm-single' })).toMatchObject({ ok: true });
    await engine.idle();
    expect(await omitted()).toBe(false);
  });

  it('keeps the upgraded documents, and embeds nothing until the upgrade gives the new ones their nouns', async () => {
    // Back to heuristic enrichment and no chat model: a new document is stored without nouns.
    expect(await engine.handlers['libraries.configure']({ library: 'Aircon', enrich: 'heuristic' })).toMatchObject({ ok: true });
    expect(await engine.handlers['settings.update']({ chatModel: null })).toMatchObject({ ok: true });
    await doc('kt.md', 'KT-40');
    expect((await engine.importPaths('Aircon', [path.join(dir, 'kt.md')])).ok).toBe(true);
    expect(await omitted()).toBe(true);
    // LLM enrichment and an embedder together: rac.md's upgrade is kept (no rebuild), so the
    // embedder waits for kt.md's nouns, and says why.
    const res = await engine.handlers['libraries.configure']({ library: 'Aircon', enrich: 'llm-single', embedder: 'tiny-embedder' });
    expect(res).toMatchObject({ ok: true, value: { embedder: 'tiny-embedder' } });
    await engine.idle();
    expect((await (await engine.libraries.get('Aircon'))!.document('rac.md'))?.enrichedWith).toBe('llm-single');
    expect(nounsFirst()).toBe(1);
    expect(await waits()).toBe(true);
    expect(await pending()).toBeGreaterThan(0);
    // A state, not a failure: the next import (still no chat model) does not say it again.
    await doc('fx.md', 'FX-7');
    expect((await engine.importPaths('Aircon', [path.join(dir, 'fx.md')])).ok).toBe(true);
    await engine.idle();
    expect(await omitted()).toBe(true);
    expect(nounsFirst(), 'after another import').toBe(1);
    // Still shown, though said once: a page opened now hears no report of it.
    expect(await waits(), 'after another import').toBe(true);

    expect(await engine.handlers['settings.update']({ chatModel: 'tiny-llama.gguf' })).toMatchObject({ ok: true });
    await engine.idle();
    expect(await omitted()).toBe(false);
    expect(await waits()).toBe(false);
    expect(await pending()).toBe(0);
    const chunks = await engine.handlers['documents.chunks']({ library: 'Aircon', id: 'kt.md' });
    expect(chunks.ok && chunks.value.length).toBeGreaterThan(0);
    expect(chunks.ok && chunks.value.some((c) => c.nounsOmitted)).toBe(false);
  });

  it('does not hold the embedder back for good when a document cannot be upgraded', async () => {
    // A new document stored without nouns whose stored text is then damaged: the upgrade cannot
    // re-enrich it, now or later, so waiting for it would leave the library unembedded.
    expect(await engine.handlers['settings.update']({ chatModel: null })).toMatchObject({ ok: true });
    expect(await engine.handlers['libraries.configure']({ library: 'Aircon', enrich: 'heuristic', embedder: null })).toMatchObject({ ok: true });
    await doc('dx.md', 'DX-9');
    expect((await engine.importPaths('Aircon', [path.join(dir, 'dx.md')])).ok).toBe(true);
    await engine.idle();
    const library = (await engine.libraries.get('Aircon'))!;
    const rec = (await library.document('dx.md'))!;
    expect(rec.normalized).toBeDefined();
    await writeFile(path.join(library.dir, rec.normalized!.file), 'not the stored text');
    expect(await omitted()).toBe(true);
    // The other documents are upgraded already: no rebuild, the embedder waits for the upgrade.
    const res = await engine.handlers['libraries.configure']({ library: 'Aircon', enrich: 'llm-single', embedder: 'tiny-embedder' });
    expect(res).toMatchObject({ ok: true, value: { embedder: 'tiny-embedder' } });
    await engine.idle();
    expect(await omitted()).toBe(true);
    // The wait ended (every chunk had its nouns) and came back: said again.
    expect(nounsFirst()).toBe(2);
    expect(await pending()).toBeGreaterThan(0);
    expect(await waits()).toBe(true);
    // The app closed and opened again: the new engine has said nothing, the summary still shows the wait.
    await engine.dispose();
    events.length = 0;
    engine = createEngine({ dataDir: path.join(dir, 'data'), bundledModelsDir: path.dirname(await ensureTinyGguf()), threads: 1 });
    engine.subscribe((e) => events.push(e));
    expect(await waits(), 'after a restart').toBe(true);
    expect(nounsFirst()).toBe(0);
    expect(await engine.handlers['settings.update']({ chatModel: 'tiny-llama.gguf' })).toMatchObject({ ok: true });
    await engine.idle();
    expect(await waits()).toBe(false);
    expect((await (await engine.libraries.get('Aircon'))!.document('dx.md'))?.enrichedWith).not.toBe('llm-single');
    expect(await omitted()).toBe(false);
    expect(await pending()).toBe(0);
  });
});
