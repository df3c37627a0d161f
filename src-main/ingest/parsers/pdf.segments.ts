/**
 * First layout stage, page by page as the PDF is read: positioned text items -> segments (items on
 * one baseline, split at gaps wider than 0.8 em), plus the small geometry helpers the later stages
 * share. Pure (no pdf.js). Hand-written for the reason given in pdf.layout.ts.
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

/** Tunables in units of the font size (em) or page fractions; the defaults fit common manuals. */
export const LAYOUT = {
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

export type Segment = PdfSegment;

/** A page reduced to its segments: a few dozen objects instead of thousands of items, kept for the whole document. */
export interface SegmentedPage {
  height: number;
  segments: PdfSegment[];
  extra: string[];
}

export const top = (s: { y: number; size: number }): number => s.y - 0.75 * s.size;
export const bottom = (s: { y: number; size: number }): number => s.y + 0.2 * s.size;
export const wordCount = (text: string): number => text.split(/\s+/).filter(Boolean).length;
export const round = (size: number): number => Math.round(size * 2) / 2;

// Loops, not Math.min(...xs): spreading a hostile page's 10^5 items overflows the call stack.
export function minOf(values: number[]): number {
  let m = Infinity;
  for (const v of values) if (v < m) m = v;
  return m;
}

export function maxOf(values: number[]): number {
  let m = -Infinity;
  for (const v of values) if (v > m) m = v;
  return m;
}

export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function overlap(aTop: number, aBottom: number, bTop: number, bBottom: number): number {
  return Math.min(aBottom, bBottom) - Math.max(aTop, bTop);
}

/** Groups boxes into bands of shared baselines: a box joins the band it overlaps by half its height. */
export function bands<T extends { y: number; size: number }>(boxes: T[]): T[][] {
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

const FOOTNOTE_MARKER = /^\s*(?:\d{1,2}|[*†‡§])\s*$/u;

export function makeSegment(items: PdfTextItem[]): Segment {
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
    // A footnote marker: a digit or dagger set smaller and raised right after a word ("enabled4").
    // It is kept, but apart from the value it marks, so "enabled" and "160 MHz" stay searchable.
    const marker =
      prev !== null && FOOTNOTE_MARKER.test(it.text) && it.size <= 0.8 * prev.size && prev.y - it.y > 0.2 * prev.size && /[\p{L}\p{N}]$/u.test(text);
    text += marker ? ` [${it.text.trim()}]` : it.text;
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
export function buildSegments(items: PdfTextItem[]): Segment[] {
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
/** First stage, page by page as the PDF is read: items -> segments. */
export function segmentPage(page: PdfPageText): SegmentedPage {
  return { height: page.height, segments: buildSegments(page.items), extra: page.extra ?? [] };
}

