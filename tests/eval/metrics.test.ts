import { describe, expect, it } from 'vitest';
import { meanMetrics, METRIC_NAMES, questionMetrics, relevantRanks } from '../../src-main/eval/metrics';

const log2 = Math.log2;

describe('questionMetrics (binary relevance, rank order as given)', () => {
  it('scores one gold answer found at rank 3 by hand', () => {
    const m = questionMetrics([[], [], [0], [], []], 1);
    expect(m['hit@1']).toBe(0);
    expect(m['hit@3']).toBe(1);
    expect(m['hit@5']).toBe(1);
    expect(m['hit@10']).toBe(1);
    expect(m['mrr@10']).toBeCloseTo(1 / 3, 12);
    expect(m['ndcg@10']).toBeCloseTo(1 / log2(4), 12);
    expect(m['recall@5']).toBe(1);
  });

  it('gives 0 on every metric when no result is relevant, and for an empty result list', () => {
    for (const coverage of [[[], [], []], []]) {
      const m = questionMetrics(coverage, 2);
      for (const name of METRIC_NAMES) expect(m[name]).toBe(0);
    }
  });

  it('scores tied results in the order given: a relevant chunk second is rank 2 even when its score equals the first', () => {
    // The metrics never see scores: whatever order the retriever returned is the ranking.
    const m = questionMetrics([[], [0]], 1);
    expect(m['hit@1']).toBe(0);
    expect(m['mrr@10']).toBe(0.5);
    expect(m['ndcg@10']).toBeCloseTo(1 / log2(3), 12);
  });

  it('counts a gold answer once when several chunks contain it (overlapping windows earn nothing extra)', () => {
    const m = questionMetrics([[0], [0], [0]], 1);
    expect(m['ndcg@10']).toBe(1);
    expect(m['mrr@10']).toBe(1);
    expect(m['recall@5']).toBe(1);
    expect(relevantRanks([[0], [0], [0]])).toEqual([1, 2, 3]);
  });

  it('scores two gold answers found at ranks 2 and 4 by hand', () => {
    const m = questionMetrics([[], [1], [], [0]], 2);
    const dcg = 1 / log2(3) + 1 / log2(5);
    const idcg = 1 + 1 / log2(3);
    expect(m['ndcg@10']).toBeCloseTo(dcg / idcg, 12);
    expect(m['mrr@10']).toBe(0.5);
    expect(m['hit@1']).toBe(0);
    expect(m['hit@3']).toBe(1);
    expect(m['recall@5']).toBe(1);
  });

  it('gives partial recall when only some gold answers are in the top 5', () => {
    const m = questionMetrics([[2], [], [], [], [], [0]], 3);
    expect(m['recall@5']).toBeCloseTo(1 / 3, 12);
    expect(m['ndcg@10']).toBeCloseTo((1 + 1 / log2(7)) / (1 + 1 / log2(3) + 1 / log2(4)), 12);
  });

  it('gives one gain to a chunk that covers two gold answers at once', () => {
    const m = questionMetrics([[0, 1]], 2);
    expect(m['ndcg@10']).toBeCloseTo(1 / (1 + 1 / log2(3)), 12);
    expect(m['recall@5']).toBe(1);
    expect(m['hit@1']).toBe(1);
  });

  it('caps the ideal DCG at 10 ranks when a question has more than 10 gold answers', () => {
    const coverage = Array.from({ length: 10 }, (_, i) => [i]);
    const m = questionMetrics(coverage, 12);
    expect(m['ndcg@10']).toBeCloseTo(1, 12);
    expect(m['recall@5']).toBeCloseTo(5 / 12, 12);
  });

  it('ignores relevant results below rank 10', () => {
    const coverage: number[][] = Array.from({ length: 12 }, () => []);
    coverage[10] = [0];
    const m = questionMetrics(coverage, 1);
    for (const name of METRIC_NAMES) expect(m[name]).toBe(0);
    expect(relevantRanks(coverage)).toEqual([11]);
  });

  it('rejects a question without gold answers as a caller bug', () => {
    expect(() => questionMetrics([[0]], 0)).toThrow(RangeError);
  });
});

describe('meanMetrics', () => {
  it('averages each metric over questions and is all zeros for none', () => {
    const a = questionMetrics([[0]], 1);
    const b = questionMetrics([[], [0]], 1);
    const mean = meanMetrics([a, b]);
    expect(mean['hit@1']).toBe(0.5);
    expect(mean['mrr@10']).toBe(0.75);
    expect(mean['ndcg@10']).toBeCloseTo((1 + 1 / log2(3)) / 2, 12);
    for (const name of METRIC_NAMES) expect(meanMetrics([])[name]).toBe(0);
  });
});
