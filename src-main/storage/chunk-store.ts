/**
 * The chunk store contract the engine depends on (STYLE.md: small interfaces instead of native
 * runtimes). `lance.store.ts` implements it with LanceDB; nothing here imports LanceDB, so fakes
 * and other backends stay trivial.
 */

import type { ChunkStrategy, EnrichedChunk, SignatureSource } from '../core/chunk';

/** Where one member chunk of a merged retrieval unit came from (MDKeyChunker key merge). */
export interface MemberRef {
  ordinal: number;
  /** Character offsets into the document's normalized text, end exclusive. */
  start: number;
  end: number;
  pageStart: number | null;
  pageEnd: number | null;
}

/** One stored retrieval unit: a chunk or a merged unit, as returned by every read. */
export interface ChunkRecord {
  /** Unique within the store: `${docId}#${ordinal}` for chunks, or a unit id. */
  id: string;
  docId: string;
  /** 0-based position in the document; listChunks orders by it. */
  ordinal: number;
  /** What is shown and cited. */
  text: string;
  /**
   * What FTS and the embedder see: prefix (CNM / section path) + chunk text. Stored only when it
   * differs from `text`, so an empty `indexedText` written for a non-empty `text` reads back as `text`.
   */
  indexedText: string;
  /** Heading path, outermost first. */
  headingPath: string[];
  /** 1-based pages; null for formats without pages. */
  pageStart: number | null;
  pageEnd: number | null;
  /** Character offsets into the normalized text, end exclusive (span of all members for units). */
  start: number;
  end: number;
  strategy: ChunkStrategy;
  sectionType: string | null;
  /** CNM signature; `modelKey` is `normalizeModelKey(model)`, computed by the store on write. */
  category: string | null;
  nouns: string[];
  model: string | null;
  modelKey: string | null;
  signatureSource: SignatureSource | null;
  /** Continuity with the previous chunk; null for a first chunk or when not decided. */
  continuous: boolean | null;
  /** MDKeyChunker fields; empty/null when unknown. */
  key: string | null;
  keywords: string[];
  entities: string[];
  questions: string[];
  relatedKeys: string[];
  title: string | null;
  summary: string | null;
  /** Member chunks of a merged unit; empty for a plain chunk. */
  members: MemberRef[];
  /**
   * Set on a retrieval view: a searchable slice of a large chunk (a few rows of a long table,
   * with its header) that stands for its parent chunk in search results. Null for chunks.
   */
  parentId: string | null;
}

/** A vector as produced by an `Embedder`; its length must equal the store's dimension. */
export type VectorLike = Float32Array | readonly number[];

/** What callers write: a record (modelKey is derived, never trusted) plus an optional vector. */
export type ChunkInput = Omit<ChunkRecord, 'modelKey' | 'parentId'> & {
  modelKey?: string | null;
  parentId?: string | null;
  /** Null or absent: not embedded yet (see `ChunkStore.listUnembedded`). */
  vector?: VectorLike | null;
};

/**
 * Restricts a search. Absent fields do not constrain; an empty list matches nothing. Values are
 * data, never SQL: the store quotes them.
 */
export interface ChunkFilter {
  docIds?: readonly string[];
  /** Raw model names; compared after `normalizeModelKey`. */
  models?: readonly string[];
  /** With `models`: also keep chunks whose model is unknown (null). */
  includeUnmodeled?: boolean;
  /** Exact CNM category values. */
  categories?: readonly string[];
}

export interface SearchOptions {
  /** Maximum hits returned, >= 1. */
  limit: number;
  filter?: ChunkFilter;
  /** Extra words that may match at a lower weight (query expansion); keyword search only. */
  expansion?: string;
  /**
   * Return stubs: only id, model and parentId are read (other fields come back
   * empty), plus the row address for `hydrate`. Every column read costs per row, so candidates
   * are found as stubs, then only the ones ranking keeps are completed with `hydrate`.
   */
  light?: boolean;
}

