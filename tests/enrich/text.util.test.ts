import { describe, expect, it } from 'vitest';
import { charClass, contentTerms, distinctContentTerms, isCodeToken, isStopword, modelTokens, plainText, singular } from '../../src-main/enrich/text.util';

describe('plainText', () => {
  it('keeps only the prose of every Markdown and MDX construct it removes', () => {
    const md = [
      '---',
      'title: Front matter',
      '---',
      "import Tabs from '@theme/Tabs';",
      '# ROCK 5B *power* _input_',
      '<!-- hidden note -->',
      '![Board photo](img/rock5b.png) See the [pinout](./pinout.md) at https://docs.radxa.com/rock5b.',
      'Mail support@radxa.com or run ./flash.sh from ../tools.',
      '<TabItem value="ROCK 5B+">Use a 12 V &amp; 2 A adapter.</TabItem>',
      '| Pin | Signal |',
      '| --- | ------ |',
      '| 1 | GPIO3_A4 |',
      '```sh',
      'sudo reboot',
      '```',
      '> Tip: ~~old~~ `code` stays as words.',
    ].join('\n');
    expect(plainText(md)).toBe(
      'ROCK 5B power input Board photo See the pinout at Mail or run from ROCK 5B+ Use a 12 V 2 A adapter. Pin Signal 1 GPIO3_A4 Tip: old code stays as words.',
    );
  });

  it('leaves text without any markup as it is, whitespace collapsed', () => {
    expect(plainText('  The fan\n\n spins at 1200 rpm.  ')).toBe('The fan spins at 1200 rpm.');
  });

  it('keeps the text after a "<" that starts no tag, and still drops the tags', () => {
    // From real pages: a comparison written with "<" (escaped or not) and an HTML tag further on.
    const md = 'Sleep mode: \\<200ms\n\nIDDQ: < 60uA\n\nQuiescent current: 60uA <br/> <Tabs groupId="os">\n<TabItem value="Linux">Run it</TabItem>\n</Tabs> <>x</>';
    expect(plainText(md)).toBe('Sleep mode: \\<200ms IDDQ: < 60uA Quiescent current: 60uA Linux Run it x');
  });

  it('removes emphasis underscores, entities and markup characters wherever they stand together', () => {
    // The removals run before the markup characters go with the whitespace (one pass): an underscore
    // beside a removed character or entity reads as beside no letter, and an entity beside markup is
    // still an entity. A numeric entity was never removed: its `#` is markup, and went first.
    expect(plainText('a_b *_x_* GPIO3_A4|_y a__b &amp;_z_&lt; q*&nbsp;*r &#123; s_&gt;')).toBe(
      'a_b x GPIO3_A4 y a b z q r & 123; s',
    );
    expect(plainText('|_|&amp;|\n_\t&lt;_')).toBe('');
  });

  it('drops a word with an @ inside it, and keeps one that starts or ends with its first @', () => {
    // Words end at any whitespace, a no-break or ideographic space too.
    expect(plainText('Mail support@radxa.com, @mention x@ a@@b (me@host)\u00a0y@z\u3000end')).toBe('Mail @mention x@ end');
  });

  it('drops paths from a slash after at most two dots at a word start, and nothing else', () => {
    expect(plainText('/dev/ttyS0 run ./flash.sh or ../tools/x, not .../y, a/b, I/O\u00a0/sys/x')).toBe('run or not .../y, a/b, I/O');
  });

  it('drops a line of dashes after at most a pipe and a colon, whatever line break ends it', () => {
    const md = '| --- | :-- |\n\t|\t:--- | x\nnot a --- rule\n  ---\u2028after\r---\rend';
    expect(plainText(md)).toBe('not a --- rule after end');
  });

  it('makes every run of whitespace, of any kind and length, one space', () => {
    // Single spaces are left in place and only other runs rewritten: the result must be the plain collapse.
    const kinds = [' ', '  ', '\t', '\n', '\r\n', '\u00a0', ' \u00a0 ', '\u2003', '\f\v', ' \n\t ', '\u3000'];
    for (const a of kinds) {
      for (const b of kinds) {
        const text = `fan${a}spins${b}at 1200${a}${b}rpm`;
        expect(plainText(text)).toBe(text.replace(/\s+/g, ' '));
      }
    }
  });
});

