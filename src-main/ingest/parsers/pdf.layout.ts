/**
 * Turns positioned PDF text into Markdown in reading order. Pure (no pdf.js): the parser feeds it
 * text items, tests feed it synthetic ones.
 *
 * Hand-written because no maintained JS library does layout analysis: pdf.js returns items in
 * content-stream order, which is wrong for PDFs written out of order (interleaved columns,
 * column-major tables; ENVIRONMENT.md). The pipeline:
 *   items -> segments (items on one baseline, split at gaps wider than 0.8 em)
 *         -> running headers/footers and page numbers removed (across the whole document)
 *         -> recursive XY-cut that cuts only at gutters between prose blocks (columns), so
 *            table rows are never torn apart
 *         -> lines -> code, tables, headings, lists, paragraphs -> Markdown, with the offset
 *            where each page starts; a paragraph cut by a page break is joined back.
 */

/** A positioned text run in page points; `y` is the baseline and grows downwards from the page top. */
export interface PdfTextItem {
  text: string;
  x: number;
  y: number;
  /** Advance width in points (>= 0). */
  width: number;
  /** Font size in points (> 0). */
  size: number;
  /** Set in a fixed-pitch font (pdf.js reports the `monospace` family): code, commands, listings. */
  mono?: boolean;
}

/** One page's horizontal text and its size in points. */
export interface PdfPageText {
  width: number;
  height: number;
  items: PdfTextItem[];
  /** Text that is not set left-to-right horizontally (rotated labels), kept in content order. */
  extra?: string[];
}

/** The document as Markdown; `pageStarts[i]` is the offset where page i+1 begins (non-decreasing). */
export interface PdfLayout {
  markdown: string;
  pageStarts: number[];
  /** Text of the first heading found, for the title fallback. */
  firstHeading: string | null;
}

/** Tunables in units of the font size (em) or page fractions; the defaults fit common manuals. */
const LAYOUT = {
  /** A horizontal gap wider than this (em) ends a segment: column gutters and table cell gaps. */
  segmentGapEm: 0.8,
  /** A gap wider than this (em) between items of one segment becomes a space. */
  spaceGapEm: 0.15,
  /** Top and bottom page fraction where running headers, footers and page numbers live. */
  marginZone: 0.08,
  /** A running line must repeat on at least max(2, this fraction of pages). */
  repeatFraction: 0.5,
  /** Font size ratio over the body size from which a short line is a heading. */
  headingSizeRatio: 1.15,
  /** Minimum median words per line for each side of a gutter to count as prose. */
  proseWords: 3,
} as const;

/** Text items on one baseline with no gap wider than 0.8 em: a line of a column or one table cell. */
export interface PdfSegment {
  text: string;
  x0: number;
  x1: number;
  /** Baseline of the segment's largest text. */
  y: number;
  /** Dominant font size by character count. */
  size: number;
  mono: boolean;
}

type Segment = PdfSegment;

/** A page reduced to its segments: a few dozen objects instead of thousands of items, kept for the whole document. */
export interface SegmentedPage {
  height: number;
  segments: PdfSegment[];
  extra: string[];
}

interface Line {
  segs: Segment[];
  y: number;
  size: number;
  x0: number;
  x1: number;
  mono: boolean;
}

type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'table'; rows: string[][] }
  | { kind: 'code'; lines: string[] };

const top = (s: { y: number; size: number }): number => s.y - 0.75 * s.size;
const bottom = (s: { y: number; size: number }): number => s.y + 0.2 * s.size;
const wordCount = (text: string): number => text.split(/\s+/).filter(Boolean).length;
const round = (size: number): number => Math.round(size * 2) / 2;

// Loops, not Math.min(...xs): spreading a hostile page's 10^5 items overflows the call stack.
function minOf(values: number[]): number {
  let m = Infinity;
  for (const v of values) if (v < m) m = v;
  return m;
}

