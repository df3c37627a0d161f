import { describe, expect, it } from 'vitest';
import { TermStats, topTerms, topTermsOf } from '../../src-main/enrich/term-stats';
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

describe('topTerms', () => {
  it('ranks the same keywords from precomputed content terms as from Markdown', () => {
    const stats = TermStats.fromTexts([pump, fan]);
    const options = { boost: 'Fan', exclude: new Set(['wear']) };
    expect(topTermsOf(contentTerms(plainText(fan)), stats, 3, options)).toEqual(topTerms(fan, stats, 3, options));
    expect(topTerms(fan, stats, 3, options)[0]).toBe('fan');
  });
});
