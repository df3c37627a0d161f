import { readFileSync } from 'node:fs';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ErrorCode } from '../core/result';
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from './import-limits';
import { TICKS_PER_SECOND, threadTicks, type ParseTask, type PoolMessage, type WorkerMessage, type WorkerParseResult } from './parse-protocol';
import { applyV8Tiering } from './v8-tiering';
import { workerEntry } from './worker-entry';

/**
 * Parses files in worker threads, each with a heap cap and a CPU-time budget per file, so a file
 * that would exhaust memory or spin forever fails alone while the import, and the app, go on. Up
 * to one worker per core but one parses at once, which also spreads an import's parsing over the
 * cores while the main thread indexes.
 *
 * Small files travel to a worker many to a message: each message costs a structured clone and a
 * wake-up on both sides, which for a folder of hundreds of small Markdown pages would cost more
 * than their parsing. A worker reports each file's start and result, so when it dies (out of
 * memory, stopped over its budget, crashed) only the file it was on fails, and the files after it
 * in the same message go back to the queue for a fresh worker.
 *
 * The CPU budget is measured on the worker thread's own CPU time (Linux `/proc`), never on a wall
 * clock that runs out under load. Where `/proc` is missing the budget is taken from a wall clock
 * instead, multiplied by `WALL_CLOCK_SLACK`.
 */

/** A parse outcome: the parser's own (with its learning extract), or the pool's reason it could not finish. */
export type PoolParseResult = WorkerParseResult | { ok: false; code: Extract<ErrorCode, 'too-large' | 'internal' | 'cancelled'>; reason: string };

/** Most files in one message to a worker. */
const MAX_TASK_FILES = 64;
/** Bytes of files packed into one message; a larger file travels alone. */
const TASK_BYTES = 1024 * 1024;
/** Queued bytes above which another worker starts (see `growIfBacklogged`). */
const SPAWN_BACKLOG_BYTES = 4 * 1024 * 1024;
/** How often running parses are checked against their CPU budget. */
const WATCH_MS = 250;
/** How long idle workers are kept for the next import (loading the parsers again costs ~0.5 s of CPU). */
const IDLE_MS = 60_000;
/** Wall-clock budget = CPU budget x this, where a thread's CPU time cannot be read. */
const WALL_CLOCK_SLACK = 4;

interface Pending {
  key: number;
  fileName: string;
  bytes: Uint8Array;
  budgetSeconds: number;
  /** The import's signal: its abort drops the file while it is still queued. */
  signal: AbortSignal | undefined;
  resolve: (result: PoolParseResult) => void;
  /** Whether the worker makes the document's learning extract (`ParseTask`). */
  extract: boolean;
  /** Resolved as cancelled while in a worker's task (`cancel`): never queued again. */
  cancelled?: boolean;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** `/proc` entry of the worker thread ("pid/task/tid"), null off Linux. */
  thread: string | null;
  /** The files sent and not yet answered, in order (at most one message's more than the file being parsed). */
  task: Pending[];
  /** The file being parsed: its CPU time and wall clock at its start. */
  current: { item: Pending; ticks: number | null; wall: number } | null;
  /** Why the pool stopped this worker, when it did. */
  stopReason: string | null;
  error: Error | null;
}

/** The parse worker's entry (see `worker-entry.ts`). */
function parseWorkerEntry(): URL {
  return workerEntry(import.meta.url, { app: 'parse-worker.js', cli: 'parse-worker.mjs' }, './parse.worker.boot.mjs');
}

/**
 * One worker per core but one: the import's main thread (chunking, enrichment, indexing) and V8's
 * own background threads (compiling, collecting garbage: about as much CPU as the parse itself on
 * pdf-dev) need a core too. On two cores a second worker parsed no faster and cost its own pdf.js
 * start, compilation and heap (pdf-dev, three interleaved runs: 471-478 MB against 400-423 MB peak
 * memory, 20-40% more CPU, and a slower import each time).
 */
