import type { SearchResponse } from '../contract/api';
import type { Chunk, ChunkStrategy } from '../core/chunk';
import type { NormalizedDocument } from '../core/document';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import type { ChunkContext, Chunker } from '../chunking/chunker';
import type { EnrichMode } from '../enrich/enricher';
import type { DocumentIndexer, PreparedDocument } from '../ingest/import.job';
import type { Embedder, EmbedderSource } from '../models/types';
import { queryVector } from '../search/query-vector';
import { search, type SearchOptions } from '../search/searcher';
import { DocumentEvidence } from '../search/document-evidence';
import type { ChunkRecord, ChunkStore } from '../storage/chunk-store';
import { openLanceStore } from '../storage/lance.store';
import type { Library } from '../storage/library.store';
import { BatchWrite, commitRows } from './batch-write';
import { embedPending } from './embed.job';
import { JournalTurns, recoverJournal } from './journal';
import { enrichmentSettings, LibraryEnrichment, readsNouns } from './library-enrichment';
import { warmTagger } from '../enrich/cnm.heuristic';
import { draftChunks } from '../enrich/draft';
import type { LearningExtract } from '../enrich/learning-extract';
import { upgradeEnrichment, type LlmSource, type UpgradeOutcome } from './llm-upgrade.job';
import { chunkerFor, openStore, storeOptionsOf } from './open-store';
import { prepareDocument } from './prepare';
import { sharedPreparePool, type PreparePool } from './prepare-pool';
import { followDisk, folderStamp, seenNow, type Seen } from './follow-disk';
import { ReadGate } from './read-gate';
import { ownTurn, type WriteTurn } from './write-turn';
import { rebuildIndex, settleRebuild, type RebuildSummary } from './rebuild';

/**
 * The open index of one library: its LanceDB store, its model vocabulary and term statistics, and
 * the chunker of its strategy. It is the `DocumentIndexer` the import writes through (learn,
 * prepare, commit, remove, journal recovery), runs the write jobs (`embed.job`, `llm-upgrade.job`,
 * `rebuild`), and serves reads (`search/searcher`) behind a gate that a rebuild's store swap waits on.
 *
 * Longer than 500 lines for now: every write path (import, removal, rebuild, the background jobs,
 * following another process's writes) changes the store, the vocabulary and the drafts here and
 * nowhere else, so one reader sees every change to them; the drafting and batch preparation (with
 * `prepare.ts` and `prepare-pool.ts`) is the part to move out next.
 */

export type { RebuildSummary };

/**
 * Text (characters) a batch needs before its preparation is spread over worker threads. A worker
 * takes ~0.4 s of CPU to start (the enrichment code, the tagger's model) and runs its code cold,
 * while this thread prepares ~1 MB of text a second: a smaller batch is done before a worker
 * helps (measured: with 300 KB this thread prepared every document). Learning this much since
 * the last commit starts the workers, while the rest of the batch still parses.
 */
const POOL_MIN_CHARS = 1024 * 1024;
/**
 * Text (characters) of documents drafted and not yet prepared at most. A draft holds about twice
 * its document's text (chunk prose, term counts, entities, tags) until the batch is prepared; past this much,
 * the rest of a large batch is prepared as before, so drafting never holds more than ~50 MB.
 */
const DRAFT_MAX_CHARS = 8 * 1024 * 1024;
/**
 * Largest document (characters) drafted: a draft's first step chunks the whole document at once,
 * with no slice and no signal, while the next file's parse may have finished; a larger document
 * is chunked when it is prepared, as before. (A review measured 2.3 s for one synthetic 400k
 * manual; manuals of repeated sections, tables and lists of 100k–840k characters chunk in
 * milliseconds here, so the limit bounds a worst case rather than a measured common one.)
 */
export const DRAFT_MAX_DOC_CHARS = 256 * 1024;

/** Strategies a worker can chunk with: they need no embedder and their default options are the library's. */
const POOLED_STRATEGIES: readonly ChunkStrategy[] = ['structure', 'naive', 'recursive'];

