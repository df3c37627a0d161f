import type { LearningExtract } from '../enrich/learning-extract';
import type { ParseResult } from './parsers';

/** Messages between the parse pool (`parse-pool.ts`) and its workers (`parse.worker.ts`). */

/** Files sent to one worker at once: many small files travel in one message. */
export interface ParseTask {
  type: 'parse';
  /** `extract`: make the document's learning extract and codes beside the parse (see `parse.worker.ts`). */
  files: { key: number; fileName: string; bytes: Uint8Array; extract: boolean }[];
  /** `ImportLimits.maxTextChars`. */
  maxTextChars: number;
}

/** Files of a cancelled import that were sent and have not started: the worker passes over them. */
export interface SkipTask {
  type: 'skip';
  keys: number[];
}

/** What the pool sends a worker. */
export type PoolMessage = ParseTask | SkipTask;

export type WorkerMessage =
  /** Sent once the worker has loaded; `thread` is its `/proc` entry ("pid/task/tid"), null off Linux. */
  | { type: 'ready'; thread: string | null }
  /** A file's parse begins; `cpuTicks` is the worker thread's CPU time then (null off Linux). */
  | { type: 'start'; key: number; cpuTicks: number | null }
  | { type: 'done'; key: number; result: WorkerParseResult }
  /** A file named by a `SkipTask` was passed over, not parsed. */
  | { type: 'skipped'; key: number };

/**
 * A parse's result, with what the import's thread would otherwise compute from the document
 * alone: its `learningExtract` and its ordering codes (`documentCodes`), when the worker made them.
 */
export type WorkerParseResult = (Extract<ParseResult, { ok: true }> & { extract?: LearningExtract; codes?: string[] }) | Extract<ParseResult, { ok: false }>;

/** Clock ticks per second of `/proc/.../stat` CPU times (USER_HZ, 100 on every Linux build in use). */
export const TICKS_PER_SECOND = 100;

/** utime + stime of a `/proc/.../stat` line (fields 14 and 15; the name in parentheses may hold spaces). */
export function threadTicks(stat: string): number | null {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? ticks : null;
}