/** A search hit; never carries the vector. */
export interface ChunkHit {
  record: ChunkRecord;
  /**
   * Higher is better within one search kind: BM25 score (bm25), cosine similarity = 1 - cosine
   * distance (vector), reciprocal-rank-fusion relevance (hybrid). Not comparable across kinds.
   */
  score: number;
  /** The row's address in the store's current version (light searches); `hydrate` reads by it. */
  rowId?: bigint;
  /**
   * A table row view's parent chunk as a stub hit with its row address (light searches, when the
   * store knows it), so the whole table is read by `hydrate` with the candidates.
   */
  parent?: ChunkHit;
}

/** Per-index state, for the inspector and for tests of incremental indexing. */
export interface IndexStatus {
  name: string;
  column: string;
  kind: string;
  indexedRows: number;
  /** Rows written since the last `ensureIndexes` (a full-text search folds them in first, see `searchBm25`). */
  unindexedRows: number;
}

/** A stored chunk that still needs an embedding. */
export interface UnembeddedChunk {
  id: string;
  indexedText: string;
  /** The shown text and signature, so the embedder's input can carry CHOP's prefix. */
  text: string;
  category: string | null;
  nouns: string[];
  model: string | null;
}

/** A stored chunk with its vector and the fields its embedder input was built from. */
export interface EmbeddedChunk extends UnembeddedChunk {
  vector: Float32Array;
}

/**
 * The chunk store of one library. Writes are serialized inside the store; reads run concurrently.
 * Methods throw `CodedError` only for caller bugs ('invalid-input', 'unavailable',
 * 'model-mismatch' for a wrong vector length) and for a damaged database ('corrupt').
 */
export interface ChunkStore {
  /** Vector dimension of the table; null when the library stores no vectors. */
  readonly vectorDimension: number | null;
  /** Id of the embedder whose vectors are stored, when known. */
  readonly embedderId: string | null;
  /** Appends records in batches; ids must not exist yet (use replaceDocument to re-import). */
  addChunks(records: readonly ChunkInput[]): Promise<void>;
  /** Removes every record of a document; returns how many were removed. */
  deleteDocument(docId: string): Promise<number>;
  /** Removes every record of these documents (one write per few hundred documents); returns how many were removed. */
  deleteDocuments(docIds: readonly string[]): Promise<number>;
  /** Atomically swaps a document's records for `records` (all must carry `docId`). */
  replaceDocument(docId: string, records: readonly ChunkInput[]): Promise<void>;
  /**
   * Swaps these documents' records for `records` (each must carry one of `docIds`), a few hundred
   * documents per write: readers see each document's old records or its new ones, never neither.
   */
  replaceDocuments(docIds: readonly string[], records: readonly ChunkInput[]): Promise<void>;
  /** Chunks (not retrieval views) matching the filter. */
  countChunks(filter?: ChunkFilter): Promise<number>;
  /** A document's chunks (not retrieval views) ordered by ordinal. */
  listChunks(docId: string): Promise<ChunkRecord[]>;
  getChunk(id: string): Promise<ChunkRecord | null>;
  /**
   * Records by id, in no particular order; unknown ids are skipped. `light` reads only what a
   * search result shows (text, heading path, pages, offsets, signature, title).
   */
  getChunks(ids: readonly string[], options?: { light?: boolean }): Promise<ChunkRecord[]>;
  /**
   * Completes light hits (stubs) with what ranking and results need (as `getChunks` light), in
   * the same order with the same scores; hits whose row is gone are dropped.
   */
  hydrate(hits: readonly ChunkHit[]): Promise<ChunkHit[]>;
  /**
   * Loads what makes light searches cheaper (the stub of every row and, within a memory budget,
   * what a result shows of it, in memory) now; searches schedule it on their own a moment after
   * the first one, and work the same without it.
   */
  prepareSearch(): Promise<void>;
  /**
   * Creates missing indexes (FTS on indexedText, scalar on id/docId/modelKey/category) and folds
   * rows written since the last call into them without rebuilding. Call after a batch of writes.
   */
  ensureIndexes(): Promise<void>;
  indexStatus(): Promise<IndexStatus[]>;
  /**
   * BM25 over indexedText; a query with no searchable terms returns []. Rows this store wrote since
   * the last `ensureIndexes` are folded into the index first, so results are a fresh index's.
   */
  searchBm25(query: string, options: SearchOptions): Promise<ChunkHit[]>;
  /**
   * Cosine kNN over embedded records: exact when filtered, through the vector index (built once the
   * library is large) otherwise; throws 'unavailable' without a vector column.
   */
  searchVector(vector: VectorLike, options: SearchOptions): Promise<ChunkHit[]>;
  /** BM25 and vector results fused with reciprocal rank fusion (k = 60). */
  searchHybrid(query: string, vector: VectorLike, options: SearchOptions): Promise<ChunkHit[]>;
  /** Sets vectors of existing records in place; returns how many records were updated. */
  updateVectors(ids: readonly string[], vectors: readonly VectorLike[]): Promise<number>;
  /** Up to `limit` records whose vector is still null (background embedding queue). */
  listUnembedded(limit: number): Promise<UnembeddedChunk[]>;
  /** How many records still need a vector (0 when the store keeps no vectors). */
  countUnembedded(): Promise<number>;
  /**
   * Of these ids, the records that have a vector, with what it was computed from; unknown and
   * unembedded ids are skipped (a rebuild keeps vectors whose input did not change).
   */
  listEmbedded(ids: readonly string[]): Promise<EmbeddedChunk[]>;
  close(): Promise<void>;
}

