/**
 * Reading order: a recursive XY-cut that cuts only at gutters between prose blocks (columns), so
 * table rows are never torn apart. Pure (no pdf.js).
 */
import { RunningMedian } from './pdf.median';
import { LAYOUT, bottom, maxOf, median, minOf, overlap, top, wordCount, type Segment } from './pdf.segments';

export interface Row {
  segs: Segment[];
  top: number;
  bottom: number;
}

export type Interval = [number, number];

/** Segments -> rows: connected runs of vertically overlapping segments, top to bottom, each row's segments left to right. */
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
  for (const row of rows) row.segs.sort((a, b) => a.x0 - b.x0);
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

/** Overlaps of two sorted, disjoint interval lists at least `minWidth` wide (two-pointer merge). */
export function intersect(a: Interval[], b: Interval[], minWidth = 0): Interval[] {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const lo = Math.max(a[i]![0], b[j]![0]);
    const hi = Math.min(a[i]![1], b[j]![1]);
    if (hi > lo && hi - lo >= minWidth) out.push([lo, hi]);
    if (a[i]![1] < b[j]![1]) i++;
    else j++;
  }
  return out;
}

/** Lines of several words that are mostly words (not numbers, codes or hex dumps). */
export function isProse(segs: Segment[]): boolean {
  return isProseText(segs.map((s) => s.text));
}

/** Words, and tokens that start like a word, of one segment's text (dot leaders dropped: an index column reads like prose). */
interface WordStats {
  words: number;
  tokens: number;
  wordLike: number;
}

function wordStats(text: string): WordStats {
  let tokens = 0;
  let wordLike = 0;
  for (const t of text.replace(/(?:\.\s?){3,}/g, ' ').split(/\s+/)) {
    if (!t) continue;
    tokens++;
    if (/^\W?\p{L}{2}/u.test(t)) wordLike++;
  }
  return { words: wordCount(text), tokens, wordLike };
}

// Segments are immutable once built; every start row of a page asks again for the same ones.
const statsCache = new WeakMap<Segment, WordStats>();
function segStats(s: Segment): WordStats {
  let st = statsCache.get(s);
  if (!st) statsCache.set(s, (st = wordStats(s.text)));
  return st;
}

/** Median words per line >= LAYOUT.proseWords and half the tokens start like words. */
function proseStats(words: number[], tokens: number, wordLike: number): boolean {
  return words.length > 0 && proseCounts(median(words), tokens, wordLike);
}

/** `proseStats` once the lines' median word count is known (a column test keeps it as rows come). */
function proseCounts(medianWords: number, tokens: number, wordLike: number): boolean {
  return wordLike >= 0.5 * tokens && medianWords >= LAYOUT.proseWords;
}

/** `isProse` over line texts. */
export function isProseText(lines: string[]): boolean {
  const stats = lines.map(wordStats);
  return proseStats(
    stats.map((s) => s.words),
    stats.reduce((n, s) => n + s.tokens, 0),
    stats.reduce((n, s) => n + s.wordLike, 0),
  );
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
  /** Left and right end of each row's text. */
  minX: number[];
  maxX: number[];
  /** Each row's two sides of a gutter, by how many of its segments lie left of the gutter (filled as asked). */
  splits: (RowSplit | undefined)[][];
  /**
   * `proseColumns`'s answers for every start from `from` on, by run end, then gutter and
   * strictness. A start row asks only for runs that end below it: `readingOrder` drops the others.
   */
  verdicts: Map<number, Map<string, { from: number; verdicts: Uint8Array }>>;
}

const rowGutterMin = (row: Row): number => Math.max(4, LAYOUT.segmentGapEm * median(row.segs.map((s) => s.size)));

/** A region's `RowCache` for rows spanning [x0, x1]. */
export function rowCache(rows: Row[], x0: number, x1: number): RowCache {
  return {
    free: rows.map((r) => freeIntervals(r, x0, x1)),
    gutterMin: rows.map(rowGutterMin),
    minX: rows.map((r) => minOf(r.segs.map((s) => s.x0))),
    maxX: rows.map((r) => maxOf(r.segs.map((s) => s.x1))),
    splits: rows.map(() => []),
    verdicts: new Map(),
  };
}

