import { describe, expect, it } from 'vitest';
import { boostCounts, termCounts, TermStats, topCounted, topTerms, topTermsOf } from '../../src-main/enrich/term-stats';
import { contentTerms, plainText } from '../../src-main/enrich/text.util';

const pump = '# Pump\n\nReplace the [gasket](parts/gasket.md) of the pump; see `pump --help`.\n\n```sh\nflush gasket\n```\n';
const fan = '# Fan\n\nThe fan bearing and the fan gasket wear out.\n';

describe('TermStats', () => {
  it('counts the same terms from the distinct content terms of a text (as learning extracts them) as from its Markdown', () => {
    const fromMarkdown = TermStats.fromTexts([pump, fan]);
    const fromPlain = TermStats.create();
    for (const t of [pump, fan]) fromPlain.addTerms(new Set(contentTerms(plainText(t))));
    expect(fromPlain.toJSON()).toEqual(fromMarkdown.toJSON());
  });

  it('gives idf values that follow documents added and removed after they were read', () => {
    const stats = TermStats.fromTexts([pump]);
    const alone = stats.idf('gasket');
    expect(stats.idf('gasket')).toBe(alone);
    stats.addDocument(fan);
    stats.addDocument('# Valve\n\nThe valve seat.\n');
    const shared = stats.idf('gasket');
    expect(shared).toBeLessThan(stats.idf('valve'));
    stats.removeDocument(fan);
    expect(stats.idf('gasket')).toBeGreaterThan(shared);
  });
});

/** The reference ranking: every term of `tf` scored, sorted by score, ties in first-occurrence (insertion) order. */
function sortedByTfIdf(tf: ReadonlyMap<string, number>, stats: TermStats, k: number): string[] {
  const order = [...tf.keys()];
  return [...tf]
    .map(([t, n]) => ({ t, score: (1 + Math.log(n)) * stats.idf(t) }))
    .sort((a, b) => b.score - a.score || order.indexOf(a.t) - order.indexOf(b.t))
    .slice(0, k)
    .map((x) => x.t);
}

/** A seeded generator of integers below `n`, so the random cases are the same every run. */
function seeded(seed: number): (n: number) => number {
  return (n) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
}

describe('topTerms', () => {
  it('ranks the same keywords from precomputed content terms as from Markdown', () => {
    const stats = TermStats.fromTexts([pump, fan]);
    const options = { boost: 'Fan', exclude: new Set(['wear']) };
    expect(topTermsOf(contentTerms(plainText(fan)), stats, 3, options)).toEqual(topTerms(fan, stats, 3, options));
    expect(topTerms(fan, stats, 3, options)[0]).toBe('fan');
  });

  it('keeps the k best terms by TF-IDF, ties in first-occurrence order, as a full sort would', () => {
    // Documents that give words distinct, equal and unseen document frequencies.
    const stats = TermStats.fromTexts(['alpha beta gamma', 'alpha beta delta', 'alpha epsilon', 'zeta eta theta']);
    const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda'];
    const bySort = (terms: string[], k: number): string[] => {
      const tf = new Map<string, number>();
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      return sortedByTfIdf(tf, stats, k);
    };
    const next = seeded(7);
    for (let round = 0; round < 300; round++) {
      const terms = Array.from({ length: 1 + next(30) }, () => words[next(words.length)]!);
      const k = 1 + next(8);
      expect(topTermsOf(terms, stats, k)).toEqual(bySort(terms, k));
    }
    // Unseen words tie at the highest IDF: the first seen comes first, later ones only fill free places.
    expect(topTermsOf(['kappa', 'iota', 'lambda', 'iota'], stats, 2)).toEqual(['iota', 'kappa']);
    expect(topTermsOf(['kappa', 'iota', 'lambda'], stats, 2)).toEqual(['kappa', 'iota']);
    expect(topTermsOf(['kappa'], stats, 0)).toEqual([]);
  });

  it("weighs a heading's terms double, keeps digit terms only from it, and leaves excluded terms out, as one pass over the terms would", () => {
    // The import counts a chunk's terms ahead (`termCounts`) and adds the heading's at the end
    // (`topCounted`): the ranking must be the one a single pass gives, heading first.
    const stats = TermStats.fromTexts(['alpha beta gpio3', 'alpha uart7 delta', 'alpha epsilon', 'zeta eta theta']);
    const words = ['alpha', 'beta', 'gpio3', 'uart7', 'delta', 'epsilon', 'zeta', 'eta', 'iota', 'ab', 'kappa'];
    const onePass = (terms: string[], boost: string[], exclude: Set<string>, k: number): string[] => {
      const tf = new Map<string, number>();
      const add = (t: string, w: number): void => {
        if (exclude.has(t) || t.length < 3 || (w < 2 && /\d/.test(t))) return;
        tf.set(t, (tf.get(t) ?? 0) + w);
      };
      for (const t of boost) add(t, 2);
      for (const t of terms) add(t, 1);
      return sortedByTfIdf(tf, stats, k);
    };
    const next = seeded(11);
    for (let round = 0; round < 300; round++) {
      const terms = Array.from({ length: 1 + next(30) }, () => words[next(words.length)]!);
      const boost = Array.from({ length: next(4) }, () => words[next(words.length)]!);
      const exclude = new Set(Array.from({ length: next(3) }, () => words[next(words.length)]!));
      const k = 1 + next(8);
      const expected = onePass(terms, contentTerms(boost.join(' ')), exclude, k);
      expect(topTermsOf(terms, stats, k, { boost: boost.join(' '), exclude })).toEqual(expected);
      expect(topCounted(boostCounts(boost.join(' ')), termCounts(terms), stats, k, exclude)).toEqual(expected);
    }
  });
});
