import { promises as fs, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { DocumentStatus, ImportFileResult, ImportProgress, ImportSkipped, ImportSummary } from '../contract/api';
import { importSummary } from '../contract/import-summary';
import type { NormalizedDocument } from '../core/document';
import { CodedError, type ErrorCode } from '../core/result';
import { sentence } from '../core/text';
import type { ChunkInput } from '../storage/chunk-store';
import type { DocumentRecord, Library } from '../storage/library.store';
import { ORIGINALS_DIR, PACK_ENTRY_BYTES, PackWriter, storedBy, type PackRange } from '../storage/text-pack';
import { DEFAULT_IMPORT_LIMITS, DEFAULT_MAX_FILE_BYTES, maxFileBytesFor, megabytes, sizeOver, tooLargeReason, type ImportLimits } from './import-limits';
import { ParsePool } from './parse-pool';
import { documentCodes } from '../enrich/document-codes';
import type { LearningExtract } from '../enrich/learning-extract';
// The format by name only: the parsers themselves load in the parse worker.
import { formatFor } from './parsers/choose';
import { expandPaths, type Candidate } from './expand-paths';
import { SameContent } from './same-content';

export { expandPaths, type Expansion } from './expand-paths';

/**
 * One import: expands the named files and folders, then for each file reads, hashes, parses and
 * hands the normalized document to the indexer, in batches. One bad file never stops the batch;
 * cancelling keeps every document already committed and nothing half-done.
 *
 * Crash safety: index rows are written under the library journal, and documents.json lists a
 * document as `ready` only after its original and normalized text (written atomically) and its
 * rows are all in place; `recover()` on the indexer drops the rows of an interrupted commit.
 * Originals are written behind parsing (small ones as packs once their batch is parsed), the
 * batch's normalized texts as packs before its rows: few files, since creating one is the cost.
 *
 * Longer than 500 lines for now: every stage of a file (read, parse in the worker pool, learn,
 * chunk and enrich, store) runs inside that file's own guard here, so one reader sees where each
 * failure is caught and what reason it gets (the folder walk is `expand-paths.ts`).
 */

/** What the import needs from the index: vocabulary learning, preparation, batched commits. */
export interface DocumentIndexer {
  /** Loads what learning and preparation need (a tagger, say) ahead of the first document; synchronous CPU. */
  warm?(): void;
  /**
   * Teaches the library's model vocabulary about new documents before they are enriched;
   * `extracts[k]`, when given, is `docs[k]`'s `learningExtract`, made by the parse worker.
   */
  learn(docs: NormalizedDocument[], extracts?: readonly (LearningExtract | undefined)[]): Promise<void>;
  /**
   * Whether the parse worker should make each document's learning extract: when this thread has
   * more to do per document than the worker (see `LibraryIndex.extractsAhead`). Without it (or
   * false) this thread makes its own when it learns.
   */
  extractsAhead?(): boolean;
  /**
   * Work on a learned document that the rest of the batch cannot change (chunking, say), done
   * while the import waits for the next file's parse: each step does a little. Optional, in
   * memory only, and never changes what `prepare` returns; a step that throws drops the draft.
   */
  draft?(doc: NormalizedDocument): AsyncIterator<unknown> | null;
  /** Chunks, enriches and prefixes one document; pure CPU, no writes. */
  prepare(doc: NormalizedDocument, signal: AbortSignal): Promise<PreparedDocument>;
  /** `prepare` for a whole learned batch, possibly on several threads: one promise per document, in order. */
  prepareAll?(docs: readonly NormalizedDocument[], signal: AbortSignal): Promise<PreparedDocument>[];
  /**
   * Replaces the index rows of these documents with their prepared rows, then calls `persist`
   * (which lists them as ready) and removes the rows of the documents `persist` returns (those
   * that failed after their rows were written); a crash in between is repaired on the next open.
   */
  commit(batch: PreparedDocument[], persist: () => Promise<readonly string[] | void>): Promise<void>;
  /**
   * Starts writing prepared documents' rows before the batch's commit (which then lists them);
   * the batch's commit, or `forgetUncommitted`, must follow.
   */
  writeAhead?(prepared: readonly PreparedDocument[]): void;
  /** Repairs the index after a commit that failed part-way (as on the next open after a crash). */
  recover?(): Promise<void>;
  /** Forgets what `learn` took in since the last commit (a cancelled batch's documents). */
  forgetUncommitted?(): Promise<void>;
  /** Puts a document's listed previous version back in place of `doc`, whose learn or prepare failed; rejects when it cannot. */
  unlearn?(doc: NormalizedDocument): Promise<void>;
}

export interface PreparedDocument {
  doc: NormalizedDocument;
  chunks: number;
  models: string[];
  /** The rows the store receives: the document's chunks and their table row views. */
  rows: ChunkInput[];
}

export type { ImportProgress };

export interface ImportOptions {
  library: Library;
  paths: string[];
  /** The document id each path is imported under, in order (see `expandPaths`); by default its own name. */
  names?: readonly string[];
  indexer: DocumentIndexer;
  signal?: AbortSignal;
  onProgress?: (p: ImportProgress) => void;
  /** Largest file accepted, in bytes (default 500 MB). */
  maxFileBytes?: number;
  /** Files parsed before their batch is enriched and committed (default 1000). */
  batchSize?: number;
  /** Bounds of one file's import (memory, CPU time, text size); defaults `DEFAULT_IMPORT_LIMITS`. A shared `pool` keeps its own. */
  limits?: Partial<ImportLimits>;
  /** Parse workers at once (default: `defaultPoolSize()`, one per core but one); for the import's own pool. */
  parseWorkers?: number;
  /** A pool shared by many imports (the engine's), left running; by default the import starts its own. */
  pool?: ParsePool;
}

export { DEFAULT_MAX_FILE_BYTES } from './import-limits';

/**
 * Files read and parsing at once: enough for the parse pool to pack small files into few messages
 * to its workers; files over `SYNC_READ_BYTES` also take a turn of `LARGE_READ_CONCURRENCY`, which
 * bounds the memory held by files in flight.
 */
const READ_CONCURRENCY = 128;
const LARGE_READ_CONCURRENCY = 4;

/**
 * Files up to this size are stat'ed and read synchronously. Each asynchronous file operation is a
 * round trip through libuv's thread pool that costs the event loop more than the system call it
 * wraps (on the 2-core test machine ~0.1 ms of wake-ups per operation, 6 per file), while a small
 * file reads in tens of microseconds; larger files are read asynchronously so the loop never
 * blocks for long.
 */
const SYNC_READ_BYTES = 1024 * 1024;

/**
 * Stores of originals too large for a pack running at once. They run behind parsing
 * and preparation, and the batch's commit waits for them only before listing documents as
 * ready. Each store is a chain of small file operations whose every step needs a turn of the
 * event loop, so many run at once; while files are being read only a few do, so the reads of
 * large files do not queue behind them in libuv's thread pool.
 */
const WRITES_WHILE_READING = 2;
const WRITES_AFTER_READING = 16;

/**
 * Text of new documents prepared before their rows are written ahead of the commit
 * (`DocumentIndexer.writeAhead`): each group is one LanceDB write (one table version). Smaller groups
 * leave less to write once the last document is prepared, and make more versions.
 */
const WRITE_AHEAD_CHARS = 512 * 1024;

/**
 * One turn of the event loop. Small files are read synchronously and parsing and preparing are
 * synchronous work chained by awaits that never reach the loop: a turn per file lets the stores
 * running behind them, cancellation and the app's messages advance.
 */
function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * Longest run of draft steps between two turns of the event loop: a parsed file waits at most
 * about this long to be learned, and reads, stores and the parse pool's messages go on between.
 */
const DRAFT_SLICE_MS = 4;

/**
 * Awaits `pending`, running the drafts' steps (`DocumentIndexer.draft`) in order while it is not
 * settled: the import's thread would otherwise wait idle for the parse worker (0.1-0.7 s of an
 * import of 660 files on 2 cores). A draft that throws is dropped; its document is prepared in
 * full later, where a real failure is reported.
 */
async function whileWaiting<T>(pending: Promise<T>, drafts: AsyncIterator<unknown>[], signal: AbortSignal): Promise<T> {
  let settled = false;
  pending.then(
    () => (settled = true),
    () => (settled = true),
  );
  // One microtask turn: an already settled promise has set the flag by then.
  await Promise.resolve();
  while (!settled && !signal.aborted && drafts.length > 0) {
    const until = performance.now() + DRAFT_SLICE_MS;
    do {
      try {
        if ((await drafts[0]!.next()).done) drafts.shift();
      } catch {
        drafts.shift();
      }
    } while (drafts.length > 0 && !signal.aborted && performance.now() < until);
    await nextTurn();
  }
  return pending;
}

/** Runs at most `limit` tasks at once, in call order; the limit can change while tasks wait. */
class Limiter {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private limit: number) {}

  setLimit(limit: number): void {
    this.limit = limit;
    while (this.running < this.limit && this.waiting.length > 0) {
      this.running++;
      this.waiting.shift()!();
    }
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.running <= this.limit ? this.waiting.shift() : undefined;
      if (next) next();
      else this.running--;
    }
  }
}

