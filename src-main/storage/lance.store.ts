/**
 * `ChunkStore` on an embedded LanceDB database: one `chunks` table per library folder, BM25 over
 * `indexed_text` (ICU tokenizer), cosine kNN over an optional float32 vector column (exact, or
 * through an IVF-HNSW-SQ index in a large library), and reciprocal rank fusion of the two
 * (LanceDB's RRF, computed here) for hybrid search. Light searches read row addresses and scores
 * only, and take each row's stub from an in-memory index (`lance.stubs.ts`) once it is built;
 * `hydrate` makes records from the result columns that index holds, and reads the rest.
 *
 * Vector column lifecycle (the dimension is fixed per table; its embedder id is field metadata):
 * - opened without a dimension: no vector column is created; an existing one is kept as is;
 * - opened with a dimension on a table without vectors: the column is added in place (all rows
 *   null), and background embedding fills it with `listUnembedded` + `updateVectors`;
 * - opened with another dimension or another embedder id: 'model-mismatch', unless
 *   `onModelMismatch: 'reset'`, which drops the old vectors (text and FTS stay) so they can be
 *   recomputed.
 *
 * Longer than 500 lines on purpose: it is the one file that speaks LanceDB (the lint rules keep
 * it that way), and its searches, writes, row-address hydration and vector lifecycle share the
 * table handle, the guard against a closed table and the row <-> record mapping. Splitting it
 * would spread the native API over several files for no reader's gain.
 */

// Must stay the first import: it sets LANCE_CPU_THREADS before LanceDB's runtime starts.
import './lance-env';

import fs from 'node:fs/promises';
import type * as LanceModule from '@lancedb/lancedb';
import type { Table as ArrowTable } from 'apache-arrow';
import type { Connection, FtsOptions, Index, IndexConfig, Table } from '@lancedb/lancedb';
import { CodedError, fail, ok, type Result } from '../core/result';
import type {
  ChunkFilter,
  ChunkHit,
  ChunkInput,
  ChunkRecord,
  ChunkStore,
  IndexStatus,
  SearchOptions,
  EmbeddedChunk,
  UnembeddedChunk,
  VectorLike,
} from './chunk-store';
import { byTextSize, plainRows, rowsToArrowTable } from './lance.batch';
import { rrfFuse } from './rank-fusion';
import { StubIndex } from './lance.stubs';
import { andWhere, filterToWhere, sqlIn, sqlString } from './lance.filter';
import {
  EMBEDDER_KEY,
  MAX_VECTOR_DIMENSION,
  RECORD_COLUMNS,
  TABLE_NAME,
  VECTOR_COLUMN,
  chunkSchema,
  fromRow,
  readTableShape,
  toFloat32,
  toRow,
  vectorField,
  vectorUpdateSchema,
  searchAnalyzed,
  LIGHT_COLUMNS,
  RESULT_COLUMNS,
  STUB_COLUMNS,
  PACKED_RESULT_COLUMNS,
  RESULT_JSON_COLUMN,
  hasPackedResults,
  type ChunkRow,
  type TableShape,
} from './lance.schema';

type Lance = typeof LanceModule;

let lanceModule: Promise<Lance> | null = null;

// Dynamic so that no import order or bundler hoisting can load LanceDB before lance-env ran.
function loadLance(): Promise<Lance> {
  lanceModule ??= import('@lancedb/lancedb');
  return lanceModule;
}

export interface LanceStoreOptions {
  /** Dimension of the configured embedder; null/absent when none is configured. */
  vectorDimension?: number | null;
  /** Id of the configured embedder, recorded with the vectors to catch a silent model swap. */
  embedderId?: string | null;
  /** What to do when stored vectors came from another embedder; default 'fail'. */
  onModelMismatch?: 'fail' | 'reset';
  /** Embedded rows from which `ensureIndexes` builds a vector index; default `VECTOR_INDEX_MIN_ROWS`. */
  vectorIndexMinRows?: number;
}

/** Rows per merge call (vector updates): bounds the Arrow batch held in memory. */
const WRITE_BATCH = 8000;
/** The full-text column: the prefixed chunk text as `searchAnalyzed` sees it. */
const FTS_COLUMN = 'search_text';

function columnsFor(options: SearchOptions): string[] {
  return [...(options.light ? STUB_COLUMNS : RECORD_COLUMNS)];
}

