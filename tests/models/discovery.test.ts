import { copyFile, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverModels } from '../../src-main/models/discovery';
import { ensureTinyGguf } from './tiny-gguf';
import { headerOnlyGguf } from './header-gguf';

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
});
