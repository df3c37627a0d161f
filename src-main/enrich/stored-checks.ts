import { z } from 'zod';

/**
 * Checks of what enrichment.json stores, made with loops rather than `z.record` / `z.object`,
 * which build a copy of every object and entry they check: a library's stored statistics and
 * observations are many small records (tests/bench/RESULTS.md, session 19).
 */

/** Whether `v` is a plain object (not null, not an array). */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether `v` is a plain object whose own values all pass `item`. */
export function isRecordOf<T>(v: unknown, item: (x: unknown) => x is T): v is Record<string, T> {
  if (!isObject(v)) return false;
  for (const x of Object.values(v)) if (!item(x)) return false;
  return true;
}

/**
 * A stored table of counts (a term -> in how many documents or passages it occurs): a library made
 * of one file of 60,000 distinct part codes holds 120,000 passage terms, which took 221 ms to check
 * with `z.record` (71 ms for 50,000), the larger part of such a library's first search after a restart.
 */
export function countTable(min: number) {
  return z.custom<Record<string, number>>((value) => isCountTable(value, min), { message: `Expected a table of whole numbers >= ${min}.` });
}

/** Whether `value` is a plain object whose own values are all whole numbers of at least `min`. */
export function isCountTable(value: unknown, min: number): value is Record<string, number> {
  return isRecordOf(value, (n): n is number => Number.isInteger(n) && (n as number) >= min);
}
