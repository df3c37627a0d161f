import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CodedError } from '../../src-main/core/result';
import { loadOnnxEmbedder } from '../../src-main/models/onnx-embedder.runtime';
import type { Embedder } from '../../src-main/models/types';
import { ensureTinyOnnx, TINY_HIDDEN_SIZE } from './tiny-onnx';

const TEXTS = [
  'Connect the USB-C power supply before pressing the reset button.',
  'The board boots from the SD card when the eMMC is empty.',
  'Fan speed rises above 60 degrees.',
  'Hold BOOT while powering on to enter flash mode.',
  'Use a 5V 3A adapter.',
  'Replace the fuse only with the same rating!',
  'Connect the USB-C power supply before pressing the reset button.',
];

const fetchCalls: string[] = [];
let modelDir: string;
let tmp: string;
let embedder: Embedder;

function norm(v: Float32Array): number {
  let sum = 0;
  for (const x of v) sum += x * x;
  return Math.sqrt(sum);
}

/** Rejection of `promise` as a CodedError (fails the test when it resolves or throws anything else). */
async function codedFailure(promise: Promise<unknown>): Promise<CodedError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CodedError);
  return err as CodedError;
}

beforeAll(async () => {
  // Stubbed before transformers.js is first imported (the runtime imports it lazily), so even the
  // fetch it captures at import time is this one: any hub request would be recorded and fail.
  vi.stubGlobal('fetch', (input: unknown) => {
    fetchCalls.push(String(input));
    return Promise.reject(new Error('network is not allowed in tests'));
  });
  modelDir = await ensureTinyOnnx();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'onnx-embedder-'));
  embedder = await loadOnnxEmbedder(modelDir, { batchSize: 3, threads: 1 });
});

afterAll(async () => {
  await embedder?.dispose();
  vi.unstubAllGlobals();
  await rm(tmp, { recursive: true, force: true });
});