export class LibraryIndex implements DocumentIndexer {
  private readonly gate = new ReadGate();
  /** Writes that name their documents in the library's journal take turns (an import's commit and a removal overlap otherwise). */
  private readonly journal = new JournalTurns(this);

  private constructor(
    /** The library this index belongs to. */
    readonly library: Library,
    private store_: ChunkStore,
    private enrichment_: LibraryEnrichment,
    /** The model runtime the index loads its embedder from. */
    readonly embedders: EmbedderSource,
    private chunker_: Chunker = chunkerFor(library.config.strategy),
    private readonly pool: PreparePool = sharedPreparePool(),
  ) {}

  /** Characters of text learned since the last commit (see `POOL_MIN_CHARS`). */
  private learnedChars = 0;

  /**
   * Opens a library's index, finishing an interrupted rebuild or commit first, unless another live
   * process writes the library (`withRepair`): then they are its writes under way.
   */
  static async open(library: Library, embedders: EmbedderSource): Promise<LibraryIndex> {
    await library.reloadIfChangedOnDisk();
    return library.withRepair(async (repair) => {
      await settleRebuild(library, repair);
      const seen = await seenNow(library);
      const store = await openStore(await library.storeDir(), storeOptionsOf(library));
      const index = new LibraryIndex(library, store, await LibraryEnrichment.load(library.dir), embedders);
      index.seen = seen;
      if (repair) await recoverJournal(index);
      return index;
    });
  }

  /** The library as this index last read it (see `seenNow`, `followDisk`). */
  private seen: Seen = { writes: -1, folder: null };
  /** The last `followDisk` under way: calls run one after another. */
  private following: Promise<unknown> = Promise.resolve();

  /**
   * Takes in what another process wrote to the library since this index read it (see
   * `follow-disk.ts`); calls run one after another. Resolves true when the index was opened again.
   */
  followDisk(options: { repairLeft?: boolean } = {}): Promise<boolean> {
    const run = this.following.then(async () => {
      const seen = await followDisk(this, this.seen, this.journal, options);
      if (seen) this.seen = seen;
      return seen !== null;
    });
    this.following = run.catch(() => undefined);
    return run;
  }

  /** The live store (replaced by a rebuild's swap). */
  get store(): ChunkStore {
    return this.store_;
  }

  /** The library's model vocabulary and term statistics (replaced as a whole by `rebuild`). */
  get enrichment(): LibraryEnrichment {
    return this.enrichment_;
  }

  /** The chunker of the library's strategy. */
  get chunker(): Chunker {
    return this.chunker_;
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
    await this.store_.close();
    const opened = await openLanceStore(this.library.indexDir, { vectorDimension: embedder.dimension, embedderId: id, onModelMismatch: 'reset' });
    if (!opened.ok) return opened;
    this.store_ = opened.value;
    await this.library.saveConfig({ embedder: { id, dimension: embedder.dimension } });
    return ok(undefined);
  }

  /** See `llm-upgrade.job.ts`; `turn` runs each of its writes (`write-turn.ts`). */
  upgradeEnrichment(
    mode: Exclude<EnrichMode, 'heuristic'>,
    llm: LlmSource,
    signal: AbortSignal,
    onProgress: (done: number, total: number) => void,
    chunkingInputsNow: () => Promise<string>,
    turn: WriteTurn = ownTurn,
  ): Promise<Result<UpgradeOutcome>> {
    return upgradeEnrichment(this, mode, llm, signal, onProgress, chunkingInputsNow, turn);
  }

  /** Chunks still waiting for a vector. */
  pendingEmbeddings(): Promise<number> {
    return this.library.config.embedder ? this.store_.countUnembedded() : Promise.resolve(0);
  }

  /** See `embed.job.ts`; `turn` runs each of its reads and writes of the store (`write-turn.ts`). */
  embedPending(signal: AbortSignal, onProgress: (done: number, total: number) => void, turn: WriteTurn = ownTurn): Promise<Result<number>> {
    // The store as it is at each step: a turn may open it again after another process's write.
    const store = () => this.store_;
    return embedPending({ embedder: this.library.config.embedder, store, embedders: this.embedders }, signal, onProgress, turn);
  }

