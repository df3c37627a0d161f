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
  if (segs.length === 0 || median(segs.map((s) => wordCount(s.text))) < LAYOUT.proseWords) return false;
  // Dot leaders are layout, not words: an index or contents column is read like prose.
  const tokens = segs.flatMap((s) => s.text.replace(/(?:\.\s?){3,}/g, ' ').split(/\s+/).filter(Boolean));
  return tokens.filter((t) => /^\W?\p{L}{2}/u.test(t)).length >= 0.5 * tokens.length;
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

/**
 * The longest run of rows from `start` that shares a gutter with text on both sides, if both sides
 * read as prose. Tables share gutters too, but their cells are short, so they are never cut and
 * their rows stay whole.
 */
export function findColumnRun(rows: Row[], start: number, x0: number, x1: number, cache?: RowCache): { end: number; gutter: Interval } | null {
  let free: Interval[] | null = null;
  let minX = Infinity;
  let maxX = -Infinity;
  let best: { end: number; gutters: Interval[] } | null = null;
  // The cap keeps hostile pages (tens of thousands of rows) from going quadratic; real pages have < 200.
  for (let j = start; j < Math.min(rows.length, start + MAX_RUN_ROWS); j++) {
    const row = rows[j]!;
    const gutterMin = cache ? cache.gutterMin[j]! : rowGutterMin(row);
    const rowFree = cache ? cache.free[j]! : freeIntervals(row, x0, x1);
    free = (free ? intersect(free, rowFree) : rowFree).filter(([a, b]) => b - a >= gutterMin);
    if (free.length === 0) break;
    for (const s of row.segs) {
      minX = Math.min(minX, s.x0);
      maxX = Math.max(maxX, s.x1);
    }
    const interior = free.filter(([a, b]) => a > minX && b < maxX);
    if (interior.length) best = { end: j + 1, gutters: interior };
  }
  if (!best) return null;
  const segs = rows.slice(start, best.end).flatMap((r) => r.segs);
  const byWidth = [...best.gutters].sort((a, b) => b[1] - b[0] - (a[1] - a[0]));
  for (const gutter of byWidth) {
    const left = segs.filter((s) => s.x1 <= gutter[0] + 0.01);
    const right = segs.filter((s) => s.x0 >= gutter[1] - 0.01);
    if (sideBySide(left, right) && isProse(left) && isProse(right)) return { end: best.end, gutter };
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
