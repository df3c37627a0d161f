/**
 * The indexes the `chunks` table should have and their settings: the full-text index (ICU
 * tokenizer, English stemming) over `search_text`, the scalar indexes that serve filters and point
 * lookups, and when a vector index is worth building; and the two steps of the store's
 * `ensureIndexes` that compare them with the table's indexes and build what is missing or outdated.
 */

import type * as LanceModule from '@lancedb/lancedb';
import type { FtsOptions, Index, IndexConfig, Table } from '@lancedb/lancedb';
import { VECTOR_COLUMN } from './lance.schema';

/** The full-text column: the prefixed chunk text as `searchAnalyzed` sees it. */
export const FTS_COLUMN = 'search_text';

/**
 * Vectors are searched exactly (a scan) until the library holds this many embedded chunks; above
 * it, an IVF-HNSW-SQ index is built in the background (`ensureIndexes`). Below it a scan is cheap
 * and exact, so small libraries (and every shared evaluation set) rank as before.
 */
export const VECTOR_INDEX_MIN_ROWS = 20_000;
/**
 * The vector index type: IVF partitions, an HNSW graph in each, vectors scalar-quantized to 8 bits.
 * Measured on the 102,501-chunk bench library (168k rows, 384 dimensions, 2 cores under load;
 * tests/bench/RESULTS.md, session 6): top-10 recall against the exact scan 0.925-0.975 (two builds)
 * at ~1.1 ms of CPU a query, where the IVF-PQ index it replaces needed a refine step that re-reads
 * every candidate's full vector (~4 of ~5 ms) for a recall of 0.925.
 */
export const VECTOR_INDEX_KIND = 'IvfHnswSq';

/**
 * ICU word segmentation splits Chinese and Japanese by dictionary (the simple tokenizer keeps a
 * whole CJK sentence as one token, so no CJK query matches) and Latin text like the simple one;
 * stemming and stop words then apply to English. 0.31 accepts 'icu' though its typings list only
 * simple/whitespace/raw/ngram. Positions are off: we run match queries only, never phrases.
 */
const FTS_OPTIONS = {
  baseTokenizer: 'icu',
  language: 'English',
  stem: true,
  removeStopWords: true,
  lowercase: true,
  asciiFolding: true,
  withPosition: false,
} as const;

/** An index the table should have: its column, its kind, and how LanceDB builds it. */
interface WantedIndex {
  column: string;
  /** LanceDB's index type, upper-cased (`IndexConfig.indexType` spells it 'BTree', 'Bitmap', 'FTS'). */
  kind: string;
  make: (lance: typeof LanceModule) => Index;
}

/**
 * Scalar indexes serve filters and point lookups. `doc_id` is a bitmap although it has one value
 * per document (~14k at 100k chunks): the passage search of every named-model question filters
 * on a list of documents (42 at 100k chunks), and LanceDB 0.31's B-tree answers `doc_id IN (...)`
 * by comparing ~100k keys (1.2-3.1 ms a search), its bitmap by one lookup per document
 * (0.04-0.2 ms; the search's CPU 3.1 -> 2.5 ms, the same scores). An index of another kind (an
 * older version's B-tree) is replaced by `ensureIndexes`.
 */
const WANTED_INDEXES: readonly WantedIndex[] = [
  { column: FTS_COLUMN, kind: 'FTS', make: (l) => l.Index.fts(FTS_OPTIONS as unknown as Partial<FtsOptions>) },
  { column: 'id', kind: 'BTREE', make: (l) => l.Index.btree() },
  { column: 'doc_id', kind: 'BITMAP', make: (l) => l.Index.bitmap() },
  { column: 'model_key', kind: 'BITMAP', make: (l) => l.Index.bitmap() },
  { column: 'category', kind: 'BITMAP', make: (l) => l.Index.bitmap() },
];

// An FTS index built with other tokenizer settings (an older ManualMate) is rebuilt once.
function ftsOutdated(index: IndexConfig): boolean {
  const details: unknown = index.indexDetails;
  if (typeof details !== 'object' || details === null) return false;
  const d = details as Record<string, unknown>;
  return d.base_tokenizer !== FTS_OPTIONS.baseTokenizer || d.stem !== FTS_OPTIONS.stem;
}

/** Builds each wanted index the table (whose indexes are `existing`) lacks, has of another kind, or has with outdated FTS settings. */
export async function ensureWantedIndexes(lance: typeof LanceModule, table: Table, existing: readonly IndexConfig[]): Promise<void> {
  for (const want of WANTED_INDEXES) {
    const have = existing.find((i) => i.columns.length === 1 && i.columns[0] === want.column);
    if (have && have.indexType.toUpperCase() === want.kind && !(want.kind === 'FTS' && ftsOutdated(have))) continue;
    await table.createIndex(want.column, { config: want.make(lance), replace: true });
  }
}

/**
 * Builds the vector index (`VECTOR_INDEX_KIND`) unless the table (whose indexes are `existing`)
 * has one, once it holds `minRows` embedded chunks; true when it built one.
 */
export async function ensureVectorIndex(lance: typeof LanceModule, table: Table, existing: readonly IndexConfig[], minRows: number): Promise<boolean> {
  const vectorIndex = existing.find((i) => i.columns[0] === VECTOR_COLUMN);
  if (vectorIndex?.indexType === VECTOR_INDEX_KIND) return false;
  // An index of another type (IVF-PQ, built by an older version) is replaced; searches keep
  // using it until the new one is committed.
  const embedded = vectorIndex ? Infinity : await table.countRows(`${VECTOR_COLUMN} IS NOT NULL`);
  if (embedded >= minRows) {
    await table.createIndex(VECTOR_COLUMN, { config: lance.Index.hnswSq({ distanceType: 'cosine' }), replace: true });
    return true;
  }
  return false;
}
