import { z } from 'zod';

/**
 * A stored table of counts (a term -> in how many documents or passages it occurs), as
 * enrichment.json keeps them. Checked with a loop rather than `z.record`, which builds a copy of
 * every entry while it checks: a library made of one file of 60,000 distinct part codes holds
 * 120,000 passage terms, which took 221 ms to check that way (71 ms for 50,000), the larger part
 * of such a library's first search after a restart (tests/bench/RESULTS.md, session 19).
 */
export function countTable(min: number) {
  return z.custom<Record<string, number>>((value) => isCountTable(value, min), { message: `Expected a table of whole numbers >= ${min}.` });
}

/** Whether `value` is a plain object whose own values are all whole numbers of at least `min`. */
export function isCountTable(value: unknown, min: number): value is Record<string, number> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const n of Object.values(value)) if (!Number.isInteger(n) || (n as number) < min) return false;
  return true;
}