/**
 * Model names compare by letters and digits only (with "+" read as "plus"), case- and
 * width-insensitive, so "RAC-225B", "rac 225b" and "ＲＡＣ２２５Ｂ" are the same model and
 * "ROCK 5B+" equals "rock 5b plus" but not "ROCK 5B". Returns null for null or a name without any
 * letter or digit.
 */
export function normalizeModelKey(model: string | null | undefined): string | null {
  if (model == null) return null;
  // "+" names a different board ("ROCK 5B+" is not "ROCK 5B"), so it survives as "plus".
  const key = model.normalize('NFKC').toLowerCase().replace(/\+/g, 'plus').replace(/[^\p{L}\p{N}]+/gu, '');
  return key === '' ? null : key;
}

/** The id of a plain chunk. */
export function chunkId(docId: string, ordinal: number): string {
  return `${docId}#${ordinal}`;
}

/** Builds the stored form of an enriched chunk; `indexedText` is the prefixed text to index. */
export function chunkInputFrom(
  chunk: EnrichedChunk,
  indexedText: string,
  vector: VectorLike | null = null,
): ChunkInput {
  return {
    id: chunkId(chunk.docId, chunk.ordinal),
    docId: chunk.docId,
    ordinal: chunk.ordinal,
    text: chunk.text,
    indexedText,
    headingPath: [...chunk.headingPath],
    pageStart: chunk.pageStart,
    pageEnd: chunk.pageEnd,
    start: chunk.start,
    end: chunk.end,
    strategy: chunk.strategy,
    sectionType: chunk.sectionType ?? null,
    category: chunk.signature.category,
    nouns: [...chunk.signature.nouns],
    model: chunk.signature.model,
    signatureSource: chunk.signatureSource,
    continuous: chunk.continuity?.continuous ?? null,
    key: chunk.keys.key,
    keywords: [...chunk.keys.keywords],
    entities: [...chunk.keys.entities],
    questions: [...chunk.keys.questions],
    relatedKeys: [...chunk.keys.relatedKeys],
    title: chunk.keys.title,
    summary: chunk.keys.summary,
    members: [],
    vector,
  };
}
