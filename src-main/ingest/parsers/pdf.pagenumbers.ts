/**
 * Page numbers told from content numbers by what the document itself shows. Pure (no pdf.js).
 *
 * A lone number on a page's first or last line looks the same whether it is a page number or a
 * value ("Channels" / "55" on a short page, a spec sheet ending on a value). What tells them apart:
 * - sequence: printed page numbers follow the page order, page i shows i + offset for one offset
 *   over a run of pages (roman numerals in the front matter have their own offset);
 * - place: a page number sits apart from the text, in the top or bottom margin, well below or
 *   above the nearest line, or where the document's other page numbers sit.
 * A number that breaks the document's sequence, or sits in the body at line spacing, is content.
 */
import type { Segment } from './pdf.segments';

export const PAGE_NUMBER = /^(?:(?:page|p\.|pg\.?|seite|pagina|página)\s*)?[-–—]?\s*\d{1,4}\s*[-–—]?\s*(?:(?:of|\/|von|de)\s*\d{1,4})?$/i;
// Lower-case only: front-matter page numbers; capitals would swallow words like "MIX" or "CLI".
export const ROMAN_PAGE = /^(?=[ivx])x{0,3}(?:ix|iv|v?i{0,3})$/;

/** True for a bare page number: "12", "Page 3 of 10", "- 4 -", "iv". */
export function isPageNumber(text: string): boolean {
  const t = text.trim();
  return PAGE_NUMBER.test(t) || ROMAN_PAGE.test(t);
}

/** A lone number on a page's first or last line (or in its margin) that may be its page number. */
export interface PageNumberCandidate {
  page: number;
  segment: Segment;
  inMargin: boolean;
}

// Farther than this (em) from every other line of its page, a lone number is set apart from the
// text: body lines sit ~1.2 em apart, a paragraph or table break ~2 em.
const APART_EM = 4;
const ROMAN_VALUES: Record<string, number> = { i: 1, v: 5, x: 10 };

/** The number a page-number line shows, and whether it is roman; null when it shows none. */
export function pageNumberValue(text: string): { value: number; roman: boolean } | null {
  const t = text.trim();
  if (ROMAN_PAGE.test(t)) {
    let value = 0;
    for (let i = 0; i < t.length; i++) {
      const v = ROMAN_VALUES[t[i]!]!;
      value += v < (ROMAN_VALUES[t[i + 1] ?? ''] ?? 0) ? -v : v;
    }
    return { value, roman: true };
  }
  if (!PAGE_NUMBER.test(t)) return null;
  // The first number is the page's own: "Page 3 of 10", "3/10".
  return { value: Number(/\d+/.exec(t)![0]), roman: false };
}

/**
 * The candidates that are page numbers. Per kind (arabic, roman), an offset (shown number minus
 * page number) seen on 2+ pages is a sequence; when a kind has one, only its candidates on a
 * sequence are page numbers. Every page number must also sit apart from the text.
 */
export function pageNumbersOf(candidates: PageNumberCandidate[], pages: Segment[][]): Set<Segment> {
  const shown = candidates.map((c) => ({ c, v: pageNumberValue(c.segment.text) }));
  const offsetKey = (roman: boolean, offset: number): string => `${roman ? 'r' : 'a'}${offset}`;
  const pagesWithOffset = new Map<string, Set<number>>();
  for (const { c, v } of shown) {
    if (!v) continue;
    const k = offsetKey(v.roman, v.value - (c.page + 1));
    const set = pagesWithOffset.get(k);
    if (set) set.add(c.page);
    else pagesWithOffset.set(k, new Set([c.page]));
  }
  const sequenceKinds = new Set<string>();
  for (const [k, ps] of pagesWithOffset) if (ps.size >= 2) sequenceKinds.add(k[0]!);
  const inSequence = (roman: boolean, value: number, page: number): boolean => (pagesWithOffset.get(offsetKey(roman, value - (page + 1)))?.size ?? 0) >= 2;

  // Where the document's page numbers on a sequence sit (baseline, 2 pt bins): a number at one of
  // these heights is set where the others are, even outside the margin zone and close to the text.
  const usualPlaces = new Map<number, Set<number>>();
  for (const { c, v } of shown) {
    if (!v || !inSequence(v.roman, v.value, c.page)) continue;
    const bin = Math.round(c.segment.y / 2);
    const set = usualPlaces.get(bin);
    if (set) set.add(c.page);
    else usualPlaces.set(bin, new Set([c.page]));
  }
  const atUsualPlace = (s: Segment, page: number): boolean => {
    const bin = Math.round(s.y / 2);
    for (const b of [bin - 1, bin, bin + 1]) for (const p of usualPlaces.get(b) ?? []) if (p !== page) return true;
    return false;
  };
  const apart = (c: PageNumberCandidate): boolean => {
    if (c.inMargin || atUsualPlace(c.segment, c.page)) return true;
    const s = c.segment;
    return pages[c.page]!.every((o) => o === s || Math.abs(o.y - s.y) >= APART_EM * s.size);
  };

  // A page shows one page number (maybe at its head and its foot): where a page has candidates on
  // several sequences, the longest sequence holds its page number; the others are content.
  const bestOnPage = new Map<number, number>();
  for (const { c, v } of shown) {
    if (!v) continue;
    const support = pagesWithOffset.get(offsetKey(v.roman, v.value - (c.page + 1)))!.size;
    if (support >= 2 && support > (bestOnPage.get(c.page) ?? 0)) bestOnPage.set(c.page, support);
  }

  const numbers = new Set<Segment>();
  for (const { c, v } of shown) {
    if (!v || !apart(c)) continue;
    if (sequenceKinds.has(v.roman ? 'r' : 'a') && !inSequence(v.roman, v.value, c.page)) continue;
    if (pagesWithOffset.get(offsetKey(v.roman, v.value - (c.page + 1)))!.size < (bestOnPage.get(c.page) ?? 0)) continue;
    numbers.add(c.segment);
  }
  return numbers;
}
