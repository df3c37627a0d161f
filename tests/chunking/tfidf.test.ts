import { describe, expect, it } from 'vitest';
import { buildCorpusStats, cosineDense, cosineSparse, tfidfTerms, tfidfVector } from '../../src-main/chunking/tfidf';

describe('tfidf', () => {
  it('splits Latin text into lowercased words and CJK runs into bigrams', () => {
    expect(tfidfTerms('Reset the RAC-225B, then 检查电源。 Node.js C++')).toEqual([
      '检查',
      '查电',
      '电源',
      'reset',
      'the',
      'rac-225b',
      'then',
      'node.js',
      'c++',
    ]);
  });

  it('gives cosine 1 for the same text, 0 for disjoint texts, and in between for overlap', () => {
    const stats = buildCorpusStats(['pump pressure gauge', 'fuse rating table', 'pump fuse']);
    const a = tfidfVector('pump pressure gauge', stats);
    expect(cosineSparse(a, tfidfVector('pump pressure gauge', stats))).toBeCloseTo(1, 10);
    expect(cosineSparse(a, tfidfVector('fuse rating table', stats))).toBe(0);
    const mid = cosineSparse(a, tfidfVector('pump fuse', stats));
    expect(mid).toBeGreaterThan(0);
    expect(mid).toBeLessThan(1);
    expect(tfidfVector('', stats).size).toBe(0);
  });

  it('weights terms that are rare in the corpus above common ones', () => {
    const stats = buildCorpusStats([...Array.from({ length: 20 }, () => 'the unit'), 'fuse']);
    const v = tfidfVector('the fuse', stats);
    expect(v.get('fuse')!).toBeGreaterThan(v.get('the')!);
    expect(stats.documentCount).toBe(21);
    expect(stats.documentFrequency.get('the')).toBe(20);
  });

  it('computes dense cosine regardless of vector norms', () => {
    expect(cosineDense([1, 0], [3, 0])).toBeCloseTo(1);
    expect(cosineDense([1, 0], [0, 2])).toBe(0);
    expect(cosineDense([0, 0], [1, 1])).toBe(0);
  });
});
