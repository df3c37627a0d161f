import type { z } from 'zod';
import type { EnrichStats } from '../core/chunk';
import type { ChatMessage, Llm } from '../models/types';

/**
 * Shared plumbing of the LLM enrichment backends: bounded JSON schemas (ENVIRONMENT.md pitfalls:
 * `oneOf` for nullable strings so `maxLength` holds, `maxItems` on arrays, no numbers), prompt
 * fitting to the context window, and validated calls with retries whose every attempt is counted.
 */

/** A string of at most `n` characters. */
export const str = (n: number): object => ({ type: 'string', maxLength: n });
/** A string of at most `n` characters, or null (`oneOf`, since `type: [..]` loses `maxLength`). */
export const nullableStr = (n: number): object => ({ oneOf: [{ type: 'string', maxLength: n }, { type: 'null' }] });
/** An array of at most `max` strings of at most `len` characters. */
export const strArray = (max: number, len: number): object => ({ type: 'array', items: { type: 'string', maxLength: len }, maxItems: max });

export function emptyStats(): EnrichStats {
  return { llmCalls: 0, promptTokens: 0, outputTokens: 0 };
}

export function addStats(into: EnrichStats, add: EnrichStats): void {
  into.llmCalls += add.llmCalls;
  into.promptTokens += add.promptTokens;
  into.outputTokens += add.outputTokens;
}

export interface JsonCallOptions {
  maxTokens: number;
  /** Further attempts after the first when the output is unusable (0..2). */
  retries: number;
  signal?: AbortSignal;
}

export type JsonCallResult<T> = { ok: true; value: T } | { ok: false; reason: string };

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 2)
    .map((i) => `${i.path.join('.') || 'value'}: ${i.message}`)
    .join('; ');
}

/**
 * One JSON-grammar chat call, parsed and validated by `validator`; retried (with a little
 * temperature, so the retry can differ) while the output is unusable. Model failures are values
 * (`ok: false` with the reasons of every attempt); only cancellation throws.
 */
export async function callJson<T>(
  llm: Llm,
  messages: ChatMessage[],
  schema: object,
  validator: z.ZodType<T>,
  options: JsonCallOptions,
  stats: EnrichStats,
): Promise<JsonCallResult<T>> {
  const reasons: string[] = [];
  for (let attempt = 0; attempt <= options.retries; attempt++) {
    options.signal?.throwIfAborted();
    try {
      const r = await llm.chatJson(messages, schema, {
        maxTokens: options.maxTokens,
        temperature: attempt === 0 ? 0 : 0.4,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      stats.llmCalls++;
      stats.promptTokens += r.promptTokens;
      stats.outputTokens += r.outputTokens;
      if (r.stopped) options.signal?.throwIfAborted();
      if (r.value === undefined) {
        reasons.push(`output is not JSON (${r.outputTokens} tokens${r.outputTokens >= options.maxTokens ? ', hit maxTokens' : ''})`);
        continue;
      }
      const parsed = validator.safeParse(r.value);
      if (!parsed.success) {
        reasons.push(`invalid output (${describeIssues(parsed.error)})`);
        continue;
      }
      return { ok: true, value: parsed.data };
    } catch (err) {
      options.signal?.throwIfAborted();
      stats.llmCalls++;
      reasons.push(`model error: ${err instanceof Error ? err.message : String(err)}`.slice(0, 160));
    }
  }
  return { ok: false, reason: reasons.map((r, i) => `attempt ${i + 1}: ${r}`).join('; ') };
}

/**
 * Shortens `text` (keeping its start) until the prompt built from it leaves room for `maxTokens`
 * of output in the context window; never below 200 characters.
 */
export function fitToContext(llm: Llm, text: string, build: (text: string) => ChatMessage[], maxTokens: number, maxChars: number): ChatMessage[] {
  let t = text.length > maxChars ? text.slice(0, maxChars) : text;
  let messages = build(t);
  const budget = Math.floor(llm.contextSize * 0.9) - maxTokens;
  while (t.length > 200 && llm.countTokens(messages.map((m) => m.content).join('\n')) > budget) {
    t = t.slice(0, Math.max(200, Math.floor(t.length / 2)));
    messages = build(t);
  }
  return messages;
}

/** Normalizes a free-text topic key to lowercase words joined by hyphens; null when nothing is left. */
export function normalizeKey(key: string | null | undefined): string | null {
  if (!key) return null;
  const k = key
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}/]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return k || null;
}
