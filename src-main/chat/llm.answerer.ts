import type { Citation } from '../contract/api';
import type { ChatMessage, Llm } from '../models/types';
import type { Passage } from './passages';
import { citationFor, passageSource } from './passages';

/**
 * The answer with a local LLM: the best passages that fit the model's context (counted with the
 * model's own tokenizer, whole passages only, room left for the answer), an instruction to answer
 * only from them and cite them as [1], [2], streamed token by token and stoppable. The [n]
 * markers of the answer become citations; numbers that name no passage are ignored.
 */

export const SYSTEM_PROMPT = [
  'You are ManualMate, an assistant for technicians working with product manuals.',
  'Answer the question using only the numbered passages from the manuals given with it.',
  'After every fact, cite the passage it comes from by its number in square brackets, like [1] or [2].',
  'Answer for the exact product model the question names; never use a passage about a different model.',
  'If the passages do not contain the answer, say that the manuals in this library do not cover it.',
  'Be brief and precise; keep numbers, units and pin names exactly as written in the passages.',
].join(' ');

/**
 * Tokens the chat template adds around each message and at the start of the reply, which
 * `countTokens` on the contents cannot see. Measured: ChatML on the tiny test model adds ~11 per
 * message and ~9 fixed; common templates (Llama 3, Qwen, Gemma) add 5-10 per message. The
 * allowance errs high so the prompt never overruns the context.
 */
export const TEMPLATE_TOKENS_PER_MESSAGE = 16;
export const TEMPLATE_TOKENS_FIXED = 32;

/** An earlier message of the conversation. */
export interface HistoryMessage {
  role: 'user' | 'assistant';
  text: string;
}

export interface LlmAnswerInput {
  question: string;
  /** Relevant passages, best first. */
  passages: readonly Passage[];
  /** Earlier messages, oldest first; the most recent that fit are kept. */
  history?: readonly HistoryMessage[];
}

export interface LlmAnswerOptions {
  signal?: AbortSignal;
  /** Receives each generated piece, in order; the pieces add up to the answer text. */
  onToken?: (piece: string) => void;
  /** Tokens reserved for the answer (default: a quarter of the context, at most 1024). */
  answerTokens?: number;
  temperature?: number;
}

/** How the prompt was fitted into the context, in tokens of the model's tokenizer. */
export interface PromptBudget {
  contextSize: number;
  /** Reserved for the answer; also the generation's `maxTokens`. */
  answerTokens: number;
  /** Contents of all messages plus the template allowance; never above `contextSize - answerTokens`. */
  promptTokens: number;
  passagesUsed: number;
  passagesDropped: number;
  historyUsed: number;
}

export interface BuiltPrompt {
  messages: ChatMessage[];
  /** The passages in the prompt; passage i is cited as [i + 1]. */
  passages: Passage[];
  budget: PromptBudget;
}

export interface LlmAnswer {
  text: string;
  citations: Citation[];
  stopped: boolean;
  budget: PromptBudget;
  /** Prompt tokens as the runtime counted them after applying the chat template. */
  runtimePromptTokens: number;
}

/** Default answer room: a quarter of the context, at most 1024 tokens, at least 16. */
export function defaultAnswerTokens(contextSize: number): number {
  return Math.max(16, Math.min(1024, Math.floor(contextSize / 4)));
}

function passageBlock(passage: Passage, n: number): string {
  return `[${n}] Source: ${passageSource(passage.hit)}\n${passage.hit.text.trim()}`;
}

function userMessage(question: string, blocks: readonly string[]): string {
  return `Passages from the manuals:\n\n${blocks.join('\n\n')}\n\nQuestion: ${question}`;
}

/**
 * Fits system prompt, passages, history and question into `contextSize - answerTokens`: whole
 * passages in rank order (one that does not fit is dropped, smaller later ones may still fit),
 * then the most recent history. Returns null when not even one passage fits.
 */
