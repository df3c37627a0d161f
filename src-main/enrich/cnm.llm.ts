import { z } from 'zod';
import type { ContinuityDecision, EnrichStats, Signature } from '../core/chunk';
import { signatureFields } from '../core/prefix';
import type { ChatMessage, Llm } from '../models/types';
import type { ChunkView } from './chunk-view';
import type { DocumentFacts } from './cnm.heuristic';
import { callJson, fitToContext, nullableStr, str, strArray } from './llm.util';
import { nameKey } from './text.util';

/**
 * CHOP's two LLM calls: CNM extraction and the continuity decision, with bounded JSON schemas,
 * zod validation and retries. A model name the LLM returns is kept only when the library's
 * vocabulary knows it (then canonicalized) or the chunk/document actually contains it.
 */

export interface LlmStageOptions {
  /** Characters of chunk text shown to the model (shortened further to fit the context). */
  maxChunkChars?: number;
  /** Extra attempts after unusable output, 0..2. */
  retries?: number;
}

export type LlmOutcome<T> = { ok: true; value: T; note: string | null } | { ok: false; reason: string };

export const CNM_SCHEMA = {
  type: 'object',
  properties: { category: nullableStr(60), nouns: strArray(2, 40), model: nullableStr(60) },
  required: ['category', 'nouns', 'model'],
} as const;

export const CONTINUITY_SCHEMA = {
  type: 'object',
  properties: { continuous: { type: 'boolean' }, reason: str(120) },
  required: ['continuous', 'reason'],
} as const;

const text = (max: number) =>
  z
    .string()
    .max(max)
    .transform((s) => s.trim());
const nullableText = (max: number) =>
  z
    .string()
    .max(max)
    .nullable()
    .transform((s) => (s && s.trim() ? s.trim() : null));

export const cnmOutput = z.object({
  category: nullableText(80).transform((s) => (s ? s.toLowerCase() : null)),
  nouns: z
    .array(text(60))
    .max(2)
    .transform((a) => [...new Set(a.map((n) => n.toLowerCase()).filter(Boolean))]),
  model: nullableText(80),
});

export const continuityOutput = z.object({ continuous: z.boolean(), reason: text(200) });

export const CNM_SYSTEM = [
  'You extract a Category-Noun-Model signature from one chunk of a product manual. Reply with JSON only.',
  'category: the broad product family the chunk is about, lowercase (e.g. "single board computer", "air conditioner"), or null.',
  'nouns: one or two key nouns naming what the chunk is about (e.g. "power supply", "fan header"), lowercase.',
  'model: the specific product model or series the chunk is about, written as in the text (e.g. "RAC-225B"), or null.',
  'Use null when a field is absent or ambiguous. Never invent a model that the chunk or document does not name.',
].join('\n');

export const CONTINUITY_SYSTEM = [
  'You decide whether chunk B continues the topical flow of chunk A from the same manual. Reply with JSON only.',
  'Rules, in order:',
  '1. continuous=false if B starts a new document: a title page, a "Model:" line, a new top-level title.',
  '2. continuous=false if B names a different product model than A\'s signature model, or a different product category.',
  '3. continuous=true only if B clearly continues the same product and topic (same section, follow-on steps, "this"/"the above").',
  '4. When unsure, answer continuous=false.',
  'reason: at most 15 words.',
].join('\n');

/** The document line shown in every prompt: title, id, and the library's identity for it. */
export function documentLine(facts: DocumentFacts): string {
  const id = facts.identity ? `, filed under model ${facts.identity.model}` : '';
  return `Document: "${facts.doc.title}" (${facts.doc.id})${id}`;
}

/**
 * The chunk's heading path as prompts show it: below the document title, which the document line
 * already shows (repeating it cost every prompt a few tokens and told the model nothing).
 */
export function sectionPath(view: ChunkView, facts: DocumentFacts): string {
  const path = view.chunk.headingPath;
  const below = path[0] === facts.doc.title ? path.slice(1) : path;
  return below.join(' > ') || '(none)';
}

export function modelsLine(view: ChunkView): string {
  const names = [...new Set([...view.pathMentions, ...view.localMentions, ...view.bodyMentions].map((m) => m.model))];
  return names.length > 0 ? `Known models named in this chunk: ${names.join(', ')}` : 'Known models named in this chunk: none';
}

/** A signature as prompts show it: every field, absent ones as null (core's format, `signatureFields`). */
export function signatureLine(s: Signature): string {
  return signatureFields(s, { showAbsent: true });
}

