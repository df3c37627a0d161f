import { describe, expect, it } from 'vitest';
import { RunningMedian } from '../../../src-main/ingest/parsers/pdf.median';
import { findColumnRun, groupRows, readingOrder, rowCache } from '../../../src-main/ingest/parsers/pdf.order';
import { segmentPage, type PdfTextItem } from '../../../src-main/ingest/parsers/pdf.layout';
import { median, minOf, maxOf } from '../../../src-main/ingest/parsers/pdf.segments';
import { textWidth, wrapText } from '../../fixtures/pdf-writer';

const item = (text: string, x: number, y: number, size = 10): PdfTextItem => ({ text, x, y, width: textWidth(text, size), size });
const lines = (texts: string[], x: number, y: number, leading = 12): PdfTextItem[] => texts.map((t, i) => item(t, x, y + i * leading));
const PROSE = (tag: string): string =>
  `${tag} begins here and the controller keeps reading the sensor values while the pump runs. ` +
  `When the tank is full the float switch opens and the pump stops after a short delay. ${tag} ends here.`;

/** Blocks stacked down a page: two prose columns, a pin table, a grid of short labels, full-width lines. */
function randomPage(seed: number): PdfTextItem[] {
  let state = seed;
  const next = (n: number): number => (state = (state * 1103515245 + 12345) % 2 ** 31) % n;
  const items: PdfTextItem[] = [];
  let y = 60;
  for (let block = 0; block < 6 && y < 700; block++) {
    const kind = next(4);
    if (kind === 0) {
      const width = 220;
      const left = wrapText(PROSE(`B${block}L`), width).slice(0, 3 + next(6));
      const right = wrapText(PROSE(`B${block}R`), width).slice(0, 3 + next(6));
      items.push(...lines(left, 72, y), ...lines(right, 320, y));
      y += 12 * Math.max(left.length, right.length) + 14;
    } else if (kind === 1) {
      const rows = 3 + next(10);
      for (let r = 0; r < rows; r++) {
        items.push(item(`P${r}`, 72, y), item(`GPIO${r}`, 150, y), item(`${r % 2 ? 'Input' : 'Output'} pin of the port`, 260 + next(3) * 10, y), item(`${3 + next(3)}.3 V`, 470, y));
        y += 14;
      }
    } else if (kind === 2) {
      const rows = 2 + next(4);
      for (let r = 0; r < rows; r++) for (let c = 0; c < 4; c++) items.push(item(`K${r}${c}`, 72 + c * 130, y + r * 12));
      y += 12 * rows + 14;
    } else {
      items.push(...lines(wrapText(PROSE(`W${block}`), 460).slice(0, 1 + next(3)), 72, y));
      y += 40;
    }
  }
  return items;
}

/** Two prose columns, a pin table, two more prose columns and a grid of short labels, top to bottom. */
function mixedPage(): PdfTextItem[] {
  const cols = (tag: string, y: number): PdfTextItem[] => [...lines(wrapText(PROSE(`${tag}L`), 220), 72, y), ...lines(wrapText(PROSE(`${tag}R`), 220), 320, y)];
  const table = Array.from({ length: 14 }, (_, r) => [
    item(`P${r}`, 72, 230 + r * 14),
    item(`GPIO${r}`, 150, 230 + r * 14),
    item(`${r % 2 ? 'Input' : 'Output'} pin of the port`, 260, 230 + r * 14),
    item(`${3 + (r % 3)}.3 V`, 470, 230 + r * 14),
  ]).flat();
  const grid = Array.from({ length: 4 }, (_, r) => [0, 1, 2, 3].map((c) => item(`K${r}${c}`, 72 + c * 130, 650 + r * 12))).flat();
  return [...cols('A', 100), ...table, ...cols('B', 450), ...grid];
}

describe('reading order', () => {
  it('answers every start row the same with the region cache shared across starts as with a fresh one', () => {
    const segs = segmentPage({ width: 612, height: 792, items: mixedPage() }).segments;
    const rows = groupRows(segs);
    const x0 = minOf(segs.map((s) => s.x0));
    const x1 = maxOf(segs.map((s) => s.x1));
    const shared = rowCache(rows, x0, x1);
    const found: number[] = [];
    for (let i = 0; i < rows.length; i++) {
      const withShared = findColumnRun(rows, i, x0, x1, shared);
      expect(withShared).toEqual(findColumnRun(rows, i, x0, x1));
      if (withShared) found.push(i);
    }
    // Columns are found from some start rows, so the shared answers are not all "none".
    expect(found.length).toBeGreaterThanOrEqual(2);
    const leaves = readingOrder(segs).map((leaf) => leaf.map((s) => s.text).join(' '));
    const at = (text: string): number => leaves.findIndex((l) => l.includes(text));
    expect(at('AL begins')).toBeLessThan(at('AR begins'));
    expect(at('AR ends')).toBeLessThan(at('GPIO0'));
  });

  it('answers every start row of varied pages the same with the shared cache as with a fresh one', () => {
    let withColumns = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const segs = segmentPage({ width: 612, height: 792, items: randomPage(seed) }).segments;
      const rows = groupRows(segs);
      const x0 = minOf(segs.map((s) => s.x0));
      const x1 = maxOf(segs.map((s) => s.x1));
      const shared = rowCache(rows, x0, x1);
      for (let i = 0; i < rows.length; i++) {
        const run = findColumnRun(rows, i, x0, x1, shared);
        expect(run).toEqual(findColumnRun(rows, i, x0, x1));
        if (run) withColumns++;
      }
    }
    expect(withColumns).toBeGreaterThan(10);
  });

  it('keeps the median of the numbers added so far as `median` computes it', () => {
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 40;
    for (let run = 0; run < 20; run++) {
      const m = new RunningMedian();
      const seen: number[] = [];
      expect(m.value()).toBe(median(seen));
      for (let i = 0; i < 30; i++) {
        const v = next() / 4;
        m.add(v);
        seen.push(v);
        expect(m.value()).toBe(median(seen));
      }
    }
  });
});
