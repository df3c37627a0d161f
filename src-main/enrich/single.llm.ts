import { z } from 'zod';
import type { ContinuityDecision, EnrichStats, KeyFields, Signature } from '../core/chunk';
import type { ChatMessage, Llm } from '../models/types';
import type { ChunkView } from './chunk-view';
import type { DocumentFacts } from './cnm.heuristic';
import type { LlmOutcome, LlmStageOptions } from './cnm.llm';
import { checkStageOptions, cnmOutput, documentLine, groundModel, modelsLine, sectionPath, signatureLine } from './cnm.llm';
import { KEYS_INSTRUCTIONS, KEYS_PROPERTIES, keysOutputShape, rollingKeysBlock, toKeyFields } from './keys.llm';
import { callJson, fitToContext, nullableStr, str, strArray } from './llm.util';
import type { RollingKeys } from './rolling-keys';

/**
 * The `llm-single` mode: one call per chunk returns the continuity decision, the CNM signature and
 * the MDKey fields together (beyond both papers: CHOP needs up to 2 calls, MDKey 1 more).
 */

export const SINGLE_SCHEMA = {
  type: 'object',
  properties: {
    continuous: { type: 'boolean' },
    reason: str(120),
    category: nullableStr(60),
    nouns: strArray(2, 40),
    model: nullableStr(60),
    ...KEYS_PROPERTIES,
  },
  required: ['continuous', 'reason', 'category', 'nouns', 'model', ...Object.keys(KEYS_PROPERTIES)],
} as const;

const singleOutput = z.object({
  continuous: z.boolean(),
  reason: z
    .string()
    .max(200)
    .transform((s) => s.trim()),
  ...cnmOutput.shape,
  ...keysOutputShape,
});

export interface SingleResult {
  /** Null for a document's first chunk. */
  continuity: ContinuityDecision | null;
  signature: Signature;
  keys: KeyFields;
}

export interface SingleLlm {
  readonly name: 'single-llm';
  readonly options: Readonly<Required<LlmStageOptions>>;
  run(
    prev: { view: ChunkView; signature: Signature } | null,
    cur: ChunkView,
    facts: DocumentFacts,
    keys: RollingKeys,
    fallbackModel: string | null,
    stats: EnrichStats,
    signal?: AbortSignal,
  ): Promise<LlmOutcome<SingleResult>>;
}

/** The single call's instructions: CHOP's continuity rules and CNM fields, then MDKey's (tight, as paid per chunk). */
const SYSTEM = [
  'You enrich one chunk of a product manual for retrieval. Reply with JSON only.',
  'continuous: true if the chunk continues the previous chunk\'s product and topic; false for a new document',
  '(title page, "Model:" line, new top-level title), another model than the previous signature, or when unsure.',
  'reason: at most 15 words. category: broad product family, lowercase, or null. nouns: one or two key nouns, lowercase.',
  'model: the product model the chunk is about, as written in the text, or null; never invent one.',
  KEYS_INSTRUCTIONS,
].join('\n');

/** Creates the single-call stage (1 call per chunk, plus retries on unusable output). */
export function createSingleLlm(llm: Llm, options: LlmStageOptions = {}): SingleLlm {
  const o = checkStageOptions(options, { maxChunkChars: 2000, retries: 1 });
  const MAX_TOKENS = 520;
  return {
    name: 'single-llm',
    options: o,
    async run(prev, cur, facts, keys, fallbackModel, stats, signal) {
      const previous = prev
        ? `Previous signature: ${signatureLine(prev.signature)}\nPrevious chunk (end):\n<<<\n${prev.view.chunk.text.slice(-400)}\n>>>`
        : 'This is the first chunk of the document: answer continuous=false.';
      const build = (t: string): ChatMessage[] => [
        { role: 'system', content: SYSTEM },
        {
          role: 'user',
          content:
            `${documentLine(facts)}\n${rollingKeysBlock(keys)}\n${previous}\n\n` +
            `Section: ${sectionPath(cur, facts)}\n${modelsLine(cur)}\nChunk:\n<<<\n${t}\n>>>`,
        },
      ];
      const messages = fitToContext(llm, cur.chunk.text, build, MAX_TOKENS, o.maxChunkChars);
      const r = await callJson(llm, messages, SINGLE_SCHEMA, singleOutput, { maxTokens: MAX_TOKENS, retries: o.retries, ...(signal ? { signal } : {}) }, stats);
      if (!r.ok) return r;
      const v = r.value;
      const g = groundModel(v.model, cur, facts, fallbackModel);
      return {
        ok: true,
        value: {
          continuity: prev ? { continuous: v.continuous, reason: v.reason || (v.continuous ? 'continues' : 'topic shift') } : null,
          signature: { category: v.category, nouns: v.nouns, model: g.model },
          keys: toKeyFields(v),
        },
        note: g.note,
      };
    },
  };
}
