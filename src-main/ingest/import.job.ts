import { promises as fs, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { DocumentStatus, ImportFileResult, ImportProgress, ImportSummary } from '../contract/api';
import type { NormalizedDocument } from '../core/document';
import type { ErrorCode } from '../core/result';
import type { ChunkInput } from '../storage/chunk-store';
import type { DocumentRecord, Library } from '../storage/library.store';
import { parserFor, SUPPORTED_EXTENSIONS } from './parsers';

/**
 * One import: expands the named files and folders, then for each file reads, hashes, parses and
 * hands the normalized document to the indexer, in batches. One bad file never stops the batch;
 * cancelling keeps every document already committed and nothing half-done.
 *
 * Crash safety: index rows are written under the library journal, and documents.json lists a
 * document as `ready` only after its original and normalized text (written atomically) and its
 * rows are all in place; `recover()` on the indexer drops the rows of an interrupted commit.
 * The originals and normalized texts are written behind parsing and preparation, not before them.
 */

/** What the import needs from the index: vocabulary learning, preparation, batched commits. */
export interface DocumentIndexer {
  /** Teaches the library's model vocabulary about new documents before they are enriched. */
  learn(docs: NormalizedDocument[]): Promise<void>;
  /** Chunks, enriches and prefixes one document; pure CPU, no writes. */
  prepare(doc: NormalizedDocument, signal: AbortSignal): Promise<PreparedDocument>;
  /**
   * Replaces the index rows of these documents with their prepared rows, then calls `persist`
   * (which lists them as ready) and removes the rows of the documents `persist` returns (those
   * that failed after their rows were written); a crash in between is repaired on the next open.
   */
  commit(batch: PreparedDocument[], persist: () => Promise<readonly string[] | void>): Promise<void>;
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
  indexer: DocumentIndexer;
  signal?: AbortSignal;
  onProgress?: (p: ImportProgress) => void;
  /** Largest file accepted, in bytes (default 500 MB). */
  maxFileBytes?: number;
  /** Files parsed before their batch is enriched and committed (default 1000). */
  batchSize?: number;
}

export const DEFAULT_MAX_FILE_BYTES = 500 * 1024 * 1024;

/** Files read and parsed at once; enough to hide disk latency, few enough to bound memory. */
const READ_CONCURRENCY = 8;

/**
 * Files up to this size are stat'ed and read synchronously. Each asynchronous file operation is a
 * round trip through libuv's thread pool that costs the event loop more than the system call it
 * wraps (on the 2-core test machine ~0.1 ms of wake-ups per operation, 6 per file), while a small
 * file reads in tens of microseconds; larger files are read asynchronously so the loop never
 * blocks for long.
 */
const SYNC_READ_BYTES = 1024 * 1024;

/**
 * Stores (an original and a normalized text per file) running at once. They run behind parsing
 * and preparation, and the batch's commit waits for them only before listing documents as
 * ready. Each store is a chain of small file operations whose every step needs a turn of the
 * event loop, so many run at once; while files are being read only a few do, so the reads of
 * large files do not queue behind them in libuv's thread pool.
 */
const WRITES_WHILE_READING = 2;
const WRITES_AFTER_READING = 16;

/**
 * One turn of the event loop. Small files are read synchronously and parsing and preparing are
 * synchronous work chained by awaits that never reach the loop: a turn per file lets the stores
 * running behind them, cancellation and the app's messages advance.
 */
function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
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

interface Candidate {
  /** Absolute path on disk. */
  abs: string;
  /** Document id: path relative to the parent of what was named, `/`-separated. */
  id: string;
  /** Set when the candidate is already known to fail (unreadable, unsafe name...). */
  failure?: { code: ErrorCode; reason: string };
}

const SKIP_DIRS = new Set(['.git', 'node_modules', '.svn', '.hg', '__MACOSX']);

/** A document id segment that could escape the library folder or confuse other systems. */
function unsafeSegment(seg: string): boolean {
  return seg === '' || seg === '.' || seg === '..' || /[\\\0:]/.test(seg) || /^[a-zA-Z]:/.test(seg);
}

/** Expands paths into candidate files; unsupported files inside folders are skipped silently. */
export async function expandPaths(paths: string[]): Promise<Candidate[]> {
  const out: Candidate[] = [];
  const seen = new Set<string>();
  const push = (c: Candidate) => {
    if (seen.has(c.id)) return;
    seen.add(c.id);
    out.push(c);
  };
  for (const p of paths) {
    const abs = path.resolve(p);
    const base = path.dirname(abs);
    let stat;
    try {
      stat = await fs.stat(abs);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'it does not exist' : code === 'EACCES' ? 'permission denied' : `error ${code ?? 'unknown'}`;
      push({ abs, id: path.basename(abs), failure: { code: 'unreadable', reason: `Cannot read ${p}: ${why}.` } });
      continue;
    }
    if (stat.isFile()) {
      push(candidate(abs, path.basename(abs)));
      continue;
    }
    if (!stat.isDirectory()) {
      push({ abs, id: path.basename(abs), failure: { code: 'unsupported', reason: `${p} is not a regular file or folder.` } });
      continue;
    }
    const stack = [abs];
    while (stack.length > 0) {
      const dir = stack.pop()!;
      let entries;
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch (err) {
        const rel = path.relative(base, dir).split(path.sep).join('/');
        push({ abs: dir, id: rel, failure: { code: 'unreadable', reason: `Cannot read the folder ${rel}: ${(err as NodeJS.ErrnoException).code ?? 'error'}.` } });
        continue;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const e of entries) {
        const full = path.join(dir, e.name);
        // Symlinks are not followed: they can loop or point outside what the user chose.
        if (e.isDirectory()) {
          if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) stack.push(full);
        } else if (e.isFile() && !e.name.startsWith('.')) {
          const ext = path.extname(e.name).slice(1).toLowerCase();
          if (!SUPPORTED_EXTENSIONS.includes(ext)) continue;
          push(candidate(full, path.relative(base, full).split(path.sep).join('/')));
        }
      }
    }
  }
  return out;
}

