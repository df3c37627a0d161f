import { z } from 'zod';
import type { EnrichStats, KeyFields } from '../core/chunk';
import type { ChatMessage, Llm } from '../models/types';
import type { ChunkView } from './chunk-view';
import type { DocumentFacts } from './cnm.heuristic';
import type { LlmOutcome, LlmStageOptions } from './cnm.llm';
import { checkStageOptions, documentLine, sectionPath } from './cnm.llm';
import { callJson, fitToContext, normalizeKey, nullableStr, str, strArray } from './llm.util';
import type { RollingKeys } from './rolling-keys';

/**
 * MDKeyChunker's single enrichment call: title, summary, keywords, entities, questions, semantic
 * key and related keys in one bounded JSON answer. The prompt shows the rolling key dictionary
 * (most recent first, with use counts) so the model reuses keys instead of coining synonyms.
 */

export const KEYS_PROPERTIES = {
  title: str(100),
  summary: str(300),
  keywords: strArray(6, 40),
  entities: strArray(8, 60),
  questions: strArray(3, 150),
  key: nullableStr(60),
  related_keys: strArray(3, 60),
} as const;

export const KEYS_SCHEMA = {
  type: 'object',
  properties: KEYS_PROPERTIES,
  required: Object.keys(KEYS_PROPERTIES),
} as const;

const trimmed = (max: number) =>
  z
    .string()
    .max(max)
    .transform((s) => s.trim());
const list = (n: number, max: number) =>
  z
    .array(trimmed(max))
    .max(n)
    .transform((a) => [...new Set(a.filter(Boolean))]);

export const keysOutputShape = {
  title: trimmed(200),
  summary: trimmed(600),
  keywords: list(6, 80),
  entities: list(8, 120),
  questions: list(3, 300),
  key: z.string().max(120).nullable(),
  related_keys: list(3, 120),
};

export const keysOutput = z.object(keysOutputShape);

/** Turns the validated answer into KeyFields (keys normalized; empty strings become null). */
export function toKeyFields(v: z.output<typeof keysOutput>): KeyFields {
  const key = normalizeKey(v.key);
  return {
    title: v.title || null,
    summary: v.summary || null,
    keywords: v.keywords,
    entities: v.entities,
    questions: v.questions,
    key,
    relatedKeys: v.related_keys.map((k) => normalizeKey(k)).filter((k): k is string => k !== null && k !== key),
  };
}

/**
 * The keys fields as prompts describe them. Worded tightly: every prompt of both LLM modes carries
 * them, so each token here is paid once per chunk.
 */
export const KEYS_INSTRUCTIONS = [
  'title: short. summary: one or two sentences. keywords: 3-6 search terms.',
  'entities: models, part numbers, interfaces and values as written (e.g. "RK3588", "5V/3A", "USB 3.0").',
  'questions: 1-3 that a technician could answer from the chunk.',
  'key: a short lowercase hyphenated topic tag; reuse an existing key when the chunk continues its topic,',
  'a new key only for a new subtopic, null if none. related_keys: up to 3 existing keys it relates to.',
].join('\n');

/** The rolling key dictionary as shown in prompts: "- key (uses)", most recent first. */
export function rollingKeysBlock(keys: RollingKeys): string {
  const entries = keys.entries();
  if (entries.length === 0) return 'Existing keys: (none yet)';
  return `Existing keys, most recent first (uses):\n${entries.map((e) => `- ${e.key} (${e.uses})`).join('\n')}`;
}

export interface KeysLlm {
  readonly name: 'keys-llm';
  readonly options: Readonly<Required<LlmStageOptions>>;
  extract(view: ChunkView, facts: DocumentFacts, keys: RollingKeys, stats: EnrichStats, signal?: AbortSignal): Promise<LlmOutcome<KeyFields>>;
}

/** Creates the MDKey LLM stage (1 call per chunk, plus retries on unusable output). */
export function createKeysLlm(llm: Llm, options: LlmStageOptions = {}): KeysLlm {
  const o = checkStageOptions(options, { maxChunkChars: 2400, retries: 1 });
  const MAX_TOKENS = 420;
  return {
    name: 'keys-llm',
    options: o,
    async extract(view, facts, keys, stats, signal) {
      const build = (t: string): ChatMessage[] => [
        { role: 'system', content: `You label one chunk of a Markdown manual for retrieval. Reply with JSON only.\n${KEYS_INSTRUCTIONS}` },
        {
          role: 'user',
          content: `${documentLine(facts)}\n${rollingKeysBlock(keys)}\n\nSection: ${sectionPath(view, facts)}\nChunk:\n<<<\n${t}\n>>>`,
        },
      ];
      const messages = fitToContext(llm, view.chunk.text, build, MAX_TOKENS, o.maxChunkChars);
      const r = await callJson(llm, messages, KEYS_SCHEMA, keysOutput, { maxTokens: MAX_TOKENS, retries: o.retries, ...(signal ? { signal } : {}) }, stats);
      if (!r.ok) return r;
      return { ok: true, value: toKeyFields(r.value), note: null };
    },
  };
}