function failedRecord(id: string, code: ErrorCode, reason: string, sizeBytes: number): DocumentRecord {
  return {
    id,
    title: path.posix.basename(id),
    format: null,
    status: 'failed',
    code,
    reason,
    sizeBytes,
    pageCount: null,
    contentHash: null,
    importedAt: new Date().toISOString(),
    models: [],
    chunks: 0,
    original: null,
  };
}

/** The words for a failed read or write of the disk, by its error code. */
export function ioReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const words: Record<string, string> = {
    ENOSPC: 'the disk is full',
    EDQUOT: 'the disk quota is used up',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EROFS: 'the disk is read-only',
    EIO: 'the disk reported an input/output error',
    ENAMETOOLONG: 'the name is too long for the file system',
    EMFILE: 'too many files are open',
    ENOENT: 'a file or folder is missing',
  };
  if (code && words[code]) return `${words[code]} (${code})`;
  const message = err instanceof Error ? err.message : String(err);
  // Native libraries (LanceDB) report the OS error in their own words.
  if (/no space left on device|os error 28\b/i.test(message)) return `${words.ENOSPC} (ENOSPC)`;
  return message;
}

/** Why one stage of a file's import failed: its code, the stage and the sentence shown for it. */
export interface ImportFailure {
  code: ErrorCode;
  stage: 'read' | 'parse' | 'learn' | 'index' | 'store';
  reason: string;
}

