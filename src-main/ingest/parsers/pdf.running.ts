/**
 * Running headers, footers and page numbers: found across the whole document and removed from the
 * text. Pure (no pdf.js).
 */
import { isPageNumber, pageNumbersOf, type PageNumberCandidate } from './pdf.pagenumbers';
import { fontStats } from './pdf.blocks';
import { LAYOUT, bottom, maxOf, median, minOf, top, type Segment } from './pdf.segments';

export { isPageNumber } from './pdf.pagenumbers';

/** A lone number set this many times the document's body size or more is a chapter number. */
const CHAPTER_NUMBER_RATIO = 2;

/** Pages without their running text, and the running lines removed (as printed, most pages first). */
export interface RunningTextResult {
  pages: Segment[][];
  runningText: string[];
}

/**
 * Removes running headers/footers and bare page numbers. A margin line is running text when its
 * text (digits ignored) is on >= max(2, 50%) of pages, or, for chapter headers that change every
 * few pages, when the same text at the same height recurs on 3+ pages no more than 2 pages apart.
 * Page 1 keeps its header lines set at heading size (1.15x the page's median): there the running
 * title is the document's title ("NTD4809N, NVD4809N" was lost as a running header before).
 * A lone number in the margin or on a page's first or last line is removed when the document shows
 * it is a page number (pdf.pagenumbers.ts), or when the same number recurs in the margin of most
 * pages (a year in the footer), or when it is a chapter number set large; otherwise it is content
 * and stays.
 */
export function removeRunningText(pages: Segment[][], heights: number[]): RunningTextResult {
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
  // Lone numbers that may be page numbers: in the margin, or alone on the page's first or last line.
  const candidates: PageNumberCandidate[] = [];
  pages.forEach((segs, p) => {
    const ys = segs.map((s) => s.y);
    const first = minOf(ys);
    const last = maxOf(ys);
    const alone = (s: Segment, y: number): boolean => Math.abs(s.y - y) < 0.3 * s.size && segs.every((o) => o === s || Math.abs(o.y - y) >= 0.3 * o.size);
    for (const s of segs) {
      if (!isPageNumber(s.text)) continue;
      const margin = inMargin(s, heights[p]!);
      if (margin || alone(s, first) || alone(s, last)) candidates.push({ page: p, segment: s, inMargin: margin });
    }
  });
  const pageNumbers = pageNumbersOf(candidates, pages);
  // The same number in the margin of most pages is running text (a year, a part number), not content.
  const marginTexts = new Map<string, Set<number>>();
  for (const c of candidates) {
    if (!c.inMargin) continue;
    const t = c.segment.text.trim();
    marginTexts.set(t, (marginTexts.get(t) ?? new Set()).add(c.page));
  }
  const candidateSet = new Set(candidates.map((c) => c.segment));
  // A lone number set at twice the body size or more opens a chapter ("3" above "Pin Definition"):
  // its heading carries the title, and kept on its own it would become the document's largest
  // "heading" and push every real heading down a level.
  let textSize: number | undefined;
  const chapterNumber = (s: Segment): boolean => s.size >= CHAPTER_NUMBER_RATIO * (textSize ??= fontStats(pages).body);

  const removed = new Map<string, { text: string; pages: number }>();
  const out = pages.map((segs, p) => {
    const h = heights[p]!;
    const pageSize = p === 0 ? median(segs.map((s) => s.size)) : 0;
    return segs.filter((s) => {
      if (isPageNumber(s.text)) {
        if (!candidateSet.has(s)) return true;
        return !(pageNumbers.has(s) || chapterNumber(s) || (inMargin(s, h) && (marginTexts.get(s.text.trim())?.size ?? 0) >= minRepeats));
      }
      if (inMargin(s, h) && ((pagesWithKey.get(key(s)) ?? 0) >= minRepeats || chained.has(placedKey(s)))) {
        const seen = removed.get(key(s));
        if (seen) seen.pages++;
        else removed.set(key(s), { text: s.text, pages: 1 });
        const titleOfPageOne = p === 0 && (top(s) + bottom(s)) / 2 < LAYOUT.marginZone * h && s.size >= LAYOUT.headingSizeRatio * pageSize;
        return titleOfPageOne;
      }
      return true;
    });
  });
  const runningText = [...removed.values()].sort((a, b) => b.pages - a.pages).map((r) => r.text);
  return { pages: out, runningText };
}