/** A search row as a hit; light searches also carry the row address for `hydrate` (and a view's parent's, when known). */
/** A result's record: its row's result columns completed with what its stub already knows. */
function recordOf(stub: ChunkRecord, row: Record<string, unknown>): ChunkRecord {
  return fromRow({ doc_id: stub.docId, ...row, id: stub.id, model: stub.model, parent_id: stub.parentId });
}

function toHit(row: Record<string, unknown>, score: number): ChunkHit {
  const hit: ChunkHit = { record: fromRow(row), score };
  if (typeof row._rowid === 'bigint') hit.rowId = row._rowid;
  const parent = row[PARENT_KEY] as { id: string; model: string | null; docId: string | null; address: bigint } | null | undefined;
  if (parent) hit.parent = { record: fromRow({ id: parent.id, model: parent.model, doc_id: parent.docId }), score: 0, rowId: parent.address };
  return hit;
}

/** Where a light search row carries its view's parent (from the stub index); no column has this name. */
const PARENT_KEY = '__parent';

/** A search query, given its projection (full-text or vector). */
type Projectable = (columns: string[]) => { toArrow(): Promise<ArrowTable> };

/** What every search adds last: row addresses for a light search, and the filter. */
function scoped<Q extends { withRowId(): Q; where(predicate: string): Q }>(q: Q, options: SearchOptions, where: string | null): Q {
  let scopedQuery = options.light ? q.withRowId() : q;
  if (where !== null) scopedQuery = scopedQuery.where(where);
  return scopedQuery;
}

/**
 * Vectors are searched exactly (a scan) until the library holds this many embedded chunks; above
 * it, an IVF-HNSW-SQ index is built in the background (`ensureIndexes`). Below it a scan is cheap
 * and exact, so small libraries (and every shared evaluation set) rank as before.
 */
const VECTOR_INDEX_MIN_ROWS = 20_000;
/**
 * The vector index type: IVF partitions, an HNSW graph in each, vectors scalar-quantized to 8 bits.
 * Measured on the 102,501-chunk bench library (168k rows, 384 dimensions, 2 cores under load;
 * tests/bench/RESULTS.md, session 6): top-10 recall against the exact scan 0.925-0.975 (two builds)
 * at ~1.1 ms of CPU a query, where the IVF-PQ index it replaces needed a refine step that re-reads
 * every candidate's full vector (~4 of ~5 ms) for a recall of 0.925.
 */
const VECTOR_INDEX_KIND = 'IvfHnswSq';
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
function vectorQuery(q: LanceModule.VectorQuery, where: string | null, limit: number, kind: string | null): LanceModule.VectorQuery {
  const v = q.column(VECTOR_COLUMN).distanceType('cosine');
  if (where !== null) return v.bypassVectorIndex();
  if (kind === 'IvfPq') return v.refineFactor(PQ_REFINE_FACTOR);
  return kind === null ? v : v.ef(Math.max(HNSW_EF, limit));
}

/**
 * Delay between a store's first light search and the build of its stub index (`lance.stubs.ts`,
 * a scan of three columns: 0.1-0.3 s at 100k chunks on 2 cores). The timer does not keep the process alive, so a
 * one-shot search (the CLI) exits without paying for a scan it would not use.
 */
const STUB_BUILD_DELAY_MS = 1000;

/** Weight of expansion words relative to the question's own words. */
const EXPANSION_BOOST = 0.25;
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

