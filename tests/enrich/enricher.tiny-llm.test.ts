import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnricher } from '../../src-main/enrich/enricher';
import type { EnrichMode } from '../../src-main/enrich/enricher';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { loadLlm } from '../../src-main/models/llm.runtime';
import type { Llm } from '../../src-main/models/types';
import { ensureTinyGguf } from '../models/tiny-gguf';
import { markdownDocument } from './corpus.helper';
import { chunkAtHeadings } from './helpers';

/**
 * The LLM backends against the real node-llama-cpp runtime with the tiny generated GGUF. Its
 * answers are meaningless, so this checks the plumbing: bounded grammars terminate, every call and
 * token is counted, and whatever the model says each chunk ends with a usable signature, either
 * from the model or from the heuristic fallback with its reason recorded.
 */

const doc = markdownDocument(
  'lib/e/e52c/power.md',
  '# E52C power\n\nThe Radxa E52C needs 5V/3A.\n\n## Adapters\n\nTested: Radxa PD 30W, Apple 20W.\n\n## Ports\n\nUse the USB Type-C port.',
);
const vocabulary = ModelVocabulary.fromDocuments([doc]);
let llm: Llm;

beforeAll(async () => {
  llm = await loadLlm(await ensureTinyGguf(), { threads: 1, contextSize: 2048 });
});
afterAll(async () => {
  await llm?.dispose();
});

describe.each<EnrichMode>(['llm-single', 'llm'])('%s mode with the tiny GGUF', (mode) => {
  it('enriches every chunk, counts the calls and tokens, and falls back with a reason when needed', async () => {
    const r = createEnricher(mode, { vocabulary, llm, retries: 0, maxChunkChars: 400 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const chunks = chunkAtHeadings(doc);
    const { chunks: out, stats } = await r.value.enrichDocument(doc, chunks);
    expect(out).toHaveLength(chunks.length);
    const minCalls = mode === 'llm-single' ? chunks.length : 2 * chunks.length;
    expect(stats.llmCalls).toBeGreaterThanOrEqual(minCalls);
    expect(stats.promptTokens).toBeGreaterThan(0);
    expect(stats.llmCalls).toBe(out.reduce((n, c) => n + c.enrichStats!.llmCalls, 0));
    expect(stats.outputTokens).toBe(out.reduce((n, c) => n + c.enrichStats!.outputTokens, 0));
    for (const [i, c] of out.entries()) {
      expect(c.text).toBe(chunks[i]!.text);
      expect(c.signature.nouns.length).toBeLessThanOrEqual(2);
      expect(c.signature.category === null || c.signature.category.length <= 80).toBe(true);
      // A model name is either grounded in the library/text or replaced by the heuristic one.
      const model = c.signature.model;
      expect(model === null || vocabulary.lookup(model) !== null || doc.text.includes(model)).toBe(true);
      if (c.fallbackReason) expect(c.fallbackReason).toMatch(/^(?:continuity|cnm|keys|single): /);
      expect(i === 0 ? c.continuity === null : typeof c.continuity?.continuous === 'boolean').toBe(true);
    }
  });
});