/** Word gaps of justified text stay under this (em); table cells stand further apart. */
const JUSTIFIED_GAP_EM = 2;

/** One side of a gutter in a row: its lines (segments closer than 2 em joined) and their statistics; `SideSums` adds up a run's. */
class Side {
  words: number[] = [];
  widths: number[] = [];
  tokens = 0;
  wordLike = 0;
  segs = 0;
  top = Infinity;
  bottom = -Infinity;
  x0 = Infinity;
  x1 = -Infinity;

  /** Adds one row's segments of this side (sorted by x0); returns how many lines they make. */
  addRow(segs: Segment[]): number {
    let lines = 0;
    let words = 0;
    let lineX0 = 0;
    let lineX1 = 0;
    let prev: Segment | null = null;
    for (const s of segs) {
      // Justified prose spreads a short line's words wider than the 0.8 em that splits segments
      // ("rent   limiting,   thermal"); counted word by word it read as a table.
      if (prev && s.x0 - prev.x1 > JUSTIFIED_GAP_EM * Math.max(prev.size, s.size)) {
        this.endLine(words, lineX0, lineX1);
        lines++;
        prev = null;
      }
      const st = segStats(s);
      if (!prev) {
        words = 0;
        lineX0 = s.x0;
        lineX1 = s.x1;
      }
      words += st.words;
      lineX1 = Math.max(lineX1, s.x1);
      this.tokens += st.tokens;
      this.wordLike += st.wordLike;
      this.segs++;
      this.top = Math.min(this.top, top(s));
      this.bottom = Math.max(this.bottom, bottom(s));
      prev = s;
    }
    if (prev) {
      this.endLine(words, lineX0, lineX1);
      lines++;
    }
    return lines;
  }

  private endLine(words: number, x0: number, x1: number): void {
    this.words.push(words);
    this.widths.push(x1 - x0);
    this.x0 = Math.min(this.x0, x0);
    this.x1 = Math.max(this.x1, x1);
  }
}

// A bullet or item number set apart from its text: the gap after it is no word gap.
const MARKER = /^[^\p{L}]{1,3}$/u;

/** Widest word gap (under 2 em; wider ones part columns or cells) between neighbouring segments, sorted by x0. */
function widestGap(segs: Segment[]): number {
  let gap = 0;
  for (let i = 1; i < segs.length; i++) {
    const [a, b] = [segs[i - 1]!, segs[i]!];
    const d = b.x0 - a.x1;
    if (!MARKER.test(a.text) && d <= JUSTIFIED_GAP_EM * Math.max(a.size, b.size)) gap = Math.max(gap, d);
  }
  return gap;
}

/** One row split at a gutter: what it adds to each side, and whether its text stands on both sides, set clearly apart. */
interface RowSplit {
  left: Side;
  right: Side;
  leftLines: number;
  rightLines: number;
  twoSided: boolean;
  standsOut: boolean;
}

function splitRow(segs: Segment[], k: number): RowSplit {
  const l = segs.slice(0, k);
  const rt = segs.slice(k);
  const left = new Side();
  const right = new Side();
  const leftLines = left.addRow(l);
  const rightLines = right.addRow(rt);
  const twoSided = leftLines > 0 && rightLines > 0;
  const standsOut = twoSided && rt[0]!.x0 - l[l.length - 1]!.x1 > 1.5 * Math.max(widestGap(l), widestGap(rt));
  return { left, right, leftLines, rightLines, twoSided, standsOut };
}

/**
 * Row `r` split at `gutter`. A run's gutter is the overlap of free intervals of all its rows, so
 * each of a row's segments (sorted by x0) lies wholly left or right of it, the left ones first:
 * the split depends only on how many lie left, and every start row that tests the row reuses it.
 */
