import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { DocumentStatus, ImportFileResult, ImportProgress, ImportSummary } from '../contract/api';
import type { NormalizedDocument } from '../core/document';
import type { ErrorCode } from '../core/result';
import type { DocumentRecord, Library } from '../library/library.store';
import { parserFor, SUPPORTED_EXTENSIONS } from './parsers';

/**
 * One import: expands the named files and folders, then for each file reads, hashes, parses and
 * hands the normalized document to the indexer, in batches. One bad file never stops the batch;
 * cancelling keeps every document already committed and nothing half-done.
 *
 * Crash safety: originals and normalized documents are written first (atomically), index rows
 * next (under the library journal), and documents.json last. A document is listed `ready` only
 * after its rows are in the index; `recover()` on the indexer repairs an interrupted commit.
 */

/** What the import needs from the index: vocabulary learning, preparation, batched commits. */
export interface DocumentIndexer {
  /** Teaches the library's model vocabulary about new documents before they are enriched. */
  learn(docs: NormalizedDocument[]): Promise<void>;
  /** Chunks, enriches and prefixes one document; pure CPU, no writes. */
  prepare(doc: NormalizedDocument, signal: AbortSignal): Promise<PreparedDocument>;
  /**
   * Replaces the index rows of these documents with their prepared rows, then calls `persist`
   * (which lists them as ready); a crash in between is repaired on the next open.
   */
  commit(batch: PreparedDocument[], persist: () => Promise<void>): Promise<void>;
}

export interface PreparedDocument {
  doc: NormalizedDocument;
  chunks: number;
  models: string[];
  /** Opaque rows for the store. */
  rows: unknown[];
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

/** Runs `fn` on every item with at most `limit` running (a worker pool); one promise per item, in order. */
function mapConcurrent<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R>[] {
  const settle = items.map(() => {
    let resolve!: (value: R) => void;
    let reject!: (reason: unknown) => void;
    const promise = new Promise<R>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      try {
        settle[i]!.resolve(await fn(items[i]!));
      } catch (err) {
        settle[i]!.reject(err);
      }
    }
  };
  for (let w = 0; w < Math.min(limit, items.length); w++) void worker();
  return settle.map((s) => s.promise);
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

  for (let i = 0; i < candidates.length && !signal.aborted; i += batchSize) {
    const batch = candidates.slice(i, i + batchSize);
    const parsed: Extract<ParseOutcome, { kind: 'parsed' }>[] = [];

    // Files are read and parsed a few at a time so disk waits overlap parsing; outcomes are
    // handled in input order, so results and progress stay deterministic.
    const outcomes = mapConcurrent(batch, READ_CONCURRENCY, async (c): Promise<ParseOutcome> => {
      if (signal.aborted) return { kind: 'failed', code: 'cancelled', reason: 'Cancelled.', size: 0 };
      if (c.failure) return { kind: 'failed', code: c.failure.code, reason: c.failure.reason, size: 0 };
      progress(c.id, 'parsing', 0);
      return readAndParse(c, library, maxBytes, signal, (f) => progress(c.id, 'parsing', f * 0.6));
    });
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

    if (parsed.length > 0 && !signal.aborted) {
      await indexer.learn(parsed.map((p) => p.doc));
      const prepared: PreparedDocument[] = [];
      const ready: DocumentRecord[] = [];
      for (const p of parsed) {
        if (signal.aborted) break;
        progress(p.doc.id, 'chunking', 0.65);
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
      await indexer.commit(prepared, () => library.putDocuments(ready));
      for (const r of ready) {
        const p = parsed.find((x) => x.doc.id === r.id);
        results.push({ file: r.id, status: p?.replaced ? 'replaced' : 'imported' });
        // A replaced version's normalized text is an orphan unless another document shares it.
        if (p?.previousHash && p.previousHash !== r.contentHash) await library.dropNormalizedIfUnused(p.previousHash);
        done++;
        progress(r.id, 'ready', 1);
      }
    }
    await library.putDocuments(failures.splice(0));
  }
  await library.putDocuments(failures.splice(0));

  const finished = new Set(results.map((r) => r.file));
  for (const c of candidates) if (!finished.has(c.id)) results.push({ file: c.id, status: 'cancelled', reason: 'Import cancelled before this file.' });
  const count = (s: ImportFileResult['status']) => results.filter((r) => r.status === s).length;
  return {
    results,
    summary: { imported: count('imported'), already: count('already'), replaced: count('replaced'), failed: count('failed'), cancelled: count('cancelled') },
  };
}

type ParseOutcome =
  | { kind: 'failed'; code: ErrorCode; reason: string; size: number }
  | { kind: 'already' }
  | { kind: 'parsed'; doc: NormalizedDocument; record: DocumentRecord; replaced: boolean; previousHash: string | null };

async function readAndParse(
  c: Candidate,
  library: Library,
  maxBytes: number,
  signal: AbortSignal,
  onProgress: (fraction: number) => void,
): Promise<ParseOutcome> {
  let size = 0;
  let bytes: Uint8Array;
  try {
    const stat = await fs.stat(c.abs);
    size = stat.size;
    if (size > maxBytes) {
      const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
      return { kind: 'failed', code: 'too-large', reason: `The file is ${mb(size)}, over the ${mb(maxBytes)} limit.`, size };
    }
    bytes = await fs.readFile(c.abs);
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
  const original = await library.storeOriginal(c.id, bytes);
  await library.storeNormalized(doc);
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
    original,
  };
  return { kind: 'parsed', doc, record, replaced: existing?.status === 'ready', previousHash: existing?.contentHash ?? null };
}