interface WantedIndex {
  column: string;
  /** LanceDB's index type, upper-cased (`IndexConfig.indexType` spells it 'BTree', 'Bitmap', 'FTS'). */
  kind: string;
  make: (lance: Lance) => Index;
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

/**
 * Opens (or creates) the chunk store in `dir`. Expected failures are values: 'invalid-input'
 * (bad options), 'unreadable' (dir is not a usable folder), 'corrupt' (damaged table),
 * 'unsupported' (written by another schema version), 'model-mismatch' (see module comment).
 */
export async function openLanceStore(dir: string, opts: LanceStoreOptions = {}): Promise<Result<ChunkStore>> {
  const wanted = opts.vectorDimension ?? null;
  if (wanted !== null && (!Number.isInteger(wanted) || wanted < 1 || wanted > MAX_VECTOR_DIMENSION)) {
    return fail('invalid-input', `Vector dimension must be an integer from 1 to ${MAX_VECTOR_DIMENSION}, got ${wanted}.`);
  }
  const embedderId = opts.embedderId ?? null;
  try {
    const stat = await fs.stat(dir).catch(() => null);
    if (stat && !stat.isDirectory()) return fail('unreadable', `The library's database path is not a folder: ${dir}`);
    await fs.mkdir(dir, { recursive: true });
  } catch (err) {
    return fail('unreadable', `Cannot create the library's database folder (${nativeMessage(err)}).`);
  }

  let lance: Lance;
  try {
    lance = await loadLance();
  } catch (err) {
    lanceModule = null;
    return fail('unavailable', `The search database engine (LanceDB) could not be loaded on this computer (${nativeMessage(err)}).`);
  }
  let db: Connection;
  try {
    db = await lance.connect(dir);
  } catch (err) {
    return fail('unreadable', `Cannot open the library's database (${nativeMessage(err)}).`);
  }
  let table: Table | null = null;
  try {
    const names = await db.tableNames();
    if (names.includes(TABLE_NAME)) {
      try {
        table = await db.openTable(TABLE_NAME);
      } catch (err) {
        throw damaged(err);
      }
    } else {
      table = await db.createEmptyTable(TABLE_NAME, chunkSchema(wanted, embedderId));
    }
    const schema = await table.schema();
    const shape = await reconcileVectors(table, readTableShape(schema), wanted, embedderId, opts.onModelMismatch ?? 'fail');
    return ok(new LanceChunkStore(lance, db, table, shape, opts.vectorIndexMinRows ?? VECTOR_INDEX_MIN_ROWS, hasPackedResults(schema)));
  } catch (err) {
    table?.close();
    db.close();
    const error = err instanceof CodedError ? err : damaged(err);
    return fail(error.code, error.message);
  }
}

async function reconcileVectors(
  table: Table,
  stored: TableShape,
  wanted: number | null,
  embedderId: string | null,
  onMismatch: 'fail' | 'reset',
): Promise<TableShape> {
  if (wanted === null) return stored;
  if (stored.vectorDimension === null) {
    await table.addColumns(vectorField(wanted, embedderId));
    return { vectorDimension: wanted, embedderId };
  }
  const dimensionDiffers = stored.vectorDimension !== wanted;
  const embedderDiffers = embedderId !== null && stored.embedderId !== null && stored.embedderId !== embedderId;
  if (dimensionDiffers || embedderDiffers) {
    if (onMismatch === 'fail') {
      const was = `${stored.embedderId ?? 'an embedder'} (${stored.vectorDimension} dimensions)`;
      const now = `${embedderId ?? 'the configured embedder'} (${wanted} dimensions)`;
      throw new CodedError(
        'model-mismatch',
        `This library's vectors were made by ${was}, but ${now} is configured. Switch back, or re-embed the library to use the new embedder.`,
      );
    }
    await table.dropColumns([VECTOR_COLUMN]);
    await table.addColumns(vectorField(wanted, embedderId));
    return { vectorDimension: wanted, embedderId };
  }
  if (embedderId !== null && stored.embedderId === null) {
    await table.updateFieldMetadata([{ path: VECTOR_COLUMN, metadata: { [EMBEDDER_KEY]: embedderId } }]);
    return { vectorDimension: wanted, embedderId };
  }
  return stored;
}

function nativeMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  // Native errors carry Rust source paths and repeated "Caused by" chains; keep the first clause.
  return message.split(/,\s*\/|\s+Caused by:/)[0]!.trim().slice(0, 300);
}

function damaged(err: unknown): CodedError {
  const error = new CodedError(
    'corrupt',
    `The library's search database is damaged and cannot be read (${nativeMessage(err)}). Re-import the library to rebuild it.`,
  );
  error.cause = err;
  return error;
}

// Lance reports unreadable files as IO / not-found errors; anything else is a bug and propagates.
function isStorageFailure(err: unknown): boolean {
  const message = err instanceof Error ? err.message : String(err);
  return /LanceError\(IO\)|Not found|not found|corrupt|No such file/i.test(message);
}

/** The columns an embedder's input is built from. */
const EMBED_INPUT_COLUMNS = ['id', 'indexed_text', 'text', 'category', 'nouns', 'model'] as const;

function embedInput(r: ChunkRecord): UnembeddedChunk {
  return { id: r.id, indexedText: r.indexedText, text: r.text, category: r.category, nouns: r.nouns, model: r.model };
}

function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1) throw new CodedError('invalid-input', `Search limit must be a positive integer, got ${limit}.`);
  return limit;
}

class LanceChunkStore implements ChunkStore {
  readonly vectorDimension: number | null;
  readonly embedderId: string | null;
  #writes: Promise<unknown> = Promise.resolve();
  #dirty = true;
  #closed = false;
  /** Set once the FTS index is known to exist; nothing in this store drops it. */
  #ftsReady = false;

