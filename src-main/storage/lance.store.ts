/**
 * `ChunkStore` on an embedded LanceDB database: one `chunks` table per library folder, BM25 over
 * `indexed_text` (ICU tokenizer), cosine kNN over an optional float32 vector column (exact, or
 * through an IVF-HNSW-SQ index in a large library), and reciprocal rank fusion of the two
 * (LanceDB's RRF, computed here) for hybrid search. Light searches read row addresses and scores
 * only, and take each row's stub from an in-memory index (`lance.stubs.ts`) once it is built;
 * `hydrate` makes records from the result columns that index holds, and reads the rest.
 *
 * This file opens the store and holds the `LanceChunkStore` class; its siblings hold what the
 * class uses: the table's schema and row mapping (`lance.schema.ts`), search shaping and
 * row -> hit mapping (`lance.query.ts`), the wanted indexes and their settings
 * (`lance.indexes.ts`), the vector column's lifecycle (`lance.vectors.ts`), native errors
 * (`lance.errors.ts`), filters (`lance.filter.ts`), write batches (`lance.batch.ts`) and rank
 * fusion (`rank-fusion.ts`). Only this file loads LanceDB (the siblings import its types).
 *
 * Longer than 500 lines because the class alone is ~500: TypeScript keeps a class in one file,
 * and its methods share private state (the write queue, the guard against a closed table, the
 * stub index and its build, the delayed cleanup of old versions, the cached answers on prefixed
 * rows and the vector index). What
 * needs none of it (query shaping, index settings, vector reads and writes) lives in the siblings.
 */

// Must stay the first import: it sets LANCE_CPU_THREADS before LanceDB's runtime starts.
import './lance-env';

import fs from 'node:fs/promises';
import path from 'node:path';
import type * as LanceModule from '@lancedb/lancedb';
import type { Connection, Table } from '@lancedb/lancedb';
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
import { damaged, isStorageFailure, nativeMessage } from './lance.errors';
import { FTS_COLUMN, VECTOR_INDEX_KIND, VECTOR_INDEX_MIN_ROWS, ensureVectorIndex, ensureWantedIndexes } from './lance.indexes';
import { EXPANSION_BOOST, PARENT_KEY, checkLimit, columnsFor, inScoreOrder, recordOf, scoped, sumScores, toHit, vectorQuery, type Projectable } from './lance.query';
import { mergeVectors, readEmbedded, readUnembedded, reconcileVectors } from './lance.vectors';
import {
  MAX_VECTOR_DIMENSION,
  RECORD_COLUMNS,
  TABLE_NAME,
  VECTOR_COLUMN,
  chunkSchema,
  fromRow,
  readTableShape,
  toFloat32,
  toRow,
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
  /** How long a replaced version's files are kept (see `VERSION_RETENTION_MS`); for tests. */
  versionRetentionMs?: number;
}

/**
 * How long the files of a version replaced by an optimize are kept: a search that started before
 * it may still be reading them (searches do not wait for writes). What `ensureIndexes` could not
 * drop yet is dropped once this has passed (`#scheduleCleanup`): otherwise the last minute's
 * versions stayed until the next change to the library, and after an embedding job, whose vector
 * updates rewrite every row, that was a second copy of the whole table (1.2 GB of files for a
 * 424 MB table at 101k chunks).
 */
const VERSION_RETENTION_MS = 60_000;

/**
 * Delay between a store's first light search and the build of its stub index (`lance.stubs.ts`,
 * a scan of three columns: 0.1-0.3 s at 100k chunks on 2 cores). The timer does not keep the process alive, so a
 * one-shot search (the CLI) exits without paying for a scan it would not use.
 */
const STUB_BUILD_DELAY_MS = 1000;

/** Documents named in one delete or merge: bounds the predicate's size (a library's whole re-import). */
const IDS_PER_WRITE = 500;

/** `items` in consecutive groups of at most `size`. */
function inGroups<T>(items: readonly T[], size: number): T[][] {
  const groups: T[][] = [];
  for (let i = 0; i < items.length; i += size) groups.push(items.slice(i, i + size));
  return groups;
}

