import { describe, expect, it } from 'vitest';
import { isCountTable } from '../../src-main/enrich/stored-checks';
import { PassageTermStats } from '../../src-main/enrich/passage-terms';
import { TermStats } from '../../src-main/enrich/term-stats';

describe('stored count tables', () => {
  it('accept whole numbers at or above the least count, nothing else', () => {
    expect(isCountTable({}, 1)).toBe(true);
    expect(isCountTable({ fuse: 3, relay: 1 }, 1)).toBe(true);
    expect(isCountTable({ fuse: 0 }, 0)).toBe(true);
    expect(isCountTable({ fuse: 0 }, 1)).toBe(false);
    expect(isCountTable({ fuse: -1 }, 0)).toBe(false);
    for (const bad of [1.5, '3', null, Number.NaN, Number.POSITIVE_INFINITY, [1], { n: 1 }]) expect(isCountTable({ fuse: 2, relay: bad }, 0)).toBe(false);
    for (const bad of [null, [1, 2], 'fuse', 3, undefined]) expect(isCountTable(bad, 0)).toBe(false);
  });

  it('restore statistics as stored, and refuse a damaged table', () => {
    const terms = TermStats.fromTexts(['The relay fuse is rated 10 A.', 'Replace the fuse.']);
    const back = TermStats.fromJSON(JSON.parse(JSON.stringify(terms.toJSON())));
    expect(back.ok && back.value.toJSON()).toEqual(terms.toJSON());
    const damaged = TermStats.fromJSON({ version: 1, documentCount: 2, df: { fuse: 'two' } });
    expect(!damaged.ok && damaged.error.code).toBe('corrupt');

    const passages = PassageTermStats.create();
    passages.addPassages([['relay', 'fuse'], ['fuse']]);
    const again = PassageTermStats.fromJSON(JSON.parse(JSON.stringify(passages.toJSON())));
    expect(again.ok && again.value.toJSON()).toEqual(passages.toJSON());
    expect(PassageTermStats.fromJSON({ version: 1, passages: 2, df: { fuse: 0 } }).ok).toBe(false);
  });

  it('keep a term that is also an object key of JavaScript', () => {
    // Manuals of JavaScript boards write "__proto__" and "constructor"; JSON.parse makes them own keys.
    const stored = JSON.parse('{"version":1,"passages":3,"df":{"__proto__":2,"constructor":1,"fuse":3}}') as unknown;
    const restored = PassageTermStats.fromJSON(stored);
    expect(restored.ok).toBe(true);
    if (restored.ok) expect(Object.keys(restored.value.toJSON().df).sort()).toEqual(['__proto__', 'constructor', 'fuse']);
  });
});
