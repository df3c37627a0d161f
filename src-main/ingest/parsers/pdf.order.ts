/**
 * Reading order: a recursive XY-cut that cuts only at gutters between prose blocks (columns), so
 * table rows are never torn apart. Pure (no pdf.js).
 */
import { LAYOUT, bottom, maxOf, median, minOf, overlap, top, wordCount, type Segment } from './pdf.segments';

export interface Row {
  segs: Segment[];
  top: number;
  bottom: number;
}

export type Interval = [number, number];

/** Segments -> rows: connected runs of vertically overlapping segments, top to bottom. */
export function groupRows(segs: Segment[]): Row[] {
  const sorted = [...segs].sort((a, b) => top(a) - top(b));
  const rows: Row[] = [];
  for (const s of sorted) {
    const row = rows[rows.length - 1];
    const h = bottom(s) - top(s);
    if (row && overlap(top(s), bottom(s), row.top, row.bottom) > 0.25 * h) {
      row.segs.push(s);
      row.bottom = Math.max(row.bottom, bottom(s));
    } else {
      rows.push({ segs: [s], top: top(s), bottom: bottom(s) });
    }
  }
  return rows;
}

export function freeIntervals(row: Row, x0: number, x1: number): Interval[] {
  const spans = row.segs.map((s) => [s.x0, s.x1] as Interval).sort((a, b) => a[0] - b[0]);
  const out: Interval[] = [];
  let cursor = x0;
  for (const [a, b] of spans) {
    if (a > cursor) out.push([cursor, a]);
    cursor = Math.max(cursor, b);
  }
  if (cursor < x1) out.push([cursor, x1]);
  return out;
}

export function intersect(a: Interval[], b: Interval[]): Interval[] {
  const out: Interval[] = [];
  for (const [a0, a1] of a) {
    for (const [b0, b1] of b) {
      const lo = Math.max(a0, b0);
      const hi = Math.min(a1, b1);
      if (hi > lo) out.push([lo, hi]);
    }
  }
  return out;
}

/** Lines of several words that are mostly words (not numbers, codes or hex dumps). */
export function isProse(segs: Segment[]): boolean {
  return isProseText(segs.map((s) => s.text));
}

/** `isProse` over line texts: median words per line >= LAYOUT.proseWords and half the tokens are words. */
export function isProseText(lines: string[]): boolean {
  if (lines.length === 0) return false;
  const counts = lines.map(wordCount);
  if (median(counts) < LAYOUT.proseWords) return false;
  // Dot leaders are layout, not words: an index or contents column is read like prose.
  let tokens = 0;
  let words = 0;
  for (const line of lines) {
    for (const t of line.replace(/(?:\.\s?){3,}/g, ' ').split(/\s+/)) {
      if (!t) continue;
      tokens++;
      if (/^\W?\p{L}{2}/u.test(t)) words++;
    }
  }
  return words >= 0.5 * tokens;
}

/** Both sides of a gutter hold at least two lines and stand side by side for two lines or more. */
export function sideBySide(left: Segment[], right: Segment[]): boolean {
  if (left.length < 2 || right.length < 2) return false;
  const extent = (segs: Segment[]): [number, number] => [minOf(segs.map(top)), maxOf(segs.map(bottom))];
  const [lt, lb] = extent(left);
  const [rt, rb] = extent(right);
  return overlap(lt, lb, rt, rb) >= 1.5 * median([...left, ...right].map((s) => s.size));
}

export const MAX_RUN_ROWS = 1000;

/** Per-row values `findColumnRun` needs from every start row; computed once per region, not per start. */
export interface RowCache {
  free: Interval[][];
  gutterMin: number[];
}

const rowGutterMin = (row: Row): number => Math.max(4, LAYOUT.segmentGapEm * median(row.segs.map((s) => s.size)));

/** Word gaps of justified text stay under this (em); table cells stand further apart. */
const JUSTIFIED_GAP_EM = 2;

/** One line of text on one side of a gutter, with its horizontal extent. */
interface SideLine {
  text: string;
  x0: number;
  x1: number;
}

/**
 * The text lines of one row on one side of a gutter. Segments that stand closer than 2 em are one
 * line: justified prose spreads a short line's words wider than the 0.8 em that splits segments
 * ("rent   limiting,   thermal"), and counted word by word it read as a table.
 */