/**
 * Opens (or creates) the chunk store in `dir`. Expected failures are values: 'invalid-input'
 * (bad options), 'unreadable' (dir is not a usable folder), 'corrupt' (damaged table),
 * 'unsupported' (written by another schema version), 'model-mismatch' (see `lance.vectors.ts`).
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
    let names = await db.tableNames();
    if (names.includes(TABLE_NAME) && (await neverCommitted(path.join(dir, `${TABLE_NAME}.lance`)))) {
      await fs.rm(path.join(dir, `${TABLE_NAME}.lance`), { recursive: true, force: true });
      names = names.filter((n) => n !== TABLE_NAME);
    }
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
    return ok(
      new LanceChunkStore(lance, db, table, shape, opts.vectorIndexMinRows ?? VECTOR_INDEX_MIN_ROWS, hasPackedResults(schema), opts.versionRetentionMs ?? VERSION_RETENTION_MS),
    );
  } catch (err) {
    table?.close();
    db.close();
    const error = err instanceof CodedError ? err : damaged(err);
    return fail(error.code, error.message);
  }
}

/**
 * Whether a table folder holds no committed version. A process killed inside `createEmptyTable`
 * (the first import into a new library) leaves `chunks.lance` with at most a transaction file and
 * no manifest: LanceDB lists that table but cannot open it ("Table 'chunks' was not found"). It
 * never held a row, so `openLanceStore` removes it and creates the table again. A manifest only
 * half written is staged under another name and renamed when complete, so it does not count; a
 * folder that cannot be read is left alone (opening it then reports it as damaged).
 */
