import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { NormalizedDocument } from '../core/document';
import { CodedError } from '../core/result';
import type { PreparedDocument } from '../ingest/import.job';
import { workerEntry } from '../ingest/worker-entry';
import type { FromWorker, PrepareError, PrepareState, ToWorker } from './prepare-protocol';

/**
 * Spreads the preparation of a batch (chunking, heuristic enrichment, prefixing: most of an
 * import's CPU once its files are parsed) over worker threads and the import's own thread. Every
 * document of a batch depends on the vocabulary learned from the whole batch, so this starts
 * only once the batch is learned; each worker then restores that vocabulary from its snapshot
 * and prepares the documents it takes, exactly as the import's thread would (`prepare.ts`).
 *
 * Documents are taken in order, one at a time, by whichever thread is free (the import's thread
 * between its other work: stores, progress), so an uneven batch still ends on all threads at
 * once. A worker that fails to start or dies hands its documents back to the import's thread.
 */

/** Documents sent to one worker before it answers: one being prepared, one waiting. */
const IN_FLIGHT = 2;
/** How long idle workers are kept for the next batch (they load the enrichment code and tagger model). */
const IDLE_MS = 60_000;

/** Prepares one document on the import's thread. */
export type LocalPrepare = (doc: NormalizedDocument) => Promise<PreparedDocument>;

/** What the documents of one `prepareAll` call are prepared with (the pool numbers it). */
export type BatchState = Omit<PrepareState, 'version'>;

interface Job {
  doc: NormalizedDocument;
  state: PrepareState;
  local: LocalPrepare;
  signal: AbortSignal;
  resolve: (p: PreparedDocument) => void;
  reject: (err: unknown) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** The state version this worker was last sent. */
  version: number;
  /** Sent and not yet answered, by key. */
  jobs: Map<number, Job>;
}

/** The prepare worker's entry (see `ingest/worker-entry.ts`). */
function prepareWorkerEntry(): URL {
  return workerEntry(import.meta.url, { app: 'prepare-worker.js', cli: 'prepare-worker.mjs' }, './prepare.worker.boot.mjs');
}

/** The error a worker reported, rebuilt so `stageFailure` reads it as it would the original. */
function rebuild(e: PrepareError): Error {
  if (e.code) return new CodedError(e.code, e.message);
  const err = e.name === 'RangeError' ? new RangeError(e.message) : new Error(e.message);
  return err;
}

export class PreparePool {
  /** Worker threads at most (the import's own thread prepares too). */
  readonly size: number;
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private versions = 0;
  private nextKey = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  private failed = false;
  private localRunning = false;
  private readonly idleMs: number;
  /** Documents prepared so far, by the workers and by this thread (for tests and diagnostics). */
  readonly prepared = { byWorkers: 0, here: 0 };

  /** `size`: worker threads (default: `defaultPrepareWorkers()`). */
  constructor(options: { size?: number; idleMs?: number } = {}) {
    this.size = Math.max(0, options.size ?? defaultPrepareWorkers());
    this.idleMs = options.idleMs ?? IDLE_MS;
  }

  /** Whether any worker can run (a failed start turns the pool off for good). */
  get usable(): boolean {
    return this.size > 0 && !this.failed;
  }

  /** Starts the workers ahead of the batch, so their start-up overlaps the parsing. */
  warm(): void {
    while (this.usable && this.slots.size < this.size) this.spawn();
    this.settle();
  }

  /** Resolves once a worker is ready to take documents, or false when none can start. */
  async ready(): Promise<boolean> {
    this.warm();
    while (this.usable) {
      if ([...this.slots].some((s) => s.ready)) return true;
      await new Promise<void>((resolve) => setTimeout(resolve, 10));
    }
    return false;
  }

  /**
   * Prepares `docs` with `state` on the workers and with `local` on this thread; one promise per
   * document, in input order. An aborted `signal` rejects the documents not started yet.
   */
  prepareAll(state: BatchState, docs: readonly NormalizedDocument[], local: LocalPrepare, signal: AbortSignal): Promise<PreparedDocument>[] {
    const numbered: PrepareState = { ...state, version: ++this.versions };
    const promises = docs.map(
      (doc) =>
        new Promise<PreparedDocument>((resolve, reject) => {
          this.queue.push({ doc, state: numbered, local, signal, resolve, reject });
        }),
    );
    // The caller awaits them in order and stops at an abort: the rest must not reject unhandled.
    for (const p of promises) p.catch(() => undefined);
    this.warm();
    this.feed();
    this.runLocal();
    return promises;
  }

  /** Stops every worker; the documents they held are prepared on this thread. */
  async close(): Promise<void> {
    this.failed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    await Promise.all([...this.slots].map((s) => s.worker.terminate()));
  }

