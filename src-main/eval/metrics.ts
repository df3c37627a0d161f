/**
 * Ranking metrics over one question's ranked results, with binary relevance.
 *
 * Input: for each retrieved chunk in rank order (rank 1 first), the indices of the gold answers
 * it covers (see relevance.ts); a chunk covering none is not relevant. The order given is the
 * order scored: ties in the retriever's score keep the retriever's order, nothing is re-sorted.
 * A question with no relevant result scores 0 on every metric.
 *
 * - Hit@k: 1 when some chunk ranked 1..k is relevant, else 0.
 * - MRR@10: 1 / rank of the first relevant chunk within ranks 1..10, else 0.
 * - NDCG@10: each gold answer counts once. The chunk at rank i has gain 1 when it covers at least
 *   one gold answer that no chunk ranked above it covers, else 0 (a second chunk with the same
 *   evidence, as overlapping windows produce, earns nothing). DCG@10 = Σ_{i≤10} gain_i / log2(i+1).
 *   IDCG@10 = Σ_{j=1..min(10, G)} 1 / log2(j+1), G = number of gold answers: the ideal ranking
 *   puts one chunk per answer at the top. Gains are at most min(10, G), on distinct ranks, so
 *   DCG ≤ IDCG and NDCG is in [0, 1]; with one gold answer NDCG = 1 / log2(1 + first rank).
 * - Recall@5: fraction of the G gold answers covered by at least one chunk ranked 1..5.
 */

/** Cut-offs of Hit@k. */
export const HIT_CUTOFFS = [1, 3, 5, 10] as const;

/** Metric names in report order, as the `--json` output spells them. */
export const METRIC_NAMES = ['hit@1', 'hit@3', 'hit@5', 'hit@10', 'mrr@10', 'ndcg@10', 'recall@5'] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

/** Each metric in [0, 1]. */
export type Metrics = Record<MetricName, number>;

/** For each result in rank order, the gold answer indices it covers (empty: not relevant). */
export type RankedCoverage = readonly (readonly number[])[];

/** 1-based ranks of the relevant results, in order. */
export function relevantRanks(coverage: RankedCoverage): number[] {
  const ranks: number[] = [];
  coverage.forEach((c, i) => {
    if (c.length > 0) ranks.push(i + 1);
  });
  return ranks;
}

/** The metrics of one question; `answerCount` is the number of gold answers (G ≥ 1). */
export function questionMetrics(coverage: RankedCoverage, answerCount: number): Metrics {
  if (!Number.isInteger(answerCount) || answerCount < 1) throw new RangeError(`answerCount must be a whole number ≥ 1, got ${answerCount}`);
  const first = coverage.findIndex((c) => c.length > 0) + 1;
  const hit = (k: number): number => (first > 0 && first <= k ? 1 : 0);

  const seen = new Set<number>();
  let dcg = 0;
  coverage.slice(0, 10).forEach((c, i) => {
    const fresh = c.filter((a) => !seen.has(a));
    if (fresh.length === 0) return;
    for (const a of fresh) seen.add(a);
    dcg += 1 / Math.log2(i + 2);
  });
  let idcg = 0;
  for (let j = 1; j <= Math.min(10, answerCount); j++) idcg += 1 / Math.log2(j + 1);

  const top5 = new Set(coverage.slice(0, 5).flat());
  return {
    'hit@1': hit(1),
    'hit@3': hit(3),
    'hit@5': hit(5),
    'hit@10': hit(10),
    'mrr@10': first > 0 && first <= 10 ? 1 / first : 0,
    'ndcg@10': dcg / idcg,
    'recall@5': top5.size / answerCount,
  };
}

/** Mean of each metric over questions; all zeros for an empty list. */
export function meanMetrics(list: readonly Metrics[]): Metrics {
  const out = Object.fromEntries(METRIC_NAMES.map((m) => [m, 0])) as Metrics;
  if (list.length === 0) return out;
  for (const m of METRIC_NAMES) out[m] = list.reduce((s, x) => s + x[m], 0) / list.length;
  return out;
}

/**
 * Page accuracy of one question (DESIGN.md): the first relevant result cites the right page when
 * its pages include the `page` of a gold answer it covers. Null when no gold answer has a page
 * or no result is relevant, so the share counts only questions whose evidence was found.
 */
export function pageCorrect(coverage: RankedCoverage, resultPages: readonly (readonly number[])[], answers: readonly { page?: number }[]): boolean | null {
  if (!answers.some((a) => a.page !== undefined)) return null;
  const first = coverage.findIndex((c) => c.length > 0);
  if (first < 0) return null;
  const pages = resultPages[first] ?? [];
  return coverage[first]!.some((a) => {
    const page = answers[a]?.page;
    return page !== undefined && pages.includes(page);
  });
}