async function neverCommitted(tableDir: string): Promise<boolean> {
  let versions: string[];
  try {
    versions = await fs.readdir(path.join(tableDir, '_versions'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return false;
    versions = [];
  }
  return !versions.some((name) => name.endsWith('.manifest'));
}

class LanceChunkStore implements ChunkStore {
  readonly vectorDimension: number | null;
  readonly embedderId: string | null;
  #writes: Promise<unknown> = Promise.resolve();
  #dirty = true;
  #closed = false;
  /** Set once the FTS index is known to exist; nothing in this store drops it. */
  #ftsReady = false;
  /**
   * Row writes (adds, replacements, deletions that removed rows) this store has made, and how
   * many of them the last optimize folded into the indexes. While they differ a full-text
   * search folds them in first (`#foldWrites`): LanceDB 0.31 scores rows that are not in the
   * full-text index by a scan that counts a word's every occurrence there as one more document
   * holding it, so a word a new row repeats ("F-10 blade, part BL-10") can count in more
   * documents than the table has, weigh less than nothing, and every new row holding it drops
   * out of the results (a re-imported manual was not found by its part number until the
   * background indexing ran); and the index keeps counting deleted rows until then.
   */
  #written = 0;
  #folded = 0;

  constructor(
    private readonly lance: Lance,
    private readonly db: Connection,
    private readonly table: Table,
    shape: TableShape,
    private readonly vectorIndexMinRows: number,
    /** False for tables written before the packed result column: rows are written and read without it. */
    private readonly packed: boolean,
    private readonly versionRetentionMs: number,
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
    await Promise.all([this.#buildStubs(), this.#prewarmFts()]);
  }

  /**
   * Loads the full-text index into LanceDB's cache, which otherwise reads a word's postings from
   * disk the first time a search asks for it: after an optimize (a new index), raw full-text
   * queries at 46k chunks took 5-19 ms each until then and 1-3 ms after (~0.1-0.2 s to load, an
   * index of ~5 MB on disk). A failure leaves the index to load as searches read it.
   */
  #prewarmFts(): Promise<void> {
    // Once per index: after an import's fold, the store's own rebuild (`#dropStubs`) and the
    // library index's (`LibraryIndex.optimizeIndexes`) both prepare. Any move of the epoch (a
    // fold, or the later cleanup, which builds no index) or an `ensureIndexes` prewarms again:
    // at worst once more than needed.
    if (this.#prewarmed?.epoch !== this.#stubEpoch) this.#prewarmed = { epoch: this.#stubEpoch, done: this.#loadFts() };
    return this.#prewarmed.done;
  }

  /** The full-text prewarm of the current epoch, begun or done. */
  #prewarmed: { epoch: number; done: Promise<void> } | null = null;

  async #loadFts(): Promise<void> {
    try {
      const fts = (await this.table.listIndices()).find((i) => i.indexType === 'FTS' && i.columns[0] === FTS_COLUMN);
      if (fts && !this.#closed) await this.table.prewarmIndex(fts.name);
    } catch {
      // Searches read the postings themselves.
    }
  }

  /**
   * Every row address changes (compaction): the stub index is dropped. After an optimize that
   * folded writes (`rebuild`), one that was held or being built (a library this process searches:
   * the app's, not a one-shot CLI import's) is prepared again at once (`prepareSearch`: the stubs
   * and the new full-text index) rather than on the next search: the first search after an
   * import's fold read its stubs itself and only scheduled the build, and every search in the
   * second after it did the same.
   */
  #dropStubs(options: { rebuild: boolean }): void {
    const wanted = options.rebuild && (this.#stubs !== null || this.#stubBuild !== null || this.#stubTimer !== null);
    this.#stubEpoch++;
    this.#stubs = null;
    this.#stubBuild = null;
    if (this.#stubTimer) clearTimeout(this.#stubTimer);
    this.#stubTimer = null;
    if (wanted && !this.#closed) {
      // After the write that compacted (the caller's, in the write queue) has returned.
      this.#stubTimer = setTimeout(() => void this.prepareSearch(), 0);
      this.#stubTimer.unref();
    }
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
      this.#written++;
      const schema = await this.table.schema();
      for (const batch of byTextSize(rows)) await this.table.add(rowsToArrowTable(batch, schema) ?? batch);
      this.#dirty = true;
    });
  }

  deleteDocument(docId: string): Promise<number> {
    return this.deleteDocuments([docId]);
  }

  async deleteDocuments(docIds: readonly string[]): Promise<number> {
    let count = 0;
    // One predicate per group: a delete per document made a table version each (re-importing
    // 566 documents spent ~5 s in 1,132 native calls).
    for (const group of inGroups([...new Set(docIds)], IDS_PER_WRITE)) {
      count += await this.#exclusive(async () => {
        const where = sqlIn('doc_id', group);
        const n = await this.table.countRows(where);
        if (n > 0) {
          this.#written++;
          await this.table.delete(where);
          this.#dirty = true;
        }
        return n;
      });
    }
    return count;
  }

  replaceDocument(docId: string, records: readonly ChunkInput[]): Promise<void> {
    return this.replaceDocuments([docId], records);
  }

  async replaceDocuments(docIds: readonly string[], records: readonly ChunkInput[]): Promise<void> {
    const ids = new Set(docIds);
    const stray = records.find((r) => !ids.has(r.docId));
    if (stray) throw new CodedError('invalid-input', `Chunk ${stray.id} belongs to ${stray.docId}, not to ${[...ids].join(', ')}.`);
    const rows = this.#rows(records);
    for (const group of inGroups([...ids], IDS_PER_WRITE)) {
      const members = new Set(group);
      const groupRows = ids.size <= IDS_PER_WRITE ? rows : rows.filter((r) => members.has(r.doc_id as string));
      if (groupRows.length === 0) {
        await this.deleteDocuments(group);
        continue;
      }
      await this.#exclusive(async () => {
        this.#written++;
        // One merge = one commit: readers see either the old or the new version of each document.
        await this.table
          .mergeInsert('id')
          .whenMatchedUpdateAll()
          .whenNotMatchedInsertAll()
          .whenNotMatchedBySourceDelete({ where: sqlIn('doc_id', group) })
          .execute(groupRows);
        this.#dirty = true;
      });
    }
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
      await ensureWantedIndexes(this.lance, this.table, existing);
      // A full-text index may have been built here (none before, or outdated): prewarmed anew.
      this.#prewarmed = null;
      this.#ftsReady = true;
      if (this.vectorDimension !== null && (await ensureVectorIndex(this.lance, this.table, existing, this.vectorIndexMinRows))) {
        this.#vectorKind = Promise.resolve(VECTOR_INDEX_KIND);
      }
      const stale = existing.some((i) => (i.numUnindexedRows ?? 0) > 0);
      if (this.#dirty || stale) await this.#optimize();
      this.#dirty = false;
      this.#folded = this.#written;
    });
  }

  /** Runs inside the write queue: folds every write so far into the indexes. */
  async #optimize(): Promise<void> {
    // Folds new rows into every index as a delta (no rebuild), compacts small fragments from
    // batched adds, and drops old versions (one process per library, so no reader needs them).
    await this.table.optimize({ cleanupOlderThan: new Date(Date.now() - this.versionRetentionMs) });
    this.#dropStubs({ rebuild: true });
    this.#scheduleCleanup();
    this.#dirty = false;
    this.#folded = this.#written;
  }

  /**
   * Folds the rows this store wrote into the indexes before a full-text search reads them (see
   * `#written`). Searches call it only when a write is left to fold: every other search pays one
   * comparison. It is the optimize the background indexing runs after an import (which then finds
   * nothing left to do), ~0.1 s at 20k chunks and ~0.3 s at 100k on 2 cores; the first search
   * after a write waits for it, and for a write under way. One that fails leaves those rows to
   * LanceDB's scan, as before, and to the next `ensureIndexes` (`#dirty` stays set).
   */
  async #foldWrites(): Promise<void> {
    if (this.#folded === this.#written) return;
    await this.#exclusive(async () => {
      if (this.#folded === this.#written) return;
      try {
        await this.#optimize();
      } catch {
        this.#folded = this.#written;
      }
    }).catch(() => undefined);
  }

  #cleanupTimer: ReturnType<typeof setTimeout> | null = null;
  /** The pending cleanup's run, for `close` and tests. */
  #cleanup: Promise<void> = Promise.resolve();

  /**
   * Drops, once `versionRetentionMs` has passed, the versions the last optimize had to keep. The
   * timer does not keep the process alive: a CLI import that exits leaves them to the next optimize.
   */
  #scheduleCleanup(): void {
    if (this.#cleanupTimer) clearTimeout(this.#cleanupTimer);
    this.#cleanupTimer = setTimeout(() => {
      this.#cleanupTimer = null;
      this.#cleanup = this.#exclusive(async () => {
        // Rows written since: the next `ensureIndexes` optimizes them and cleans up then.
        if (this.#dirty) return;
        await this.table.optimize({ cleanupOlderThan: new Date(Date.now() - this.versionRetentionMs) });
        // Nothing was left to compact, but row addresses are not promised across an optimize. The
        // full-text index is the same: the stubs wait for the next search, as before a fold.
        this.#dropStubs({ rebuild: false });
      }).catch(() => undefined);
    }, this.versionRetentionMs + 1000);
    this.#cleanupTimer.unref();
  }

  /** Resolves when the cleanup scheduled by the last `ensureIndexes` (if any) has run. */
  async cleanedUp(): Promise<void> {
    while (this.#cleanupTimer) await new Promise((resolve) => setTimeout(resolve, 50));
    await this.#cleanup;
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
    return (await this.#ftsRows(query, options, limit, where)).map((row) => toHit(row, Number(row._score)));
  }

  /** The `limit` best full-text rows for `query`, equal scores in reading order (`inScoreOrder`). */
  async #ftsRows(query: LanceModule.FullTextQuery, options: SearchOptions, limit: number, where: string | null): Promise<Record<string, unknown>[]> {
    const run = (columns: string[]) => scoped(this.table.query().fullTextSearch(query).select(columns).limit(limit), options, where);
    return inScoreOrder(await this.#searchRows(run, options), (row) => Number(row._score));
  }

  async searchBm25(query: string, options: SearchOptions): Promise<ChunkHit[]> {
    const limit = checkLimit(options.limit);
    if (query.trim() === '') return [];
    await this.#needFts();
    if (this.#folded !== this.#written) await this.#foldWrites();
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
      return sumScores(main, extra, limit);
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

  /**
   * The `limit` nearest rows to `vec` (exact when filtered, else through the vector index if any;
   * see `vectorQuery`), equal distances in reading order (`inScoreOrder`).
   */
  async #vectorRows(vec: Float32Array, options: SearchOptions, limit: number, where: string | null): Promise<Record<string, unknown>[]> {
    const kind = await this.#vectorIndexKind();
    const rows = await this.#searchRows((columns) => scoped(vectorQuery(this.table.query().nearestTo(vec), where, limit, kind).select(columns).limit(limit), options, where), options);
    return inScoreOrder(rows, (row) => -Number(row._distance));
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
    if (this.#folded !== this.#written) await this.#foldWrites();
    return this.#guard(async () => {
      const where = filterToWhere(options.filter);
      const rankings = await Promise.all([this.#vectorRows(vec, options, limit, where), this.#ftsRows(this.#match(query), options, limit, where)]);
      return rrfFuse(rankings, limit).map(({ row, score }) => toHit(row, score));
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
      const updated = await mergeVectors(this.lance, this.table, rows, dimension);
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
    return this.#guard(() => readUnembedded(this.table, limit));
  }

  async listEmbedded(ids: readonly string[]): Promise<EmbeddedChunk[]> {
    if (this.vectorDimension === null || ids.length === 0) return [];
    return this.#guard(() => readEmbedded(this.table, ids));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#writes;
    // A stub scan still in flight is not waited for (a rebuild's swap closes this store): its
    // result is discarded, and its failure once the table is closed is caught where it started.
    this.#closed = true;
    if (this.#cleanupTimer) clearTimeout(this.#cleanupTimer);
    this.#cleanupTimer = null;
    this.#dropStubs({ rebuild: false });
    this.table.close();
    this.db.close();
  }
}
