import { describe, expect, it } from 'vitest';
import { findPassage, words } from '../../src-renderer/src/viewer/passage';

/** A table row as pdf.js gives it: each cell its own item, with the blank items between cells. */
const cells = (...c: string[]) => c.flatMap((s, i) => (i === 0 ? [s] : [' ', s]));

/** What the range covers, as the items' strings without the blanks. */
function covered(items: string[], quote: string): string[] | null {
  const r = findPassage(items, quote);
  return r ? items.slice(r.first, r.last + 1).filter((s) => s.trim()) : null;
}

// A datasheet page as pdf.js reads it: a first table, then the cited section whose chunk runs on
// to the next page, where a second table repeats the header words "Min. Typ Max. Unit".
const PAGE = [
  '4',
  'Electrical Specifications',
  '4.1 Absolute Maximum Rating',
  'Table 4.1: Absolute Maximum Rating',
  ...cells('Pin Name', 'Min.', 'Max.', 'Unit'),
  ...cells('AVDD33_1', '-0.3', '3.63', 'V'),
  '4.2 Operating Condition',
  'Table 4.2: Recommended Power Operating Range',
  ...cells('Pin Name', 'Min.', 'Typ', 'Max.', 'Unit'),
  ...cells('AVDD33_1', '2.1', '3.3', '3.63', 'V'),
  ...cells('AVDD33_2', '2.1', '3.3', '3.63', 'V'),
  ...cells('DVDDIO_1', '2.1 / 1.62', '3.3 / 1.8', '3.63 / 1.98', 'V'),
  'BL602/604 Datasheet',
];
const CHUNK = [
  '## 4.2 Operating Condition',
  '',
  'Table 4.2: Recommended Power Operating Range',
  '',
  '| Pin Name | Min. | Typ | Max. | Unit |',
  '| --- | --- | --- | --- | --- |',
  '| AVDD33_1 | 2.1 | 3.3 | 3.63 | V |',
  '| AVDD33_2 | 2.1 | 3.3 | 3.63 | V |',
  '| DVDDIO_1 | 2.1 / 1.62 | 3.3 / 1.8 | 3.63 / 1.98 | V |',
  '',
  'Table 4.4: General Operating Conditions',
  '',
  '| Item | Description | Min. | Typ | Max. | Unit |',
  '| --- | --- | --- | --- | --- | --- |',
  '| FCPU | CPU/TCM/Cache clock frequency | 1 | 160 | 192 | MHz |',
].join('\n');

describe('words', () => {
  it('splits on punctuation and table pipes, lower-cased', () => {
    expect(words('| AVDD33_1 | 2.1 | 3.63 | V |')).toEqual(['avdd33', '1', '2', '1', '3', '63', 'v']);
  });
});

describe('findPassage (a cited passage among a PDF page’s text items)', () => {
  it('marks a cited table through its last row on the page, though the quote’s later table header also occurs above it', () => {
    const marked = covered(PAGE, CHUNK)!;
    expect(marked[0]).toBe('4.2 Operating Condition');
    expect(marked.slice(-5)).toEqual(['DVDDIO_1', '2.1 / 1.62', '3.3 / 1.8', '3.63 / 1.98', 'V']);
    // The footer after the last row is not part of the passage.
    expect(marked).not.toContain('BL602/604 Datasheet');
  });

  it('marks the part of a passage that continues from the previous page from its first line here', () => {
    const next = [
      'BL602/604 Datasheet',
      'Table 4.4: General Operating Conditions',
      ...cells('Item', 'Description', 'Min.', 'Typ', 'Max.', 'Unit'),
      ...cells('FCPU', 'CPU/TCM/Cache clock frequency', '1', '160', '192', 'MHz'),
      '4.3 Power Consumption',
      ...cells('Pin Name', 'Min.', 'Typ', 'Max.', 'Unit'),
    ];
    expect(covered(next, CHUNK)).toEqual(['Table 4.4: General Operating Conditions', 'Item', 'Description', 'Min.', 'Typ', 'Max.', 'Unit', 'FCPU', 'CPU/TCM/Cache clock frequency', '1', '160', '192', 'MHz']);
  });

  it('marks a passage that runs on to the next page up to the page’s last words of it', () => {
    const items = ['Installation', 'Mount the bracket with four M6 bolts', 'tightened to 9 Nm. Then connect the', 'Page 4'];
    expect(covered(items, 'Mount the bracket with four M6 bolts tightened to 9 Nm. Then connect the supply cable to X1.')).toEqual([
      'Mount the bracket with four M6 bolts',
      'tightened to 9 Nm. Then connect the',
    ]);
  });

  it('carries on past words the text layer spells differently or adds inside the passage', () => {
    const items = ['Storage temperature range is -45 to 135', '◦', 'C when the unit is', 'Figure 3: Unit front', 'switched off and dry.'];
    expect(covered(items, 'Storage temperature range is -45 to 135 °C when the unit is switched off and dry.')).toEqual(items);
  });

  it('prefers the passage to a running header that repeats its first words', () => {
    const items = ['Operating Condition of the module', 'Operating Condition of the module is given below for all pins', 'in normal mode.', 'Other text.'];
    expect(covered(items, '## Operating Condition of the module is given below for all pins in normal mode.')).toEqual([
      'Operating Condition of the module is given below for all pins',
      'in normal mode.',
    ]);
  });

  it('finds a quote shorter than the anchor and reports a passage that is not on the page as absent', () => {
    expect(covered(['Fuse', '5 A', 'slow-blow'], '5 A')).toEqual(['5 A']);
    expect(findPassage(['Maintenance', 'Clean the filter every 200 hours.'], 'Replace the fuse with the same rating.')).toBeNull();
    expect(findPassage([], 'anything')).toBeNull();
    expect(findPassage(['text'], '| --- |')).toBeNull();
  });

  it('stays quick on a dense page of repeated table values', () => {
    const rows = Array.from({ length: 300 }, (_, i) => cells(`P${i % 7}`, '2.1', '3.3', '3.63', 'V')).flat();
    const quote = Array.from({ length: 300 }, (_, i) => `| P${(i + 3) % 7} | 2.1 | 3.3 | 3.63 | V |`).join('\n');
    const t0 = performance.now();
    expect(findPassage(rows, quote)).not.toBeNull();
    expect(performance.now() - t0).toBeLessThan(1000);
  });
});