function rowSideLines(row: Row, side: (s: Segment) => boolean): SideLine[] {
  const out: SideLine[] = [];
  const segs = row.segs.filter(side).sort((a, b) => a.x0 - b.x0);
  let line: SideLine | null = null;
  let prev: Segment | null = null;
  for (const s of segs) {
    if (line && prev && s.x0 - prev.x1 > JUSTIFIED_GAP_EM * Math.max(prev.size, s.size)) {
      out.push(line);
      line = null;
    }
    if (line) line = { text: `${line.text} ${s.text}`, x0: line.x0, x1: Math.max(line.x1, s.x1) };
    else line = { text: s.text, x0: s.x0, x1: s.x1 };
    prev = s;
  }
  if (line) out.push(line);
  return out;
}

/** Lines of a prose column fill most of its width; cells of a grid of labels do not. */
function fillsColumn(lines: SideLine[]): boolean {
  const width = maxOf(lines.map((l) => l.x1)) - minOf(lines.map((l) => l.x0));
  return median(lines.map((l) => l.x1 - l.x0)) >= 0.5 * width;
}

const leftOf = (gutter: Interval) => (s: Segment): boolean => s.x1 <= gutter[0] + 0.01;
const rightOf = (gutter: Interval) => (s: Segment): boolean => s.x0 >= gutter[1] - 0.01;

// A bullet or item number set apart from its text: the gap after it is no word gap.
const MARKER = /^[^\p{L}]{1,3}$/u;

/** Widest word gap (under 2 em; wider ones part columns or cells) between neighbouring segments of `segs`. */
function widestGap(segs: Segment[]): number {
  const sorted = [...segs].sort((a, b) => a.x0 - b.x0);
  let gap = 0;
  for (let i = 1; i < sorted.length; i++) {
    const [a, b] = [sorted[i - 1]!, sorted[i]!];
    const d = b.x0 - a.x1;
    if (!MARKER.test(a.text) && d <= JUSTIFIED_GAP_EM * Math.max(a.size, b.size)) gap = Math.max(gap, d);
  }
  return gap;
}

/**
 * Where a row has text on both sides, the gutter is clearly wider than the gaps inside either side:
 * the word gaps of a justified line line up across two or three lines, but they are no wider than
 * the line's other word gaps.
 */
function gutterStandsOut(row: Row, isLeft: (s: Segment) => boolean, isRight: (s: Segment) => boolean): boolean {
  const l = row.segs.filter(isLeft);
  const r = row.segs.filter(isRight);
  const gap = minOf(r.map((s) => s.x0)) - maxOf(l.map((s) => s.x1));
  return gap > 1.5 * Math.max(widestGap(l), widestGap(r));
}

/**
 * Rows [start, end) read as two prose columns at `gutter`, which stands out of 80% of the rows with
 * text on both sides. `strict` (for runs shorter than the longest) also asks for one line per row on each side (a table row puts cells apart on one side)
 * and for lines that fill their column (a grid of short labels is not prose).
 */
function proseColumns(rows: Row[], start: number, end: number, gutter: Interval, strict: boolean): boolean {
  const run = rows.slice(start, end);
  const isLeft = leftOf(gutter);
  const isRight = rightOf(gutter);
  const segs = run.flatMap((r) => r.segs);
  if (!sideBySide(segs.filter(isLeft), segs.filter(isRight))) return false;
  const left: SideLine[] = [];
  const right: SideLine[] = [];
  let twoSided = 0;
  let standsOut = 0;
  for (const row of run) {
    const l = rowSideLines(row, isLeft);
    const r = rowSideLines(row, isRight);
    if (strict && (l.length > 1 || r.length > 1)) return false;
    if (l.length && r.length) {
      twoSided++;
      if (gutterStandsOut(row, isLeft, isRight)) standsOut++;
    }
    left.push(...l);
    right.push(...r);
  }
  // One loosely justified line ("Wi-Fi    security    WPS") may space its words as wide as the gutter.
  if (standsOut < 0.8 * twoSided) return false;
  if (!isProseText(left.map((l) => l.text)) || !isProseText(right.map((l) => l.text))) return false;
  return !strict || (fillsColumn(left) && fillsColumn(right));
}

/**
 * Extends two columns cut at `end` over the rows right below that are one line on one side only
 * (the longer column going on alone), so its paragraph is not torn from its start.
 */
function extendColumns(rows: Row[], end: number, gutter: Interval): number {
  const isLeft = leftOf(gutter);
  const isRight = rightOf(gutter);
  let j = end;
  while (j < rows.length) {
    const row = rows[j]!;
    const oneSide = row.segs.every(isLeft) || row.segs.every(isRight);
    const size = median(row.segs.map((s) => s.size));
    if (!oneSide || row.top - rows[j - 1]!.bottom > size || rowSideLines(row, () => true).length > 1) break;
    j++;
  }
  return j;
}