/** The failure of a stage that threw: disk errors become 'io-error', anything else keeps its words. */
function stageFailure(stage: ImportFailure['stage'], err: unknown): ImportFailure {
  const what = { read: 'read the file', parse: 'parse the file', learn: "learn this document's model names", index: 'chunk and enrich this document', store: 'store this document in the library' }[stage];
  // A RangeError here is a stack or an array outgrown by one enormous document.
  const code: ErrorCode =
    err instanceof CodedError ? err.code : (err as NodeJS.ErrnoException | null)?.code?.startsWith('E') ? 'io-error' : err instanceof RangeError ? 'too-large' : 'internal';
  return { code, stage, reason: `Could not ${what}: ${sentence(ioReason(err))}` };
}

/** Runs an import to the end (or until cancelled) and returns per-file results. */
export async function runImport(options: ImportOptions): Promise<ImportSummary> {
  const { library, indexer } = options;
  const signal = options.signal ?? new AbortController().signal;
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const limits: ImportLimits = { ...DEFAULT_IMPORT_LIMITS, ...options.limits };
  const batchSize = options.batchSize ?? 1000;
  const pool = options.pool ?? new ParsePool({ limits, ...(options.parseWorkers !== undefined ? { size: options.parseWorkers } : {}) });
  const onAbort = () => pool.cancel(signal);
  signal.addEventListener('abort', onAbort, { once: true });
  // The first worker starts while the folders are listed and the library is tidied (what learning
  // needs loads once the first files are on their way to it: see `importCandidates`).
  pool.warm(1);
  try {
    const { candidates, skipped } = await expandPaths(options.paths, options.names);
    // Files a killed import left behind (temp files, originals never listed) go before new ones come.
    await library.sweepStrays({ orphans: true }).catch(() => undefined);
    return await importCandidates(options, { library, indexer, signal, maxBytes, limits, batchSize, pool, candidates, skipped }).catch(async (err: unknown) => {
      // An import that fails on its own (a bug, not a file's fault) forgets what it learned and
      // did not list, and ends its batch's writes (rows written ahead, the journal's turn).
      await indexer.forgetUncommitted?.().catch(() => undefined);
      throw err;
    });
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (!options.pool) await pool.close();
  }
}

