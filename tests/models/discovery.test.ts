import { copyFile, mkdir, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverModels } from '../../src-main/models/discovery';
import { ensureTinyGguf } from './tiny-gguf';

/** A header-only GGUF v3 (no tensors) declaring `architecture`: enough for discovery to classify. */
function headerOnlyGguf(architecture: string): Buffer {
  const str = (s: string): Buffer => {
    const bytes = Buffer.from(s, 'utf8');
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(bytes.length));
    return Buffer.concat([len, bytes]);
  };
  const u32 = (v: number): Buffer => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    return b;
  };
  const u64 = (v: number): Buffer => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    return b;
  };
  const STRING = 8;
  return Buffer.concat([Buffer.from('GGUF'), u32(3), u64(0), u64(1), str('general.architecture'), u32(STRING), str(architecture)]);
}

let root: string;
let bundled: string;
let data: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'discovery-'));
  bundled = path.join(root, 'bundled');
  data = path.join(root, 'data');
  await mkdir(bundled, { recursive: true });
  await copyFile(await ensureTinyGguf(), path.join(bundled, 'chat-model.gguf'));
  await writeFile(path.join(bundled, 'README.md'), '# models\n');

  await mkdir(path.join(data, 'downloads'), { recursive: true });
  await writeFile(path.join(data, 'downloads', 'bge-small.gguf'), headerOnlyGguf('bert'));
  // transformers.js layout: org/name/{config.json, onnx/model.onnx}
  const onnx = path.join(data, 'Xenova', 'fake-minilm');
  await mkdir(path.join(onnx, 'onnx'), { recursive: true });
  await writeFile(path.join(onnx, 'config.json'), '{"model_type":"bert"}');
  await writeFile(path.join(onnx, 'onnx', 'model.onnx'), Buffer.alloc(100));

  // Junk that must be ignored.
  await writeFile(path.join(data, 'broken.gguf'), 'this is not a GGUF file');
  await writeFile(path.join(data, 'empty.gguf'), '');
  await writeFile(path.join(data, 'projector.gguf'), headerOnlyGguf('clip'));
  await writeFile(path.join(data, 'notes.txt'), 'hello');
  await mkdir(path.join(data, 'config-only'), { recursive: true });
  await writeFile(path.join(data, 'config-only', 'config.json'), '{}');
  await mkdir(path.join(data, 'onnx-without-config', 'onnx'), { recursive: true });
  await writeFile(path.join(data, 'onnx-without-config', 'onnx', 'model.onnx'), Buffer.alloc(10));
  await mkdir(path.join(data, '.hidden'), { recursive: true });
  await copyFile(await ensureTinyGguf(), path.join(data, '.hidden', 'secret.gguf'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('discoverModels', () => {
  it('finds GGUF files and ONNX folders, classifies them and ignores junk', async () => {
    const models = await discoverModels([
      { path: bundled, source: 'bundled' },
      { path: data, source: 'data' },
    ]);
    expect(models.map((m) => m.id)).toEqual(['bge-small.gguf', 'chat-model.gguf', 'fake-minilm']);

    const [bge, chat, minilm] = models;
    expect(chat).toMatchObject({ format: 'gguf', source: 'bundled', kinds: ['llm'], path: path.join(bundled, 'chat-model.gguf') });
    expect(chat!.sizeBytes).toBe((await stat(path.join(bundled, 'chat-model.gguf'))).size);
    expect(bge).toMatchObject({ format: 'gguf', source: 'data', kinds: ['embedder'] });
    expect(minilm).toMatchObject({ format: 'onnx', source: 'data', kinds: ['embedder'], path: path.join(data, 'Xenova', 'fake-minilm') });
    expect(minilm!.sizeBytes).toBeGreaterThanOrEqual(100);
    for (const m of models) expect(path.isAbsolute(m.path)).toBe(true);
  });

  it('treats missing folders as empty', async () => {
    const missing = path.join(root, 'does-not-exist');
    expect(await discoverModels([{ path: missing, source: 'data' }])).toEqual([]);
    expect(await discoverModels([])).toEqual([]);
  });

  it('lists a model split into parts once, with the size of all parts', async () => {
    const dir = path.join(root, 'split');
    await mkdir(dir, { recursive: true });
    const part1 = headerOnlyGguf('llama');
    await writeFile(path.join(dir, 'big-00001-of-00002.gguf'), part1);
    await writeFile(path.join(dir, 'big-00002-of-00002.gguf'), Buffer.alloc(64));
    const models = await discoverModels([{ path: dir, source: 'data' }]);
    expect(models).toHaveLength(1);
    expect(models[0]).toMatchObject({ id: 'big-00001-of-00002.gguf', kinds: ['llm'], sizeBytes: part1.length + 64 });
  });

  it('reads a GGUF header again only when the file changed (size or time)', async () => {
    const dir = path.join(root, 'changing');
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, 'model.gguf');
    const kinds = async () => (await discoverModels([{ path: dir, source: 'data' }]))[0]?.kinds;
    // Headers of the same length: "gpt2" is a chat model, "bert" an embedder.
    expect(headerOnlyGguf('gpt2').length).toBe(headerOnlyGguf('bert').length);
    await writeFile(file, headerOnlyGguf('gpt2'));
    const then = new Date(Date.now() - 60_000);
    await utimes(file, then, then);
    expect(await kinds()).toEqual(['llm']);
    // Rewritten with the same size and time: taken for the file read before, its header not read.
    await writeFile(file, headerOnlyGguf('bert'));
    await utimes(file, then, then);
    expect(await kinds()).toEqual(['llm']);
    // A new modification time: read again.
    await utimes(file, new Date(), new Date());
    expect(await kinds()).toEqual(['embedder']);
    // A new size: read again.
    await writeFile(file, headerOnlyGguf('llama'));
    await utimes(file, then, then);
    expect(await kinds()).toEqual(['llm']);
  });
});