describe('stopwords', () => {
  it('drops function words and filler, and keeps a word that names a topic', () => {
    expect(contentTerms('How do I use the following steps?')).toEqual([]);
    // "notes" names an app's content ("How can I view my notes?"); as the callout "Note:" its
    // frequency discounts it in every library's statistics, as any common word's.
    expect(contentTerms('How can I view all my notes?')).toEqual(['view', 'note']);
    expect(isStopword('note')).toBe(false);
  });
});

describe('contentTerms and modelTokens over long mixed texts', () => {
  // Both read code point by code point in place of their patterns: the words, their keys and
  // their offsets must be those of the patterns over the whole text at once.
  const asciiRun = (n: number): string => Array.from({ length: n }, (_, i) => `Port${i} supplies 5V to the ROCK-${i}B v1.${i % 3}`).join(' ');
  const text = `${asciiRun(120)} Ａｂｃ Café-Board ™ ROCK 5B Plus ${asciiRun(120)} İ x1Σ v2.0 ${asciiRun(10)}`;

  it('finds the same words as reading each space-separated word alone', () => {
    const words = text.split(' ');
    expect(text.length).toBeGreaterThan(3 * 2048);
    expect(contentTerms(text)).toEqual(words.flatMap((w) => contentTerms(w)));
    let offset = 0;
    const alone = words.flatMap((w) => {
      const toks = modelTokens(w).map((t) => ({ ...t, start: t.start + offset, end: t.end + offset }));
      offset += w.length + 1;
      return toks;
    });
    expect(modelTokens(text)).toEqual(alone);
  });

  it('finds what the Unicode patterns find over the whole text at once', () => {
    // The oracle: the word patterns as written for any text, with no ASCII pieces (a wrong fast
    // pattern, say one that drops the "+" of "S3+", differs from it).
    const mixed = `ESP32-S3+ and C3+ board+ ${text}`;
    const words = mixed.toLowerCase().match(/[\p{L}][\p{L}\p{N}+]*(?:[.-][\p{L}\p{N}]+)*/gu) ?? [];
    const terms = words.filter((w) => w.length >= 2 && !isStopword(w)).map((w) => singular(w));
    expect(contentTerms(mixed)).toEqual(terms);
    const tokens = [...mixed.matchAll(/(?<![\p{L}\p{N}])[vV]\d+(?:\.\d+)*(?![\p{L}\p{N}])|[\p{L}\p{N}]+\+*/gu)].map((m) => ({ raw: m[0], start: m.index }));
    expect(modelTokens(mixed).map((t) => ({ raw: t.raw, start: t.start }))).toEqual(tokens);
  });

  it('reads dots, hyphens, "+" and letters outside the ASCII range as the pattern does, and words seen before alike', () => {
    // Terms are found by a word's place in the text among the words seen before (a table emptied
    // when full): each case is read twice, and again after more distinct words than the table keeps.
    const pattern = /[\p{L}][\p{L}\p{N}+]*(?:[.-][\p{L}\p{N}]+)*/gu;
    const want = (t: string) => (t.toLowerCase().match(pattern) ?? []).filter((w) => w.length >= 2 && !isStopword(w)).map((w) => singular(w));
    const cases = [
      'a.b.c a..b a.-b ab- -ab ab. .ab a+b.c+d a++ +a 1ab ab1.2x ab.1 x-1.',
      'x\u{1d400}y \u{1d400}bc ab\u{1f600}cd \ud835ab \udc00cd ab\ud800',
      'İstanbul Ａｂｃ café-board \u212aelvin ß ﬁle x²y ①ab ⅫB 中文 ab’cd a—b',
    ];
    for (const t of [...cases, ...cases]) expect(contentTerms(t)).toEqual(want(t));
    const many = Array.from({ length: 60_000 }, (_, i) => `w${i.toString(36)}`).join(' ');
    expect(contentTerms(many).join(' ')).toBe(want(many).join(' '));
    for (const t of cases) expect(contentTerms(t)).toEqual(want(t));
  });

  it('gives the distinct terms of contentTerms, first seen first, ASCII and other pieces alike', () => {
    const distinct = [...distinctContentTerms(text)];
    expect(distinct).toEqual([...new Set(contentTerms(text))]);
    expect(distinct).toContain('café-board');
    expect(distinct.indexOf('port0')).toBeLessThan(distinct.indexOf('supply'));
  });

  it('reads revisions, "+" runs and letters outside the ASCII range as the pattern does', () => {
    // The tokenizer scans by code point; the pattern is the definition. A revision gives back
    // whole ".digits" groups until no letter or digit follows ("v1.2a" is "v1" and "2a"), a word
    // that starts like a revision is still told as one ("v2B"), and astral letters, digits of other
    // scripts and lone surrogates are each read as the pattern reads them.
    const pattern = /(?<![\p{L}\p{N}])[vV]\d+(?:\.\d+)*(?![\p{L}\p{N}])|[\p{L}\p{N}]+\+*/gu;
    const cases = ['v1.2a', 'v1.2.3a v1.2. V1v1 v2B', 'a+b++c v1+ v1.x', 'x\u{1d400}y v2\u{1d400} \ud835v3 \udc00', 'v\u0663 \u0663v4 ROCK\u00a05B+', 'İv1 Ａ１ v1\u00e9'];
    for (const text of cases) {
      const want = [...text.matchAll(pattern)].map((m) => ({ raw: m[0], start: m.index, end: m.index + m[0].length }));
      expect(modelTokens(text).map((t) => ({ raw: t.raw, start: t.start, end: t.end }))).toEqual(want);
    }
    expect(modelTokens('v2B v1.2a').map((t) => [t.raw, t.kind, t.norm])).toEqual([
      ['v2B', 'rev', '2B'],
      ['v1', 'rev', '1'],
      ['2a', 'word', '2a'],
    ]);
  });

  it('keys non-ASCII words by their NFKC lower-case form and ASCII words by their lower case', () => {
    const toks = modelTokens(text);
    expect(toks.find((t) => t.raw === 'Ａｂｃ')?.norm).toBe('abc');
    expect(toks.find((t) => t.raw === 'Café')?.norm).toBe('café');
    expect(toks.find((t) => t.raw === 'Plus')?.norm).toBe('+');
    expect(toks.filter((t) => t.raw === 'v2.0').map((t) => [t.kind, t.norm])).toEqual([['rev', '2.0']]);
    for (const t of toks) expect(text.slice(t.start, t.end)).toBe(t.raw);
    expect(contentTerms(text)).toContain('café-board');
    // Lower-case words keep their text as key; a capital anywhere in the word is folded.
    expect(modelTokens('rock ROCK rOck rock5B').map((t) => t.norm)).toEqual(['rock', 'rock', 'rock', 'rock5b']);
  });

  it('tells codes (a letter and a digit) from words and numbers, in ASCII and beyond', () => {
    const pattern = (w: string): boolean => /\p{L}/u.test(w) && /\p{N}/u.test(w);
    for (const w of ['e52c', 'S3', '225b', 'gpio', '3300', '+', 'esp32-s3', 'ü8', '８k', 'ﬁ', 'Ωmega', '١٢', 'x١', 'z', '9']) expect(isCodeToken(w)).toBe(pattern(w));
    expect(isCodeToken('e52c')).toBe(true);
    expect(isCodeToken('ü8')).toBe(true);
    expect(isCodeToken('gpio')).toBe(false);
  });
});

describe('charClass', () => {
  it('tells a letter or digit of every UTF-16 unit as `[\\p{L}\\p{N}]` does, a lone surrogate half being neither', () => {
    // model-observation's word-boundary checks read one unit at a time (`charClass(unit) !== 0`),
    // as they once did with that regex on a one-unit string.
    const wordChar = /[\p{L}\p{N}]/u;
    const differ: number[] = [];
    for (let u = 0; u <= 0xffff; u++) if ((charClass(u) !== 0) !== wordChar.test(String.fromCharCode(u))) differ.push(u);
    expect(differ).toEqual([]);
    expect(charClass(0xd835)).toBe(0);
    expect(charClass('é'.charCodeAt(0))).not.toBe(0);
    expect(charClass('²'.charCodeAt(0))).not.toBe(0);
    expect(charClass(0x1d400)).not.toBe(0);
  });
});
