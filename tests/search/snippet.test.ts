import { describe, expect, it } from 'vitest';
import { SNIPPET_CHARS, snippet, snippetTerms } from '../../src-main/search/snippet';

const PIN_MAP = [
  '## Schematic',
  '',
  '<img src="assets/img/product_pics/unit/pir_sch.JPG">',
  '',
  '### PinMap',
  '',
  '| M5Core(GROVE B) | GPIO36 | GPIO26 | 5V | GND |',
  '| --- | --- | --- | --- | --- |',
  '| PIR Unit | Sensor Pin | | 5V | GND |',
  '',
  'The sensor output stays high for two seconds after each trigger, so poll it no faster than that.',
  'Mount it away from heaters and windows.',
].join('\n');

describe('search snippets', () => {
  it('show the stretch holding the most query words, not the first one found', () => {
    const s = snippet(`${'Introduction to the unit and its uses. '.repeat(8)}\n${PIN_MAP}`, 'GROVE B port PIR unit');
    expect(s).toContain('PIR Unit');
    expect(s).toContain('GROVE B');
    expect(s).not.toContain('Introduction');
    // It starts a line, so nothing marks a cut in front: "…" would glue onto a row's first pipe.
    expect(s.startsWith('…')).toBe(false);
  });

  it('start at a line shortly before the match, else at a word, and mark the cuts inside a line', () => {
    const lines = `${'a'.repeat(400)}\nPower supply: 5V over USB-C.\n${'b'.repeat(400)}`;
    const s = snippet(lines, 'power supply');
    expect(s.startsWith('Power supply: 5V')).toBe(true);
    expect(s.endsWith('…')).toBe(true);
    expect(s.length).toBeLessThanOrEqual(SNIPPET_CHARS + 1);
    const prose = `${'Some words before it. '.repeat(20)}Power supply: 5V over USB-C. ${'More words after it. '.repeat(20)}`;
    const p = snippet(prose, 'power supply');
    expect(p).toMatch(/^…it\. Some words/);
    expect(p).toContain('Power supply: 5V');
    expect(p.length).toBeLessThanOrEqual(SNIPPET_CHARS + 2);
  });

  it('match words where they start, and keep short codes with digits', () => {
    expect(snippetTerms('Which port is the 5V on, for a B?')).toEqual(['port', '5v']);
    const text = `${'x '.repeat(200)}Support for many boards. ${'y '.repeat(200)}Port C carries GPIO13.`;
    expect(snippet(text, 'port')).toContain('Port C carries');
  });

  it('show the opening when no query word is in the text, and never split a character', () => {
    expect(snippet('Short text.', 'fuse')).toBe('Short text.');
    // "İ" lower-cases to two characters: positions are taken on the text as written.
    expect(snippet(`${'İ'.repeat(300)}\nFuse rating: T3.15A`, 'fuse')).toBe('Fuse rating: T3.15A');
    const emoji = `${'🙂'.repeat(200)} fuse rating`;
    for (const s of [snippet(emoji, 'fuse'), snippet(emoji, 'nothing')]) {
      expect(s.replace(/…/g, '')).not.toMatch(/\p{Cs}/u);
    }
  });
});
