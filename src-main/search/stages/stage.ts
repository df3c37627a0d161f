import type { ModelVocabulary } from '../../enrich/model-vocabulary';
import type { ChunkHit, ChunkRecord } from '../../storage/chunk-store';
import type { DocumentScores } from '../document-evidence';
import type { QueryAnalysis } from '../query-analysis';

/**
 * Ranking as named phases (Vespa's rank phases, Haystack's rankers): after candidate generation
 * (BM25, dense or hybrid) the hits pass through a list of stages, each a small object that
 * rescores or reorders them. Every stage is named, reads only what `RankContext` carries, and can
 * be left out of `SearchOptions.stages` to measure what it is worth.
 */

/** What a stage may read: the question, its one analysis, and what earlier stages found. */
export interface RankContext {
  /** The question as asked. */
  readonly query: string;
  /** The question without the names of the models it is about (what the passage must answer). */
  readonly topical: string;
  /** The question's analysis, computed once per question. */
  readonly analysis: QueryAnalysis;
  readonly vocabulary: ModelVocabulary;
  /** Document id -> how well its names match the question, in (0, 1]; absent documents match nothing. */
  readonly documentEvidence: DocumentScores;
  /**
   * The documents the question names best and, for their chunks (table views under their parent's
   * id), the BM25 score of the question's passage words alone; null when the question has none.
   */
  readonly passage: { words: string; docs: ReadonlySet<string>; scores: ReadonlyMap<string, number> } | null;
  /** How rare a stemmed word is as a passage in the library (`PassageTermStats.idf`); 1 for every word without statistics. */
  readonly idf: (term: string) => number;
  /** The stages that run in this search (a stage may reuse another's weighting only when that one is on). */
  readonly enabled: ReadonlySet<string>;
  /** Table chunk id -> the whole table, for the tables that candidates reached through row views. */
  readonly tables: ReadonlyMap<string, ChunkRecord>;
  /** Parent chunk id -> the table row view that matched (written by the `table-views` stage). */
  readonly matchedView: Map<string, ChunkRecord>;
}

/** One ranking stage: takes hits best first, returns hits best first. */
export interface RankStage<Name extends string = string> {
  readonly name: Name;
  /** What the stage does, for reports (one line). */
  readonly describes: string;
  run(hits: ChunkHit[], ctx: RankContext): ChunkHit[];
}

/**
 * Sorts by score, keeping the incoming order among equal scores.
 *
 * The stages that multiply scores by a finite factor skip hits whose score is 0 (the named
 * documents' passages the searcher adds at the bottom, a third of a named-model search's hits at
 * 100k chunks): 0 times any factor is 0, so their score and place are the same unweighed, and
 * splitting their lines into words was ~40% of those stages' time.
 */
export function byScore(scored: { hit: ChunkHit; i: number }[]): ChunkHit[] {
  return scored.sort((a, b) => b.hit.score - a.hit.score || a.i - b.i).map((x) => x.hit);
}
