// Enrichment throughput (heuristic backend, chunks/s) and what the LLM modes cost per chunk:
// calls, prompt and output tokens for `llm` (CHOP's continuity + CNM calls, then MDKey's keys call,
// each reported apart too) and `llm-single` (one call), on radxa-docs + esp-dev-kits chunks. The
// LLM answers validly and counts tokens with the recommended chat model's tokenizer
// (`answering-llm.ts`): the cost a real model sees when its JSON is valid, not its speed.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Chunk } from '../../src-main/core/chunk';
import type { NormalizedDocument } from '../../src-main/core/document';
import { createChunker } from '../../src-main/chunking/chunker';
import { markdownParser } from '../../src-main/ingest/parsers/markdown.parser';
import { createEnricher } from '../../src-main/enrich/enricher';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { TermStats } from '../../src-main/enrich/term-stats';
import { CNM_SCHEMA, CONTINUITY_SCHEMA } from '../../src-main/enrich/cnm.llm';
import { KEYS_SCHEMA } from '../../src-main/enrich/keys.llm';
import { SINGLE_SCHEMA } from '../../src-main/enrich/single.llm';
import { AnsweringLlm, qwenTokenizer } from './answering-llm';
import { markdownFiles } from './corpus';
import { sharedDir } from '../helpers/temp';

export interface EnrichBench {
  documents: number;
  chunks: number;
  heuristicChunksPerSecond: number;
  /** Documents and chunks the LLM modes ran on (every `LLM_SAMPLE_EVERY`th document). */
  llmDocuments: number;
  llm: { mode: string; chunks: number; callsPerChunk: number; promptTokensPerChunk: number; outputTokensPerChunk: number; fallbacks: number }[];
}

/** The LLM modes run on every 8th document: tokenizing every prompt of all ~4,900 chunks takes minutes. */
const LLM_SAMPLE_EVERY = 8;

export async function benchEnrichment(): Promise<EnrichBench> {
  const docs: NormalizedDocument[] = [];
  for (const corpus of ['radxa-docs', 'esp-dev-kits']) {
    const root = path.join(sharedDir, 'corpus', corpus);
    for (const f of await markdownFiles(root)) {
      const res = await markdownParser.parse({ bytes: await readFile(f), fileName: path.basename(f) });
      if (res.ok) docs.push({ ...res.doc, id: path.relative(path.dirname(root), f).split(path.sep).join('/'), contentHash: '' });
    }
  }
  const chunker = createChunker('structure', {});
  if (!chunker.ok) throw new Error(chunker.error.message);
  const chunked: { doc: NormalizedDocument; chunks: Chunk[] }[] = [];
  for (const doc of docs) {
    const r = await chunker.value.chunk(doc);
    if (r.ok) chunked.push({ doc, chunks: r.value });
  }
  const vocabulary = ModelVocabulary.fromDocuments(docs);
  const terms = TermStats.fromTexts(docs.map((d) => d.text));
  const heuristic = createEnricher('heuristic', { vocabulary, terms });
  if (!heuristic.ok) throw new Error(heuristic.error.message);
  await heuristic.value.enrichDocument(chunked[0]!.doc, chunked[0]!.chunks);
  const total = chunked.reduce((n, c) => n + c.chunks.length, 0);
  const t = performance.now();
  for (const c of chunked) await heuristic.value.enrichDocument(c.doc, c.chunks);
  const heuristicChunksPerSecond = total / ((performance.now() - t) / 1000);

  qwenTokenizer();
  const sample = chunked.filter((_, i) => i % LLM_SAMPLE_EVERY === 0);
  const llmResults: EnrichBench['llm'] = [];
  const perChunk = (mode: string, chunks: number, calls: { promptTokens: number; outputTokens: number }[], fallbacks: number) => ({
    mode,
    chunks,
    callsPerChunk: calls.length / chunks,
    promptTokensPerChunk: calls.reduce((n, c) => n + c.promptTokens, 0) / chunks,
    outputTokensPerChunk: calls.reduce((n, c) => n + c.outputTokens, 0) / chunks,
    fallbacks,
  });
  for (const mode of ['llm', 'llm-single'] as const) {
    const llm = new AnsweringLlm();
    const enricher = createEnricher(mode, { llm, vocabulary, terms });
    if (!enricher.ok) throw new Error(enricher.error.message);
    let chunks = 0;
    let fallbacks = 0;
    for (const c of sample) {
      const r = await enricher.value.enrichDocument(c.doc, c.chunks);
      chunks += r.chunks.length;
      // A chunk whose call failed falls back to the heuristic result with the attempts' reasons.
      fallbacks += r.chunks.filter((x) => x.fallbackReason?.includes('attempt 1:')).length;
    }
    if (mode === 'llm') {
      const chop = llm.calls.filter((c) => c.schema === CONTINUITY_SCHEMA || c.schema === CNM_SCHEMA);
      const keys = llm.calls.filter((c) => c.schema === KEYS_SCHEMA);
      llmResults.push(perChunk('llm: CHOP (continuity + CNM calls)', chunks, chop, fallbacks));
      llmResults.push(perChunk('llm: MDKey (keys call)', chunks, keys, fallbacks));
      llmResults.push(perChunk('llm (both)', chunks, llm.calls, fallbacks));
    } else {
      if (llm.calls.some((c) => c.schema !== SINGLE_SCHEMA)) throw new Error('llm-single made a call that is not the single call');
      llmResults.push(perChunk('llm-single', chunks, llm.calls, fallbacks));
    }
  }
  return { documents: docs.length, chunks: total, heuristicChunksPerSecond, llmDocuments: sample.length, llm: llmResults };
}