function maxOf(values: number[]): number {
  let m = -Infinity;
  for (const v of values) if (v > m) m = v;
  return m;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function overlap(aTop: number, aBottom: number, bTop: number, bBottom: number): number {
  return Math.min(aBottom, bBottom) - Math.max(aTop, bTop);
}

/** Groups boxes into bands of shared baselines: a box joins the band it overlaps by half its height. */
function bands<T extends { y: number; size: number }>(boxes: T[]): T[][] {
  const sorted = [...boxes].sort((a, b) => a.y - b.y);
  const out: { top: number; bottom: number; minH: number; members: T[] }[] = [];
  for (const box of sorted) {
    const t = top(box);
    const b = bottom(box);
    const h = b - t;
    const band = out[out.length - 1];
    if (band && overlap(t, b, band.top, band.bottom) >= 0.5 * Math.min(h, band.minH)) {
      band.members.push(box);
      band.top = Math.min(band.top, t);
      band.bottom = Math.max(band.bottom, b);
      band.minH = Math.min(band.minH, h);
    } else {
      out.push({ top: t, bottom: b, minH: h, members: [box] });
    }
  }
  return out.map((b) => b.members);
}

function makeSegment(items: PdfTextItem[]): Segment {
  let text = '';
  let prev: PdfTextItem | null = null;
  const chars = new Map<number, number>();
  let main = items[0]!;
  for (const it of items) {
    if (prev) {
      const gap = it.x - (prev.x + prev.width);
      const spaced = /\s$/.test(text) || /^\s/.test(it.text);
      if (!spaced && gap > LAYOUT.spaceGapEm * Math.min(prev.size, it.size)) text += ' ';
    }
    text += it.text;
    const key = round(it.size);
    chars.set(key, (chars.get(key) ?? 0) + it.text.length);
    if (it.size > main.size) main = it;
    prev = it;
  }
  let size = main.size;
  let best = -1;
  for (const [s, n] of chars) {
    if (n > best) {
      best = n;
      size = s;
    }
  }
  const last = items[items.length - 1]!;
  return {
    text: text.replace(/\s+/g, ' ').trim(),
    x0: items[0]!.x,
    x1: Math.max(maxOf(items.map((i) => i.x + i.width)), last.x),
    y: main.y,
    size,
    mono: items.every((i) => i.mono === true),
  };
}

/** Items -> segments: same baseline band, split where the horizontal gap exceeds 0.8 em. */
function buildSegments(items: PdfTextItem[]): Segment[] {
  const usable = items.filter((i) => i.text.trim() !== '' && i.size > 0 && Number.isFinite(i.x + i.y + i.width + i.size));
  const out: Segment[] = [];
  for (const band of bands(usable)) {
    band.sort((a, b) => a.x - b.x);
    let current: PdfTextItem[] = [];
    for (const it of band) {
      const prev = current[current.length - 1];
      // Fake bold draws the same text twice, a fraction of a point apart.
      if (prev && prev.text === it.text && Math.abs(prev.x - it.x) < 0.2 * it.size) continue;
      if (prev && it.x - (prev.x + prev.width) > LAYOUT.segmentGapEm * Math.max(prev.size, it.size)) {
        out.push(makeSegment(current));
        current = [];
      }
      current.push(it);
    }
    if (current.length) out.push(makeSegment(current));
  }
  return out.filter((s) => s.text !== '');
}

const PAGE_NUMBER = /^(?:(?:page|p\.|pg\.?|seite|pagina|página)\s*)?[-–—]?\s*\d{1,4}\s*[-–—]?\s*(?:(?:of|\/|von|de)\s*\d{1,4})?$/i;
// Lower-case only: front-matter page numbers; capitals would swallow words like "MIX" or "CLI".
const ROMAN_PAGE = /^(?=[ivx])x{0,3}(?:ix|iv|v?i{0,3})$/;

/** True for a bare page number: "12", "Page 3 of 10", "- 4 -", "iv". */
export function isPageNumber(text: string): boolean {
  const t = text.trim();
  return PAGE_NUMBER.test(t) || ROMAN_PAGE.test(t);
}

/**
 * Removes running headers/footers and bare page numbers. A margin line is running text when its
 * text (digits ignored) is on >= max(2, 50%) of pages, or, for chapter headers that change every
 * few pages, when the same text at the same height recurs on 3+ pages no more than 2 pages apart.
 */
function removeRunningText(pages: Segment[][], heights: number[]): Segment[][] {
  const key = (s: Segment): string => s.text.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim().toLowerCase();
  const placedKey = (s: Segment): string => `${Math.round(s.y / 2)}|${key(s)}`;
  const inMargin = (s: Segment, h: number): boolean => {
    const mid = (top(s) + bottom(s)) / 2;
    return mid < LAYOUT.marginZone * h || mid > (1 - LAYOUT.marginZone) * h;
  };
  const pagesWithKey = new Map<string, number>();
  const pagesWithPlacedKey = new Map<string, number[]>();
  pages.forEach((segs, p) => {
    const margin = segs.filter((s) => inMargin(s, heights[p]!));
    for (const k of new Set(margin.map(key))) pagesWithKey.set(k, (pagesWithKey.get(k) ?? 0) + 1);
    for (const k of new Set(margin.map(placedKey))) {
      const list = pagesWithPlacedKey.get(k);
      if (list) list.push(p);
      else pagesWithPlacedKey.set(k, [p]);
    }
  });
  const minRepeats = Math.max(2, LAYOUT.repeatFraction * pages.length);
  const chained = new Set<string>();
  for (const [k, ps] of pagesWithPlacedKey) {
    let run = 1;
    for (let i = 1; i < ps.length; i++) {
      run = ps[i]! - ps[i - 1]! <= 2 ? run + 1 : 1;
      if (run >= 3) chained.add(k);
    }
  }
  return pages.map((segs, p) => {
    const h = heights[p]!;
    const ys = segs.map((s) => s.y);
    const first = minOf(ys);
    const last = maxOf(ys);
    return segs.filter((s) => {
      const margin = inMargin(s, h);
      if (margin && ((pagesWithKey.get(key(s)) ?? 0) >= minRepeats || chained.has(placedKey(s)))) return false;
      if (!isPageNumber(s.text)) return true;
      if (margin) return false;
      // A page number set outside the margin zone is still alone on the page's first or last line.
      const alone = (y: number): boolean => Math.abs(s.y - y) < 0.3 * s.size && segs.every((o) => o === s || Math.abs(o.y - y) >= 0.3 * o.size);
      return !(alone(first) || alone(last));
    });
  });
}

// --- Reading order: recursive XY-cut at prose gutters ---------------------------------------------

interface Row {
  segs: Segment[];
  top: number;
  bottom: number;
}

type Interval = [number, number];

/** Segments -> rows: connected runs of vertically overlapping segments, top to bottom. */
function groupRows(segs: Segment[]): Row[] {
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

function freeIntervals(row: Row, x0: number, x1: number): Interval[] {
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

function intersect(a: Interval[], b: Interval[]): Interval[] {
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
function isProse(segs: Segment[]): boolean {
  if (segs.length === 0 || median(segs.map((s) => wordCount(s.text))) < LAYOUT.proseWords) return false;
  // Dot leaders are layout, not words: an index or contents column is read like prose.
  const tokens = segs.flatMap((s) => s.text.replace(/(?:\.\s?){3,}/g, ' ').split(/\s+/).filter(Boolean));
  return tokens.filter((t) => /^\W?\p{L}{2}/u.test(t)).length >= 0.5 * tokens.length;
}

/** Both sides of a gutter hold at least two lines and stand side by side for two lines or more. */
function sideBySide(left: Segment[], right: Segment[]): boolean {
  if (left.length < 2 || right.length < 2) return false;
  const extent = (segs: Segment[]): [number, number] => [minOf(segs.map(top)), maxOf(segs.map(bottom))];
  const [lt, lb] = extent(left);
  const [rt, rb] = extent(right);
  return overlap(lt, lb, rt, rb) >= 1.5 * median([...left, ...right].map((s) => s.size));
}

const MAX_RUN_ROWS = 1000;

/**
 * The longest run of rows from `start` that shares a gutter with text on both sides, if both sides
 * read as prose. Tables share gutters too, but their cells are short, so they are never cut and
 * their rows stay whole.
 */
function findColumnRun(rows: Row[], start: number, x0: number, x1: number): { end: number; gutter: Interval } | null {
  let free: Interval[] | null = null;
  let minX = Infinity;
  let maxX = -Infinity;
  let best: { end: number; gutters: Interval[] } | null = null;
  // The cap keeps hostile pages (tens of thousands of rows) from going quadratic; real pages have < 200.
  for (let j = start; j < Math.min(rows.length, start + MAX_RUN_ROWS); j++) {
    const row = rows[j]!;
    const gutterMin = Math.max(4, LAYOUT.segmentGapEm * median(row.segs.map((s) => s.size)));
    free = (free ? intersect(free, freeIntervals(row, x0, x1)) : freeIntervals(row, x0, x1)).filter(([a, b]) => b - a >= gutterMin);
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
function readingOrder(segs: Segment[]): Segment[][] {
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
  for (let i = 0; i < rows.length; ) {
    const run = findColumnRun(rows, i, x0, x1);
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

// --- Blocks: tables, headings, lists, paragraphs ------------------------------------------------

const LIST_MARKER = /^(?:[•·▪▸►◦‣∙●○■□➢➤✓✔*-]|–|\d{1,3}[.)]|[a-z][.)])$/;
const LIST_ITEM = /^([•·▪▸►◦‣∙●○■□➢➤✓✔*-]|–|\d{1,3}[.)]|[a-z][.)])\s+(\S.*)$/;
const NUMBERED_HEADING = /^(\d{1,2}(?:\.\d{1,2}){1,4})\.?\s+(\p{Lu}.*)$/u;
const SINGLE_NUMBERED = /^(\d{1,2})\.?\s+(\p{Lu}.*)$/u;
const SENTENCE_END = /[.!?:;]["”’)\]]?$/;

function toLines(segs: Segment[]): Line[] {
  return bands(segs).map((members) => {
    const sorted = [...members].sort((a, b) => a.x0 - b.x0);
    // A lone bullet or step number set apart from its text belongs to the text, not a table column.
    if (sorted.length >= 2 && LIST_MARKER.test(sorted[0]!.text)) {
      const [marker, next] = [sorted[0]!, sorted[1]!];
      sorted.splice(0, 2, { ...next, text: `${marker.text} ${next.text}`, x0: marker.x0 });
    }
    const main = sorted.reduce((a, b) => (b.text.length > a.text.length ? b : a));
    return {
      segs: sorted,
      y: main.y,
      size: maxOf(sorted.map((s) => s.size)),
      x0: sorted[0]!.x0,
      x1: maxOf(sorted.map((s) => s.x1)),
      mono: sorted.every((s) => s.mono),
    };
  });
}

const lineText = (l: Line): string => l.segs.map((s) => s.text).join(' ');

function mergeIntervals(spans: Interval[]): Interval[] {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  const out: Interval[] = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/** Columns of a table run from its most common row shape; null when the cells do not line up. */
function tableRows(lines: Line[]): string[][] | null {
  const multi = lines.filter((l) => l.segs.length >= 2);
  if (multi.length < 2) return null;
  const counts = new Map<number, number>();
  for (const l of multi) counts.set(l.segs.length, (counts.get(l.segs.length) ?? 0) + 1);
  const mode = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0];
  const columns = mergeIntervals(multi.filter((l) => l.segs.length === mode).flatMap((l) => l.segs.map((s) => [s.x0, s.x1] as Interval)));
  if (columns.length < 2) return null;
  const rows = lines.map((l) => {
    const cells: string[] = columns.map(() => '');
    for (const s of l.segs) {
      let best = 0;
      let bestScore = -Infinity;
      columns.forEach(([a, b], c) => {
        const score = overlap(s.x0, s.x1, a, b) - 0.001 * Math.abs((s.x0 + s.x1) / 2 - (a + b) / 2);
        if (score > bestScore) {
          bestScore = score;
          best = c;
        }
      });
      cells[best] = cells[best] ? `${cells[best]} ${s.text}` : s.text;
    }
    return cells;
  });
  if (rows.filter((r) => r.filter(Boolean).length >= 2).length < 2) return null;
  // A row holding only the rest of one cell is that cell wrapping; rows with several cells (a group
  // label spanning rows: "" | Current | 2 A) stay rows.
  const merged: string[][] = [];
  for (const row of rows) {
    const filled = row.flatMap((t, c) => (t ? [c] : []));
    const prev = merged[merged.length - 1];
    const c = filled[0]!;
    const wraps = prev && filled.length === 1 && c > 0 && prev[c] && (/^\p{Ll}/u.test(row[c]!) || !SENTENCE_END.test(prev[c]!));
    if (wraps) prev[c] = joinLines(prev[c]!, row[c]!);
    else merged.push(row);
  }
  return merged;
}

/** Document-wide font statistics that decide headings. */
interface FontStats {
  body: number;
  /** Distinct heading sizes, largest first. */
  headingSizes: number[];
  /** Fixed-pitch lines are code, unless the whole document is set fixed-pitch (typewritten text). */
  monoIsCode: boolean;
}

function fontStats(pages: Segment[][]): FontStats {
  const chars = new Map<number, number>();
  let mono = 0;
  let total = 0;
  for (const segs of pages) {
    for (const s of segs) {
      chars.set(round(s.size), (chars.get(round(s.size)) ?? 0) + s.text.length);
      total += s.text.length;
      if (s.mono) mono += s.text.length;
    }
  }
  const body = [...chars].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 10;
  const headingSizes = [...chars.keys()].filter((s) => isHeadingSize(s, body)).sort((a, b) => b - a);
  return { body, headingSizes, monoIsCode: mono < 0.5 * total };
}

function isHeadingSize(size: number, body: number): boolean {
  return size >= body * LAYOUT.headingSizeRatio && size - body >= 1;
}

function headingLevel(text: string, size: number, fonts: FontStats): number {
  const numbered = NUMBERED_HEADING.exec(text) ?? SINGLE_NUMBERED.exec(text);
  if (numbered) return Math.min(6, numbered[1]!.split('.').length);
  const rank = fonts.headingSizes.findIndex((s) => Math.abs(s - round(size)) < 0.26);
  return Math.min(3, (rank < 0 ? fonts.headingSizes.length : rank) + 1);
}

/** Joins wrapped lines, removing line-end hyphens before a lower-case continuation. */
function joinLines(a: string, b: string): string {
  if (/\u00ad$/.test(a)) return a.slice(0, -1) + b;
  if (/\p{L}-$/u.test(a) && /^\p{Ll}/u.test(b)) return a.slice(0, -1) + b;
  // An all-capitals word broken by hyphenation ("OP-" + "TIONAL"); "USB-" + "C" or "RS-" + "232" keep it.
  if (/(?:^|[^\p{L}])\p{Lu}{2,}-$/u.test(a) && /^\p{Lu}{2,}(?![\p{L}\p{N}-])/u.test(b)) return a.slice(0, -1) + b;
  if (/\p{L}-$/u.test(a)) return a + b;
  return `${a} ${b}`;
}

/** Escapes what markdown-it would read as block syntax at the start of a text block. */
export function escapeBlockStart(text: string): string {
  if (/^(#{1,6}(\s|$)|>|[-+*](\s|$)|=+\s*$|```|~~~|<[A-Za-z/!?]|\[[^\]]*\]:)/.test(text)) return `\\${text}`;
  if (/^([-*_])(\s*\1){2,}\s*$/.test(text)) return `\\${text}`;
  return text.replace(/^(\d{1,9})([.)])(\s|$)/, '$1\\$2$3');
}

/** Code lines with their indentation rebuilt from x positions, in character cells of the font. */
function codeLines(lines: Line[]): string[] {
  const cell = median(lines.flatMap((l) => l.segs.map((s) => (s.x1 - s.x0) / Math.max(1, s.text.length)))) || 0.6 * lines[0]!.size;
  const x0 = minOf(lines.map((l) => l.x0));
  return lines.map((l) => {
    let out = '';
    for (const s of l.segs) {
      const col = Math.max(0, Math.round((s.x0 - x0) / cell));
      out += ' '.repeat(Math.max(out ? 1 : 0, col - out.length)) + s.text;
    }
    return out;
  });
}

// Table-of-contents entries: dot leaders and a page reference; each stays on its own line.
const TOC_ENTRY = /(?:\.\s?){4,}\s*\S{1,8}$|…\s*\S{1,8}$/;

function blocksOfLeaf(segs: Segment[], fonts: FontStats): Block[] {
  const lines = toLines(segs);
  if (lines.length === 0) return [];
  const leafX0 = minOf(lines.map((l) => l.x0));
  const leafX1 = maxOf(lines.map((l) => l.x1));
  const leafW = Math.max(1, leafX1 - leafX0);
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const d = lines[i]!.y - lines[i - 1]!.y;
    const s = lines[i]!.size;
    if (Math.abs(s - lines[i - 1]!.size) < 0.5 && d > 0.5 * s && d < 3 * s) gaps.push(d);
  }
  const bodySize = median(lines.map((l) => l.size));
  // The lower quartile, not the median: in short leaves paragraph gaps can be half the samples.
  gaps.sort((a, b) => a - b);
  const leading =
    gaps.length >= 2 ? gaps[Math.floor((gaps.length - 1) / 4)]! : gaps.length === 1 && gaps[0]! <= 1.5 * bodySize ? gaps[0]! : 1.2 * bodySize;
  const paraGap = leading * 1.35 + 0.5;

  const blocks: Block[] = [];
  let para: Line[] = [];
  let list: { items: string[]; markerX: number; lastY: number } | null = null;
  let largePrintUntil = 0;
  const flushPara = (): void => {
    if (para.length) blocks.push({ kind: 'paragraph', text: para.map(lineText).reduce(joinLines) });
    para = [];
  };
  const flushList = (): void => {
    if (list) blocks.push({ kind: 'list', items: list.items });
    list = null;
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const prev = lines[i - 1];

    // Code: consecutive fixed-pitch lines, kept line by line with their indentation.
    if (line.mono && fonts.monoIsCode) {
      let j = i + 1;
      while (j < lines.length && lines[j]!.mono && lines[j]!.y - lines[j - 1]!.y <= 3 * leading) j++;
      flushPara();
      flushList();
      blocks.push({ kind: 'code', lines: codeLines(lines.slice(i, j)) });
      i = j - 1;
      continue;
    }

    // Tables: consecutive multi-cell lines, plus wrapped cell lines that start right of column one.
    if (line.segs.length >= 2) {
      const firstColRight = line.segs[0]!.x1;
      let j = i + 1;
      let lastMulti = i;
      while (j < lines.length) {
        const next = lines[j]!;
        const tight = next.y - lines[j - 1]!.y <= 2.2 * next.size;
        if (next.segs.length >= 2 && tight) lastMulti = j;
        else if (!(next.segs.length === 1 && tight && next.x0 > firstColRight)) break;
        j++;
      }
      const rows = lastMulti > i ? tableRows(lines.slice(i, j)) : null;
      if (rows) {
        flushPara();
        flushList();
        blocks.push({ kind: 'table', rows });
        i = j - 1;
        continue;
      }
    }

    const text = lineText(line);
    const gapBefore = prev ? line.y - prev.y : Infinity;
    const next = lines[i + 1];

    // Headings by size: short lines set clearly larger than the body; wrapped titles are merged.
    // A longer run of large lines is large print (a lead paragraph), not a heading.
    if (i >= largePrintUntil && isHeadingSize(line.size, fonts.body) && /\p{L}/u.test(text)) {
      let j = i + 1;
      while (j < lines.length) {
        const n = lines[j]!;
        if (Math.abs(n.size - line.size) > 0.5 || n.y - lines[j - 1]!.y > 1.6 * n.size || NUMBERED_HEADING.test(lineText(n))) break;
        j++;
      }
      const heading = lines.slice(i, j).map(lineText).reduce(joinLines);
      if (j - i <= 3 && wordCount(heading) <= 25) {
        flushPara();
        flushList();
        blocks.push({ kind: 'heading', level: headingLevel(heading, line.size, fonts), text: heading });
        i = j - 1;
        continue;
      }
      largePrintUntil = j;
    }

    // Headings by numbering ("3.2 Installation") at body size: short, standalone, not a sentence.
    const numbered = NUMBERED_HEADING.exec(text);
    if (numbered && wordCount(text) <= 12 && !/[.,;:]$/.test(text)) {
      const startsBlock = !prev || gapBefore > paraGap || SENTENCE_END.test(lineText(prev)) || (para.length === 0 && !list);
      const endsBlock = !next || next.y - line.y > paraGap || line.x1 < leafX0 + 0.75 * leafW;
      if (startsBlock && endsBlock) {
        flushPara();
        flushList();
        blocks.push({ kind: 'heading', level: headingLevel(text, line.size, fonts), text });
        continue;
      }
    }

    // Lists: a marker line starts an item; indented tight lines continue it.
    const item = LIST_ITEM.exec(text);
    if (item) {
      flushPara();
      const marker = /^[a-z][.)]$/.test(item[1]!) ? `- ${item[1]}` : /^\d/.test(item[1]!) ? item[1]! : '-';
      const body = escapeBlockStart(item[2]!);
      if (list && (line.y - list.lastY > paraGap || Math.abs(line.x0 - list.markerX) > line.size)) flushList();
      list ??= { items: [], markerX: line.x0, lastY: line.y };
      list.items.push(`${marker} ${body}`);
      list.lastY = line.y;
      continue;
    }
    if (list && line.y - list.lastY <= paraGap && line.x0 > list.markerX + 0.5 * line.size) {
      const last = list.items.length - 1;
      list.items[last] = joinLines(list.items[last]!, text);
      list.lastY = line.y;
      continue;
    }
    flushList();

    if (para.length && prev) {
      const p = para[para.length - 1]!;
      const prevText = lineText(p);
      const breakHere =
        line.y - p.y > paraGap ||
        line.y <= p.y ||
        Math.abs(line.size - p.size) > 0.12 * p.size ||
        TOC_ENTRY.test(prevText) ||
        TOC_ENTRY.test(text) ||
        // A short line ends its paragraph: after a full stop, or before a line that starts a new sentence.
        (SENTENCE_END.test(prevText) && p.x1 < leafX1 - 0.25 * leafW) ||
        (!/^\p{Ll}/u.test(text) && p.x1 < leafX0 + 0.5 * leafW) ||
        // First-line indent after a finished sentence; a hanging indent ("Note  text...") is not a break.
        (SENTENCE_END.test(prevText) && line.x0 > leafX0 + 0.8 * line.size && p.x0 <= leafX0 + 0.3 * line.size);
      if (breakHere) flushPara();
    }
    para.push(line);
  }
  flushPara();
  flushList();
  return blocks;
}

function renderTable(rows: string[][]): string {
  // A backslash right before a pipe would escape our escape; elsewhere backslashes are literal text.
  const cell = (t: string): string => t.replace(/\\*\|/g, (m) => `${m.slice(0, -1).replace(/\\/g, '\\\\')}\\|`);
  const row = (r: string[]): string => `| ${r.map(cell).join(' | ')} |`;
  const [head, ...body] = rows;
  return [row(head!), `| ${head!.map(() => '---').join(' | ')} |`, ...body.map(row)].join('\n');
}

function renderBlock(b: Block): string {
  switch (b.kind) {
    case 'heading':
      return `${'#'.repeat(b.level)} ${b.text.replace(/(\s)(#+)$/, '$1\\$2')}`;
    case 'paragraph':
      return escapeBlockStart(b.text);
    case 'list':
      return b.items.join('\n');
    case 'table':
      return renderTable(b.rows);
    case 'code': {
      const longest = Math.max(2, maxOf(b.lines.flatMap((l) => (l.match(/`+/g) ?? []).map((r) => r.length))));
      const fence = '`'.repeat(longest + 1);
      return [fence, ...b.lines, fence].join('\n');
    }
  }
}

/** First stage, page by page as the PDF is read: items -> segments. */
export function segmentPage(page: PdfPageText): SegmentedPage {
  return { height: page.height, segments: buildSegments(page.items), extra: page.extra ?? [] };
}

/** Lays out every page and renders the document as Markdown with page offsets. */
export function layoutPdf(pages: PdfPageText[]): PdfLayout {
  return layoutSegmentedPages(pages.map(segmentPage));
}

/** Second stage, over the whole document: running text, fonts, reading order, blocks, Markdown. */
export function layoutSegmentedPages(pages: SegmentedPage[]): PdfLayout {
  const segmented = removeRunningText(
    pages.map((p) => p.segments),
    pages.map((p) => p.height),
  );
  const fonts = fontStats(segmented);
  const pageBlocks: Block[][] = segmented.map((segs, p) => {
    const blocks = readingOrder(segs).flatMap((leaf) => blocksOfLeaf(leaf, fonts));
    for (const extra of pages[p]!.extra) {
      const text = extra.replace(/\s+/g, ' ').trim();
      if (text) blocks.push({ kind: 'paragraph', text });
    }
    return blocks;
  });

  let markdown = '';
  const pageStarts: number[] = [];
  let firstHeading: string | null = null;
  let last: { block: Block; start: number } | null = null;
  for (const blocks of pageBlocks) {
    let pageStart: number | null = null;
    blocks.forEach((block, i) => {
      if (block.kind === 'heading') firstHeading ??= block.text;
      const prev = last?.block;
      // A paragraph cut by the page break continues on the next page: join it back.
      if (i === 0 && last && prev?.kind === 'paragraph' && block.kind === 'paragraph' && !SENTENCE_END.test(prev.text) && /^\p{Ll}/u.test(block.text)) {
        const joined: Block = { kind: 'paragraph', text: joinLines(prev.text, block.text) };
        const rendered = renderBlock(joined);
        markdown = markdown.slice(0, last.start) + rendered;
        // joinLines always ends with the continuation verbatim, so it starts this far from the end.
        pageStart = markdown.length - block.text.length;
        last = { block: joined, start: last.start };
        return;
      }
      if (markdown) markdown += '\n\n';
      pageStart ??= markdown.length;
      last = { block, start: markdown.length };
      markdown += renderBlock(block);
    });
    // Empty pages (scans) start where the next content will; nothing joins across them.
    if (blocks.length === 0) last = null;
    pageStarts.push(pageStart ?? markdown.length);
  }
  if (markdown) markdown += '\n';
  return { markdown, pageStarts, firstHeading };
}
