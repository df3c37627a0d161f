import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTinyOnnx, TINY_HIDDEN_SIZE, TINY_ONNX_VERSION, writeTinyOnnx } from './tiny-onnx';

const FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json', 'onnx/model.onnx', 'tiny-model.version'];

let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'tiny-onnx-'));
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('writeTinyOnnx', () => {
  it('writes byte-identical folders on every call', async () => {
    const a = path.join(tmp, 'a');
    const b = path.join(tmp, 'b');
    await writeTinyOnnx(a);
    await writeTinyOnnx(b);
    for (const file of FILES) {
      const [x, y] = await Promise.all([readFile(path.join(a, file)), readFile(path.join(b, file))]);
      expect(x.length, file).toBeGreaterThan(0);
      expect(x.equals(y), file).toBe(true);
    }
  });

  it('describes a BERT model whose vocab size matches a contiguous WordPiece vocab', async () => {
    const dir = path.join(tmp, 'layout');
    await writeTinyOnnx(dir);
    const config = JSON.parse(await readFile(path.join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
    const tokenizer = JSON.parse(await readFile(path.join(dir, 'tokenizer.json'), 'utf8')) as {
      model: { type: string; vocab: Record<string, number> };
      normalizer: { lowercase: boolean };
      pre_tokenizer: { type: string };
    };
    const vocab = tokenizer.model.vocab;
    const ids = Object.values(vocab).sort((x, y) => x - y);

    expect(config.model_type).toBe('bert');
    expect(config.hidden_size).toBe(TINY_HIDDEN_SIZE);
    expect(config.vocab_size).toBe(ids.length);
    expect(ids).toEqual(ids.map((_, i) => i));
    expect(tokenizer.model.type).toBe('WordPiece');
    expect(tokenizer.normalizer.lowercase).toBe(true);
    expect(tokenizer.pre_tokenizer.type).toBe('BertPreTokenizer');
    for (const special of ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']) expect(vocab).toHaveProperty([special]);
    expect(vocab['[PAD]']).toBe(config.pad_token_id);
    // Every ASCII letter and digit can start or continue a word, so no ASCII word becomes [UNK].
    for (const c of 'abcdefghijklmnopqrstuvwxyz0123456789') {
      expect(vocab).toHaveProperty([c]);
      expect(vocab).toHaveProperty([`##${c}`]);
    }
    expect(ids.length).toBeGreaterThan(300);
  });

  it('produces a graph transformers.js runs: three int64 inputs, last_hidden_state [batch, seq, hidden], padding zeroed', async () => {
    const dir = path.join(tmp, 'models', 'tiny-run');
    await writeTinyOnnx(dir);
    const { env, AutoModel, AutoTokenizer } = await import('@huggingface/transformers');
    env.allowRemoteModels = false;
    env.localModelPath = path.dirname(dir);
    const tokenizer = await AutoTokenizer.from_pretrained('tiny-run', { local_files_only: true });
    const model = await AutoModel.from_pretrained('tiny-run', { local_files_only: true, dtype: 'fp32', device: 'cpu' });
    try {
      const sessions = (model as unknown as { sessions: Record<string, { inputNames: string[]; outputNames: string[] }> }).sessions;
      expect([...(sessions.model?.inputNames ?? [])].sort()).toEqual(['attention_mask', 'input_ids', 'token_type_ids']);
      expect(sessions.model?.outputNames).toEqual(['last_hidden_state']);

      const inputs = tokenizer(['short', 'a much longer sentence about the usb power supply'], { padding: true });
      const ids = inputs.input_ids.tolist() as bigint[][];
      expect(ids[1]).not.toContain(BigInt(1)); // [UNK]: plain ASCII words always tokenize
      const { last_hidden_state: out } = (await model(inputs)) as { last_hidden_state: { dims: number[]; tolist(): number[][][] } };
      const seq = ids[1]?.length ?? 0;
      expect(out.dims).toEqual([2, seq, TINY_HIDDEN_SIZE]);

      const mask = inputs.attention_mask.tolist() as bigint[][];
      const rows = out.tolist();
      rows.forEach((row, b) =>
        row.forEach((vec, t) => {
          const norm = Math.hypot(...vec);
          if (mask[b]?.[t] === BigInt(0)) expect(norm).toBe(0);
          else expect(norm).toBeGreaterThan(0);
        }),
      );
    } finally {
      await model.dispose();
    }
  });
});

describe('ensureTinyOnnx', () => {
  it('builds one complete folder when many callers race, leaving no temp folders behind', async () => {
    const target = path.join(tmp, 'shared', 'tiny-embedder');
    const results = await Promise.all(Array.from({ length: 4 }, () => ensureTinyOnnx(target)));
    expect(new Set(results)).toEqual(new Set([target]));
    expect((await readFile(path.join(target, 'tiny-model.version'), 'utf8')).trim()).toBe(TINY_ONNX_VERSION);
    for (const file of FILES) expect((await readFile(path.join(target, file))).length, file).toBeGreaterThan(0);
    expect(await readdir(path.dirname(target))).toEqual(['tiny-embedder']);
  });

  it('rebuilds a folder written by another generator version', async () => {
    const target = path.join(tmp, 'stale', 'tiny-embedder');
    await writeTinyOnnx(target);
    await writeFile(path.join(target, 'tiny-model.version'), 'tiny-embedder-v0\n');
    await writeFile(path.join(target, 'onnx', 'model.onnx'), 'not a model');

    await ensureTinyOnnx(target);

    const fresh = path.join(tmp, 'fresh');
    await writeTinyOnnx(fresh);
    const [rebuilt, expected] = await Promise.all([
      readFile(path.join(target, 'onnx', 'model.onnx')),
      readFile(path.join(fresh, 'onnx', 'model.onnx')),
    ]);
    expect(rebuilt.equals(expected)).toBe(true);
    expect(await readdir(path.dirname(target))).toEqual(['tiny-embedder']);
  });

  it('keeps the shared copy under tests/.models by default', async () => {
    const dir = await ensureTinyOnnx();
    expect(path.basename(dir)).toBe('tiny-embedder');
    expect(path.basename(path.dirname(dir))).toBe('.models');
    expect((await readFile(path.join(dir, 'tiny-model.version'), 'utf8')).trim()).toBe(TINY_ONNX_VERSION);
  });
});