interface ImportRun {
  library: Library;
  indexer: DocumentIndexer;
  signal: AbortSignal;
  maxBytes: number;
  limits: ImportLimits;
  batchSize: number;
  pool: ParsePool;
  candidates: Candidate[];
  skipped: ImportSkipped[];
}

/**
 * Puts failure records into documents.json. When even that cannot be written (a full disk), the
 * results still carry each file's reason, so the summary reports them.
 */
async function putFailures(library: Library, records: DocumentRecord[]): Promise<void> {
  await library.putDocuments(records).catch(() => undefined);
}

/** Lets the LLM upgrade try document `id` again: drops its mark (`DocumentRecord.upgradeFailed`). */
async function clearUpgradeMark(library: Library, id: string): Promise<void> {
  const rec = await library.document(id);
  if (!rec?.upgradeFailed) return;
  const { upgradeFailed: _retried, ...unmarked } = rec;
  await library.putDocuments([unmarked]);
}

async function importCandidates(options: ImportOptions, run: ImportRun): Promise<ImportSummary> {
  const { library, indexer, signal, maxBytes, limits, batchSize, pool, candidates, skipped } = run;
  const total = candidates.length;
  const results: ImportFileResult[] = [];
  let done = 0;
  const progress = (file: string, stage: DocumentStatus, fraction: number, reason?: string) =>
    options.onProgress?.({ file, stage, fraction, done, total, ...(reason ? { reason } : {}) });

  const failures: DocumentRecord[] = [];
  // Each failure says its kind (`code`), so a caller offers Retry only where another try may pass.
  const fail = (id: string, code: ErrorCode, reason: string, size = 0) => {
    results.push({ file: id, status: 'failed', reason, code });
    // A format ManualMate does not read is reported, not listed: importing the same file again
    // can never succeed, so a listed failure (with its Retry) would only stay as clutter.
    if (code !== 'unsupported') failures.push(failedRecord(id, code, reason, size));
    done++;
    progress(id, 'failed', 1, reason);
  };
  /** A new version that failed while its listed previous version stays: reported, nothing written. */
  const keepPrevious = (id: string, reason: string, code?: ErrorCode) => {
    results.push({ file: id, status: 'failed', reason: `${reason} The previous version is kept.`, ...(code ? { code } : {}) });
    done++;
    progress(id, 'failed', 1, reason);
  };
  /**
   * A learned document that failed keeps its listed previous version once the vocabulary holds that
   * version again. When it cannot be put back, the vocabulary no longer matches the previous
   * version's rows, so the document fails as a new one does.
   */
  const failLearned = async (p: Extract<ParseOutcome, { kind: 'parsed' }>, f: ImportFailure) => {
    const restored = p.replaced && indexer.unlearn ? await indexer.unlearn(p.doc).then(() => true, () => false) : false;
    if (restored) keepPrevious(p.doc.id, f.reason, f.code);
    else fail(p.doc.id, f.code, f.reason, p.record.sizeBytes);
  };
  /**
   * A learned new version whose files could not be stored: the previous version's rows and files
   * are intact, so it stays listed, and the vocabulary is put back to it (when that fails too, the
   * vocabulary holds the new version until a rebuild, as it did before `unlearn` existed).
   */
  const keepLearned = async (p: Extract<ParseOutcome, { kind: 'parsed' }>, reason: string) => {
    await indexer.unlearn?.(p.doc).catch(() => undefined);
    keepPrevious(p.doc.id, reason);
  };

  // A file imported under a name other than its own says why from the start (`Candidate.note`),
  // and every file where it is read from: a Retry names that path again.
  for (const c of candidates) options.onProgress?.({ file: c.id, stage: 'queued', fraction: 0, done, total, path: c.abs, ...(c.note ? { note: c.note } : {}) });
  const writes = new Limiter(WRITES_WHILE_READING);
  const extract = indexer.extractsAhead?.() ?? false;
  const sameContent = new SameContent(await library.documents(), new Set(candidates.map((c) => c.id)));
  // Every store started, so none is still writing into the library when the import returns.
  const stores: Promise<StoreOutcome>[] = [];

  // Set while the vocabulary holds documents no commit has listed yet.
  let uncommitted = false;
  for (let i = 0; i < candidates.length && !signal.aborted; i += batchSize) {
    const batch = candidates.slice(i, i + batchSize);
    const learned: Extract<ParseOutcome, { kind: 'parsed' }>[] = [];
    // Learned documents' drafts, worked on while a file is still parsing.
    const drafts: AsyncIterator<unknown>[] = [];

    // Files are read a few at a time and parsed in the pool's workers, so disk waits and parsing
    // overlap; many small files are in flight at once, so the pool can pack them into few
    // messages. Outcomes are handled in input order, so results and progress stay deterministic.
    const reads = new Limiter(READ_CONCURRENCY);
    const largeReads = new Limiter(LARGE_READ_CONCURRENCY);
    // The batch's small originals are written a few packs at a time, not a file each (`storage/text-pack.ts`).
    const originals = new PackWriter(library.dir, ORIGINALS_DIR);
    const outcomes = batch.map((c) => reads.run(async (): Promise<ParseOutcome> => {
      if (signal.aborted) return { kind: 'failed', code: 'cancelled', reason: 'Cancelled.', size: 0 };
      if (c.failure) return { kind: 'failed', code: c.failure.code, reason: c.failure.reason, size: 0 };
      progress(c.id, 'parsing', 0);
      let outcome: ParseOutcome;
      try {
        outcome = await readAndParse(c, { library, pool, maxBytes, limits, signal, writes, largeReads, originals, extract, sameContent });
      } catch (err) {
        // Every expected failure is a value already; this is a bug, still this file's alone.
        const f = stageFailure('read', err);
        outcome = { kind: 'failed', code: f.code, reason: f.reason, size: 0 };
      }
      if (outcome.kind === 'parsed') stores.push(outcome.stored);
      return outcome;
    }));
    if (i === 0 && indexer.warm) {
      // What learning needs (a tagger: ~0.2 s of CPU) loads while the parse worker starts and parses
      // the first files: loaded before the walk, it held those files back from an idle worker
      // (0.1-0.4 s here). Two turns of the event loop let the reads above hand their files to the
      // pool and the pool send them (its dispatch waits one turn); a file still on the disk then
      // reaches the worker after the load, as before.
      await nextTurn();
      await nextTurn();
      indexer.warm();
    }
    for (let k = 0; k < batch.length; k++) {
      const c = batch[k]!;
      const outcome = await whileWaiting(outcomes[k]!, drafts, signal);
      if (outcome.kind === 'failed') {
        if (outcome.code === 'cancelled' || signal.aborted) continue;
        const previous = await library.document(c.id);
        if (previous?.status === 'ready') {
          // Never lose a good version to a bad new file: report the failure, keep what is stored.
          keepPrevious(c.id, outcome.reason, outcome.code);
          continue;
        }
        fail(c.id, outcome.code, outcome.reason, outcome.size);
      } else if (outcome.kind === 'already') {
        // Imported again, as a mark's reason says: the LLM upgrade that follows the import tries it
        // again (the same bytes need no new version; chunking it anew is the upgrade's work).
        // A clear that cannot be written (a full disk) leaves the mark: this file is still "already".
        if (outcome.marked) await clearUpgradeMark(library, c.id).catch(() => undefined);
        const reason = outcome.sameAs === undefined ? 'already in library' : `the same file as "${outcome.sameAs}"`;
        results.push({ file: c.id, status: 'already', reason, ...(outcome.sameAs === undefined ? {} : { sameAs: outcome.sameAs }) });
        done++;
        progress(c.id, 'ready', 1);
      } else {
        // Each document is learned as soon as it is parsed, so learning runs while the files
        // after it parse; alone, so one that breaks the vocabulary fails by itself.
        try {
          uncommitted = true;
          await indexer.learn([outcome.doc], [outcome.extract]);
          // Only learning reads it, and the outcome lives until the batch ends (about the document's size again).
          outcome.extract = undefined;
          learned.push(outcome);
          const draft = indexer.draft?.(outcome.doc);
          if (draft) drafts.push(draft);
        } catch (err) {
          await failLearned(outcome, stageFailure('learn', err));
        }
      }
    }
    // Every file of the batch is parsed: the last small originals go out as a pack (none when cancelled).
    if (signal.aborted) originals.discard(new Error('Import was cancelled.'));
    else void originals.flush();
    if (signal.aborted) break;
    writes.setLimit(WRITES_AFTER_READING);

    if (learned.length > 0 && !signal.aborted) {
      // The batch's normalized texts, packed into few files (`storage/text-pack.ts`), are written
      // while it is prepared: the writes mostly wait on the disk (~0.1 s of radxa + esp's ~3 s
      // import), which the preparation's CPU hides. They are stored before any of the batch's
      // rows; the texts of documents that are not listed in the end are dropped (`dropUnused`).
      const storing = library.storeNormalized(learned.map((p) => p.doc)).catch((err: unknown) => new Error(ioReason(err)));
      const dropUnused = async (listed: ReadonlySet<string>) => {
        const places = await storing;
        if (places instanceof Error) return;
        const used = storedBy(await library.documents());
        for (let k = 0; k < learned.length; k++) {
          const { doc } = learned[k]!;
          if (listed.has(doc.id)) continue;
          await library.dropUnlisted({ original: null, contentHash: doc.contentHash, ...(places[k] ? { normalized: places[k]! } : {}) }, used).catch(() => undefined);
        }
      };
      const prepared: PreparedDocument[] = [];
      const ready: DocumentRecord[] = [];
      // Preparation may run on several threads at once (`prepareAll`); results are taken in order.
      const pending = indexer.prepareAll?.(learned.map((p) => p.doc), signal);
      // New documents' rows go out in groups while the rest is prepared (`writeAhead`).
      let ahead: PreparedDocument[] = [];
      let aheadChars = 0;
      for (let k = 0; k < learned.length; k++) {
        const p = learned[k]!;
        if (signal.aborted) break;
        progress(p.doc.id, 'chunking', 0.65);
        await nextTurn();
        try {
          const prep = await (pending ? pending[k]! : indexer.prepare(p.doc, signal));
          prepared.push(prep);
          ready.push({ ...p.record, status: 'ready', chunks: prep.chunks, models: prep.models });
          if (indexer.writeAhead && !p.replaced) {
            ahead.push(prep);
            aheadChars += p.doc.text.length;
            if (aheadChars >= WRITE_AHEAD_CHARS) {
              indexer.writeAhead(ahead);
              ahead = [];
              aheadChars = 0;
            }
          }
          progress(p.doc.id, 'indexing', 0.9);
        } catch (err) {
          if (signal.aborted) break;
          await failLearned(p, stageFailure('index', err));
        }
      }
      if (signal.aborted) {
        await dropUnused(new Set());
        break;
      }
      const byId = new Map(learned.map((p) => [p.doc.id, p]));
      // A new version's rows replace its previous version's: its files are stored first, and when
      // they cannot be, the previous version is kept.
      const batchRows: PreparedDocument[] = [];
      const batchReady: DocumentRecord[] = [];
      for (let k = 0; k < prepared.length; k++) {
        const p = byId.get(prepared[k]!.doc.id)!;
        const stored = p.replaced ? await p.stored : null;
        if (stored && !stored.ok) {
          await keepLearned(p, stored.reason);
          continue;
        }
        batchRows.push(prepared[k]!);
        batchReady.push(ready[k]!);
      }
      // When the batch's normalized texts could not be stored, none of its documents is listed.
      const texts = await storing;
      const placeOf = new Map(texts instanceof Error ? [] : learned.map((p, k) => [p.doc.id, texts[k]!] as const));
      const places = texts instanceof Error ? texts : batchRows.map((p) => placeOf.get(p.doc.id) ?? null);
      if (places instanceof Error) {
        const reason = `Could not store this document in the library: ${places.message}.`;
        for (const r of batchReady.splice(0)) {
          if (byId.get(r.id)!.replaced) await keepLearned(byId.get(r.id)!, reason);
          else fail(r.id, 'io-error', reason, r.sizeBytes);
        }
        batchRows.length = 0;
      } else {
        places.forEach((where, k) => where && (batchReady[k] = { ...batchReady[k]!, normalized: where }));
      }
      // The other rows are written while the last stores finish. A document is listed as ready
      // only once its original and normalized text are on disk too (a crash before that leaves it
      // journaled and unlisted, and recovery drops its rows); one whose store failed loses its rows.
      let listed = false;
      try {
        await indexer.commit(batchRows, async () => {
          ready.length = 0;
          const unstored: string[] = [];
          for (const r of batchReady) {
            const p = byId.get(r.id)!;
            const stored = await p.stored;
            if (stored.ok) ready.push({ ...r, original: stored.original, ...(stored.range ? { originalRange: stored.range } : {}) });
            else {
              unstored.push(r.id);
              fail(r.id, 'io-error', stored.reason, p.record.sizeBytes);
            }
          }
          await library.putDocuments(ready);
          listed = true;
          return unstored;
        });
      } catch (err) {
        // The index or documents.json could not be written (a full disk, most often): the batch's
        // documents not yet listed fail, each with the reason, and the index is repaired as after
        // a crash. Listed ones stay imported: their rows and files are in place.
        if (!listed) {
          const reason = `Could not write the library's index: ${ioReason(err)}.`;
          const failedIds = new Set(results.filter((r) => r.status === 'failed').map((r) => r.file));
          for (const r of batchReady) if (!failedIds.has(r.id)) fail(r.id, (err as NodeJS.ErrnoException).code ? 'io-error' : 'internal', reason, r.sizeBytes);
          ready.length = 0;
          for (const r of batchReady) await library.dropUnlisted(r).catch(() => undefined);
        }
        await indexer.recover?.().catch(() => undefined);
      }
      uncommitted = false;
      // What the listed records keep on disk, once per batch (per replaced document, it was a walk
      // over the whole library each: quadratic when a batch replaces many documents).
      const used = ready.some((r) => byId.get(r.id)?.previous) ? storedBy(await library.documents()) : undefined;
      for (const r of ready) {
        const p = byId.get(r.id);
        results.push({ file: r.id, status: p?.replaced ? 'replaced' : 'imported' });
        // A replaced version's original and normalized text are orphans unless another document shares them.
        if (p?.previous) await library.dropUnlisted(p.previous, used).catch(() => undefined);
        done++;
        progress(r.id, 'ready', 1);
      }
      if (ready.length < learned.length) await dropUnused(new Set(ready.map((r) => r.id)));
    }
    await putFailures(library, failures.splice(0));
    writes.setLimit(WRITES_WHILE_READING);
  }
  await putFailures(library, failures.splice(0));
  // A cancelled batch's documents were learned but never listed: the vocabulary forgets them.
  if (uncommitted) await indexer.forgetUncommitted?.().catch(() => undefined);
  await Promise.all(stores);

  const finished = new Set(results.map((r) => r.file));
  for (const c of candidates) if (!finished.has(c.id)) results.push({ file: c.id, status: 'cancelled', reason: 'Import cancelled before this file.' });
  const renamed = new Map(candidates.flatMap((c) => (c.note ? [[c.id, c] as const] : [])));
  // A copy of another file (`sameAs`) was imported under no name: it is reported under the name
  // the user gave it, not the one it would have had ("manual (2).md"), and its renaming says nothing.
  const named = (r: ImportFileResult, c: Candidate): ImportFileResult => (r.sameAs === undefined ? { ...r, note: c.note! } : { ...r, file: c.given ?? r.file });
  return importSummary(renamed.size === 0 ? results : results.map((r) => (renamed.has(r.file) ? named(r, renamed.get(r.file)!) : r)), skipped);
}