  /**
   * Loads the tagger the heuristic nouns are tagged with (see `warmTagger`), ahead of an import's
   * first document; nothing in a library that reads no nouns.
   */
  warm(): void {
    if (readsNouns(this.library.config)) warmTagger();
  }

  /**
   * Whether the parse worker makes each document's learning extract (`DocumentIndexer.extractsAhead`).
   * It is about a fifth of that worker's CPU on Markdown. A library that reads no nouns tags nothing
   * in its drafts, so this thread waits for the worker for about a third of the parse phase: it makes
   * the extract itself, which also spares cloning it across threads. A library that reads nouns
   * tags them while it waits, and the worker makes it. (tests/bench/RESULTS.md, session 18.)
   */
  extractsAhead(): boolean {
    return readsNouns(this.library.config);
  }

  /** Documents learned in full since the vocabulary was last saved, in order (see `unlearn`). */
  private unsaved: NormalizedDocument[] = [];

  async learn(docs: NormalizedDocument[], extracts?: readonly (LearningExtract | undefined)[]): Promise<void> {
    await this.learnInto(this.enrichment_, docs, extracts);
    this.unsaved.push(...docs);
    this.learnedChars += docs.reduce((n, d) => n + d.text.length, 0);
    if (this.learnedChars >= POOL_MIN_CHARS && this.pooled()) this.pool.warm();
  }

  /** Learns documents into `enrichment` in place of their listed previous versions. */
  private async learnInto(enrichment: LibraryEnrichment, docs: NormalizedDocument[], extracts?: readonly (LearningExtract | undefined)[]): Promise<void> {
    const previous: NormalizedDocument[] = [];
    for (const doc of docs) {
      const old = await this.listedPrevious(doc);
      if (old) previous.push(old);
    }
    enrichment.learn(docs, previous, extracts);
  }

  /** The listed ready version `doc` replaces, as stored; null for a new document or the same content. */
  private async listedPrevious(doc: NormalizedDocument): Promise<NormalizedDocument | null> {
    const rec = await this.library.document(doc.id);
    if (rec?.status !== 'ready' || !rec.contentHash || rec.contentHash === doc.contentHash) return null;
    return this.library.loadNormalized(rec);
  }

  /**
   * Puts the listed previous version of a document back in place of `doc`, whose `learn` threw or
   * whose preparation failed, so the vocabulary is as if `doc` had never been learned. Rejects when
   * it cannot: the previous version cannot be read back (the vocabulary is left as it was), or
   * relearning throws. The vocabulary in memory is always the saved one plus `unsaved` (see `open`),
   * which is what the rebuild below relies on.
   */
  async unlearn(doc: NormalizedDocument): Promise<void> {
    const k = this.unsaved.indexOf(doc);
    const old = await this.listedPrevious(doc);
    if (!old) throw new Error(`The previous version of ${doc.id} cannot be read back.`);
    if (k >= 0) {
      this.unsaved.splice(k, 1);
      try {
        // Learned in full: learning the previous version in its place takes back exactly what `doc` added.
        this.enrichment_.learn([old], [doc]);
        return;
      } catch {
        // Part-way again: rebuilt below.
      }
    }
    // `learn` threw part-way (its whole call is dropped), leaving the counts it had changed: the
    // vocabulary is rebuilt as last saved (a listed version is in it) plus what was learned since.
    // That relearns the batch so far, but only on this path, which a bug in learning takes.
    const rebuilt = await LibraryEnrichment.load(this.library.dir);
    for (const d of this.unsaved) await this.learnInto(rebuilt, [d]);
    this.enrichment_ = rebuilt;
  }

  /** Drops what `learn` took in since the last commit: the vocabulary is read back as last saved. */
  async forgetUncommitted(): Promise<void> {
    const ahead = this.ahead;
    await ahead?.drop();
    if (this.ahead === ahead) this.ahead = null;
    this.enrichment_ = await LibraryEnrichment.load(this.library.dir);
    this.unsaved = [];
    this.learnedChars = 0;
    // A cancelled batch's drafts go with its documents.
    this.draftedChars = 0;
  }

