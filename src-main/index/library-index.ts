import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { SearchHit, SearchResponse } from '../contract/api';
import type { NormalizedDocument } from '../core/document';
import type { Result } from '../core/result';
import type { Embedder, Llm } from '../models/types';
import type { EnrichMode } from '../enrich/enricher';
import { CodedError, fail, ok } from '../core/result';
import type { ChunkContext, Chunker } from '../chunking/chunker';
import { createChunker } from '../chunking/chunker.registry';
import type { DocumentIndexer, PreparedDocument } from '../ingest/import.job';
import { INDEX_VERSION, type Library } from '../storage/library.store';
import { readJson, writeJsonAtomic } from '../storage/atomic-file';
import type { ChunkFilter, ChunkHit, ChunkInput, ChunkRecord, ChunkStore, UnembeddedChunk } from '../storage/chunk-store';
import { prefixOf, signaturePrefix } from '../enrich/prefix';
import { openLanceStore } from '../storage/lance.store';
import { LibraryEnrichment, type QueryAnalysis } from './library-enrichment';
import { resolveViews, tableRowViews } from './table-views';
import { expandQuery } from '../search/thesaurus';
import { coverageRerank } from '../search/stages/term-coverage.stage';
import { pageRange, type ChunkStrategy } from '../core/chunk';

/**
 * The index of one library: chunking with the library's strategy, heuristic enrichment, prefixes
 * and the LanceDB store, plus model-aware search. It is the `DocumentIndexer` the import uses.
 */

export interface SearchOptions {
  topK: number;
  retriever: 'bm25' | 'dense' | 'hybrid';
  /** Restrict to these models (the user's filter). */
  models?: string[];
  /** Rank these models first when the question names none (a follow-up inheriting the model). */
  preferModels?: string[];
  docIds?: string[];
}

/** What a rebuild did: documents and chunks indexed, and vectors kept from the previous index. */
export interface RebuildSummary {
  documents: number;
  chunks: number;
  vectorsKept: number;
}

/** Where a library keeps its model vocabulary and term statistics. */
const ENRICHMENT_FILE = 'enrichment.json';

/** A document's rows followed by the row views of its long tables. */
function withViews(doc: NormalizedDocument, rows: ChunkInput[]): ChunkInput[] {
  return [...rows, ...rows.flatMap((r) => tableRowViews(doc, r))];
}

/** Chunks embedded per call: large enough to amortize the call, small enough to stop promptly. */
const EMBED_BATCH = 32;
/** Vectors written to the store per update. */
const EMBED_WRITE_BATCH = 512;

/** Where the index gets embedders from (the model runtime), loaded lazily and shared. */
export interface EmbedderSource {
  embedder(id: string): Promise<Embedder>;
}

/** How many extra candidates the first stage fetches so model-aware ranking has room to work. */
const CANDIDATE_FACTOR = 3;
/** Of those, how many (per result wanted) are read whole and reranked. */
const HYDRATE_FACTOR = 2;
/** Fewest results the candidate pools are sized for (the CLI's and the UI's default top-k). */
const MIN_POOL = 10;

/** Rows per write while rebuilding (each write is a table version). */
const REBUILD_WRITE_ROWS = 4096;
/** Ids per lookup of the vectors a rebuild keeps (one `IN` list). */
const CARRY_BATCH = 512;
/** Beside the live index folder: the index being rebuilt, and the replaced one during the swap. */
const NEXT_SUFFIX = '.next';
const OLD_SUFFIX = '.old';

/** How a library's LanceDB store is opened: its embedder's dimension and id, when it has one. */
type StoreOptions = { vectorDimension: number | null; embedderId: string | null };

function storeOptionsOf(library: Library): StoreOptions {
  const embedder = library.config.embedder;
  return { vectorDimension: embedder?.dimension ?? null, embedderId: embedder?.id ?? null };
}

const pathExists = (p: string): Promise<boolean> => fs.stat(p).then(() => true, () => false);

/**
 * Finishes or undoes an interrupted rebuild before the index is opened: a half-built `.next`
 * folder is discarded; if the swap stopped between its two renames (no live folder, an `.old` one)
 * the old index is put back; an `.old` folder beside a live one is what the swap replaced.
 */
