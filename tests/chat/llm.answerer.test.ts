import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Passage } from '../../src-main/chat/passages';
import { answerWithLlm, buildPrompt, defaultAnswerTokens, parseCitationMarkers, SYSTEM_PROMPT } from '../../src-main/chat/llm.answerer';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { loadLlm } from '../../src-main/models/llm.runtime';
import type { Llm } from '../../src-main/models/types';
import { ensureTinyGguf } from '../models/tiny-gguf';
import { tempDir } from '../helpers/temp';
import { importP200, recordingLlm, unwrap } from './fixtures';

describe('citation markers', () => {
  it('reads [n] and [n, m] in order of first appearance, once each', () => {
    const text = 'Use a 10 A fuse [2]. Replace the seals [1, 3]; check again [2][1].';
    expect(parseCitationMarkers(text, 3).map((c) => c.n)).toEqual([2, 1, 3]);
  });

  it('drops numbers that name no passage', () => {
    expect(parseCitationMarkers('See [0], [4] and [12] but also [2].', 3).map((c) => c.n)).toEqual([2]);
    expect(parseCitationMarkers('No markers here, only [a] and [1.5].', 3)).toEqual([]);
  });

  it('keeps the answer words before a marker as evidence for locating the member quoted', () => {
    const [first] = parseCitationMarkers('Intro. Clean the inlet strainer weekly [1].', 1);
    expect(first!.context).toBe('Clean the inlet strainer weekly');
  });
});

let engine: Engine;
let cleanup: () => Promise<void>;
let passages: Passage[];
let tiny: Llm;

beforeAll(async () => {
  const tmp = await tempDir('manualmate-llm-answer-');
  cleanup = tmp.cleanup;
  engine = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none') });
  const index = await importP200(engine, tmp.dir);
  const found = unwrap(await index.search('P-200 maintenance fuse seal strainer', { topK: 5, retriever: 'bm25' }));
  passages = found.results.map((hit) => ({ hit, members: [] }));
  tiny = await loadLlm(await ensureTinyGguf(), { threads: 1, contextSize: 2048 });
});
afterAll(async () => {
  await tiny?.dispose();
  await engine?.dispose();
  await cleanup?.();
});

describe('fitting the prompt into the context (tiny GGUF tokenizer)', () => {
  it('keeps whole passages that fit, drops the rest, and never exceeds context minus answer room', async () => {
    expect(passages.length).toBeGreaterThanOrEqual(2);
    const answerTokens = defaultAnswerTokens(tiny.contextSize);
    const built = buildPrompt(tiny, { question: 'What fuse does the P-200 take?', passages }, answerTokens);
    expect(built).not.toBeNull();
    const { messages, budget } = built!;
    expect(budget.passagesUsed).toBeGreaterThanOrEqual(1);
    expect(budget.passagesDropped).toBeGreaterThanOrEqual(1);
    const contentTokens = messages.reduce((n, m) => n + tiny.countTokens(m.content), 0);
    expect(contentTokens).toBeLessThanOrEqual(budget.promptTokens);
    expect(budget.promptTokens).toBeLessThanOrEqual(tiny.contextSize - answerTokens);
    // Whole passages only: every passage in the prompt appears there in full.
    const user = messages.at(-1)!.content;
    for (const p of built!.passages) expect(user).toContain(p.hit.text.trim());
    expect(messages[0]!.content).toBe(SYSTEM_PROMPT);
  });

  it('generates within the budget as the runtime counts it, chat template included', async () => {
    const { llm, calls } = recordingLlm(tiny);
    const answer = await answerWithLlm(llm, { question: 'What fuse does the P-200 take?', passages }, { answerTokens: 64 });
    expect(answer).not.toBeNull();
    expect(calls).toHaveLength(1);
    const call = calls[0]!;
    expect(call.maxTokens).toBe(64);
    expect(call.result.promptTokens + call.maxTokens).toBeLessThanOrEqual(tiny.contextSize);
    expect(answer!.runtimePromptTokens).toBeLessThanOrEqual(answer!.budget.promptTokens);
    expect(answer!.text).toBe(call.result.text);
    expect(answer!.citations.length).toBeGreaterThan(0);
  });

  it('keeps the most recent history that fits and drops older turns', async () => {
    const history = Array.from({ length: 24 }, (_, i) => ({
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      text: `Turn ${i}: ${'the pump seal and the bearing temperature were checked again. '.repeat(3)}`,
    }));
    const { llm, calls } = recordingLlm(tiny);
    // The page-1 chunk alone (~520 tokens) leaves room for part of the history.
    const small = passages.filter((p) => !p.hit.chunkId.includes('+'));
    const answer = await answerWithLlm(llm, { question: 'And the fuse?', passages: small, history }, { answerTokens: 32 });
    expect(answer).not.toBeNull();
    expect(answer!.budget.historyUsed).toBeGreaterThan(0);
    expect(answer!.budget.historyUsed).toBeLessThan(history.length);
    const sent = calls[0]!.messages;
    const sentHistory = sent.slice(1, -1);
    expect(sentHistory.length).toBe(answer!.budget.historyUsed);
    // The most recent turns are the ones kept, and the kept history opens with a question.
    expect(sentHistory.at(-1)!.content).toBe(history.at(-1)!.text);
    expect(sentHistory[0]!.role).toBe('user');
    const contentTokens = sent.reduce((n, m) => n + tiny.countTokens(m.content), 0);
    expect(contentTokens + 32).toBeLessThanOrEqual(tiny.contextSize);
    expect(calls[0]!.result.promptTokens + 32).toBeLessThanOrEqual(tiny.contextSize);
  });

  it('declines (null) without calling the model when not even one passage fits', async () => {
    const { llm, calls } = recordingLlm(tiny);
    const cramped: Llm = { ...llm, contextSize: 600 };
    const answer = await answerWithLlm(cramped, { question: 'What fuse does the P-200 take?', passages }, {});
    expect(answer).toBeNull();
    expect(calls).toHaveLength(0);
  });
});
