// Enrichment throughput (heuristic backend, chunks/s) and LLM calls / tokens per chunk for each
// LLM mode (CHOP's two calls + MDKey's one, and the single call), on radxa-docs + esp-dev-kits.
// The LLM numbers use the tiny generated GGUF: calls and tokens per chunk are what the prompts
// cost; the model's speed and answers are not a real model's.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Chunk } from '../../src-main/core/chunk';
import type { NormalizedDocument } from '../../src-main/core/document';
import { createChunker } from '../../src-main/chunking/chunker';
import { markdownParser } from '../../src-main/ingest/parsers/markdown.parser';
import { createEnricher } from '../../src-main/enrich/enricher';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { TermStats } from '../../src-main/enrich/term-stats';
import { loadLlm } from '../../src-main/models/llm.runtime';
import { ensureTinyGguf } from '../models/tiny-gguf';
import { markdownFiles } from './corpus';
import { sharedDir } from '../helpers/temp';

export interface EnrichBench {
  documents: number;
  chunks: number;
  heuristicChunksPerSecond: number;
  llm: { mode: 'llm' | 'llm-single'; chunks: number; callsPerChunk: number; promptTokensPerChunk: number; outputTokensPerChunk: number }[];
}

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

  const llm = await loadLlm(await ensureTinyGguf(), { threads: 1 });
  const sample = chunked.filter((c) => c.doc.id.startsWith('radxa-docs/e/')).slice(0, 6);
  const llmResults: EnrichBench['llm'] = [];
  for (const mode of ['llm', 'llm-single'] as const) {
    const enricher = createEnricher(mode, { llm, vocabulary, terms });
    if (!enricher.ok) throw new Error(enricher.error.message);
    let chunks = 0;
    let calls = 0;
    let prompt = 0;
    let output = 0;
    for (const c of sample) {
      const r = await enricher.value.enrichDocument(c.doc, c.chunks);
      chunks += r.chunks.length;
      calls += r.stats.llmCalls;
      prompt += r.stats.promptTokens;
      output += r.stats.outputTokens;
    }
    llmResults.push({ mode, chunks, callsPerChunk: calls / chunks, promptTokensPerChunk: prompt / chunks, outputTokensPerChunk: output / chunks });
  }
  await llm.dispose();
  return { documents: docs.length, chunks: total, heuristicChunksPerSecond, llm: llmResults };
}