async function settleRebuild(indexDir: string): Promise<void> {
  const old = `${indexDir}${OLD_SUFFIX}`;
  if (!(await pathExists(indexDir)) && (await pathExists(old))) await fs.rename(old, indexDir);
  await fs.rm(`${indexDir}${NEXT_SUFFIX}`, { recursive: true, force: true });
  await fs.rm(old, { recursive: true, force: true });
}

export class LibraryIndex implements DocumentIndexer {
  private chunker: Chunker;

  /**
   * Reads in flight (searches, chunk lists) and a store swap waiting to happen: a rebuild's swap
   * closes the store, so it waits for running reads, and reads that arrive meanwhile wait for it.
   */
  private reads = 0;
  private readsDone: (() => void) | null = null;
  private swapping: Promise<void> | null = null;

  private constructor(
    private readonly library: Library,
    private store: ChunkStore,
    private enrichment_: LibraryEnrichment,
    private readonly embedders: EmbedderSource,
  ) {
    this.chunker = LibraryIndex.chunkerFor(library);
  }

  static async open(library: Library, embedders: EmbedderSource): Promise<LibraryIndex> {
    await settleRebuild(library.indexDir);
    const store = await LibraryIndex.openStore(library.indexDir, storeOptionsOf(library));
    const state = await readJson<unknown>(path.join(library.dir, ENRICHMENT_FILE), null);
    const index = new LibraryIndex(library, store, LibraryEnrichment.restore(state), embedders);
    await index.recover();
    return index;
  }

  /**
   * Switches the library's embedder: the vector column is recreated for the new model (text and
   * the keyword index stay), so every chunk is re-embedded by `embedPending`. Null keeps BM25 only.
   */
  async setEmbedder(id: string | null): Promise<Result<void>> {
    if (id === null) {
      await this.library.saveConfig({ embedder: null });
      return ok(undefined);
    }
    let embedder: Embedder;
    try {
      embedder = await this.embedders.embedder(id);
    } catch (err) {
      return fail('model-failed', err instanceof Error ? err.message : String(err));
    }
    await this.store.close();
    const opened = await openLanceStore(this.library.indexDir, { vectorDimension: embedder.dimension, embedderId: id, onModelMismatch: 'reset' });
    if (!opened.ok) return opened;
    this.store = opened.value;
    await this.library.saveConfig({ embedder: { id, dimension: embedder.dimension } });
    return ok(undefined);
  }

  /**
   * The background LLM upgrade: re-enriches every ready document not yet enriched with `mode`,
   * one document at a time, replacing its rows in place (search keeps working on the old rows
   * until then). Resumable: progress is recorded per document, so a cancelled run continues later.
   */
  async upgradeEnrichment(
    mode: Exclude<EnrichMode, 'heuristic'>,
    llm: Llm,
    signal: AbortSignal,
    onProgress: (done: number, total: number) => void,
  ): Promise<Result<number>> {
    const todo = (await this.library.documents()).filter((d) => d.status === 'ready' && d.contentHash && d.enrichedWith !== mode);
    let done = 0;
    onProgress(0, todo.length);
    for (const rec of todo) {
      if (signal.aborted) return fail('cancelled', 'Enrichment was cancelled; it resumes where it stopped.');
      const doc = await this.library.loadNormalized(rec);
      if (!doc) continue;
      const chunks = await this.chunker.chunk(doc, await this.chunkContext(signal));
      if (!chunks.ok) continue;
      const { prefix, restructure } = this.library.config;
      let upgraded;
      try {
        upgraded = await this.enrichment.enrichWithLlm(doc, chunks.value, { prefix, restructure }, mode, llm, signal);
      } catch (err) {
        if (signal.aborted) return fail('cancelled', 'Enrichment was cancelled; it resumes where it stopped.');
        throw err;
      }
      await this.library.setJournal([doc.id]);
      await this.store.replaceDocument(doc.id, withViews(doc, upgraded.rows));
      const current = await this.library.document(doc.id);
      if (current?.contentHash === rec.contentHash) {
        await this.library.putDocuments([{ ...current, enrichedWith: mode, llmCalls: upgraded.llmCalls, llmTokens: upgraded.llmTokens, chunks: upgraded.rows.length }]);
      }
      await this.library.setJournal([]);
      onProgress(++done, todo.length);
    }
    await this.store.ensureIndexes();
    return ok(done);
  }

