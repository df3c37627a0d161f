import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodedError } from '../../src-main/core/result';
import { loadLlm } from '../../src-main/models/llm.runtime';
import type { ChatMessage, Llm } from '../../src-main/models/types';
import { ensureTinyGguf, TINY_GGUF_SHAPE } from './tiny-gguf';

const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You answer questions about product manuals.' },
  { role: 'user', content: 'What fuse does the RAC-225B take?' },
];

/** A bounded schema, as ENVIRONMENT.md advises for this model (maxLength on a oneOf branch). */
const SIGNATURE_SCHEMA = {
  type: 'object',
  properties: {
    model: { oneOf: [{ type: 'string', maxLength: 20 }, { type: 'null' }] },
    continuous: { type: 'boolean' },
  },
  required: ['model', 'continuous'],
} as const;

function matchesSignatureSchema(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  const modelOk = v.model === null || (typeof v.model === 'string' && v.model.length <= 20);
  const extraKeys = Object.keys(v).filter((k) => k !== 'model' && k !== 'continuous');
  return modelOk && typeof v.continuous === 'boolean' && extraKeys.length === 0;
}

let llm: Llm;
beforeAll(async () => {
  llm = await loadLlm(await ensureTinyGguf(), { threads: 1 });
});
afterAll(async () => {
  await llm?.dispose();
});

describe('loadLlm (node-llama-cpp on the tiny GGUF)', () => {
  it('loads the model with its file name as id and a context window within the trained one', () => {
    expect(llm.id).toBe('tiny-llama.gguf');
    expect(llm.contextSize).toBeGreaterThan(0);
    expect(llm.contextSize).toBeLessThanOrEqual(TINY_GGUF_SHAPE.contextLength);
  });

  it('streams pieces in order whose concatenation is the returned text', async () => {
    const pieces: string[] = [];
    const result = await llm.chat(MESSAGES, { maxTokens: 24, onToken: (p) => pieces.push(p) });
    expect(result.stopped).toBe(false);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(result.text);
    expect(result.text.length).toBeGreaterThan(0);
    expect(result.outputTokens).toBeGreaterThan(0);
    expect(result.outputTokens).toBeLessThanOrEqual(24);
    expect(result.promptTokens).toBeGreaterThan(llm.countTokens(MESSAGES[1]!.content));
  });

  it('continues a trailing assistant message and returns only the new text', async () => {
    const pieces: string[] = [];
    const result = await llm.chat([...MESSAGES, { role: 'assistant', content: 'The fuse is' }], {
      maxTokens: 10,
      onToken: (p) => pieces.push(p),
    });
    expect(result.stopped).toBe(false);
    expect(result.outputTokens).toBeGreaterThan(0);
    expect(pieces.every((p) => p.length > 0)).toBe(true);
    expect(pieces.join('')).toBe(result.text);
    expect(result.text.startsWith('The fuse is')).toBe(false);
  });

  it('answers identical requests identically: calls share no chat state', async () => {
    const first = await llm.chat(MESSAGES, { maxTokens: 16 });
    await llm.chat([{ role: 'user', content: 'Something else entirely, about batteries.' }], { maxTokens: 16 });
    const again = await llm.chat(MESSAGES, { maxTokens: 16 });
    expect(again.text).toBe(first.text);
    expect(again.promptTokens).toBe(first.promptTokens);
  });

  it('serializes concurrent calls on its one context', async () => {
    const sequential = await llm.chat(MESSAGES, { maxTokens: 12 });
    const [a, b] = await Promise.all([llm.chat(MESSAGES, { maxTokens: 12 }), llm.chat(MESSAGES, { maxTokens: 12 })]);
    expect(a.text).toBe(sequential.text);
    expect(b.text).toBe(sequential.text);
  });

  it('returns stopped with the text so far when aborted mid-stream', async () => {
    const controller = new AbortController();
    const pieces: string[] = [];
    const result = await llm.chat(MESSAGES, {
      maxTokens: 200,
      signal: controller.signal,
      onToken: (p) => {
        pieces.push(p);
        if (pieces.length === 3) controller.abort();
      },
    });
    expect(result.stopped).toBe(true);
    expect(result.text).toBe(pieces.join(''));
    expect(result.outputTokens).toBeLessThan(200);
  });

  it('returns stopped with no text when the signal is already aborted', async () => {
    const pieces: string[] = [];
    const result = await llm.chat(MESSAGES, { maxTokens: 50, signal: AbortSignal.abort(), onToken: (p) => pieces.push(p) });
    expect(result).toMatchObject({ stopped: true, text: '', outputTokens: 0 });
    expect(pieces).toEqual([]);
  });

  it('keeps sampled output valid text: no replacement characters from stray byte tokens', async () => {
    const result = await llm.chat(MESSAGES, { maxTokens: 120, temperature: 1 });
    expect(result.text.length).toBeGreaterThan(0);
    expect(result.text).not.toContain('\uFFFD');
  });

  it('chatJson returns a value that parses and matches a bounded schema', async () => {
    const pieces: string[] = [];
    const result = await llm.chatJson(MESSAGES, SIGNATURE_SCHEMA, { maxTokens: 80, onToken: (p) => pieces.push(p) });
    expect(result.stopped).toBe(false);
    expect(result.value).toEqual(JSON.parse(result.text));
    expect(matchesSignatureSchema(result.value)).toBe(true);
    expect(pieces.join('')).toBe(result.text);
  });

  it('chatJson stops when aborted and reports no value for incomplete JSON', async () => {
    const controller = new AbortController();
    let pieces = 0;
    const result = await llm.chatJson(MESSAGES, SIGNATURE_SCHEMA, {
      maxTokens: 80,
      signal: controller.signal,
      onToken: () => {
        if (++pieces === 2) controller.abort();
      },
    });
    expect(result.stopped).toBe(true);
    expect(result.value).toBeUndefined();
  });

  it('counts tokens with the model tokenizer', () => {
    const short = llm.countTokens('Check the fuse.');
    const long = llm.countTokens('Check the fuse. '.repeat(10));
    expect(Number.isInteger(short)).toBe(true);
    expect(short).toBeGreaterThan(0);
    expect(long).toBeGreaterThan(short);
    expect(llm.countTokens('')).toBe(0);
  });

  it('rejects a missing model file with model-missing', async () => {
    const missing = path.join(os.tmpdir(), 'no-such-dir-manualmate', 'absent.gguf');
    const err = await loadLlm(missing, { threads: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CodedError);
    expect((err as CodedError).code).toBe('model-missing');
  });

  it('rejects a file that is not a GGUF model with model-failed', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'llm-runtime-'));
    const notAModel = path.join(dir, 'notes.gguf');
    await writeFile(notAModel, 'plain text, not a model');
    const err = await loadLlm(notAModel, { threads: 1 }).catch((e: unknown) => e);
    await rm(dir, { recursive: true, force: true });
    expect(err).toBeInstanceOf(CodedError);
    expect((err as CodedError).code).toBe('model-failed');
  });
});
