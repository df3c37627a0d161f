import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readGgufFileInfo } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTinyGguf, ensureTinyGguf, TINY_GGUF_SHAPE, writeTinyGguf } from './tiny-gguf';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'tiny-gguf-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('tiny GGUF generator', () => {
  it('writes identical bytes on every run', async () => {
    const a = path.join(tmp, 'a.gguf');
    const b = path.join(tmp, 'nested', 'b.gguf');
    await writeTinyGguf(a);
    await writeTinyGguf(b);
    const [bytesA, bytesB] = await Promise.all([readFile(a), readFile(b)]);
    expect(bytesA.length).toBeGreaterThan(0);
    expect(bytesA.equals(bytesB)).toBe(true);
    expect(bytesA.equals(buildTinyGguf())).toBe(true);
  });

  it('writes a GGUF v3 header with tensor data aligned to 32 bytes', () => {
    const bytes = buildTinyGguf();
    expect(bytes.subarray(0, 4).toString('ascii')).toBe('GGUF');
    expect(bytes.readUInt32LE(4)).toBe(3);
    expect(bytes.length % 32).toBe(0);
  });

  it('describes a small llama model with a byte-fallback vocab and a ChatML template', async () => {
    const file = path.join(tmp, 'info.gguf');
    await writeTinyGguf(file);
    const info = await readGgufFileInfo(file, { sourceType: 'filesystem' });
    const meta = info.metadata as unknown as {
      general: { architecture: string };
      llama: { embedding_length: number; block_count: number; context_length: number };
      tokenizer: { ggml: { model: string; tokens: string[] }; chat_template: string };
    };
    expect(meta.general.architecture).toBe('llama');
    expect(meta.llama.embedding_length).toBe(TINY_GGUF_SHAPE.nEmbd);
    expect(meta.llama.block_count).toBe(TINY_GGUF_SHAPE.nLayer);
    expect(meta.llama.context_length).toBeGreaterThanOrEqual(2048);
    expect(meta.tokenizer.ggml.model).toBe('llama');

    const tokens = meta.tokenizer.ggml.tokens;
    expect(tokens.length).toBeGreaterThanOrEqual(500);
    expect(tokens.length).toBeLessThanOrEqual(650);
    for (let b = 0; b < 256; b++) {
      expect(tokens).toContain(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    }
    for (const special of ['<s>', '</s>', '<unk>', '<|im_start|>', '<|im_end|>']) expect(tokens).toContain(special);
    expect(new Set(tokens).size).toBe(tokens.length);
    expect(meta.tokenizer.chat_template).toContain('<|im_start|>');

    const params = (info.tensorInfo ?? []).reduce((sum, t) => sum + t.dimensions.reduce((p: number, d) => p * Number(d), 1), 0);
    expect(params).toBeGreaterThanOrEqual(100_000);
    expect(params).toBeLessThanOrEqual(200_000);
    expect((info.tensorInfo ?? []).every((t) => t.ggmlType === 0)).toBe(true);
  });

  it('ensureTinyGguf rewrites a stale file and leaves a current one untouched', async () => {
    const file = path.join(tmp, 'ensure', 'tiny-llama.gguf');
    await ensureTinyGguf(file);
    await writeFile(file, 'stale model from an older generator');
    expect(await ensureTinyGguf(file)).toBe(file);
    expect((await readFile(file)).equals(buildTinyGguf())).toBe(true);

    const before = await stat(file);
    await ensureTinyGguf(file);
    expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);
  });

  it('ensureTinyGguf called concurrently leaves one complete file', async () => {
    const file = path.join(tmp, 'concurrent', 'tiny-llama.gguf');
    const paths = await Promise.all(Array.from({ length: 4 }, () => ensureTinyGguf(file)));
    expect(new Set(paths)).toEqual(new Set([file]));
    expect((await readFile(file)).equals(buildTinyGguf())).toBe(true);
  });

  it('ensureTinyGguf defaults to tests/.models/tiny-llama.gguf', async () => {
    const file = await ensureTinyGguf();
    expect(path.relative(fileURLToPath(new URL('../..', import.meta.url)), file)).toBe(path.join('tests', '.models', 'tiny-llama.gguf'));
    expect((await readFile(file)).equals(buildTinyGguf())).toBe(true);
  });
});