  /** Chunks still waiting for a vector. */
  pendingEmbeddings(): Promise<number> {
    return this.library.config.embedder ? this.store.countUnembedded() : Promise.resolve(0);
  }

  /**
   * Embeds every chunk that has no vector yet, in batches, reporting progress; search keeps working
   * meanwhile (a chunk without a vector is simply not found by dense search yet). Cancellable.
   */
  async embedPending(signal: AbortSignal, onProgress: (done: number, total: number) => void): Promise<Result<number>> {
    const configured = this.library.config.embedder;
    if (!configured) return ok(0);
    let embedder: Embedder;
    try {
      embedder = await this.embedders.embedder(configured.id);
    } catch (err) {
      return fail('model-missing', `The embedding model "${configured.id}" of this library could not be loaded: ${err instanceof Error ? err.message : String(err)}`);
    }
    const total = await this.store.countUnembedded();
    let done = 0;
    onProgress(0, total);
    while (!signal.aborted) {
      // Each write is a new table version, so vectors are written a few hundred at a time while
      // the embedder is called in small batches (progress, and a prompt stop when cancelled).
      const batch = await this.store.listUnembedded(EMBED_WRITE_BATCH);
      if (batch.length === 0) break;
      const vectors: Float32Array[] = [];
      try {
        for (let i = 0; i < batch.length && !signal.aborted; i += EMBED_BATCH) {
          vectors.push(...(await embedder.embed(batch.slice(i, i + EMBED_BATCH).map(embedText), { signal })));
          onProgress(done + vectors.length, Math.max(total, done + vectors.length));
        }
      } catch (err) {
        if (!signal.aborted) throw err;
      }
      await this.store.updateVectors(batch.slice(0, vectors.length).map((b) => b.id), vectors);
      done += vectors.length;
    }
    if (signal.aborted) return fail('cancelled', 'Embedding was cancelled; it resumes with the next import or the next start of the app.');
    await this.store.ensureIndexes();
    return ok(done);
  }

  /** The query vector, or why dense search is not possible for this library. */
  private async queryVector(query: string): Promise<Result<Float32Array>> {
    const configured = this.library.config.embedder;
    if (!configured) {
      return fail('unavailable', 'This library has no embedding model, so it uses keyword (BM25) search. Choose an embedder in Settings › Models to enable dense and hybrid search.');
    }
    if (this.store.embedderId !== null && this.store.embedderId !== configured.id) {
      return fail('model-mismatch', `This library's vectors come from "${this.store.embedderId}", not "${configured.id}". Re-embed the library (Settings › Models) before using dense search.`);
    }
    let embedder: Embedder;
    try {
      embedder = await this.embedders.embedder(configured.id);
    } catch {
      return fail('model-missing', `The embedding model "${configured.id}" used by this library is not installed. Put it back in the models folder, or choose another embedder and re-embed.`);
    }
    if (embedder.dimension !== configured.dimension) {
      return fail('model-mismatch', `"${configured.id}" now makes ${embedder.dimension}-dimensional vectors, but the library holds ${configured.dimension}. Re-embed the library.`);
    }
    const [vec] = await embedder.embed([query]);
    return ok(vec!);
  }

  private static chunkerFor(library: Library, strategy: ChunkStrategy = library.config.strategy): Chunker {
    const made = createChunker(strategy, {});
    if (!made.ok) throw new CodedError(made.error.code, made.error.message);
    return made.value;
  }

  async learn(docs: NormalizedDocument[]): Promise<void> {
    const previous: NormalizedDocument[] = [];
    for (const doc of docs) {
      const rec = await this.library.document(doc.id);
      if (rec?.status === 'ready' && rec.contentHash && rec.contentHash !== doc.contentHash) {
        const old = await this.library.loadNormalized(rec);
        if (old) previous.push(old);
      }
    }
    this.enrichment.learn(docs, previous);
  }

  /** The library's model vocabulary and term statistics (replaced as a whole by `rebuild`). */
  get enrichment(): LibraryEnrichment {
    return this.enrichment_;
  }

  prepare(doc: NormalizedDocument, signal: AbortSignal): Promise<PreparedDocument> {
    return this.prepareWith(this.enrichment_, this.chunker, doc, signal);
  }