/** Cuts tried per start row when the longest run is not two prose columns (bounds the work on table pages). */
const MAX_SHORTER_RUNS = 4;

/**
 * The longest run of rows from `start` that shares a gutter with text on both sides, if both sides
 * read as prose. Tables share gutters too, but their cells are short, so they are never cut and
 * their rows stay whole. When the longest run is not prose (two prose columns above a table or a
 * figure whose gaps happen to line up with the gutter), shorter runs are tried, ending where text
 * stops standing on both sides of the gutter.
 */
export function findColumnRun(rows: Row[], start: number, x0: number, x1: number, cache?: RowCache): { end: number; gutter: Interval } | null {
  let free: Interval[] | null = null;
  let minX = Infinity;
  let maxX = -Infinity;
  // Every end where the gutters still have text on both sides, in row order.
  const candidates: { end: number; gutters: Interval[]; twoSided: boolean }[] = [];
  // The cap keeps hostile pages (tens of thousands of rows) from going quadratic; real pages have < 200.
  for (let j = start; j < Math.min(rows.length, start + MAX_RUN_ROWS); j++) {
    const row = rows[j]!;
    const gutterMin = cache ? cache.gutterMin[j]! : rowGutterMin(row);
    const rowFree = cache ? cache.free[j]! : freeIntervals(row, x0, x1);
    free = (free ? intersect(free, rowFree) : rowFree).filter(([a, b]) => b - a >= gutterMin);
    if (free.length === 0) break;
    let rowMin = Infinity;
    let rowMax = -Infinity;
    for (const s of row.segs) {
      rowMin = Math.min(rowMin, s.x0);
      rowMax = Math.max(rowMax, s.x1);
    }
    minX = Math.min(minX, rowMin);
    maxX = Math.max(maxX, rowMax);
    const interior = free.filter(([a, b]) => a > minX && b < maxX);
    if (interior.length) candidates.push({ end: j + 1, gutters: interior, twoSided: interior.some(([a, b]) => rowMin < a && rowMax > b) });
  }
  if (candidates.length === 0) return null;
  const longest = candidates[candidates.length - 1]!;
  const byWidth = (gutters: Interval[]): Interval[] => [...gutters].sort((a, b) => b[1] - b[0] - (a[1] - a[0]));
  for (const gutter of byWidth(longest.gutters)) if (proseColumns(rows, start, longest.end, gutter, false)) return { end: longest.end, gutter };
  // Shorter runs end on a row with text on both sides that the next row does not continue, and
  // must hold one filled line per row and side: neither a table nor a grid of short labels.
  let tried = 0;
  for (let k = candidates.length - 2; k >= 0 && tried < MAX_SHORTER_RUNS; k--) {
    const c = candidates[k]!;
    if (!c.twoSided || candidates[k + 1]!.twoSided) continue;
    tried++;
    const gutter = byWidth(c.gutters)[0]!;
    if (proseColumns(rows, start, c.end, gutter, true)) return { end: extendColumns(rows, c.end, gutter), gutter };
  }
  return null;
}

/** Orders segments into leaf regions: columns left before right, everything else top to bottom. */
export function readingOrder(segs: Segment[]): Segment[][] {
  if (segs.length <= 1) return segs.length ? [segs] : [];
  const x0 = minOf(segs.map((s) => s.x0));
  const x1 = maxOf(segs.map((s) => s.x1));
  const rows = groupRows(segs);
  const leaves: Segment[][] = [];
  let pending: Segment[] = [];
  const flush = (): void => {
    if (pending.length) leaves.push(pending);
    pending = [];
  };
  // Every start row scans the rows below it; their free intervals do not depend on the start.
  const cache: RowCache = { free: rows.map((r) => freeIntervals(r, x0, x1)), gutterMin: rows.map(rowGutterMin) };
  for (let i = 0; i < rows.length; ) {
    const run = findColumnRun(rows, i, x0, x1, cache);
    if (!run) {
      pending.push(...rows[i]!.segs);
      i++;
      continue;
    }
    flush();
    const inRun = rows.slice(i, run.end).flatMap((r) => r.segs);
    const [g0, g1] = run.gutter;
    leaves.push(...readingOrder(inRun.filter((s) => s.x1 <= g0 + 0.01)));
    leaves.push(...readingOrder(inRun.filter((s) => s.x0 >= g1 - 0.01)));
    i = run.end;
  }
  flush();
  return leaves;
}