export function defaultPoolSize(cores = os.availableParallelism()): number {
  return Math.max(1, cores - 1);
}

const CANCELLED: PoolParseResult = { ok: false, code: 'cancelled', reason: 'Import was cancelled.' };

const seconds = (s: number): string => `${s >= 10 ? Math.round(s) : Math.round(s * 10) / 10} s`;

export class ParsePool {
  private readonly limits: ImportLimits;
  private readonly size: number;
  private readonly queue: Pending[] = [];
  private readonly slots = new Set<Slot>();
  private nextKey = 0;
  private scheduled = false;
  private closed = false;
  /** Set when a worker could not start at all: every parse then fails with it. */
  private startFailure: string | null = null;
  private watch: NodeJS.Timeout | null = null;

  private idleTimer: NodeJS.Timeout | null = null;

  /**
   * `size`: most workers at once (default: `defaultPoolSize()`). One pool can serve many imports (an
   * engine keeps one): idle workers never keep the process alive and stop after `idleMs`.
   */
  constructor(options: { limits?: Partial<ImportLimits>; size?: number; idleMs?: number } = {}) {
    this.limits = { ...DEFAULT_IMPORT_LIMITS, ...options.limits };
    this.size = Math.max(1, options.size ?? defaultPoolSize());
    this.idleMs = options.idleMs ?? IDLE_MS;
    // The engine makes its pool when it starts, and an import without one makes its own: either
    // way before any import code runs or any worker starts (v8-tiering.ts says why).
    applyV8Tiering();
  }

  private readonly idleMs: number;

