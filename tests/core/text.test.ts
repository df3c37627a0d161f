import { describe, expect, it } from 'vitest';
import { MD_IMAGE, MD_LINK, escapeMarkup, markdownRowCells, normalizeText, UNDECODED } from '../../src-main/core/text';

describe('Markdown image and link patterns', () => {
  it('read an image to its alt text and a link to its text, images first', () => {
    const line = 'See ![the board](img/board.png) and [the pinout](pinout.md#pins).';
    expect(line.replace(MD_IMAGE, '$1').replace(MD_LINK, '$1')).toBe('See the board and the pinout.');
  });

  it('never match across a line break', () => {
    expect('[a\nb](x)'.replace(MD_LINK, '$1')).toBe('[a\nb](x)');
    expect('[a](x\ny)'.replace(MD_LINK, '$1')).toBe('[a](x\ny)');
  });

  it('leave a link whose text or target is longer than the bound as written', () => {
    const longText = `[${'w'.repeat(301)}](x)`;
    const longTarget = `[a](${'p'.repeat(1001)})`;
    expect(longText.replace(MD_LINK, '$1')).toBe(longText);
    expect(longTarget.replace(MD_LINK, '$1')).toBe(longTarget);
    expect(`[${'w'.repeat(300)}](${'p'.repeat(1000)})`.replace(MD_LINK, '$1')).toBe('w'.repeat(300));
  });

  it('take a target holding balanced parentheses whole, never leaving its end in the text', () => {
    expect('a [fuse](https://wiki.example/Fuse_(electrical)) of 3 A'.replace(MD_LINK, '$1')).toBe('a fuse of 3 A');
    expect('![IR](dl/EVERLIGHT(亿光)_IR67.PDF) LED'.replace(MD_IMAGE, '$1')).toBe('IR LED');
    // The parenthesis after a link is the text's own.
    expect('[a](x) (see b)'.replace(MD_LINK, '$1')).toBe('a (see b)');
    // An unbalanced parenthesis in a target is no link target.
    expect('[a](x(y) z'.replace(MD_LINK, '$1')).toBe('[a](x(y) z');
  });

  it('find every link of a line when used with match (the global flag)', () => {
    expect('[a](1) [b](2) [c](3)'.match(MD_LINK)).toHaveLength(3);
    expect('[a](1) [b](2) [c](3)'.match(MD_LINK)).toHaveLength(3);
  });
});

describe('Markdown table row cells', () => {
  it('split at unescaped pipes, the outer ones dropped, cells untrimmed', () => {
    expect(markdownRowCells('| a | b \\| c |')).toEqual([' a ', ' b \\| c ']);
    expect(markdownRowCells('a | b')).toEqual(['a ', ' b']);
    // A row ending in an escaped pipe keeps it: the cell holds a pipe, the row has no closing one.
    expect(markdownRowCells('| a | b \\|')).toEqual([' a ', ' b \\|']);
    expect(markdownRowCells('|')).toEqual(['']);
  });
});

describe('text normalization', () => {
  it('folds compatibility forms and replaces control characters', () => {
    expect(normalizeText('5 \u00b5A fi\u00adne\u0007')).toBe(`5 \u03bcA fine${UNDECODED}`);
  });

  it('reads a noncharacter (a font map\'s U+FFFF for a sign it could not name) as undecoded', () => {
    expect(normalizeText('-40 to 85 \uffff, \ufffe\ufdd0')).toBe(`-40 to 85 ${UNDECODED}, ${UNDECODED}${UNDECODED}`);
    expect(normalizeText('\ufffd stays')).toBe(`${UNDECODED} stays`);
  });

  it('escapes markup characters', () => {
    expect(escapeMarkup('<b>&</b>')).toBe('&lt;b&gt;&amp;&lt;/b&gt;');
  });
});