/**
 * Keeps an LLM model name only when grounded: canonical name when the vocabulary knows it, as
 * written when the chunk, title or document id contains it; otherwise `fallback` with a note.
 */
export function groundModel(model: string | null, view: ChunkView, facts: DocumentFacts, fallback: string | null): { model: string | null; note: string | null } {
  if (model === null) return { model: null, note: null };
  const entry = facts.vocabulary.lookup(model);
  if (entry) return { model: entry.name, note: null };
  const key = nameKey(model);
  const haystack = nameKey(`${view.chunk.headingPath.join(' ')} ${view.plain} ${facts.doc.title} ${facts.doc.id}`);
  if (key.length >= 2 && haystack.includes(key)) return { model: model.trim(), note: null };
  return { model: fallback, note: `model "${model.slice(0, 40)}" is neither in the chunk nor in the library; kept the heuristic model` };
}

export interface CnmLlm {
  readonly name: 'cnm-llm';
  readonly options: Readonly<Required<LlmStageOptions>>;
  /** `fallbackModel`: the heuristic model, used when the LLM's model is not grounded. */
  extract(view: ChunkView, facts: DocumentFacts, fallbackModel: string | null, stats: EnrichStats, signal?: AbortSignal): Promise<LlmOutcome<Signature>>;
  decide(prev: ChunkView, prevSignature: Signature, cur: ChunkView, facts: DocumentFacts, stats: EnrichStats, signal?: AbortSignal): Promise<LlmOutcome<ContinuityDecision>>;
}

export function checkStageOptions(options: LlmStageOptions, defaults: Required<LlmStageOptions>): Required<LlmStageOptions> {
  const o = { ...defaults, ...options };
  if (!Number.isInteger(o.maxChunkChars) || o.maxChunkChars < 200) throw new RangeError('maxChunkChars must be an integer >= 200');
  if (!Number.isInteger(o.retries) || o.retries < 0 || o.retries > 2) throw new RangeError('retries must be 0, 1 or 2');
  return o;
}

/** Creates CHOP's LLM stage (2 calls per chunk at most: continuity, then CNM when not continuous). */
export function createCnmLlm(llm: Llm, options: LlmStageOptions = {}): CnmLlm {
  const o = checkStageOptions(options, { maxChunkChars: 1800, retries: 1 });
  const CNM_MAX_TOKENS = 120;
  const CONTINUITY_MAX_TOKENS = 80;
  return {
    name: 'cnm-llm',
    options: o,
    async extract(view, facts, fallbackModel, stats, signal) {
      const build = (t: string): ChatMessage[] => [
        { role: 'system', content: CNM_SYSTEM },
        {
          role: 'user',
          content: `${documentLine(facts)}\nSection: ${sectionPath(view, facts)}\n${modelsLine(view)}\n\nChunk:\n<<<\n${t}\n>>>`,
        },
      ];
      const messages = fitToContext(llm, view.chunk.text, build, CNM_MAX_TOKENS, o.maxChunkChars);
      const r = await callJson(llm, messages, CNM_SCHEMA, cnmOutput, { maxTokens: CNM_MAX_TOKENS, retries: o.retries, ...(signal ? { signal } : {}) }, stats);
      if (!r.ok) return r;
      const g = groundModel(r.value.model, view, facts, fallbackModel);
      return { ok: true, value: { category: r.value.category, nouns: r.value.nouns, model: g.model }, note: g.note };
    },
    async decide(prev, prevSignature, cur, facts, stats, signal) {
      const tail = prev.chunk.text.slice(-600);
      const build = (t: string): ChatMessage[] => [
        { role: 'system', content: CONTINUITY_SYSTEM },
        {
          role: 'user',
          content:
            `${documentLine(facts)}\nA's signature: ${signatureLine(prevSignature)}\nA (end):\n<<<\n${tail}\n>>>\n\n` +
            `B's section: ${sectionPath(cur, facts)}\n${modelsLine(cur)}\nB (start):\n<<<\n${t}\n>>>`,
        },
      ];
      const messages = fitToContext(llm, cur.chunk.text, build, CONTINUITY_MAX_TOKENS, Math.min(900, o.maxChunkChars));
      const r = await callJson(llm, messages, CONTINUITY_SCHEMA, continuityOutput, { maxTokens: CONTINUITY_MAX_TOKENS, retries: o.retries, ...(signal ? { signal } : {}) }, stats);
      if (!r.ok) return r;
      return { ok: true, value: { continuous: r.value.continuous, reason: r.value.reason || (r.value.continuous ? 'continues' : 'topic shift') }, note: null };
    },
  };
}