  /**
   * Drops the files of the import whose signal this is: those still queued, and those sent to a
   * worker that has not started them (the worker passes over them; see `SkipTask`). A parse that
   * has begun finishes, under its CPU budget as always: the files stay in their worker's task
   * until it answers for them, only their promises resolve now.
   */
  cancel(signal: AbortSignal): void {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const item = this.queue[i]!;
      if (item.signal !== signal) continue;
      this.queue.splice(i, 1);
      item.resolve(CANCELLED);
    }
    for (const slot of this.slots) {
      const keys: number[] = [];
      for (const item of slot.task) {
        if (item.signal !== signal || item === slot.current?.item) continue;
        item.cancelled = true;
        item.resolve(CANCELLED);
        keys.push(item.key);
      }
      if (keys.length > 0) slot.worker.postMessage({ type: 'skip', keys } satisfies PoolMessage);
    }
  }

  /** Starts up to `n` workers ahead of the first file, so their start-up overlaps other work. */
  warm(n = 1): void {
    while (!this.closed && !this.startFailure && this.slots.size < Math.min(n, this.size)) this.spawn();
  }

  /**
   * Parses one file in a worker; never rejects. An aborted `signal` (see `cancel`) drops it while
   * queued. `extract`: the worker also makes the document's learning extract (Markdown, HTML, text).
   */
  parse(fileName: string, bytes: Uint8Array, signal?: AbortSignal, options: { extract?: boolean } = {}): Promise<PoolParseResult> {
    if (this.closed || signal?.aborted) return Promise.resolve(CANCELLED);
    if (this.startFailure) return Promise.resolve(this.startFailed());
    const budgetSeconds = this.limits.cpuSecondsBase + (this.limits.cpuSecondsPerMb * bytes.byteLength) / (1024 * 1024);
    return new Promise<PoolParseResult>((resolve) => {
      this.queue.push({ key: this.nextKey++, fileName, bytes, budgetSeconds, signal, resolve, extract: options.extract ?? false });
      this.schedule();
    });
  }

  /** Stops every worker; files still queued or being parsed resolve as cancelled. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    for (const item of this.queue.splice(0)) item.resolve(CANCELLED);
    if (this.watch) clearInterval(this.watch);
    this.watch = null;
    await Promise.all([...this.slots].map((s) => s.worker.terminate()));
  }

  private startFailed(): PoolParseResult {
    return { ok: false, code: 'internal', reason: `The file could not be parsed: the parser could not start (${this.startFailure}).` };
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // Files submitted in one burst are packed into as few messages as the idle workers allow.
    setImmediate(() => {
      this.scheduled = false;
      this.dispatch();
    });
  }

  private dispatch(): void {
    if (this.closed || this.queue.length === 0) return;
    const ready = [...this.slots].filter((s) => s.ready);
    /** The queued files shared out evenly over `slots`, one message each. */
    const shareOut = (slots: Slot[]): void => {
      for (let i = 0; i < slots.length && this.queue.length > 0; i++) this.send(slots[i]!, this.take(Math.ceil(this.queue.length / (slots.length - i))));
    };
    shareOut(ready.filter((s) => s.task.length === 0));
    // A worker on its last file (one just fed above included) gets the next ones now: sent only
    // once it reported that file done, they waited for this thread's turn of the event loop, which
    // learning and indexing a document hold for up to ~0.2 s (a pdf-dev import's parse worker
    // waited ~0.7 s in all on a loaded machine).
    shareOut(ready.filter((s) => s.task.length === 1));
    this.growIfBacklogged();
  }

  /** The next queued files for one message: up to `share` of them, within `TASK_BYTES` unless one file alone is larger. */
  private take(share: number): Pending[] {
    const files: Pending[] = [];
    let bytes = 0;
    while (this.queue.length > 0 && files.length < Math.min(share, MAX_TASK_FILES)) {
      const next = this.queue[0]!;
      if (files.length > 0 && bytes + next.bytes.byteLength > TASK_BYTES) break;
      files.push(this.queue.shift()!);
      bytes += next.bytes.byteLength;
    }
    return files;
  }

  /**
   * Starts another worker, while there are cores for it, when the queue holds more than
   * `SPAWN_BACKLOG_BYTES`: a worker's start-up (loading the parsers) costs about as much CPU as
   * parsing a few MB of Markdown, so a small folder is parsed faster by the one worker running.
   */
  private growIfBacklogged(): void {
    if (this.queue.length === 0 || this.slots.size >= this.size || [...this.slots].some((s) => !s.ready)) return;
    let queued = 0;
    for (const item of this.queue) queued += item.bytes.byteLength;
    if (this.slots.size === 0 || queued > SPAWN_BACKLOG_BYTES) this.spawn();
  }

  private send(slot: Slot, files: Pending[]): void {
    slot.task.push(...files);
    slot.worker.ref();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const task: ParseTask = {
      type: 'parse',
      files: files.map((f) => ({ key: f.key, fileName: f.fileName, bytes: f.bytes, extract: f.extract })),
      maxTextChars: this.limits.maxTextChars,
    };
    slot.worker.postMessage(task);
  }

  private spawn(): void {
    let entry: URL;
    try {
      entry = parseWorkerEntry();
    } catch (err) {
      this.failStart(err instanceof Error ? err.message : String(err));
      return;
    }
    const worker = new Worker(entry, {
      resourceLimits: { maxOldGenerationSizeMb: this.limits.workerMemoryMb },
      // None of the parent's flags: a compiled worker needs no loader, and the sources' boot file
      // registers tsx itself (an inherited `--import tsx` registered it a second time).
      execArgv: [],
      // Parsers' console output must not reach the CLI's stdout, where `--json` prints.
      stdout: true,
      stderr: true,
    });
    worker.stdout.pipe(process.stderr);
    worker.stderr.pipe(process.stderr);
    const slot: Slot = { worker, ready: false, thread: null, task: [], current: null, stopReason: null, error: null };
    this.slots.add(slot);
    worker.on('message', (m: WorkerMessage) => this.onMessage(slot, m));
    worker.on('error', (err) => {
      slot.error = err;
    });
    worker.on('exit', () => this.onExit(slot));
  }

  private onMessage(slot: Slot, m: WorkerMessage): void {
    if (m.type === 'ready') {
      slot.ready = true;
      slot.thread = m.thread;
      this.settle(slot);
      this.schedule();
    } else if (m.type === 'start') {
      const item = slot.task.find((f) => f.key === m.key);
      if (!item) return;
      slot.current = { item, ticks: m.cpuTicks, wall: performance.now() };
      this.watch ??= setInterval(() => this.checkBudgets(), WATCH_MS).unref();
    } else {
      const at = slot.task.findIndex((f) => f.key === m.key);
      if (at < 0) return;
      const [item] = slot.task.splice(at, 1);
      // A skipped file never started (the worker skips only files it has not begun), so the file
      // being parsed is unchanged; it was resolved as cancelled already, and resolving again does nothing.
      if (m.type === 'done') slot.current = null;
      item!.resolve(m.type === 'done' ? m.result : CANCELLED);
      if (slot.task.length === 0) this.settle(slot);
      // Idle, or on the file it was sent last: either way it can take the next files.
      if (slot.task.length <= 1) this.schedule();
    }
  }

  private onExit(slot: Slot): void {
    this.slots.delete(slot);
    if (this.closed) {
      for (const item of slot.task) item.resolve(CANCELLED);
      return;
    }
    if (!slot.ready) {
      this.failStart(slot.error?.message ?? 'the worker exited while starting');
      return;
    }
    const current = slot.current?.item ?? slot.task[0];
    if (current) {
      slot.task.splice(slot.task.indexOf(current), 1);
      current.resolve(this.deathReason(slot));
    }
    // The files after it were never parsed: a fresh worker takes them first (not those cancelled meanwhile).
    this.queue.unshift(...slot.task.filter((item) => !item.cancelled));
    slot.task = [];
    this.schedule();
  }

  /** An idle worker never keeps the process alive; once every worker is idle, they stop after `idleMs`. */
  private settle(slot: Slot): void {
    slot.worker.unref();
    if (this.idleTimer || [...this.slots].some((s) => s.task.length > 0)) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.queue.length > 0) return;
      for (const s of this.slots) if (s.task.length === 0) void s.worker.terminate();
    }, this.idleMs).unref();
  }

  private deathReason(slot: Slot): PoolParseResult {
    if (slot.stopReason) return { ok: false, code: 'too-large', reason: slot.stopReason };
    const code = (slot.error as NodeJS.ErrnoException | null)?.code;
    if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return {
        ok: false,
        code: 'too-large',
        reason: `The file is too large to import (limit ${this.limits.workerMemoryMb} MB of memory): parsing it ran out of memory.`,
      };
    }
    return { ok: false, code: 'internal', reason: `The file could not be parsed: the parser stopped (${slot.error?.message ?? 'it exited'}).` };
  }

  private failStart(message: string): void {
    this.startFailure = message;
    for (const item of this.queue.splice(0)) item.resolve(this.startFailed());
  }

  /** Stops each worker whose current file has used more than its budget. */
  private checkBudgets(): void {
    let busy = false;
    for (const slot of this.slots) {
      const current = slot.current;
      if (!current || slot.stopReason) continue;
      busy = true;
      const budget = current.item.budgetSeconds;
      const used = this.cpuSeconds(slot, current);
      const over = used !== null ? used > budget : (performance.now() - current.wall) / 1000 > budget * WALL_CLOCK_SLACK;
      if (!over) continue;
      slot.stopReason = `The file is too large to import (limit ${seconds(budget)} of CPU time for a file of this size): parsing it did not finish within that time.`;
      void slot.worker.terminate();
    }
    if (!busy && this.watch) {
      clearInterval(this.watch);
      this.watch = null;
    }
  }

  private cpuSeconds(slot: Slot, current: NonNullable<Slot['current']>): number | null {
    if (!slot.thread || current.ticks === null) return null;
    try {
      const now = threadTicks(readFileSync(`/proc/${slot.thread}/stat`, 'latin1'));
      return now === null ? null : (now - current.ticks) / TICKS_PER_SECOND;
    } catch {
      return null;
    }
  }
}
