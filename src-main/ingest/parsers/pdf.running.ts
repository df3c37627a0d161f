/**
 * Running headers, footers and page numbers: found across the whole document and removed from the
 * text. Pure (no pdf.js).
 */
import { LAYOUT, bottom, maxOf, median, minOf, top, type Segment } from './pdf.segments';

export const PAGE_NUMBER = /^(?:(?:page|p\.|pg\.?|seite|pagina|página)\s*)?[-–—]?\s*\d{1,4}\s*[-–—]?\s*(?:(?:of|\/|von|de)\s*\d{1,4})?$/i;
// Lower-case only: front-matter page numbers; capitals would swallow words like "MIX" or "CLI".
export const ROMAN_PAGE = /^(?=[ivx])x{0,3}(?:ix|iv|v?i{0,3})$/;

/** True for a bare page number: "12", "Page 3 of 10", "- 4 -", "iv". */
export function isPageNumber(text: string): boolean {
  const t = text.trim();
  return PAGE_NUMBER.test(t) || ROMAN_PAGE.test(t);
}

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
  const removed = new Map<string, { text: string; pages: number }>();
  const out = pages.map((segs, p) => {
    const h = heights[p]!;
    const ys = segs.map((s) => s.y);
    const first = minOf(ys);
    const last = maxOf(ys);
    const pageSize = p === 0 ? median(segs.map((s) => s.size)) : 0;
    return segs.filter((s) => {
      const margin = inMargin(s, h);
      if (margin && ((pagesWithKey.get(key(s)) ?? 0) >= minRepeats || chained.has(placedKey(s)))) {
        if (!isPageNumber(s.text)) {
          const seen = removed.get(key(s));
          if (seen) seen.pages++;
          else removed.set(key(s), { text: s.text, pages: 1 });
        }
        const titleOfPageOne = p === 0 && (top(s) + bottom(s)) / 2 < LAYOUT.marginZone * h && s.size >= LAYOUT.headingSizeRatio * pageSize && !isPageNumber(s.text);
        return titleOfPageOne;
      }
      if (!isPageNumber(s.text)) return true;
      if (margin) return false;
      // A page number set outside the margin zone is still alone on the page's first or last line.
      const alone = (y: number): boolean => Math.abs(s.y - y) < 0.3 * s.size && segs.every((o) => o === s || Math.abs(o.y - y) >= 0.3 * o.size);
      return !(alone(first) || alone(last));
    });
  });
  const runningText = [...removed.values()].sort((a, b) => b.pages - a.pages).map((r) => r.text);
  return { pages: out, runningText };
}