  private async prepareWith(enrichment: LibraryEnrichment, chunker: Chunker, doc: NormalizedDocument, signal: AbortSignal): Promise<PreparedDocument> {
    const chunks = await chunker.chunk(doc, await this.chunkContext(signal));
    if (!chunks.ok) throw new CodedError(chunks.error.code, chunks.error.message);
    const { prefix, restructure } = this.library.config;
    const rows = await enrichment.enrich(doc, chunks.value, { prefix, restructure }, signal);
    const models = [...new Set(rows.map((r) => r.model).filter((m): m is string => m !== null))];
    return { doc, chunks: rows.length, models, rows: withViews(doc, rows) };
  }

  /**
   * Writes a batch: the journal names the documents first, so a crash between the index write and
   * documents.json is repaired by `recover()` on the next open.
   */
  async commit(batch: PreparedDocument[], persist: () => Promise<readonly string[] | void>): Promise<void> {
    if (batch.length === 0) {
      await persist();
      return;
    }
    const ids = batch.map((p) => p.doc.id);
    await this.library.setJournal(ids);
    const existing = new Set((await this.library.documents()).filter((d) => d.chunks > 0 || d.status === 'ready').map((d) => d.id));
    // The first documents of a library written before index versioning are built by this code.
    if (existing.size === 0 && this.library.indexOutdated) await this.library.saveConfig({ indexVersion: INDEX_VERSION });
    // The vocabulary file is written while LanceDB writes the rows: a crash leaves the same states
    // as writing it after them (vocabulary ahead of documents.json, which recovery tolerates).
    const writes = await Promise.allSettled([
      this.saveEnrichment(),
      (async () => {
        for (const id of ids) if (existing.has(id)) await this.store.deleteDocument(id);
        await this.store.addChunks(batch.flatMap((p) => p.rows as ChunkInput[]));
      })(),
    ]);
    for (const w of writes) if (w.status === 'rejected') throw w.reason;
    // New rows are searchable at once (LanceDB scans rows not yet in an index); folding them into
    // the indexes is `optimizeIndexes`, run as background work after the import.
    const dropped = (await persist()) ?? [];
    // Still journaled: a crash before these deletions drops the rows on the next open.
    for (const id of dropped) await this.store.deleteDocument(id);
    await this.library.setJournal([]);
  }

  /** Persists the library's model vocabulary and term statistics. */
  private saveEnrichment(): Promise<void> {
    return writeJsonAtomic(path.join(this.library.dir, ENRICHMENT_FILE), this.enrichment.snapshot());
  }

  /** Builds missing indexes and folds new rows into them (no rebuild). */
  async optimizeIndexes(): Promise<void> {
    await this.store.ensureIndexes();
  }

  /** Removes documents' rows from the index. */
  async remove(docIds: string[]): Promise<void> {
    await this.library.setJournal(docIds);
    for (const id of docIds) await this.store.deleteDocument(id);
    await this.store.ensureIndexes();
    const docs: NormalizedDocument[] = [];
    for (const id of docIds) {
      const rec = await this.library.document(id);
      const doc = rec ? await this.library.loadNormalized(rec) : null;
      if (doc) docs.push(doc);
    }
    this.enrichment.forget(docs);
    await this.saveEnrichment();
    await this.library.setJournal([]);
  }

  /**
   * Repairs an interrupted commit: rows of journaled documents are dropped, then documents that
   * documents.json lists as ready are re-indexed from their stored normalized text. Documents left
   * mid-import (neither ready nor failed) are marked failed with a reason.
   */
  async recover(): Promise<void> {
    const journal = await this.library.journal();
    const docs = await this.library.documents();
    const interrupted = docs.filter((d) => d.status !== 'ready' && d.status !== 'failed');
    if (interrupted.length > 0) {
      await this.library.putDocuments(
        interrupted.map((d) => ({ ...d, status: 'failed' as const, code: 'cancelled' as const, reason: 'The import was interrupted; import the file again.' })),
      );
    }
    if (journal.length === 0) return;
    for (const id of journal) await this.store.deleteDocument(id);
    const byId = new Map(docs.map((d) => [d.id, d]));
    const redo: PreparedDocument[] = [];
    for (const id of journal) {
      const rec = byId.get(id);
      if (rec?.status !== 'ready' || !rec.contentHash) continue;
      const doc = await this.library.loadNormalized(rec);
      if (doc) redo.push(await this.prepare(doc, new AbortController().signal));
    }
    if (redo.length > 0) await this.store.addChunks(redo.flatMap((p) => p.rows as ChunkInput[]));
    await this.store.ensureIndexes();
    await this.library.setJournal([]);
  }

