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

  it('embeds a text longer than its context in windows, so its tail still moves its vector', async () => {
    const narrow = await loadGgufEmbedder(await ensureTinyGguf(), { threads: 1, contextSize: 32 });
    try {
      const body = Array.from({ length: 20 }, () => 'Connect the USB power supply and press the reset button.').join('\n');
      const progress: [number, number][] = [];
      const [a, b, short] = await narrow.embed([`${body}\nReplace the 5 A fuse.`, `${body}\nHold BOOT while powering on.`, 'battery charge'], {
        onProgress: (done, total) => progress.push([done, total]),
      });
      expect(Array.from(a!)).not.toEqual(Array.from(b!));
      expect(norm(a!)).toBeCloseTo(1, 4);
      expect(progress).toEqual([
        [1, 3],
        [2, 3],
        [3, 3],
      ]);
      const [wide] = await embedder.embed(['battery charge']);
      expect(Array.from(short!)).toEqual(Array.from(wide!));
    } finally {
      await narrow.dispose();
    }
  });

  it('stops with a cancelled error when the signal is aborted', async () => {
    const err = await embedder.embed(['one', 'two'], { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CodedError);
    expect((err as CodedError).code).toBe('cancelled');
  });
});