  prepare(doc: NormalizedDocument, signal: AbortSignal): Promise<PreparedDocument> {
    const draft = this.drafts.get(doc);
    if (draft) {
      this.drafts.delete(doc);
      this.draftedChars -= doc.text.length;
    }
    if (draft?.chunker !== this.chunker_) return this.prepareWith(this.enrichment_, this.chunker_, doc, signal);
    return prepareDocument(this.enrichment_, this.chunker_, enrichmentSettings(this.library.config), doc, { signal }, draft.chunks);
  }

  /** Drafted documents (see `draft`): their chunks, by the chunker that made them. */
  private readonly drafts = new WeakMap<NormalizedDocument, { chunker: Chunker; chunks: Chunk[] }>();
  /** Text of the documents in `drafts` (see `DRAFT_MAX_CHARS`). */
  private draftedChars = 0;

  /**
   * Drafts a learned document while the import waits for the next parse: chunks it, then drafts
   * its chunks' enrichment (`enrich/draft.ts`), one chunk per step. Only for chunkers that read the
   * text alone, and only when this thread prepares the batch (prepare workers would redo it).
   */
  async *draft(doc: NormalizedDocument): AsyncGenerator<void, void, undefined> {
    if (this.library.config.embedder !== null || !POOLED_STRATEGIES.includes(this.chunker_.strategy) || this.pool.usable) return;
    if (this.drafts.has(doc) || doc.text.length > DRAFT_MAX_DOC_CHARS || this.draftedChars + doc.text.length > DRAFT_MAX_CHARS) return;
    const chunker = this.chunker_;
    const chunks = await chunker.chunk(doc, {});
    if (!chunks.ok) return;
    this.drafts.set(doc, { chunker, chunks: chunks.value });
    this.draftedChars += doc.text.length;
    yield;
    yield* draftChunks(doc, chunks.value, { tag: readsNouns(this.library.config) });
  }

  /**
   * Prepares a learned batch, one promise per document in input order: spread over the prepare
   * workers and this thread when the batch is large enough (the rows are the same either way).
   */
  prepareAll(docs: readonly NormalizedDocument[], signal: AbortSignal): Promise<PreparedDocument>[] {
    const chars = docs.reduce((n, d) => n + d.text.length, 0);
    if (docs.length > 1 && chars >= POOL_MIN_CHARS && this.pooled()) {
      const state = { enrichment: this.enrichment_.snapshot(), strategy: this.chunker_.strategy, settings: enrichmentSettings(this.library.config) };
      return this.pool.prepareAll(state, docs, (doc) => this.prepare(doc, signal), signal);
    }
    // One after the other, a turn of the event loop apart (stores and cancellation go on meanwhile).
    let previous: Promise<unknown> = Promise.resolve();
    return docs.map((doc) => {
      const p = previous.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(() => this.prepare(doc, signal));
      previous = p.catch(() => undefined);
      p.catch(() => undefined);
      return p;
    });
  }

  /** Whether this library's documents can be prepared in workers: no embedder in chunking, a plain strategy. */
  private pooled(): boolean {
    return this.pool.usable && this.library.config.embedder === null && POOLED_STRATEGIES.includes(this.chunker_.strategy);
  }

  /**
   * Chunks, enriches and prefixes one document with the given vocabulary and chunker (a rebuild's
   * new ones); `nouns` overrides whether the library reads heuristic nouns (`readsNouns`).
   */
  async prepareWith(enrichment: LibraryEnrichment, chunker: Chunker, doc: NormalizedDocument, signal: AbortSignal, nouns?: boolean): Promise<PreparedDocument> {
    return prepareDocument(enrichment, chunker, enrichmentSettings(this.library.config, nouns), doc, await this.chunkContext(signal));
  }

