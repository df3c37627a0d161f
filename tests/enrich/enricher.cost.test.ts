import { describe, expect, it } from 'vitest';
import { createChunker } from '../../src-main/chunking/chunker';
import { CNM_SCHEMA, CONTINUITY_SCHEMA } from '../../src-main/enrich/cnm.llm';
import { createEnricher } from '../../src-main/enrich/enricher';
import { KEYS_SCHEMA } from '../../src-main/enrich/keys.llm';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { SINGLE_SCHEMA } from '../../src-main/enrich/single.llm';
import { TermStats } from '../../src-main/enrich/term-stats';
import { AnsweringLlm, qwenChatTokens, qwenTokens } from '../bench/answering-llm';
import { corpusRoots } from '../helpers/temp';
import { loadCorpus } from './corpus.helper';

// The enrichment cost benchmark's model (tests/bench/answering-llm.ts): valid answers to every
// schema, tokens counted with the Qwen tokenizer. These checks keep its numbers meaningful.
const docs = [...loadCorpus('radxa-docs', corpusRoots.fixture), ...loadCorpus('esp-dev-kits', corpusRoots.fixture)];
const vocabulary = ModelVocabulary.fromDocuments(docs);
const terms = TermStats.fromTexts(docs.map((d) => d.text));

async function chunked() {
  const chunker = createChunker('structure', {});
  if (!chunker.ok) throw new Error(chunker.error.message);
  const out = [];
  for (const doc of docs.slice(0, 8)) {
    const r = await chunker.value.chunk(doc);
    if (r.ok) out.push({ doc, chunks: r.value });
  }
  return out;
}

describe('LLM enrichment cost, counted with the recommended model family tokenizer', () => {
  it('counts ChatML markers as one token each and words as Qwen splits them', () => {
    expect(qwenTokens('<|im_start|>')).toBe(1);
    expect(qwenChatTokens([{ role: 'user', content: 'hello' }])).toBe(qwenTokens('<|im_start|>user\nhello<|im_end|>\n<|im_start|>assistant\n'));
    // Far fewer tokens than characters for English prose (the tiny test model's vocabulary
    // spent about one token per character).
    const prose = 'The board needs a 5V/3A USB-C power supply. Use a heatsink when the CPU runs at full load.';
    expect(qwenTokens(prose)).toBeLessThan(prose.length / 3);
  });

  it('llm-single makes exactly one call per chunk when every answer is valid JSON', { timeout: 60_000 }, async () => {
    const llm = new AnsweringLlm();
    const enricher = createEnricher('llm-single', { llm, vocabulary, terms });
    if (!enricher.ok) throw new Error(enricher.error.message);
    let chunks = 0;
    let promptTokens = 0;
    for (const c of await chunked()) {
      const r = await enricher.value.enrichDocument(c.doc, c.chunks);
      chunks += r.chunks.length;
      promptTokens += r.stats.promptTokens;
      for (const x of r.chunks) expect(x.fallbackReason ?? '', `${x.docId}#${x.ordinal}`).not.toContain('attempt 1:');
    }
    expect(chunks).toBeGreaterThan(10);
    expect(llm.calls.length).toBe(chunks);
    expect(llm.calls.every((c) => c.schema === SINGLE_SCHEMA)).toBe(true);
    // The enricher's own counts are the tokenizer's.
    expect(promptTokens).toBe(llm.calls.reduce((n, c) => n + c.promptTokens, 0));
  });

  it('llm makes CHOP\'s continuity and CNM calls and MDKey\'s keys call for each chunk it cannot inherit', { timeout: 60_000 }, async () => {
    const llm = new AnsweringLlm();
    const enricher = createEnricher('llm', { llm, vocabulary, terms });
    if (!enricher.ok) throw new Error(enricher.error.message);
    let chunks = 0;
    let documents = 0;
    for (const c of await chunked()) {
      const r = await enricher.value.enrichDocument(c.doc, c.chunks);
      chunks += r.chunks.length;
      if (r.chunks.length > 0) documents++;
    }
    const count = (schema: object) => llm.calls.filter((c) => c.schema === schema).length;
    expect(count(KEYS_SCHEMA)).toBe(chunks);
    // Never "continuous" in these answers: every chunk but a document's first asks, and every chunk extracts.
    expect(count(CONTINUITY_SCHEMA)).toBe(chunks - documents);
    expect(count(CNM_SCHEMA)).toBe(chunks);
  });
});
