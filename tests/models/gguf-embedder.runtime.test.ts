import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodedError } from '../../src-main/core/result';
import { loadGgufEmbedder } from '../../src-main/models/gguf-embedder.runtime';
import type { Embedder } from '../../src-main/models/types';
import { ensureTinyGguf, TINY_GGUF_SHAPE } from './tiny-gguf';

let embedder: Embedder;
beforeAll(async () => {
  embedder = await loadGgufEmbedder(await ensureTinyGguf(), { threads: 1 });
});
afterAll(async () => {
  await embedder?.dispose();
});

const norm = (v: Float32Array): number => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

describe('loadGgufEmbedder (node-llama-cpp embedding context on the tiny GGUF)', () => {
  it('returns one unit-length vector of the model dimension per text, empty text included', async () => {
    const texts = ['Replace the 5 A fuse.', 'Connect the USB power supply.', '', 'x'.repeat(20_000)];
    const progress: [number, number][] = [];
    const vectors = await embedder.embed(texts, { onProgress: (done, total) => progress.push([done, total]) });
    expect(embedder.dimension).toBe(TINY_GGUF_SHAPE.nEmbd);
    expect(vectors).toHaveLength(texts.length);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(embedder.dimension);
      expect(norm(v)).toBeCloseTo(1, 4);
    }
    expect(progress).toEqual(texts.map((_, i) => [i + 1, texts.length]));
  });

  it('gives the same vector for the same text and different vectors for different texts', async () => {
    const [a, b, c] = await embedder.embed(['battery charge', 'reset button', 'battery charge']);
    expect(Array.from(c!)).toEqual(Array.from(a!));
    expect(Array.from(b!)).not.toEqual(Array.from(a!));
  });

  it('stops with a cancelled error when the signal is aborted', async () => {
    const err = await embedder.embed(['one', 'two'], { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CodedError);
    expect((err as CodedError).code).toBe('cancelled');
  });
});