  /**
   * Writes a batch: the journal names the documents first, so a crash between the index write and
   * documents.json is repaired by `recoverJournal` on the next open. Rows written ahead
   * (`writeAhead`) are part of the batch.
   */
  async commit(batch: PreparedDocument[], persist: () => Promise<readonly string[] | void>): Promise<void> {
    const ahead = this.ahead;
    if (ahead) {
      try {
        await ahead.commit(batch, persist);
      } finally {
        // Only now: searches leave its documents out until they are listed (`search`).
        if (this.ahead === ahead) this.ahead = null;
      }
    } else if (batch.length > 0) {
      // Journaled in its turn: a removal during the commit waits rather than journaling over it.
      await this.journal.write(batch.map((p) => p.doc.id), () => commitRows(this, batch, new Set(), persist));
    } else {
      await persist();
      return;
    }
    this.learnedChars = 0;
    // Documents drafted and never prepared (failed after their draft) are dropped with their batch.
    this.draftedChars = 0;
    // A library's first rows make its index folder: this process's own write, which `followDisk`
    // must not take for another process's (it reopened the store under the background indexing).
    if (this.seen.folder === null) this.seen = { ...this.seen, folder: await folderStamp(this.library) };
  }

  /** The batch being prepared, when `writeAhead` has written some of its rows. */
  private ahead: BatchWrite | null = null;

  /**
   * Writes prepared documents' rows while the rest of their batch is still prepared (see
   * `BatchWrite`); `commit` lists them, `forgetUncommitted` drops them.
   */
  writeAhead(prepared: readonly PreparedDocument[]): void {
    (this.ahead ??= new BatchWrite(this, this.journal)).ahead(prepared);
  }

  /** Repairs a commit that failed part-way (a full disk), as the next open would after a crash. */
  recover(): Promise<void> {
    return this.journal.recover();
  }

  /** Runs a write with `docIds` named in the library's journal, after this index's other journaled writes (see `JournalTurns`). */
  journaled<T>(docIds: readonly string[], work: () => Promise<T>): Promise<T> {
    return this.journal.write(docIds, work);
  }

  /** Persists the library's model vocabulary and term statistics. */
  async saveEnrichment(): Promise<void> {
    const saved = this.unsaved.length;
    await this.enrichment_.save(this.library.dir);
    this.unsaved.splice(0, saved);
  }

  /**
   * Builds missing indexes and folds new rows into them (no rebuild): the work after an import.
   * An index this process searches (the app's open library, not a one-shot CLI import) then
   * builds again, unawaited, what the import made stale and the next search would build while the
   * user waits: the vocabulary's derived models and the index of document names (~0.3 of the
   * ~0.35 s a first search took 2 s after an import at 30k chunks, warm ones ~30 ms), and the
   * store's row stubs.
   */
  async optimizeIndexes(): Promise<void> {
    await this.store_.ensureIndexes();
    if (this.searched) this.preparing = this.prepareSearch().catch(() => undefined);
  }

  /** The `prepareSearch` an `optimizeIndexes` started, which `close` waits for. */
  private preparing: Promise<void> = Promise.resolve();

  /** Whether a search or `prepareSearch` has run on this index (see `optimizeIndexes`). */
  private searched = false;

  /**
   * Removes documents' rows from the index, then `persist` removes their records. The journal names
   * them until both are done: cleared before `persist`, a kill between the two left documents
   * listed as ready with no rows; journaled, the next open drops the rows of the removed records
   * and indexes again those still listed.
   */
  async remove(docIds: string[], persist: () => Promise<unknown>): Promise<void> {
    await this.journal.write(docIds, async () => {
      await this.store_.deleteDocuments(docIds);
      await this.store_.ensureIndexes();
      const docs: NormalizedDocument[] = [];
      for (const id of docIds) {
        const rec = await this.library.document(id);
        const doc = rec ? await this.library.loadNormalized(rec) : null;
        if (doc) docs.push(doc);
      }
      this.enrichment_.forget(docs);
      await this.saveEnrichment();
      await persist();
    });
  }

  /** See `rebuild.ts`. */
  rebuild(signal: AbortSignal, onProgress: (done: number, total: number) => void, options: { strategy?: ChunkStrategy; nouns?: boolean } = {}): Promise<Result<RebuildSummary>> {
    return rebuildIndex(this, signal, onProgress, options);
  }

