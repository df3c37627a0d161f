import { describe, expect, it } from 'vitest';
import { countOf, markedParts, plainText, spokenCitations } from '../../src-renderer/src/util/format';

describe('plainText (previews of manual text)', () => {
  it("shows a table row as its cells, not as pipes, even when the preview starts mid-row", () => {
    const md = ['| XIAO Pin | Function |', '| :---: | :---: |', '| 5V | VBUS |', 'mW | 3V3 | Power out |', '| D2 …'].join('\n');
    expect(plainText(md)).toBe(['XIAO Pin · Function', '', '5V · VBUS', 'mW · 3V3 · Power out', 'D2 …'].join('\n'));
  });

  it('keeps the words of images and links and drops tag-shaped HTML', () => {
    const md = '<div><img src="https://example.com/a.png"/></div> See the ![pinout](img/p.png) and [wiring guide](./wiring.md).';
    expect(plainText(md)).toBe('See the pinout and wiring guide.');
  });

  it('removes heading marks, emphasis and code ticks but keeps text that only looks like markup', () => {
    expect(plainText('## Power\n\nUse **5 V** via `VIN`; current < 2 A, 3 > 1.')).toBe('Power\n\nUse 5 V via VIN; current < 2 A, 3 > 1.');
  });

  it('leaves a single pipe in prose alone', () => {
    expect(plainText('Select A|B mode.')).toBe('Select A|B mode.');
  });

  it('shows backslash-escaped punctuation as the mark itself, an escaped pipe as no cell border', () => {
    expect(plainText('The 135\\*240 Colorful TFT LCD \\(ST7789\\) \\_fast\\_')).toBe('The 135*240 Colorful TFT LCD (ST7789) _fast_');
    expect(plainText('Select A\\|B mode \\| or C\\|D.')).toBe('Select A|B mode | or C|D.');
    expect(plainText('\\*\\*not bold\\*\\* and a\\\\b')).toBe('**not bold** and a\\b');
  });

  it('drops each line\'s list bullet or number but keeps signs and decimals', () => {
    const md = ['- IR transmitter', '* Buzzer', '  + nested LED', '1. Remove the cover', '2) Pull the fuse', '-20 °C to 60 °C', '3.3 V logic', '*Note*'].join('\n');
    expect(plainText(md)).toBe(['IR transmitter', 'Buzzer', 'nested LED', 'Remove the cover', 'Pull the fuse', '-20 °C to 60 °C', '3.3 V logic', '*Note*'].join('\n'));
  });

  it('leaves one blank line where an image tag stood alone between paragraphs, not a tall gap', () => {
    const md = ['### Peripheral Pin Mapping', '', ' <img src="m5stick_03.png" alt="gray_04" width="300">', '', '**blue LED & BUZZER**'].join('\n');
    expect(plainText(md)).toBe(['Peripheral Pin Mapping', '', 'blue LED & BUZZER'].join('\n'));
  });

  it("drops a document's front matter (its metadata, hidden in the viewer too) from a preview that starts with it", () => {
    const md = ['---', 'description: XIAO ESP32C3-FAQ', 'title: How to reflash the bootloader', 'last_update:', '  date: 6/30/2023', '---', '', 'Hold the BOOT button and connect the board.'].join('\n');
    expect(plainText(md)).toBe('Hold the BOOT button and connect the board.');
    // A rule further down is not front matter.
    expect(plainText('Step one.\n\n---\n\nStep two: key: value')).toBe('Step one.\n\nStep two: key: value');
  });
});

describe('countOf', () => {
  it('puts the noun in the singular for one only', () => {
    expect([0, 1, 2].map((n) => countOf(n, 'chunk'))).toEqual(['0 chunks', '1 chunk', '2 chunks']);
    expect(countOf(1, 'new signature')).toBe('1 new signature');
    expect(countOf(3, 'match', 'matches')).toBe('3 matches');
  });
});

describe('markedParts (query words in a search snippet)', () => {
  it('marks words that start with a query word, any case, longest first, and keeps every character', () => {
    const text = 'GPIO36 is the sensor pin; support for gpio is on Port B.';
    const parts = markedParts(text, ['gpio', 'gpio36', 'port']);
    expect(parts.map((p) => p.text).join('')).toBe(text);
    expect(parts.filter((p) => p.marked).map((p) => p.text)).toEqual(['GPIO36', 'gpio', 'Port']);
  });

  it('marks nothing without usable words, and never reads a word as a pattern', () => {
    expect(markedParts('a (b) c', [])).toEqual([{ text: 'a (b) c', marked: false }]);
    expect(markedParts('a (b) c', ['(b)', '.*'])).toEqual([{ text: 'a (b) c', marked: false }]);
    expect(markedParts('', ['a'])).toEqual([]);
  });
});

describe('spokenCitations (an answer said by a screen reader)', () => {
  it('says each marker as its source, markers side by side as one list', () => {
    expect(spokenCitations('It takes a 5 A fuse [1]. Clean the filter [2][3] monthly [4] [5] [6].', new Set([1, 2, 3, 4, 5, 6]))).toBe(
      'It takes a 5 A fuse (source 1). Clean the filter (sources 2 and 3) monthly (sources 4, 5 and 6).',
    );
  });

  it('says a marker that names no source of the answer as not found, apart from those found beside it', () => {
    // A language model numbered passages it was never given: the answer's sources are 1 and 2.
    expect(spokenCitations('It takes a 5 A fuse [7]. Clean the filter [2][9] monthly [8][9][1].', new Set([1, 2]))).toBe(
      'It takes a 5 A fuse (source 7 not found). Clean the filter (source 2; source 9 not found) monthly (source 1; sources 8 and 9 not found).',
    );
  });

  it('reads only the marker ending each line of an extracted answer as a source', () => {
    expect(spokenCitations('The P-9 takes a 5 A fuse [2] in the terminal box. [1]\nSee table [3]. [7]', new Set([1]), true)).toBe(
      'The P-9 takes a 5 A fuse [2] in the terminal box. (source 1)\nSee table [3]. (source 7 not found)',
    );
  });

  it('leaves brackets that are not a source number alone', () => {
    expect(spokenCitations('Set [Mode] to 2 and press [OK].', new Set([1]))).toBe('Set [Mode] to 2 and press [OK].');
  });
});