export function buildPrompt(llm: Pick<Llm, 'countTokens' | 'contextSize'>, input: LlmAnswerInput, answerTokens: number): BuiltPrompt | null {
  const limit = llm.contextSize - answerTokens;
  const cost = (messages: readonly ChatMessage[]): number =>
    messages.reduce((n, m) => n + llm.countTokens(m.content), 0) + messages.length * TEMPLATE_TOKENS_PER_MESSAGE + TEMPLATE_TOKENS_FIXED;

  const base = cost([
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: userMessage(input.question, []) },
  ]);
  let room = limit - base;
  const chosen: Passage[] = [];
  let dropped = 0;
  for (const p of input.passages) {
    // +4 covers the blank line between blocks and a two-digit number.
    const c = llm.countTokens(passageBlock(p, chosen.length + 1)) + 4;
    if (c <= room) {
      chosen.push(p);
      room -= c;
    } else dropped++;
  }
  if (chosen.length === 0) return null;

  const history: HistoryMessage[] = [];
  for (const m of [...(input.history ?? [])].reverse()) {
    const c = llm.countTokens(m.text) + TEMPLATE_TOKENS_PER_MESSAGE;
    if (c > room) break;
    history.unshift(m);
    room -= c;
  }
  // The conversation must open with a question: a leading answer without it only confuses.
  while (history[0]?.role === 'assistant') history.shift();

  const assemble = (): ChatMessage[] => [
    { role: 'system', content: SYSTEM_PROMPT },
    ...history.map((m): ChatMessage => ({ role: m.role, content: m.text })),
    { role: 'user', content: userMessage(input.question, chosen.map((p, i) => passageBlock(p, i + 1))) },
  ];
  let messages = assemble();
  let total = cost(messages);
  // Token counts of joined texts can exceed the sum of their parts by a token here and there.
  while (total > limit) {
    if (history.length > 0) history.shift();
    else if (chosen.length > 1) {
      chosen.pop();
      dropped++;
    } else return null;
    messages = assemble();
    total = cost(messages);
  }
  return {
    messages,
    passages: chosen,
    budget: { contextSize: llm.contextSize, answerTokens, promptTokens: total, passagesUsed: chosen.length, passagesDropped: dropped, historyUsed: history.length },
  };
}

/**
 * The [n] numbers an answer cites, first appearance first, limited to 1..count, with the answer
 * text around each first marker (for locating the member of a merged unit).
 */
export function parseCitationMarkers(text: string, count: number): { n: number; context: string }[] {
  const out: { n: number; context: string }[] = [];
  for (const m of text.matchAll(/\[(\d{1,3}(?:\s*[,;]\s*\d{1,3})*)\]/g)) {
    const sentenceStart = Math.max(text.lastIndexOf('.', m.index - 2), text.lastIndexOf('\n', m.index - 1)) + 1;
    const context = text.slice(sentenceStart, m.index).replace(/\[\d[\d,;\s]*\]/g, ' ').trim();
    for (const part of m[1]!.split(/[,;]/)) {
      const n = Number(part.trim());
      if (n >= 1 && n <= count && !out.some((o) => o.n === n)) out.push({ n, context });
    }
  }
  return out;
}

/**
 * Answers with `llm` from `input.passages`. Returns null when not even the best passage fits the
 * context (the caller answers extractively). A stopped generation keeps its partial text.
 */
export async function answerWithLlm(llm: Llm, input: LlmAnswerInput, options: LlmAnswerOptions = {}): Promise<LlmAnswer | null> {
  const answerTokens = options.answerTokens ?? defaultAnswerTokens(llm.contextSize);
  const prompt = buildPrompt(llm, input, answerTokens);
  if (!prompt) return null;
  const result = await llm.chat(prompt.messages, {
    maxTokens: answerTokens,
    temperature: options.temperature ?? 0.2,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onToken ? { onToken: options.onToken } : {}),
  });
  const cited = parseCitationMarkers(result.text, prompt.passages.length);
  // An answer that cites nothing still came from these passages: list them all as its sources.
  const citations =
    result.text.trim() === ''
      ? []
      : cited.length > 0
        ? cited.sort((a, b) => a.n - b.n).map((c) => citationFor(prompt.passages[c.n - 1]!, c.n, { texts: [c.context, input.question] }))
        : prompt.passages.map((p, i) => citationFor(p, i + 1, { texts: [input.question] }));
  return { text: result.text, citations, stopped: result.stopped, budget: prompt.budget, runtimePromptTokens: result.promptTokens };
}
