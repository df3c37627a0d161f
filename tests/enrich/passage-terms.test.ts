import { describe, expect, it } from 'vitest';
import { PassageTermStats, passageTerms } from '../../src-main/enrich/passage-terms';
import { distinctPassageTerms } from '../../src-main/enrich/passage-words';
import { stemmer } from 'stemmer';
import { isStopword } from '../../src-main/enrich/text.util';
import { markdownDocument } from './corpus.helper';

describe('passage terms', () => {
  it('stems words of letters and keeps codes and "+" as written', () => {
    expect(passageTerms('Charging the batteries')).toEqual(['charg', 'batteri']);
    expect(passageTerms('The charge current')).toEqual(['charg', 'current']);
    expect(passageTerms('ESP32-S3+ and RP2040')).toEqual(['esp32', 's3+', 'rp2040']);
  });

  it('folds compatibility characters (a micro sign is a Greek mu) and drops stopwords', () => {
    expect(passageTerms('15 µA')).toEqual(passageTerms('15 μA'));
    expect(passageTerms('what is the')).toEqual([]);
  });

  it('gives each distinct term once, in first-occurrence order, for ASCII and other text', () => {
    const text = 'Charge the battery; charging batteries charges the ESP32-S3+ and the esp32-s3+.';
    expect([...distinctPassageTerms(text)]).toEqual(['charg', 'batteri', 'esp32', 's3+']);
    expect([...distinctPassageTerms(`Über ${text} 15 µA`)]).toEqual([...new Set(passageTerms(`Über ${text} 15 µA`))]);
  });

  it('finds the words of the pattern in the NFKC lower-case text, words seen before alike', () => {
    // The oracle: the pattern over the whole text, then the stopwords and the stemming of words
    // of letters. Stems are found by a word's place in the text among the words seen before (a
    // table emptied when full): each case is read twice, and again after more distinct words than it keeps.
    const want = (t: string) =>
      (t.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}+]*/gu) ?? [])
        .filter((w) => w.length >= 2 && !isStopword(w))
        .map((w) => (/^\p{L}+$/u.test(w) ? stemmer(w) : w));
    const cases = ['a+b++ +ab 1ab 12 x1+ ab.cd', 'x\u{1d400}y \u{10400}bc \u{1d7cf}2 \ud835ab \udc00cd ab\ud800', 'İstanbul Ａ１ ﬁle x²y ①ab 中文 ab’cd'];
    for (const t of [...cases, ...cases]) expect(passageTerms(t)).toEqual(want(t));
    expect(passageTerms('x\u{10400}y ab+ 12')).toEqual(['x\u{10428}y', 'ab+', '12']);
    const many = Array.from({ length: 210_000 }, (_, i) => `w${i.toString(36)}`).join(' ');
    expect(passageTerms(many).join(' ')).toBe(want(many).join(' '));
    for (const t of cases) expect(passageTerms(t)).toEqual(want(t));
  });
});

describe('passage term statistics', () => {
  const a = markdownDocument('a.md', '# Power\n\nThe board takes 5 V.\n\n## Battery\n\nThe battery charges at 100 mA.\n\n| Item | Value |\n| --- | --- |\n| Charging current | 100 mA |');
  const b = markdownDocument('b.md', '---\ntitle: B\n---\n\n# Power\n\nThe board takes 12 V.');

  it('counts each block of a document once per word, front matter excluded', () => {
    const s = PassageTermStats.create();
    s.addDocument(b);
    // "# Power" and the paragraph; not the front matter.
    expect(s.passages).toBe(2);
    expect(s.idf('titl')).toBeGreaterThan(s.idf('power'));
    // The passage counts themselves (the topic gate reads them): "power" in the heading only.
    expect([s.frequency('power'), s.frequency('board'), s.frequency('titl')]).toEqual([1, 1, 0]);
  });

  it('weighs a word found in few passages above one found in many', () => {
    const s = PassageTermStats.create();
    s.addDocument(a);
    s.addDocument(b);
    expect(s.idf('item')).toBeGreaterThan(s.idf('board'));
    expect(s.idf('board')).toBeGreaterThan(0);
  });

  it('takes back exactly what a document added', () => {
    const s = PassageTermStats.create();
    s.addDocument(a);
    const before = JSON.stringify(s.toJSON());
    s.addDocument(b);
    s.removeDocument(b);
    expect(JSON.stringify(s.toJSON())).toBe(before);
    s.removeDocument(a);
    expect(s.toJSON()).toEqual({ version: 1, passages: 0, df: {} });
  });

  it('round-trips through JSON and refuses damaged state', () => {
    const s = PassageTermStats.create();
    s.addDocument(a);
    const back = PassageTermStats.fromJSON(JSON.parse(JSON.stringify(s.toJSON())));
    expect(back.ok && back.value.idf('charg')).toBe(s.idf('charg'));
    const bad = PassageTermStats.fromJSON({ version: 1, passages: -1, df: {} });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.code).toBe('corrupt');
  });

  it('weighs every word alike while it has no statistics (an index built before them)', () => {
    const s = PassageTermStats.create();
    expect(s.idf('anything')).toBe(1);
  });
});

describe('passage statistics of a library', () => {
  it('follow documents as they are learned, replaced and forgotten, and survive a restore', async () => {
    const { LibraryEnrichment } = await import('../../src-main/index/library-enrichment');
    const e = LibraryEnrichment.restore(null);
    const v1 = markdownDocument('a.md', '# Fuse\n\nThe fuse is T5A 250V.');
    const v2 = markdownDocument('a.md', '# Fuse\n\nThe fuse is T3.15A 250V.\n\nReplace it with the power off.');
    e.learn([v1]);
    expect(e.passages.passages).toBe(2);
    e.learn([v2], [v1]);
    expect(e.passages.passages).toBe(3);
    const restored = LibraryEnrichment.restore(JSON.parse(JSON.stringify(e.snapshot())));
    expect(restored.passages.toJSON()).toEqual(e.passages.toJSON());
    e.forget([v2]);
    expect(e.passages.toJSON()).toEqual({ version: 1, passages: 0, df: {} });
  });
});