  /**
   * Rebuilds the whole index from the stored normalized documents with the current code and
   * settings (or `options.strategy`, saved only once the new index is in place): the vocabulary
   * and term statistics are learned again from every document, each document is chunked, enriched
   * and written into a new LanceDB folder beside the live one, and that folder replaces the live
   * one only when complete. Search keeps using the old index until the swap. Cancelled, failed or
   * crashed before the swap, the library keeps its previous index as it was (a leftover folder is
   * discarded on the next open); a crash after it leaves the library marked outdated (index
   * version 0) until its metadata is written, so it is offered a rebuild instead of showing mixed
   * state. A chunk whose embedder input did not change keeps its vector; the others, and LLM
   * enrichment, wait for the background work the caller starts afterwards. The caller keeps every
   * other writer of this library out while it runs. Progress reaches done == total only when the
   * new index is in place.
   */
  async rebuild(
    signal: AbortSignal,
    onProgress: (done: number, total: number) => void,
    options: { strategy?: ChunkStrategy } = {},
  ): Promise<Result<RebuildSummary>> {
    const cancelled = () => fail<never>('cancelled', 'The rebuild was cancelled; the library keeps its previous index.');
    const records = (await this.library.documents()).filter((d) => d.status === 'ready' && d.contentHash);
    const total = records.length;
    const report = (done: number) => onProgress(Math.min(done, Math.max(0, total - 1)), total);
    report(0);
    // Two passes over the stored texts, one document in memory at a time: the vocabulary must know
    // every document before the first is enriched, and a library can hold gigabytes of text.
    const enrichment = LibraryEnrichment.restore(null);
    const lost = new Set<string>();
    for (const rec of records) {
      if (signal.aborted) return cancelled();
      const doc = await this.library.loadNormalized(rec);
      if (doc) enrichment.learn([doc]);
      else lost.add(rec.id);
    }
    const chunker = LibraryIndex.chunkerFor(this.library, options.strategy);
    const staging = `${this.library.indexDir}${NEXT_SUFFIX}`;
    await fs.rm(staging, { recursive: true, force: true });
    const storeOptions = storeOptionsOf(this.library);
    const opened = await openLanceStore(staging, storeOptions);
    if (!opened.ok) return opened;
    const next = opened.value;
    const prepared = new Map<string, { chunks: number; models: string[] }>();
    let kept = 0;
    const discard = async () => {
      await next.close();
      await fs.rm(staging, { recursive: true, force: true });
    };
    try {
      let pending: ChunkInput[] = [];
      const flush = async () => {
        kept += await this.carryVectors(pending);
        await next.addChunks(pending);
        pending = [];
      };
      for (const rec of records) {
        if (signal.aborted) break;
        if (lost.has(rec.id)) continue;
        const doc = await this.library.loadNormalized(rec);
        if (!doc) {
          lost.add(rec.id);
          continue;
        }
        const p = await this.prepareWith(enrichment, chunker, doc, signal);
        prepared.set(doc.id, { chunks: p.chunks, models: p.models });
        pending.push(...(p.rows as ChunkInput[]));
        // Fewer, larger writes: each write is a new table version.
        if (pending.length >= REBUILD_WRITE_ROWS) await flush();
        report(prepared.size + lost.size);
      }
      if (!signal.aborted) {
        if (pending.length > 0) await flush();
        await next.ensureIndexes();
      }
    } catch (err) {
      await discard();
      if (signal.aborted) return cancelled();
      // A document the current settings cannot chunk (e.g. `semantic` without its embedder) stops
      // the rebuild with that reason; the previous index stays.
      if (err instanceof CodedError) return fail(err.code, `${err.message} The library keeps its previous index.`);
      throw err;
    }
    if (signal.aborted) {
      await discard();
      return cancelled();
    }
    await next.close();
    const previousVersion = this.library.config.indexVersion;
    await this.library.saveConfig({ indexVersion: 0 });
    const swapped = await this.swapIn(staging, storeOptions);
    if (!swapped.ok) {
      await fs.rm(staging, { recursive: true, force: true });
      await this.library.saveConfig({ indexVersion: previousVersion });
      return swapped;
    }
    this.enrichment_ = enrichment;
    this.chunker = chunker;
    await this.saveEnrichment();
    const current = await this.library.documents();
    await this.library.putDocuments(
      current.flatMap((d) => {
        const p = prepared.get(d.id);
        if (p) {
          // The LLM upgrade, when the library asks for one, runs again over the new chunks.
          const { enrichedWith: _enrichedWith, llmCalls: _llmCalls, llmTokens: _llmTokens, ...rest } = d;
          return [{ ...rest, chunks: p.chunks, models: p.models }];
        }
        if (!lost.has(d.id)) return [];
        return [{ ...d, status: 'failed' as const, code: 'corrupt' as const, chunks: 0, reason: 'Its stored text could not be read while rebuilding the index; import the file again.' }];
      }),
    );
    await this.library.saveConfig({ ...(options.strategy ? { strategy: options.strategy } : {}), indexVersion: INDEX_VERSION });
    onProgress(total, total);
    return ok({ documents: prepared.size, chunks: [...prepared.values()].reduce((n, p) => n + p.chunks, 0), vectorsKept: kept });
  }