/** Where a parsed file's original was stored, or why storing it failed; never rejects. */
type StoreOutcome = { ok: true; original: string; range?: PackRange } | { ok: false; reason: string };

type ParseOutcome =
  | { kind: 'failed'; code: ErrorCode; reason: string; size: number }
  /**
   * `sameAs`: the other file with the same bytes (none: this file, unchanged). `marked`: the listed
   * version is one the LLM upgrade passed by (`DocumentRecord.upgradeFailed`).
   */
  | { kind: 'already'; sameAs?: string; marked?: boolean }
  | {
      kind: 'parsed';
      doc: NormalizedDocument;
      /** What learning needs from `doc` alone, when the parse worker made it. */
      extract: LearningExtract | undefined;
      /** `original` is filled in once `stored` resolves. */
      record: DocumentRecord;
      stored: Promise<StoreOutcome>;
      replaced: boolean;
      /** Where the listed version this one replaces keeps its original and normalized text. */
      previous: Pick<DocumentRecord, 'original' | 'contentHash' | 'normalized'> | null;
    };

interface ReadContext {
  library: Library;
  pool: ParsePool;
  maxBytes: number;
  limits: ImportLimits;
  signal: AbortSignal;
  writes: Limiter;
  largeReads: Limiter;
  originals: PackWriter;
  /** Whether the parse worker makes each document's learning extract (`DocumentIndexer.extractsAhead`). */
  extract: boolean;
  /** Copies of a listed document or of an earlier file of this import (see `same-content.ts`). */
  sameContent: SameContent;
}