describe('loadOnnxEmbedder', () => {
  it('loads the local folder offline with remote models disabled', async () => {
    const { env } = await import('@huggingface/transformers');
    expect(env.allowRemoteModels).toBe(false);
    expect(embedder.id).toBe('tiny-embedder');
    expect(embedder.dimension).toBe(TINY_HIDDEN_SIZE);
    await embedder.embed(TEXTS);
    expect(fetchCalls).toEqual([]);
  });

  it('returns one unit-length vector of the model dimension per text', async () => {
    const vectors = await embedder.embed(TEXTS);
    expect(vectors).toHaveLength(TEXTS.length);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(embedder.dimension);
      expect(Math.abs(norm(v) - 1)).toBeLessThan(1e-4);
    }
  });

  it('gives identical texts identical vectors, across batches and calls, and different texts different ones', async () => {
    const vectors = await embedder.embed(TEXTS);
    const again = await embedder.embed([TEXTS[0] ?? '']);
    // TEXTS[0] and TEXTS[6] fall into different batches of 3 with different padding lengths.
    expect(Array.from(vectors[6] ?? [])).toEqual(Array.from(vectors[0] ?? []));
    expect(Array.from(again[0] ?? [])).toEqual(Array.from(vectors[0] ?? []));
    for (let i = 0; i < 6; i++) {
      for (let j = i + 1; j < 6; j++) {
        expect(Array.from(vectors[i] ?? []), `${i} vs ${j}`).not.toEqual(Array.from(vectors[j] ?? []));
      }
    }
  });

  it('returns independent vectors that do not share one buffer', async () => {
    const [a, b] = await embedder.embed(TEXTS.slice(0, 2));
    expect(a?.buffer).not.toBe(b?.buffer);
  });

  it('reports progress once per batch, ending at the total', async () => {
    const calls: [number, number][] = [];
    await embedder.embed(TEXTS, { onProgress: (done, total) => calls.push([done, total]) });
    expect(calls).toEqual([
      [0, 7],
      [3, 7],
      [6, 7],
      [7, 7],
    ]);
  });

  it('embeds an empty list to no vectors', async () => {
    const calls: [number, number][] = [];
    expect(await embedder.embed([], { onProgress: (d, t) => calls.push([d, t]) })).toEqual([]);
    expect(calls).toEqual([[0, 0]]);
  });

  it('embeds text outside the vocabulary (accents, CJK, symbols, empty)', async () => {
    const vectors = await embedder.embed(['Ünïcode Größe', '日本語のマニュアル', '±5 % → 3.3 V', '']);
    for (const v of vectors) expect(Math.abs(norm(v) - 1)).toBeLessThan(1e-4);
  });

  it('embeds a text longer than the model window in windows, so its tail still moves its vector', async () => {
    // ~80 repeats of the test sentences are far over the tiny model's 512-token window.
    const body = Array.from({ length: 80 }, (_, i) => TEXTS[i % 6]).join('\n');
    const [a, b, whole] = await embedder.embed([`${body}\nHold BOOT while powering on.`, `${body}\nUse a 5V 3A adapter.`, body]);
    expect(Array.from(a ?? [])).not.toEqual(Array.from(b ?? []));
    expect(Array.from(a ?? [])).not.toEqual(Array.from(whole ?? []));
    for (const v of [a, b, whole]) expect(Math.abs(norm(v ?? new Float32Array()) - 1)).toBeLessThan(1e-4);
  });

  it('embeds a text that fits its window exactly as a wider window does, and counts progress in texts', async () => {
    const narrow = await loadOnnxEmbedder(modelDir, { batchSize: 2, threads: 1, maxTokens: 16 });
    try {
      const short = TEXTS[4] ?? '';
      const long = TEXTS.slice(0, 6).join(' ');
      const progress: [number, number][] = [];
      const [shortNarrow, longNarrow] = await narrow.embed([short, long], { onProgress: (d, t) => progress.push([d, t]) });
      const [shortWide, longWide] = await embedder.embed([short, long]);
      expect(Array.from(shortNarrow ?? [])).toEqual(Array.from(shortWide ?? []));
      expect(Array.from(longNarrow ?? [])).not.toEqual(Array.from(longWide ?? []));
      // The long text spans several batches of 2 windows: progress never goes back and ends at the total.
      expect(progress.length).toBeGreaterThan(2);
      expect(progress.at(-1)).toEqual([2, 2]);
      for (let i = 1; i < progress.length; i++) expect(progress[i]![0]).toBeGreaterThanOrEqual(progress[i - 1]![0]);
    } finally {
      await narrow.dispose();
    }
  });

  it('stops between batches when the signal aborts, and stays usable', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const err = await codedFailure(
      embedder.embed(TEXTS, {
        signal: controller.signal,
        onProgress: (done) => {
          seen.push(done);
          if (done >= 3) controller.abort();
        },
      }),
    );
    expect(err.code).toBe('cancelled');
    expect(seen).toEqual([0, 3]);
    expect(await embedder.embed(TEXTS.slice(0, 1))).toHaveLength(1);
  });

  it('does not start when the signal is already aborted', async () => {
    const err = await codedFailure(embedder.embed(TEXTS, { signal: AbortSignal.abort() }));
    expect(err.code).toBe('cancelled');
  });

  it('names the folder when the model folder does not exist', async () => {
    const missing = path.join(tmp, 'no-such-model');
    const err = await codedFailure(loadOnnxEmbedder(missing));
    expect(err.code).toBe('model-missing');
    expect(err.message).toContain(missing);
  });

  it('names the folder and the missing file when onnx/model.onnx is absent', async () => {
    const dir = path.join(tmp, 'no-onnx');
    await cp(modelDir, dir, { recursive: true });
    await rm(path.join(dir, 'onnx'), { recursive: true });
    const err = await codedFailure(loadOnnxEmbedder(dir));
    expect(err.code).toBe('model-missing');
    expect(err.message).toContain(dir);
    expect(err.message).toContain('model.onnx');
  });

  it('names the folder when the ONNX file is corrupt', async () => {
    const dir = path.join(tmp, 'corrupt-onnx');
    await cp(modelDir, dir, { recursive: true });
    await writeFile(path.join(dir, 'onnx', 'model.onnx'), 'this is not a protobuf');
    const err = await codedFailure(loadOnnxEmbedder(dir));
    expect(err.code).toBe('model-failed');
    expect(err.message).toContain(dir);
  });

  it('names the folder when config.json is not JSON', async () => {
    const dir = path.join(tmp, 'corrupt-config');
    await cp(modelDir, dir, { recursive: true });
    await writeFile(path.join(dir, 'config.json'), '{ nope');
    const err = await codedFailure(loadOnnxEmbedder(dir));
    expect(err.code).toBe('model-failed');
    expect(err.message).toContain(dir);
  });

  it('loads a second copy from another parent folder and agrees with the first', async () => {
    const dir = path.join(tmp, 'elsewhere', 'tiny-copy');
    await cp(modelDir, dir, { recursive: true });
    const other = await loadOnnxEmbedder(dir, { batchSize: 100 });
    try {
      expect(other.id).toBe('tiny-copy');
      const [x] = await other.embed(TEXTS.slice(0, 1));
      const [y] = await embedder.embed(TEXTS.slice(0, 1));
      expect(Array.from(x ?? [])).toEqual(Array.from(y ?? []));
    } finally {
      await other.dispose();
    }
  });

  it('refuses to embed after dispose', async () => {
    const other = await loadOnnxEmbedder(modelDir);
    await other.dispose();
    const err = await codedFailure(other.embed(['text']));
    expect(err.code).toBe('unavailable');
  });

  it('never fetched anything over the whole suite', () => {
    expect(fetchCalls).toEqual([]);
  });
});