  /**
   * Replaces the live index folder by `staging` with two renames, each atomic (`settleRebuild`
   * finishes or undoes them after a crash), while no read runs. When a rename or the reopen
   * fails, the previous folder is put back and reopened, so the library keeps working.
   */
  private async swapIn(staging: string, storeOptions: StoreOptions): Promise<Result<void>> {
    const live = this.library.indexDir;
    const old = `${live}${OLD_SUFFIX}`;
    let failure: unknown = null;
    await this.exclusive(async () => {
      await this.store.close();
      try {
        await fs.rm(old, { recursive: true, force: true });
        await fs.rename(live, old).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENOENT') throw err;
        });
        await fs.rename(staging, live);
        this.store = await LibraryIndex.openStore(live, storeOptions);
      } catch (err) {
        failure = err;
        if (!(await pathExists(live)) && (await pathExists(old))) await fs.rename(old, live);
        this.store = await LibraryIndex.openStore(live, storeOptions);
      }
    });
    if (failure !== null) {
      const message = failure instanceof Error ? failure.message : String(failure);
      return fail('internal', `The rebuilt index could not replace the current one (${message}). The library keeps its previous index.`);
    }
    await fs.rm(old, { recursive: true, force: true });
    return ok(undefined);
  }

  private static async openStore(dir: string, options: StoreOptions): Promise<ChunkStore> {
    const opened = await openLanceStore(dir, options);
    if (!opened.ok) throw new CodedError(opened.error.code, opened.error.message);
    return opened.value;
  }

  /**
   * What chunkers get besides the document: the library's embedder when it has one (`semantic`
   * cuts where embedded sentences drift apart; `structural`'s soft merge compares embeddings).
   * An embedder that cannot be loaded is left out: `semantic` then fails with its own message,
   * the other strategies do without it.
   */
  private async chunkContext(signal: AbortSignal): Promise<ChunkContext> {
    const configured = this.library.config.embedder;
    if (!configured) return { signal };
    try {
      return { signal, embedder: await this.embedders.embedder(configured.id) };
    } catch {
      return { signal };
    }
  }

  /**
   * Gives rows the vectors the live index holds for the same id, embedder and embedder input, so
   * a rebuild re-embeds only what changed (embedding is by far the slowest part of indexing).
   * Returns how many rows got one.
   */
  private async carryVectors(rows: ChunkInput[]): Promise<number> {
    const embedder = this.library.config.embedder;
    if (!embedder || this.store.embedderId !== embedder.id || this.store.vectorDimension !== embedder.dimension) return 0;
    let kept = 0;
    for (let i = 0; i < rows.length; i += CARRY_BATCH) {
      const slice = rows.slice(i, i + CARRY_BATCH);
      const old = new Map((await this.store.listEmbedded(slice.map((r) => r.id))).map((e) => [e.id, e]));
      for (const row of slice) {
        const prev = old.get(row.id);
        if (prev && embedText(prev) === embedText(row)) {
          row.vector = prev.vector;
          kept++;
        }
      }
    }
    return kept;
  }

  /** Runs a read of the store, after any swap in progress and never during one. */
  private async reading<T>(read: () => Promise<T>): Promise<T> {
    while (this.swapping) await this.swapping;
    this.reads++;
    try {
      return await read();
    } finally {
      if (--this.reads === 0) this.readsDone?.();
    }
  }

  /** Runs `swap` once no read is in flight, holding new reads until it is done. */
  private async exclusive(swap: () => Promise<void>): Promise<void> {
    while (this.swapping) await this.swapping;
    let release!: () => void;
    this.swapping = new Promise((resolve) => (release = resolve));
    try {
      if (this.reads > 0) await new Promise<void>((resolve) => (this.readsDone = resolve));
      this.readsDone = null;
      await swap();
    } finally {
      this.swapping = null;
      release();
    }
  }

  search(query: string, options: SearchOptions): Promise<Result<SearchResponse>> {
    return this.reading(() => this.searchNow(query, options));
  }

  private async searchNow(query: string, options: SearchOptions): Promise<Result<SearchResponse>> {
    let vector: Float32Array | null = null;
    if (options.retriever !== 'bm25') {
      const v = await this.queryVector(query);
      if (!v.ok) return v;
      vector = v.value;
    }
    let analysis = this.enrichment.analyzeQuery(query);
    if (analysis.models.length === 0 && options.preferModels && options.preferModels.length > 0) {
      analysis = { ...analysis, models: options.preferModels, related: [] };
    }
    // Candidate pools are sized for at least MIN_POOL results, so asking for fewer results returns
    // the first ones of a longer list instead of a different ranking from a thinner pool.
    const pool = Math.max(options.topK, MIN_POOL);
    const limit = pool * CANDIDATE_FACTOR;
    const base: ChunkFilter = options.docIds ? { docIds: options.docIds } : {};
    const first = (text: string, filter: ChunkFilter, expand = true): Promise<ChunkHit[]> => {
      const opts = { limit: expand ? limit : pool, filter, expansion: expand ? expandQuery(text) : '', light: true };
      if (options.retriever === 'dense') return this.store.searchVector(vector!, opts);
      if (options.retriever === 'hybrid') return this.store.searchHybrid(text, vector!, opts);
      return this.store.searchBm25(text, opts);
    };
    let candidates: ChunkHit[];
    let topical = query;
    if (options.models && options.models.length > 0) {
      // The user's model filter restricts the search.
      candidates = await first(query, { ...base, models: options.models });
    } else if (analysis.models.length > 0) {
      // A named model: its own (and its family's) chunks are searched separately so 30 sibling
      // manuals cannot crowd them out of the candidates. Both searches use the question without
      // the model's name (every chunk of that model carries it in its prefix, so it says nothing
      // about which passage answers), which also keeps their scores comparable. The search over
      // the whole library only has to find what could outrank the model's own chunks (other
      // models' chunks keep a fraction of their score), so it fetches no extra candidates and adds
      // no synonyms: with them it found nothing more on the three question sets (same Hit@1) and
      // cost twice as much.
      topical = stripMentions(query, analysis);
      const [own, all] = await Promise.all([
        first(topical, { ...base, models: this.enrichment.filterModels(analysis) }),
        first(topical, base, false),
      ]);
      const seen = new Set(own.map((h) => h.record.id));
      candidates = [...own, ...all.filter((h) => !seen.has(h.record.id))];
    } else {
      candidates = await first(query, base);
    }
    // Candidates are stubs (id, model, parent) until here, and reading text is the costly part of
    // a search, so only those that model-aware ranking (by model weight alone: stubs carry no text
    // or title) puts in reach of the top k are read: the lexical rerank moves a chunk by a bounded
    // factor, and on the three question sets no winner came from below 2k (same Hit@1 at k..3k).
    // A table found through one of its row views is shown whole: those tables are read meanwhile.
    const reach = this.enrichment.rank(candidates, analysis).slice(0, pool * HYDRATE_FACTOR);
    const tableIds = [...new Set(reach.flatMap((h) => (h.record.parentId ? [h.record.parentId] : [])))];
    const [hydrated, tables] = await Promise.all([this.store.hydrate(reach), this.store.getChunks(tableIds, { light: true })]);
    const resolved = resolveViews(hydrated);
    const covered = coverageRerank(resolved.hits, topical, resolved.matchedView);
    const ranked = this.enrichment.rank(covered, analysis).slice(0, options.topK);
    const whole = new Map(tables.map((r) => [r.id, r]));
    const results = ranked.flatMap((h) => {
      const record = resolved.matchedView.has(h.record.id) ? whole.get(h.record.id) : h.record;
      return record ? [toHit({ record, score: h.score }, query, resolved.matchedView.get(h.record.id))] : [];
    });
    const resolvedModels = options.models && options.models.length > 0 ? options.models : analysis.models;
    return ok({ query, resolvedModels, retriever: options.retriever, results });
  }

  listChunks(docId: string): Promise<ChunkRecord[]> {
    return this.reading(() => this.store.listChunks(docId));
  }

  async close(): Promise<void> {
    await this.store.close();
  }
}

