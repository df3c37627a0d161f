/** Reciprocal rank fusion constant (the value from the RRF paper and LanceDB's default). */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion as LanceDB's RRF reranker computes it: a row's score is the sum over the
 * rankings that hold it of 1 / (rank + k), ranks from 0, in 32-bit floats; rows are kept once, in
 * the order the rankings first show them, and sorted by score (ties keep that order).
 */
export function rrfFuse<R extends Record<string, unknown>>(rankings: readonly (readonly R[])[], limit: number, k = RRF_K): { row: R; score: number }[] {
  const fused = new Map<string, { row: R; score: number; first: number }>();
  for (const ranking of rankings) {
    ranking.forEach((row, rank) => {
      const id = String(row.id);
      const add = Math.fround(1 / Math.fround(rank + k));
      const have = fused.get(id);
      if (have) have.score = Math.fround(have.score + add);
      else fused.set(id, { row, score: add, first: fused.size });
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score || a.first - b.first).slice(0, limit);
}