function candidate(abs: string, id: string): Candidate {
  const segs = id.split('/');
  if (segs.some(unsafeSegment)) {
    return {
      abs,
      id: segs.map((s) => s.replace(/[\\\0:]/g, '_')).join('/'),
      failure: { code: 'unsafe-path', reason: `The name "${id}" could escape the library folder; rename the file and import it again.` },
    };
  }
  return { abs, id };
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

/** Runs an import to the end (or until cancelled) and returns per-file results. */
export async function runImport(options: ImportOptions): Promise<ImportSummary> {
  const { library, indexer } = options;
  const signal = options.signal ?? new AbortController().signal;
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const batchSize = options.batchSize ?? 1000;
  const candidates = await expandPaths(options.paths);
  const total = candidates.length;
  const results: ImportFileResult[] = [];
  let done = 0;
  const progress = (file: string, stage: DocumentStatus, fraction: number, reason?: string) =>
    options.onProgress?.({ file, stage, fraction, done, total, ...(reason ? { reason } : {}) });

  const failures: DocumentRecord[] = [];
  const fail = (id: string, code: ErrorCode, reason: string, size = 0) => {
    results.push({ file: id, status: 'failed', reason });
    failures.push(failedRecord(id, code, reason, size));
    done++;
    progress(id, 'failed', 1, reason);
  };

  for (const c of candidates) progress(c.id, 'queued', 0);
  const writes = new Limiter(WRITES_WHILE_READING);
  // Every store started, so none is still writing into the library when the import returns.
  const stores: Promise<StoreOutcome>[] = [];

  for (let i = 0; i < candidates.length && !signal.aborted; i += batchSize) {
    const batch = candidates.slice(i, i + batchSize);
    const parsed: Extract<ParseOutcome, { kind: 'parsed' }>[] = [];

    // Files are read and parsed a few at a time so disk waits overlap parsing; outcomes are
    // handled in input order, so results and progress stay deterministic.
    const reads = new Limiter(READ_CONCURRENCY);
    const outcomes = batch.map((c) => reads.run(async (): Promise<ParseOutcome> => {
      await nextTurn();
      if (signal.aborted) return { kind: 'failed', code: 'cancelled', reason: 'Cancelled.', size: 0 };
      if (c.failure) return { kind: 'failed', code: c.failure.code, reason: c.failure.reason, size: 0 };
      progress(c.id, 'parsing', 0);
      const outcome = await readAndParse(c, library, maxBytes, signal, (f) => progress(c.id, 'parsing', f * 0.6), writes);
      if (outcome.kind === 'parsed') stores.push(outcome.stored);
      return outcome;
    }));
    for (let k = 0; k < batch.length; k++) {
      const c = batch[k]!;
      const outcome = await outcomes[k]!;
      if (outcome.kind === 'failed') {
        if (outcome.code === 'cancelled' || signal.aborted) continue;
        const previous = await library.document(c.id);
        if (previous?.status === 'ready') {
          // Never lose a good version to a bad new file: report the failure, keep what is stored.
          results.push({ file: c.id, status: 'failed', reason: `${outcome.reason} The previous version is kept.` });
          done++;
          progress(c.id, 'failed', 1, outcome.reason);
          continue;
        }
        fail(c.id, outcome.code, outcome.reason, outcome.size);
      } else if (outcome.kind === 'already') {
        results.push({ file: c.id, status: 'already', reason: 'already in library' });
        done++;
        progress(c.id, 'ready', 1);
      } else {
        parsed.push(outcome);
      }
    }
    if (signal.aborted) break;
    writes.setLimit(WRITES_AFTER_READING);

    if (parsed.length > 0 && !signal.aborted) {
      await indexer.learn(parsed.map((p) => p.doc));
      const prepared: PreparedDocument[] = [];
      const ready: DocumentRecord[] = [];
      for (const p of parsed) {
        if (signal.aborted) break;
        progress(p.doc.id, 'chunking', 0.65);
        await nextTurn();
        try {
          const prep = await indexer.prepare(p.doc, signal);
          prepared.push(prep);
          ready.push({ ...p.record, status: 'ready', chunks: prep.chunks, models: prep.models });
          progress(p.doc.id, 'indexing', 0.9);
        } catch (err) {
          if (signal.aborted) break;
          fail(p.doc.id, 'internal', `Could not index this document: ${err instanceof Error ? err.message : String(err)}`, p.record.sizeBytes);
        }
      }
      if (signal.aborted) break;
      const byId = new Map(parsed.map((p) => [p.doc.id, p]));
      // A new version's rows replace its previous version's: its files are stored first, and when
      // they cannot be, the previous version is kept.
      const batchRows: PreparedDocument[] = [];
      const batchReady: DocumentRecord[] = [];
      for (let k = 0; k < prepared.length; k++) {
        const p = byId.get(prepared[k]!.doc.id)!;
        const stored = p.replaced ? await p.stored : null;
        if (stored && !stored.ok) {
          results.push({ file: p.doc.id, status: 'failed', reason: `${stored.reason} The previous version is kept.` });
          done++;
          progress(p.doc.id, 'failed', 1, stored.reason);
          continue;
        }
        batchRows.push(prepared[k]!);
        batchReady.push(ready[k]!);
      }
      // The other rows are written while the last stores finish. A document is listed as ready
      // only once its original and normalized text are on disk too (a crash before that leaves it
      // journaled and unlisted, and recovery drops its rows); one whose store failed loses its rows.
      await indexer.commit(batchRows, async () => {
        ready.length = 0;
        const unstored: string[] = [];
        for (const r of batchReady) {
          const p = byId.get(r.id)!;
          const stored = await p.stored;
          if (stored.ok) ready.push({ ...r, original: stored.original });
          else {
            unstored.push(r.id);
            fail(r.id, 'internal', stored.reason, p.record.sizeBytes);
          }
        }
        await library.putDocuments(ready);
        return unstored;
      });
      for (const r of ready) {
        const p = byId.get(r.id);
        results.push({ file: r.id, status: p?.replaced ? 'replaced' : 'imported' });
        // A replaced version's normalized text is an orphan unless another document shares it.
        if (p?.previousHash && p.previousHash !== r.contentHash) await library.dropNormalizedIfUnused(p.previousHash);
        done++;
        progress(r.id, 'ready', 1);
      }
    }
    await library.putDocuments(failures.splice(0));
    writes.setLimit(WRITES_WHILE_READING);
  }
  await library.putDocuments(failures.splice(0));
  await Promise.all(stores);

  const finished = new Set(results.map((r) => r.file));
  for (const c of candidates) if (!finished.has(c.id)) results.push({ file: c.id, status: 'cancelled', reason: 'Import cancelled before this file.' });
  const count = (s: ImportFileResult['status']) => results.filter((r) => r.status === s).length;
  return {
    results,
    summary: { imported: count('imported'), already: count('already'), replaced: count('replaced'), failed: count('failed'), cancelled: count('cancelled') },
  };
}

/** Where a parsed file's original was stored, or why storing it failed; never rejects. */
type StoreOutcome = { ok: true; original: string } | { ok: false; reason: string };

type ParseOutcome =
  | { kind: 'failed'; code: ErrorCode; reason: string; size: number }
  | { kind: 'already' }
  | {
      kind: 'parsed';
      doc: NormalizedDocument;
      /** `original` is filled in once `stored` resolves. */
      record: DocumentRecord;
      stored: Promise<StoreOutcome>;
      replaced: boolean;
      previousHash: string | null;
    };

async function readAndParse(
  c: Candidate,
  library: Library,
  maxBytes: number,
  signal: AbortSignal,
  onProgress: (fraction: number) => void,
  writes: Limiter,
): Promise<ParseOutcome> {
  let size = 0;
  let bytes: Uint8Array;
  try {
    size = statSync(c.abs).size;
    if (size > maxBytes) {
      const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
      return { kind: 'failed', code: 'too-large', reason: `The file is ${mb(size)}, over the ${mb(maxBytes)} limit.`, size };
    }
    bytes = size <= SYNC_READ_BYTES ? readFileSync(c.abs) : await fs.readFile(c.abs);
  } catch (err) {
    return { kind: 'failed', code: 'unreadable', reason: `Cannot read the file: ${(err as NodeJS.ErrnoException).code ?? 'error'}.`, size };
  }
  const contentHash = createHash('sha256').update(bytes).digest('hex');
  const existing = await library.document(c.id);
  if (existing?.status === 'ready' && existing.contentHash === contentHash) return { kind: 'already' };

  const parser = parserFor(c.id);
  if (!parser.ok) return { kind: 'failed', code: parser.code, reason: parser.reason, size };
  const result = await parser.parser.parse({ bytes, fileName: path.posix.basename(c.id), signal, onProgress });
  if (!result.ok) return { kind: 'failed', code: result.code, reason: result.reason, size };

  const doc: NormalizedDocument = { ...result.doc, id: c.id, contentHash };
  const stored = writes.run(async (): Promise<StoreOutcome> => {
    const original = await library.storeOriginal(c.id, bytes);
    await library.storeNormalized(doc);
    return { ok: true, original };
  }).catch((err: unknown): StoreOutcome => ({ ok: false, reason: `Could not store this document in the library: ${err instanceof Error ? err.message : String(err)}` }));
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
    chunks: 0,
    original: null,
  };
  return { kind: 'parsed', doc, record, stored, replaced: existing?.status === 'ready', previousHash: existing?.contentHash ?? null };
}