function rowSplit(rows: Row[], r: number, gutter: Interval, cache: RowCache): RowSplit {
  const segs = rows[r]!.segs;
  let k = 0;
  while (k < segs.length && segs[k]!.x1 <= gutter[0] + 0.01) k++;
  const splits = cache.splits[r]!;
  return (splits[k] ??= splitRow(segs, k));
}

/** A `Side` over rows added one by one, its medians kept as it grows. */
class SideSums {
  words = new RunningMedian();
  widths = new RunningMedian();
  tokens = 0;
  wordLike = 0;
  segs = 0;
  top = Infinity;
  bottom = -Infinity;
  x0 = Infinity;
  x1 = -Infinity;

  add(s: Side): void {
    for (const w of s.words) this.words.add(w);
    for (const w of s.widths) this.widths.add(w);
    this.tokens += s.tokens;
    this.wordLike += s.wordLike;
    this.segs += s.segs;
    this.top = Math.min(this.top, s.top);
    this.bottom = Math.max(this.bottom, s.bottom);
    this.x0 = Math.min(this.x0, s.x0);
    this.x1 = Math.max(this.x1, s.x1);
  }

  /** The side's lines read as prose (see `proseStats`). */
  prose(): boolean {
    return this.words.size > 0 && proseCounts(this.words.value(), this.tokens, this.wordLike);
  }

  /** Lines of a prose column fill most of its width; cells of a grid of short labels do not. */
  filled(): boolean {
    return this.widths.value() >= 0.5 * (this.x1 - this.x0);
  }
}

/**
 * Rows [start, end) read as two prose columns at `gutter`: both sides hold two lines or more side
 * by side and read as prose, and the gutter is clearly wider than the word gaps of 80% of the rows
 * with text on both sides (the word gaps of a justified line line up across two or three lines,
 * but they are no wider than the line's other gaps; one loosely justified line, "Wi-Fi    security
 * WPS", may space its words as wide as the gutter). `strict` (runs shorter than the longest) also
 * asks for one line per row and side (a table row puts cells apart on one side) and for lines that
 * fill their column (a grid of short labels is not prose). Row segments are sorted by x0.
 *
 * The start rows below `start` ask again for the same run end and gutter (a table's rows all reach
 * its last row), so one walk up from `end` answers for every start from `start` on.
 */
function proseColumns(rows: Row[], start: number, end: number, gutter: Interval, strict: boolean, cache: RowCache): boolean {
  const key = `${gutter[0]}|${gutter[1]}|${strict ? 1 : 0}`;
  let byEnd = cache.verdicts.get(end);
  if (!byEnd) cache.verdicts.set(end, (byEnd = new Map()));
  let known = byEnd.get(key);
  if (!known || start < known.from) byEnd.set(key, (known = { from: start, verdicts: proseColumnsFrom(rows, start, end, gutter, strict, cache) }));
  return known.verdicts[start - known.from] === 1;
}

/** `proseColumns` for every start in [from, end): 1 where the rows from there to `end` read as two prose columns. */
function proseColumnsFrom(rows: Row[], from: number, end: number, gutter: Interval, strict: boolean, cache: RowCache): Uint8Array {
  const verdicts = new Uint8Array(end - from);
  const left = new SideSums();
  const right = new SideSums();
  const sizes = new RunningMedian();
  let twoSided = 0;
  let standsOut = 0;
  for (let r = end - 1; r >= from; r--) {
    const split = rowSplit(rows, r, gutter, cache);
    // A row of more than one line on a side fails every strict run that holds it.
    if (strict && (split.leftLines > 1 || split.rightLines > 1)) break;
    left.add(split.left);
    right.add(split.right);
    for (const s of rows[r]!.segs) sizes.add(s.size);
    if (split.twoSided) twoSided++;
    if (split.standsOut) standsOut++;
    const ok =
      left.segs >= 2 &&
      right.segs >= 2 &&
      standsOut >= 0.8 * twoSided &&
      left.prose() &&
      right.prose() &&
      overlap(left.top, left.bottom, right.top, right.bottom) >= 1.5 * sizes.value() &&
      (!strict || (left.filled() && right.filled()));
    if (ok) verdicts[r - from] = 1;
  }
  return verdicts;
}