/**
 * What is embedded: CHOP's `PFX(CNM) || chunk`, whatever the keyword prefix setting. The
 * signature anchors near-identical sibling passages apart in vector space (the method); for
 * keyword search the model-aware ranking already uses the signature columns, and measured on
 * dev.jsonl and galaxy-s10.jsonl the prefix in the keyword index did not help (docs/benchmarks.md).
 */
function embedText(chunk: UnembeddedChunk): string {
  const prefix = signaturePrefix({ category: chunk.category, nouns: chunk.nouns, model: chunk.model });
  // A configured keyword prefix that already starts with the signature is used as is.
  if (!prefix || prefixOf(chunk).startsWith(prefix)) return chunk.indexedText;
  return `${prefix}\n${chunk.indexedText}`;
}

/** The question without the words that name its models; the whole question if nothing else is left. */
function stripMentions(query: string, analysis: QueryAnalysis): string {
  let rest = query;
  for (const m of analysis.mentions) if (analysis.models.includes(m.model)) rest = rest.split(m.text).join(' ');
  return /[\p{L}\p{N}]{2,}/u.test(rest) ? rest : query;
}

function toHit(hit: ChunkHit, query: string, view?: ChunkRecord): SearchHit {
  const r = hit.record;
  return {
    chunkId: r.id,
    doc: r.docId,
    title: r.title ?? r.headingPath[0] ?? r.docId,
    text: r.text,
    score: hit.score,
    pages: pageRange(r.pageStart, r.pageEnd),
    headingPath: r.headingPath,
    start: r.start,
    end: r.end,
    signature: { category: r.category, nouns: r.nouns, model: r.model },
    snippet: snippet(view?.text ?? r.text, query),
  };
}