  /** Replaces the store while no read runs: `swap` closes the current one and returns the next. */
  async swapStore(swap: (current: ChunkStore) => Promise<ChunkStore>): Promise<void> {
    await this.gate.exclusive(async () => {
      this.store_ = await swap(this.store_);
      // This process's own swap (a rebuild's folder, a synced version): not another's write.
      this.seen = { ...this.seen, folder: await folderStamp(this.library) };
    });
  }

  /** Takes a vocabulary and chunker as a whole (a rebuild's, or the library's as another process left it) once its store is in place. */
  adopt(enrichment: LibraryEnrichment, chunker: Chunker): void {
    this.enrichment_ = enrichment;
    this.chunker_ = chunker;
    // The vocabulary in memory is the saved one plus `unsaved`: this one is saved whole.
    this.unsaved = [];
    this.learnedChars = 0;
  }

  /**
   * What chunkers get besides the document: the library's embedder when it has one (`semantic`
   * cuts where embedded sentences drift apart; `structural`'s soft merge compares embeddings).
   * An embedder that cannot be loaded is left out: `semantic` then fails with its own message,
   * the other strategies do without it.
   */
  async chunkContext(signal: AbortSignal): Promise<ChunkContext> {
    const configured = this.library.config.embedder;
    if (!configured) return { signal };
    try {
      return { signal, embedder: await this.embedders.embedder(configured.id) };
    } catch {
      return { signal };
    }
  }

  private evidence: { version: number; key: string; value: DocumentEvidence } | null = null;

  /**
   * The names of the ready documents, rebuilt when a document's id or title changes. Every search
   * asks: while the records are unchanged (`documentsVersion`) the last one is returned without
   * listing them (listing, sorting and keying ~14k records took longer than the search itself).
   */
  private async documentEvidence(): Promise<DocumentEvidence> {
    const version = this.library.documentsVersion;
    if (this.evidence?.version === version) return this.evidence.value;
    const docs = (await this.library.documents()).filter((d) => d.status === 'ready');
    const key = docs.map((d) => `${d.id}\t${d.title}\t${(d.codes ?? []).join(' ')}`).join('\n');
    const value = this.evidence?.key === key ? this.evidence.value : DocumentEvidence.build(docs);
    this.evidence = { version, key, value };
    return value;
  }

  /**
   * Builds ahead what this library's first search would otherwise build while the user waits: the
   * vocabulary's derived models, the index of document names and the store's row stubs. A library
   * of ~14,500 documents answered its first search in 1.2–1.4 s here and the next ones in ~50 ms.
   * The renderer asks for it when a library is opened (`search.prepare`); a search meanwhile waits
   * for the same work rather than doing it twice.
   */
  prepareSearch(): Promise<void> {
    this.searched = true;
    return this.gate.reading(async () => {
      // Reading the models derives them once for every later question (`ModelVocabulary.derive`).
      this.enrichment_.vocabulary.models();
      await Promise.all([this.documentEvidence(), this.store_.prepareSearch()]);
    });
  }

  /** Searches the library (see `search/searcher.ts`). */
  search(query: string, options: SearchOptions): Promise<Result<SearchResponse>> {
    this.searched = true;
    return this.gate.reading(async () => {
      const found = await search(
        {
          store: this.store_,
          vocabulary: this.enrichment_.vocabulary,
          queryVector: (q) => queryVector(q, { configured: this.library.config.embedder, storedEmbedderId: this.store_.embedderId, embedders: this.embedders }),
          documentEvidence: () => this.documentEvidence(),
          idf: (t) => this.enrichment_.passages.idf(t),
          longerTerms: (prefix, limit) => this.enrichment_.passages.longerTerms(prefix, limit),
        },
        query,
        options,
      );
      // Rows written ahead of their batch's commit are of documents not listed yet.
      const ahead = this.ahead;
      return ahead && found.ok ? ok({ ...found.value, results: found.value.results.filter((h) => !ahead.wrote(h.doc)) }) : found;
    });
  }

  /** A document's stored records, in order. */
  listChunks(docId: string): Promise<ChunkRecord[]> {
    return this.gate.reading(() => this.store_.listChunks(docId));
  }

  async close(): Promise<void> {
    await this.preparing;
    await this.store_.close();
  }
}