  /** This thread takes the next waiting document until none is left, yielding between documents. */
  private runLocal(): void {
    if (this.localRunning) return;
    this.localRunning = true;
    void (async () => {
      try {
        for (let job = this.queue.shift(); job; job = this.queue.shift()) {
          if (job.signal.aborted) job.reject(job.signal.reason);
          else {
            try {
              job.resolve(await job.local(job.doc));
              this.prepared.here++;
            } catch (err) {
              job.reject(err);
            }
          }
          // A turn of the event loop: workers' answers are read and they are sent their next document.
          await new Promise<void>((resolve) => setImmediate(resolve));
          this.feed();
        }
      } finally {
        this.localRunning = false;
      }
    })();
  }

  /** Sends waiting documents to the ready workers, up to `IN_FLIGHT` each. */
  private feed(): void {
    for (const slot of this.slots) {
      if (!slot.ready) continue;
      while (slot.jobs.size < IN_FLIGHT && this.queue.length > 0) {
        const job = this.queue.shift()!;
        if (job.signal.aborted) {
          job.reject(job.signal.reason);
          continue;
        }
        if (slot.version !== job.state.version) {
          slot.worker.postMessage({ type: 'state', state: job.state } satisfies ToWorker);
          slot.version = job.state.version;
        }
        const key = this.nextKey++;
        slot.jobs.set(key, job);
        slot.worker.ref();
        if (this.idleTimer) clearTimeout(this.idleTimer);
        this.idleTimer = null;
        slot.worker.postMessage({ type: 'prepare', key, version: job.state.version, doc: job.doc } satisfies ToWorker);
      }
    }
  }

  private spawn(): void {
    let entry: URL;
    try {
      entry = prepareWorkerEntry();
    } catch {
      this.failed = true;
      return;
    }
    // None of the parent's flags, as in the parse pool: under `node --import tsx` (benches, corpus
    // tests) an inherited loader ran in every worker, even one running the compiled bundle.
    const worker = new Worker(entry, { execArgv: [] });
    const slot: Slot = { worker, ready: false, version: -1, jobs: new Map() };
    this.slots.add(slot);
    worker.on('message', (m: FromWorker) => this.onMessage(slot, m));
    // The exit that follows hands the worker's documents back.
    worker.on('error', () => undefined);
    worker.on('exit', () => this.onExit(slot));
  }

  private onMessage(slot: Slot, m: FromWorker): void {
    if (m.type === 'ready') {
      slot.ready = true;
      this.feed();
      this.settle();
      return;
    }
    const job = slot.jobs.get(m.key);
    if (!job) return;
    slot.jobs.delete(m.key);
    if (m.ok) {
      this.prepared.byWorkers++;
      job.resolve({ doc: job.doc, ...m.value });
    } else job.reject(rebuild(m.error));
    this.feed();
    this.settle();
  }

  /** A worker that exits hands its documents back to this thread; one that never started turns the pool off. */
  private onExit(slot: Slot): void {
    this.slots.delete(slot);
    if (!slot.ready) this.failed = true;
    if (slot.jobs.size === 0) return;
    this.queue.unshift(...slot.jobs.values());
    slot.jobs.clear();
    this.runLocal();
  }

  /** An idle worker never keeps the process alive; once all are idle, they stop after `idleMs`. */
  private settle(): void {
    for (const s of this.slots) if (s.jobs.size === 0) s.worker.unref();
    if (this.idleTimer || [...this.slots].some((s) => s.jobs.size > 0)) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.queue.length > 0) return;
      for (const s of this.slots) if (s.jobs.size === 0) void s.worker.terminate();
    }, this.idleMs).unref();
  }
}

/**
 * Prepare workers by default: one per core but two, the import's own thread (which prepares too)
 * and the parse worker (busy until the batch is parsed). On 2 cores that is none: measured on the
 * 2-core test machine, workers never shortened an import of radxa + esp (658 files) and cost
 * ~1 s more CPU and ~100 MB more memory (tests/bench/RESULTS.md); more cores were not measured.
 */
export function defaultPrepareWorkers(cores = os.availableParallelism()): number {
  return Math.max(0, cores - 2);
}

/** The pool every library's imports share (created on first use). */
let shared: PreparePool | null = null;

/**
 * The shared pool. `MANUALMATE_PREPARE_WORKERS` (a whole number, 0 for none) overrides its size:
 * on a machine whose cores other work keeps busy, a worker's start-up and its cold code cost more
 * than the cores it would use (see tests/bench/RESULTS.md).
 */
export function sharedPreparePool(): PreparePool {
  const size = Number.parseInt(process.env.MANUALMATE_PREPARE_WORKERS ?? '', 10);
  shared ??= new PreparePool(Number.isInteger(size) && size >= 0 ? { size } : {});
  return shared;
}