/**
 * Extends two columns cut at `end` over the rows right below that are one line on one side only
 * (the longer column going on alone), so its paragraph is not torn from its start.
 */
function extendColumns(rows: Row[], end: number, gutter: Interval): number {
  const isLeft = (s: Segment): boolean => s.x1 <= gutter[0] + 0.01;
  const isRight = (s: Segment): boolean => s.x0 >= gutter[1] - 0.01;
  let j = end;
  while (j < rows.length) {
    const row = rows[j]!;
    const oneSide = row.segs.every(isLeft) || row.segs.every(isRight);
    const size = median(row.segs.map((s) => s.size));
    if (!oneSide || row.top - rows[j - 1]!.bottom > size || new Side().addRow(row.segs) > 1) break;
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
export function findColumnRun(rows: Row[], start: number, x0: number, x1: number, cache: RowCache = rowCache(rows, x0, x1)): { end: number; gutter: Interval } | null {
  let free: Interval[] | null = null;
  let minX = Infinity;
  let maxX = -Infinity;
  // Every end where the gutters still have text on both sides, in row order: the run's free
  // intervals and text extent there (its gutters are the free intervals inside that extent).
  const ends: number[] = [];
  const frees: Interval[][] = [];
  const mins: number[] = [];
  const maxs: number[] = [];
  const twoSided: boolean[] = [];
  // The cap keeps hostile pages (tens of thousands of rows) from going quadratic; real pages have < 200.
  for (let j = start; j < Math.min(rows.length, start + MAX_RUN_ROWS); j++) {
    const gutterMin = cache.gutterMin[j]!;
    const rowFree = cache.free[j]!;
    free = free ? intersect(free, rowFree, gutterMin) : rowFree.filter(([a, b]) => b - a >= gutterMin);
    if (free.length === 0) break;
    const rowMin = cache.minX[j]!;
    const rowMax = cache.maxX[j]!;
    minX = Math.min(minX, rowMin);
    maxX = Math.max(maxX, rowMax);
    let interior = false;
    let both = false;
    for (let g = 0; g < free.length; g++) {
      const [a, b] = free[g]!;
      if (!(a > minX && b < maxX)) continue;
      interior = true;
      if (rowMin < a && rowMax > b) both = true;
    }
    if (!interior) continue;
    ends.push(j + 1);
    frees.push(free);
    mins.push(minX);
    maxs.push(maxX);
    twoSided.push(both);
  }
  if (ends.length === 0) return null;
  // Gutters of candidate k, widest first (ties in left-to-right order).
  const byWidth = (k: number): Interval[] =>
    frees[k]!.filter(([a, b]) => a > mins[k]! && b < maxs[k]!).sort((a, b) => b[1] - b[0] - (a[1] - a[0]));
  const last = ends.length - 1;
  // The two widest gutters: narrower ones are cell gaps, and each test walks the whole run.
  for (const gutter of byWidth(last).slice(0, 2)) if (proseColumns(rows, start, ends[last]!, gutter, false, cache)) return { end: ends[last]!, gutter };
  // Shorter runs end on a row with text on both sides that the next row does not continue, and
  // must hold one filled line per row and side: neither a table nor a grid of short labels.
  let tried = 0;
  for (let k = last - 1; k >= 0 && tried < MAX_SHORTER_RUNS; k--) {
    if (!twoSided[k] || twoSided[k + 1]) continue;
    tried++;
    const gutter = byWidth(k)[0]!;
    if (proseColumns(rows, start, ends[k]!, gutter, true, cache)) return { end: extendColumns(rows, ends[k]!, gutter), gutter };
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
  const cache = rowCache(rows, x0, x1);
  let forgotten = 0;
  for (let i = 0; i < rows.length; ) {
    // Answers for runs ending at or above this row are never asked again (a hostile page's could pile up).
    for (; forgotten <= i; forgotten++) cache.verdicts.delete(forgotten);
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