/** The ~240 characters around the first query term found in the text. */
function snippet(text: string, query: string): string {
  const terms = query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 2);
  const lower = text.toLowerCase();
  let at = -1;
  for (const t of terms) {
    const i = lower.indexOf(t);
    if (i !== -1 && (at === -1 || i < at)) at = i;
  }
  const start = Math.max(0, (at === -1 ? 0 : at) - 80);
  return `${start > 0 ? '…' : ''}${text.slice(start, start + 240)}${start + 240 < text.length ? '…' : ''}`;
}

/** Open indexes, one per library, shared by every caller in the process. */
export class LibraryIndexes {
  private readonly open_ = new Map<string, Promise<LibraryIndex>>();

  constructor(private readonly embedders: EmbedderSource) {}

  open(library: Library): Promise<LibraryIndex> {
    let p = this.open_.get(library.config.id);
    if (!p) {
      p = LibraryIndex.open(library, this.embedders);
      p.catch(() => this.open_.delete(library.config.id));
      this.open_.set(library.config.id, p);
    }
    return p;
  }

  async close(library: Library): Promise<void> {
    const p = this.open_.get(library.config.id);
    this.open_.delete(library.config.id);
    if (p) await (await p.catch(() => null))?.close();
  }

  async closeAll(): Promise<void> {
    const all = [...this.open_.values()];
    this.open_.clear();
    await Promise.all(all.map(async (p) => (await p.catch(() => null))?.close()));
  }
}
