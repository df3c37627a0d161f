/**
 * Vocabularies shared by the engine, the contract and the renderer, spelled once: a name added
 * here is accepted by the contract's zod schemas, the CLI and eval.
 */

/** How a library's chunks are found: keywords (BM25), vectors (dense), or both fused (RRF). */
export const RETRIEVERS = ['bm25', 'dense', 'hybrid'] as const;
export type Retriever = (typeof RETRIEVERS)[number];

/** The most results one search returns (the contract, the CLI and eval check it; the searcher sizes its deepest search from it). */
export const MAX_TOP_K = 100;

/** The retriever a library uses when the caller names none: hybrid once it has an embedder. */
export function retrieverFor(hasEmbedder: boolean): Retriever {
  return hasEmbedder ? 'hybrid' : 'bm25';
}

/** How chunks are enriched: rules and statistics, CHOP's and MDKey's LLM calls, or one LLM call. */
export const ENRICH_MODES = ['heuristic', 'llm', 'llm-single'] as const;
export type EnrichMode = (typeof ENRICH_MODES)[number];

/**
 * The ranking stages of search after candidate generation, in running order (each one file in
 * `search/stages/`). Spelled here so the contract can name them: `search.query` may leave some out,
 * which is how the scorecard's ablation switches one off at a time.
 */
export const RANK_STAGE_NAMES = ['table-views', 'term-coverage', 'model-weight', 'document-names', 'passage-order', 'answer-line', 'heading-match'] as const;
export type RankStageName = (typeof RANK_STAGE_NAMES)[number];
