/**
 * How the chunk store shapes its searches and turns their rows into hits: the projection and the
 * last clauses every search gets (`columnsFor`, `scoped`), the vector query's settings for each
 * kind of vector index (`vectorQuery`), the weight and the merge of expansion words, and the
 * row -> hit/record mapping. Pure: nothing here runs a query; `lance.store.ts` does.
 */

import type * as LanceModule from '@lancedb/lancedb';
import type { Table as ArrowTable } from 'apache-arrow';
import { CodedError } from '../core/result';
import type { ChunkHit, ChunkRecord, SearchOptions } from './chunk-store';
import { RECORD_COLUMNS, STUB_COLUMNS, VECTOR_COLUMN, fromRow } from './lance.schema';

/** The columns a search reads: stubs for a light one, whole records otherwise. */
export function columnsFor(options: SearchOptions): string[] {
  return [...(options.light ? STUB_COLUMNS : RECORD_COLUMNS)];
}

/** A result's record: its row's result columns completed with what its stub already knows. */
export function recordOf(stub: ChunkRecord, row: Record<string, unknown>): ChunkRecord {
  return fromRow({ doc_id: stub.docId, ...row, id: stub.id, model: stub.model, parent_id: stub.parentId });
}

/** Where a light search row carries its view's parent (from the stub index); no column has this name. */
export const PARENT_KEY = '__parent';

/** A search row as a hit; light searches also carry the row address for `hydrate` (and a view's parent's, when known). */
export function toHit(row: Record<string, unknown>, score: number): ChunkHit {
  const hit: ChunkHit = { record: fromRow(row), score };
  if (typeof row._rowid === 'bigint') hit.rowId = row._rowid;
  const parent = row[PARENT_KEY] as { id: string; model: string | null; docId: string | null; address: bigint } | null | undefined;
  if (parent) hit.parent = { record: fromRow({ id: parent.id, model: parent.model, doc_id: parent.docId }), score: 0, rowId: parent.address };
  return hit;
}

/** A search query, given its projection (full-text or vector). */
export type Projectable = (columns: string[]) => { toArrow(): Promise<ArrowTable> };

/** What every search adds last: row addresses for a light search, and the filter. */
export function scoped<Q extends { withRowId(): Q; where(predicate: string): Q }>(q: Q, options: SearchOptions, where: string | null): Q {
  let scopedQuery = options.light ? q.withRowId() : q;
  if (where !== null) scopedQuery = scopedQuery.where(where);
  return scopedQuery;
}

/**
 * HNSW search list length. The library's many identical chunks (near-duplicate manuals) need a
 * wide one: recall@10 on the bench library 0.43 at LanceDB's default, 0.85 at 200, 0.875-0.975 at
 * 400, 0.925 at 800 (1.1 ms), 0.95 at 1200 (1.5 ms, no better at 2000).
 */
const HNSW_EF = 800;
/** Candidates re-scored with full vectors per result, for an IVF-PQ index an older version built (PQ distances are approximate). */
const PQ_REFINE_FACTOR = 10;

/**
 * A filtered vector search (one model's or some documents' chunks) is exact: the filter already
 * cuts the rows to a few hundred, and an IVF index would probe partitions that hold none of them.
 * An unfiltered one uses the index when there is one (`kind`: its LanceDB type, null for none).
 */
export function vectorQuery(q: LanceModule.VectorQuery, where: string | null, limit: number, kind: string | null): LanceModule.VectorQuery {
  const v = q.column(VECTOR_COLUMN).distanceType('cosine');
  if (where !== null) return v.bypassVectorIndex();
  if (kind === 'IvfPq') return v.refineFactor(PQ_REFINE_FACTOR);
  return kind === null ? v : v.ef(Math.max(HNSW_EF, limit));
}

/** Weight of expansion words relative to the question's own words. */
export const EXPANSION_BOOST = 0.25;

/** The hits of two full-text queries with their scores added (the sum a boolean query of both gives), best `limit` first. */
export function sumScores(main: readonly ChunkHit[], extra: readonly ChunkHit[], limit: number): ChunkHit[] {
  const byId = new Map(main.map((h) => [h.record.id, h]));
  for (const h of extra) {
    const have = byId.get(h.record.id);
    byId.set(h.record.id, { ...(have ?? h), score: (have?.score ?? 0) + h.score });
  }
  return byScoreThenReading([...byId.values()], (h) => h.score, (h) => h.record.id).slice(0, limit);
}

/**
 * Search rows by descending `score`, equal scores in reading order: by document, then by ordinal
 * as a number ("a.pdf#6" before "a.pdf#10"). LanceDB returns rows of equal score in no fixed order
 * (its search runs on several threads): a datasheet's tables for each voltage variant score the
 * same, and the same question got them in another order, so another answer, each time it was
 * asked. (Which tied rows a search's limit cuts off is still LanceDB's choice.) Rows come best
 * first, so only runs of equal scores are sorted, on keys read once per row: sorting a pool of
 * 1,000 tied rows whole through `Intl.Collator` took ~1.3 ms, this ~0.8 ms, and none tied ~0.
 */
export function inScoreOrder(rows: Record<string, unknown>[], score: (row: Record<string, unknown>) => number): Record<string, unknown>[] {
  return byScoreThenReading(rows, score, (row) => String(row.id));
}

/** `items` by descending `score`, equal scores in reading order of their ids (see `inScoreOrder`). */
function byScoreThenReading<T>(items: readonly T[], score: (item: T) => number, id: (item: T) => string): T[] {
  const scored = items.map((item) => ({ item, s: score(item) }));
  let sorted = true;
  for (let i = 1; i < scored.length && sorted; i++) sorted = scored[i - 1]!.s >= scored[i]!.s;
  if (!sorted) scored.sort((a, b) => b.s - a.s);
  const out: T[] = [];
  for (let i = 0; i < scored.length; ) {
    let j = i + 1;
    while (j < scored.length && scored[j]!.s === scored[i]!.s) j++;
    if (j - i === 1) out.push(scored[i]!.item);
    else for (const k of scored.slice(i, j).map((x) => readingKey(x.item, id(x.item))).sort(byReading)) out.push(k.item);
    i = j;
  }
  return out;
}

interface ReadingKey<T> {
  item: T;
  id: string;
  doc: string;
  ordinal: number;
}

/** A chunk id ("doc#12", a unit's "doc#12+13") as its document and ordinal, read once per row. */
function readingKey<T>(item: T, id: string): ReadingKey<T> {
  const hash = id.lastIndexOf('#');
  const ordinal = hash < 0 ? NaN : parseInt(id.slice(hash + 1), 10);
  return { item, id, doc: hash < 0 ? id : id.slice(0, hash), ordinal: Number.isNaN(ordinal) ? -1 : ordinal };
}

function byReading<T>(a: ReadingKey<T>, b: ReadingKey<T>): number {
  if (a.doc !== b.doc) return a.doc < b.doc ? -1 : 1;
  if (a.ordinal !== b.ordinal) return a.ordinal - b.ordinal;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A search's limit, checked. */
export function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1) throw new CodedError('invalid-input', `Search limit must be a positive integer, got ${limit}.`);
  return limit;
}