async function readAndParse(c: Candidate, ctx: ReadContext): Promise<ParseOutcome> {
  const { library, pool, writes } = ctx;
  const chosen = formatFor(c.id);
  // Old `.doc` files are told apart by their bytes (a `.docx` saved as `.doc` is rescued).
  if (!chosen.ok && path.extname(c.id).toLowerCase() !== '.doc') return { kind: 'failed', code: chosen.code, reason: chosen.reason, size: 0 };
  let size = 0;
  try {
    size = statSync(c.abs).size;
  } catch (err) {
    return { kind: 'failed', code: 'unreadable', reason: `Cannot read the file: ${ioReason(err)}.`, size };
  }
  const limit = chosen.ok ? maxFileBytesFor(chosen.format, ctx.maxBytes, ctx.limits) : ctx.maxBytes;
  if (size > limit) return { kind: 'failed', code: 'too-large', reason: tooLargeReason(`it is ${sizeOver(size, limit)}`, megabytes(limit)), size };
  const read = async (): Promise<ParseOutcome> => {
    let bytes: Uint8Array;
    try {
      bytes = size <= SYNC_READ_BYTES ? readFileSync(c.abs) : await fs.readFile(c.abs);
    } catch (err) {
      return { kind: 'failed', code: 'unreadable', reason: `Cannot read the file: ${ioReason(err)}.`, size };
    }
    const contentHash = createHash('sha256').update(bytes).digest('hex');
    // Before any wait, so files claim their content in the order they were read.
    const twin = ctx.sameContent.twinOf(c.id, contentHash);
    if (twin !== null) return { kind: 'already', sameAs: twin };
    const existing = await library.document(c.id);
    // The same bytes are a new version when the listed one's stored text was lost: imported
    // again, the file restores it (its enrichment and the source viewer read that text).
    if (existing?.status === 'ready' && existing.contentHash === contentHash && (await library.hasStoredText(existing))) {
      return { kind: 'already', ...(existing.upgradeFailed ? { marked: true } : {}) };
    }

    const result = await pool.parse(path.posix.basename(c.id), bytes, ctx.signal, { extract: ctx.extract });
    if (!result.ok) return { kind: 'failed', code: result.code, reason: result.reason, size };

    const doc: NormalizedDocument = { ...result.doc, id: c.id, contentHash };
    // The normalized text is stored with its batch's (see `storeNormalized`), a small original in a pack.
    const stored = (
      bytes.byteLength <= PACK_ENTRY_BYTES
        ? ctx.originals.add(bytes).then((p): StoreOutcome => ({ ok: true, original: p.file, range: { offset: p.offset, length: p.length } }))
        : writes.run(async (): Promise<StoreOutcome> => ({ ok: true, original: await library.storeOriginal(c.id, bytes) }))
    ).catch((err: unknown): StoreOutcome => ({ ok: false, reason: `Could not store this document in the library: ${ioReason(err)}.` }));
    const record: DocumentRecord = {
      id: c.id,
      title: doc.title,
      format: doc.format,
      status: 'indexing',
      sizeBytes: size,
      pageCount: doc.pageCount,
      contentHash,
      importedAt: new Date().toISOString(),
      models: [],
      ...withCodes(result.codes ?? documentCodes(doc)),
      chunks: 0,
      original: null,
    };
    return { kind: 'parsed', doc, extract: result.extract, record, stored, replaced: existing?.status === 'ready', previous: existing ?? null };
  };
  // Large files are read a few at a time, so the many small files in flight never hold much memory.
  return size > SYNC_READ_BYTES ? ctx.largeReads.run(read) : read();
}

/** A document's ordering codes (`documentCodes`, made by the parse worker when it could) as a record field (absent when none). */
function withCodes(codes: string[]): { codes?: string[] } {
  return codes.length > 0 ? { codes } : {};
}