  constructor(
    private readonly lance: Lance,
    private readonly db: Connection,
    private readonly table: Table,
    shape: TableShape,
    private readonly vectorIndexMinRows: number,
    /** False for tables written before the packed result column: rows are written and read without it. */
    private readonly packed: boolean,
  ) {
    this.vectorDimension = shape.vectorDimension;
    this.embedderId = shape.embedderId;
  }

  /** Runs `fn` after every earlier write; LanceDB retries commit conflicts, we avoid them. */
  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#writes.then(() => this.#guard(fn));
    this.#writes = run.catch(() => undefined);
    return run;
  }

  async #guard<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#closed) throw new CodedError('unavailable', 'The library was closed.');
    try {
      return await fn();
    } catch (err) {
      if (err instanceof CodedError || !isStorageFailure(err)) throw err;
      throw damaged(err);
    }
  }

  /**
   * Whether any row stores an indexed text of its own (`indexed_text` is empty where it equals the
   * text: every row of a library without prefixes). Until one does, result reads leave that
   * column out: reading it for the ~20 rows a search hydrates cost ~0.7 of ~2.5 ms at 100k chunks.
   */
  #prefixed: Promise<boolean> | null = null;

  #hasPrefixedRows(): Promise<boolean> {
    this.#prefixed ??= this.table.countRows("indexed_text != ''").then(
      (n) => n > 0,
      () => true,
    );
    return this.#prefixed;
  }

  /** The result columns a light read takes (see `#prefixed`). */
  async #resultColumns(columns: readonly string[]): Promise<string[]> {
    return (await this.#hasPrefixedRows()) ? [...columns] : columns.filter((c) => c !== 'indexed_text');
  }

  /** The LanceDB type of the vector index (null: none): read once, then set by `ensureIndexes` when it builds one. */
  #vectorKind: Promise<string | null> | null = null;

  #vectorIndexKind(): Promise<string | null> {
    this.#vectorKind ??= this.table.listIndices().then(
      (indexes) => indexes.find((i) => i.columns[0] === VECTOR_COLUMN)?.indexType ?? null,
      () => null,
    );
    return this.#vectorKind;
  }

  /** Stubs by row address (see `lance.stubs.ts`), once built; `#stubEpoch` discards a build that a compaction overtook. */
  #stubs: StubIndex | null = null;
  #stubBuild: Promise<void> | null = null;
  #stubTimer: ReturnType<typeof setTimeout> | null = null;
  #stubEpoch = 0;

  /** The stub index when it is ready; otherwise schedules its build (this search reads stubs itself). */
  #readyStubs(): StubIndex | null {
    if (!this.#stubs && !this.#stubBuild && !this.#stubTimer && !this.#closed) {
      // Not awaited by anything: a process that is done (a one-shot CLI search) exits first.
      this.#stubTimer = setTimeout(() => void this.#buildStubs(), STUB_BUILD_DELAY_MS);
      this.#stubTimer.unref();
    }
    return this.#stubs;
  }

  #buildStubs(): Promise<void> {
    if (this.#stubTimer) clearTimeout(this.#stubTimer);
    this.#stubTimer = null;
    if (this.#stubs || this.#closed) return Promise.resolve();
    const epoch = this.#stubEpoch;
    this.#stubBuild ??= this.table
      .query()
      .select([...STUB_COLUMNS, 'doc_id'])
      .withRowId()
      .toArrow()
      .then(async (scan) => {
        if (epoch !== this.#stubEpoch || this.#closed) return;
        const stubs = StubIndex.fromArrow(scan);
        this.#stubs = stubs;
        // Then what a search shows of each row, held beside its stub (see `StubIndex.holdResults`):
        // a scan of its own, so a library past the budget keeps none of it. Tables without the
        // packed result column keep reading from disk.
        if (!this.packed) return;
        const names = (await this.#resultColumns(PACKED_RESULT_COLUMNS)).filter((c) => c !== 'doc_id');
        const results = await this.table.query().select(names).withRowId().toArrow();
        if (epoch === this.#stubEpoch && !this.#closed) stubs.holdResults(results, names);
      })
      // Searches keep reading stubs themselves; the next compaction retries. The catch is after
      // the `then`: a build that throws must never become an unhandled rejection (it ended the
      // web bridge's process when an empty library was searched).
      .catch(() => undefined);
    return this.#stubBuild;
  }

  async prepareSearch(): Promise<void> {
    await this.#buildStubs();
  }

  /** Every row address changes (compaction): the stub index is dropped and built again on a later search. */
  #dropStubs(): void {
    this.#stubEpoch++;
    this.#stubs = null;
    this.#stubBuild = null;
    if (this.#stubTimer) clearTimeout(this.#stubTimer);
    this.#stubTimer = null;
  }

  /**
   * Runs a search projected to `columns`; a light one reads only row addresses and scores when the
   * stub index is ready, and takes the stubs from it (rows written since it was built are read).
   */
  async #searchRows(run: Projectable, options: SearchOptions): Promise<Record<string, unknown>[]> {
    const stubs = options.light ? this.#readyStubs() : null;
    if (!stubs) return plainRows(await run(columnsFor(options)).toArrow());
    const rows = plainRows(await run([]).toArrow());
    const unknown: bigint[] = [];
    const out = rows.map((row) => {
      const stub = stubs.lookup(row._rowid as bigint);
      if (!stub) unknown.push(row._rowid as bigint);
      return stub ? { ...row, id: stub.id, model: stub.model, parent_id: stub.parentId, doc_id: stub.docId, [PARENT_KEY]: stub.parent } : row;
    });
    if (unknown.length === 0) return out;
    const read = new Map<bigint, Record<string, unknown>>();
    for (const row of plainRows(await this.table.takeRowIds(unknown).select([...STUB_COLUMNS]).withRowId().toArrow())) read.set(row._rowid as bigint, row);
    return out.flatMap((row) => (row.id !== undefined ? [row] : read.has(row._rowid as bigint) ? [{ ...read.get(row._rowid as bigint), ...row }] : []));
  }

  #rows(records: readonly ChunkInput[]): ChunkRow[] {
    const rows = records.map((r) => toRow(r, this.vectorDimension));
    // Set before the write, so no read that starts meanwhile leaves the column out.
    if (rows.some((r) => r.indexed_text !== '')) this.#prefixed = Promise.resolve(true);
    if (!this.packed) for (const row of rows) delete row[RESULT_JSON_COLUMN];
    const seen = new Set<string>();
    for (const row of rows) {
      const id = row.id as string;
      if (seen.has(id)) throw new CodedError('invalid-input', `Chunk id ${id} appears twice in one write.`);
      seen.add(id);
    }
    return rows;
  }

  async addChunks(records: readonly ChunkInput[]): Promise<void> {
    const rows = this.#rows(records);
    if (rows.length === 0) return;
    await this.#exclusive(async () => {
      const schema = await this.table.schema();
      for (const batch of byTextSize(rows)) await this.table.add(rowsToArrowTable(batch, schema) ?? batch);
      this.#dirty = true;
    });
  }

  async deleteDocument(docId: string): Promise<number> {
    return this.#exclusive(async () => {
      const where = `doc_id = ${sqlString(docId)}`;
      const count = await this.table.countRows(where);
      if (count > 0) {
        await this.table.delete(where);
        this.#dirty = true;
      }
      return count;
    });
  }

  async replaceDocument(docId: string, records: readonly ChunkInput[]): Promise<void> {
    const stray = records.find((r) => r.docId !== docId);
    if (stray) throw new CodedError('invalid-input', `Chunk ${stray.id} belongs to ${stray.docId}, not to ${docId}.`);
    const rows = this.#rows(records);
    if (rows.length === 0) {
      await this.deleteDocument(docId);
      return;
    }
    await this.#exclusive(async () => {
      // One merge = one commit: readers see either the old or the new version of the document.
      await this.table
        .mergeInsert('id')
        .whenMatchedUpdateAll()
        .whenNotMatchedInsertAll()
        .whenNotMatchedBySourceDelete({ where: `doc_id = ${sqlString(docId)}` })
        .execute(rows);
      this.#dirty = true;
    });
  }

  async countChunks(filter?: ChunkFilter): Promise<number> {
    return this.#guard(() => this.table.countRows(andWhere('parent_id IS NULL', filterToWhere(filter))!));
  }

  async listChunks(docId: string): Promise<ChunkRecord[]> {
    return this.#guard(async () => {
      const rows = await this.table
        .query()
        .where(`doc_id = ${sqlString(docId)} AND parent_id IS NULL`)
        .select([...RECORD_COLUMNS])
        .toArray();
      return rows.map(fromRow).sort((a, b) => a.ordinal - b.ordinal);
    });
  }

  async getChunk(id: string): Promise<ChunkRecord | null> {
    return this.#guard(async () => {
      const rows = await this.table
        .query()
        .where(`id = ${sqlString(id)}`)
        .select([...RECORD_COLUMNS])
        .limit(1)
        .toArray();
      return rows[0] ? fromRow(rows[0]) : null;
    });
  }

  async getChunks(ids: readonly string[], options: { light?: boolean } = {}): Promise<ChunkRecord[]> {
    if (ids.length === 0) return [];
    return this.#guard(async () => {
      const rows = await this.table
        .query()
        .where(sqlIn('id', ids))
        .select(options.light ? await this.#lightColumns() : [...RECORD_COLUMNS])
        .toArray();
      return rows.map(fromRow);
    });
  }

  #lightColumns(): Promise<string[]> {
    return this.#resultColumns(this.packed ? [...STUB_COLUMNS, ...PACKED_RESULT_COLUMNS] : LIGHT_COLUMNS);
  }

  async hydrate(hits: readonly ChunkHit[]): Promise<ChunkHit[]> {
    if (hits.length === 0) return [];
    return this.#guard(async () => {
      const byId = new Map<string, ChunkRecord>();
      // Rows whose results the stub index holds are made in memory; the rest are read.
      const held = this.#stubs;
      const rest: ChunkHit[] = held ? [] : [...hits];
      if (held) {
        for (const h of hits) {
          const row = h.rowId !== undefined && h.record.docId !== '' ? held.result(h.rowId) : null;
          if (row) byId.set(h.record.id, recordOf(h.record, row));
          else rest.push(h);
        }
      }
      const rowIds = rest.map((h) => h.rowId);
      if (rest.length > 0 && rowIds.every((r) => r !== undefined)) {
        // Reading by row address skips the id lookup (~3x faster for a few dozen rows), and only
        // the columns the stubs lack are read (each column costs per row: leaving the id out saves
        // ~0.6 of ~3.3 ms of CPU for 25 rows at 100k chunks). LanceDB never reuses a row address
        // (see `lance.stubs.ts`), so a row read at a hit's address is that hit's row; a write
        // between the search and this read that moved it (a compaction) leaves nothing there or
        // fails the read, and whatever is missing is read by id below.
        // Stubs from the stub index know their document too: then `doc_id` is not read either.
        const stubs = new Map(rest.map((h) => [h.rowId!, h.record]));
        const known = rest.every((h) => h.record.docId !== '');
        try {
          const result = await this.#resultColumns(this.packed ? PACKED_RESULT_COLUMNS : RESULT_COLUMNS);
          const columns = known ? result.filter((c) => c !== 'doc_id') : result;
          const read: ChunkRecord[] = [];
          for (const row of plainRows(await this.table.takeRowIds(rowIds as bigint[]).select(columns).withRowId().toArrow())) {
            const stub = stubs.get(row._rowid as bigint);
            if (stub) read.push(recordOf(stub, row));
          }
          for (const r of read) byId.set(r.id, r);
        } catch {
          // Whatever this read missed is read by id below.
        }
      }
      const missing = hits.filter((h) => !byId.has(h.record.id)).map((h) => h.record.id);
      if (missing.length > 0) for (const r of await this.getChunks(missing, { light: true })) byId.set(r.id, r);
      return hits.flatMap((h) => {
        const record = byId.get(h.record.id);
        return record ? [{ record, score: h.score }] : [];
      });
    });
  }

  async ensureIndexes(): Promise<void> {
    await this.#exclusive(async () => {
      const existing = await this.table.listIndices();
      for (const want of WANTED_INDEXES) {
        const have = existing.find((i) => i.columns.length === 1 && i.columns[0] === want.column);
        if (have && have.indexType.toUpperCase() === want.kind && !(want.kind === 'FTS' && ftsOutdated(have))) continue;
        await this.table.createIndex(want.column, { config: want.make(this.lance), replace: true });
      }
      this.#ftsReady = true;
      const vectorIndex = existing.find((i) => i.columns[0] === VECTOR_COLUMN);
      if (this.vectorDimension !== null && vectorIndex?.indexType !== VECTOR_INDEX_KIND) {
        // An index of another type (IVF-PQ, built by an older version) is replaced; searches keep
        // using it until the new one is committed.
        const embedded = vectorIndex ? Infinity : await this.table.countRows(`${VECTOR_COLUMN} IS NOT NULL`);
        if (embedded >= this.vectorIndexMinRows) {
          await this.table.createIndex(VECTOR_COLUMN, { config: this.lance.Index.hnswSq({ distanceType: 'cosine' }), replace: true });
          this.#vectorKind = Promise.resolve(VECTOR_INDEX_KIND);
        }
      }
      const stale = existing.some((i) => (i.numUnindexedRows ?? 0) > 0);
      if (this.#dirty || stale) {
        // Folds new rows into every index as a delta (no rebuild), compacts small fragments from
        // batched adds, and drops old versions (one process per library, so no reader needs them).
        await this.table.optimize({ cleanupOlderThan: new Date(Date.now() - 60_000) });
        this.#dropStubs();
      }
      this.#dirty = false;
    });
  }

  async indexStatus(): Promise<IndexStatus[]> {
    return this.#guard(async () =>
      (await this.table.listIndices()).map((i) => ({
        name: i.name,
        column: i.columns.join(','),
        kind: i.indexType,
        indexedRows: i.numIndexedRows ?? 0,
        unindexedRows: i.numUnindexedRows ?? 0,
      })),
    );
  }

  // BM25 needs the inverted index; the first search on a fresh library builds it.
  async #needFts(): Promise<void> {
    if (this.#ftsReady) return;
    const indexes = await this.#guard(() => this.table.listIndices());
    if (!indexes.some((i) => i.indexType === 'FTS' && i.columns[0] === FTS_COLUMN)) await this.ensureIndexes();
    this.#ftsReady = true;
  }

  #match(query: string): LanceModule.FullTextQuery {
    // A MatchQuery takes the text literally (no query syntax), OR over its terms.
    return new this.lance.MatchQuery(searchAnalyzed(query), FTS_COLUMN);
  }

  async #fts(query: LanceModule.FullTextQuery, options: SearchOptions, limit: number, where: string | null): Promise<ChunkHit[]> {
    const run = (columns: string[]) => scoped(this.table.query().fullTextSearch(query).select(columns).limit(limit), options, where);
    return (await this.#searchRows(run, options)).map((row) => toHit(row, Number(row._score)));
  }

  async searchBm25(query: string, options: SearchOptions): Promise<ChunkHit[]> {
    const limit = checkLimit(options.limit);
    if (query.trim() === '') return [];
    await this.#needFts();
    return this.#guard(async () => {
      const where = filterToWhere(options.filter);
      const expansion = options.expansion?.trim() ?? '';
      if (!expansion) return this.#fts(this.#match(query), options, limit, where);
      const boosted = new this.lance.MatchQuery(searchAnalyzed(expansion), FTS_COLUMN, { boost: EXPANSION_BOOST });
      if (where !== null) {
        // Over a filtered subset (one model's chunks) a BooleanQuery of two SHOULD clauses is as
        // fast as a plain query.
        const both = new this.lance.BooleanQuery([
          [this.lance.Occur.Should, this.#match(query)],
          [this.lance.Occur.Should, boosted],
        ]);
        return this.#fts(both, options, limit, where);
      }
      // Over the whole table LanceDB 0.31 runs that boolean query ~8x slower than two plain
      // match queries (28 vs 3 ms at 100k rows on 2 cores), so the expansion is a second query
      // whose (boosted) scores are added: the sum the boolean query gives.
      const [main, extra] = await Promise.all([this.#fts(this.#match(query), options, limit, where), this.#fts(boosted, options, limit, where)]);
      const byId = new Map(main.map((h) => [h.record.id, h]));
      for (const h of extra) {
        const have = byId.get(h.record.id);
        byId.set(h.record.id, { ...(have ?? h), score: (have?.score ?? 0) + h.score });
      }
      return [...byId.values()].sort((a, b) => b.score - a.score).slice(0, limit);
    });
  }

  #queryVector(vector: VectorLike): Float32Array {
    if (this.vectorDimension === null) {
      throw new CodedError('unavailable', 'This library has no vectors: configure an embedder and embed the library first.');
    }
    return toFloat32(vector, this.vectorDimension, 'Query');
  }

  async searchVector(vector: VectorLike, options: SearchOptions): Promise<ChunkHit[]> {
    const limit = checkLimit(options.limit);
    const vec = this.#queryVector(vector);
    return this.#guard(async () => {
      const rows = await this.#vectorRows(vec, options, limit, filterToWhere(options.filter));
      return rows.map((row) => toHit(row, 1 - Number(row._distance)));
    });
  }

  /** The `limit` nearest rows to `vec` (exact when filtered, else through the vector index if any; see `vectorQuery`). */
  async #vectorRows(vec: Float32Array, options: SearchOptions, limit: number, where: string | null): Promise<Record<string, unknown>[]> {
    const kind = await this.#vectorIndexKind();
    return this.#searchRows((columns) => scoped(vectorQuery(this.table.query().nearestTo(vec), where, limit, kind).select(columns).limit(limit), options, where), options);
  }

  /**
   * The vector and full-text rankings, each searched on its own (at once), fused here by
   * reciprocal rank. LanceDB's own hybrid query runs the same two searches, but fuses them in a
   * round trip through JavaScript (its reranker is called back with both result sets serialized,
   * and serializes the fusion back): ~3.5 ms of a ~15 ms hybrid search at 100k chunks, and a
   * wait for this thread's event loop. The fusion is LanceDB's RRF reranker's (`rrfFuse`).
   */
  async searchHybrid(query: string, vector: VectorLike, options: SearchOptions): Promise<ChunkHit[]> {
    const limit = checkLimit(options.limit);
    const vec = this.#queryVector(vector);
    await this.#needFts();
    return this.#guard(async () => {
      const where = filterToWhere(options.filter);
      const [byVector, byText] = await Promise.all([
        this.#vectorRows(vec, options, limit, where),
        this.#searchRows((columns) => scoped(this.table.query().fullTextSearch(this.#match(query)).select(columns).limit(limit), options, where), options),
      ]);
      return rrfFuse([byVector, byText], limit).map(({ row, score }) => toHit(row, score));
    });
  }

  async updateVectors(ids: readonly string[], vectors: readonly VectorLike[]): Promise<number> {
    if (ids.length !== vectors.length) {
      throw new CodedError('invalid-input', `updateVectors got ${ids.length} ids but ${vectors.length} vectors.`);
    }
    if (this.vectorDimension === null) {
      throw new CodedError('unavailable', 'This library stores no vectors: open it with the embedder dimension first.');
    }
    const dimension = this.vectorDimension;
    const rows = ids.map((id, i) => ({ id, [VECTOR_COLUMN]: toFloat32(vectors[i]!, dimension, `Chunk ${id}`) }));
    if (rows.length === 0) return 0;
    return this.#exclusive(async () => {
      let updated = 0;
      for (let i = 0; i < rows.length; i += WRITE_BATCH) {
        // Only id + vector are written: the merge leaves every other column as it is.
        const batch = this.lance.makeArrowTable(rows.slice(i, i + WRITE_BATCH), { schema: vectorUpdateSchema(dimension) });
        const result = await this.table.mergeInsert('id').whenMatchedUpdateAll().execute(batch);
        updated += result.numUpdatedRows;
      }
      this.#dirty = true;
      return updated;
    });
  }

  async countUnembedded(): Promise<number> {
    if (this.vectorDimension === null) return 0;
    return this.#guard(() => this.table.countRows(`${VECTOR_COLUMN} IS NULL`));
  }

  async listUnembedded(limit: number): Promise<UnembeddedChunk[]> {
    checkLimit(limit);
    if (this.vectorDimension === null) return [];
    return this.#guard(async () => {
      const rows = await this.table.query().where(`${VECTOR_COLUMN} IS NULL`).select([...EMBED_INPUT_COLUMNS]).limit(limit).toArray();
      return rows.map((row) => embedInput(fromRow(row)));
    });
  }

  async listEmbedded(ids: readonly string[]): Promise<EmbeddedChunk[]> {
    if (this.vectorDimension === null || ids.length === 0) return [];
    return this.#guard(async () => {
      const rows = await this.table
        .query()
        .where(`${sqlIn('id', ids)} AND ${VECTOR_COLUMN} IS NOT NULL`)
        .select([...EMBED_INPUT_COLUMNS, VECTOR_COLUMN])
        .toArray();
      return rows.map((row: Record<string, unknown>) => ({ ...embedInput(fromRow(row)), vector: Float32Array.from(row[VECTOR_COLUMN] as Iterable<number>) }));
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#writes;
    // A stub scan still in flight is not waited for (a rebuild's swap closes this store): its
    // result is discarded, and its failure once the table is closed is caught where it started.
    this.#closed = true;
    this.#dropStubs();
    this.table.close();
    this.db.close();
  }
}

// An FTS index built with other tokenizer settings (an older ManualMate) is rebuilt once.
function ftsOutdated(index: IndexConfig): boolean {
  const details: unknown = index.indexDetails;
  if (typeof details !== 'object' || details === null) return false;
  const d = details as Record<string, unknown>;
  return d.base_tokenizer !== FTS_OPTIONS.baseTokenizer || d.stem !== FTS_OPTIONS.stem;
}
