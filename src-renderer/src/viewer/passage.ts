/**
 * Finds a cited passage among a PDF page's text items. The quote comes from the normalized text
 * (Markdown: `#` headings, table pipes, joined lines) and the page from pdf.js text items, so they
 * are compared as sequences of lower-case words, ignoring punctuation and layout.
 */

/** Words of `text`: runs of letters and digits, lower-cased. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Index range of the text items (inclusive) that hold the passage; null when it is not on the page. */
export interface ItemRange {
  first: number;
  last: number;
}

/** How many consecutive words must agree before a position counts as the passage's start or end. */
const ANCHOR = 4;

function matchAt(page: string[], at: number, quote: string[], from: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (page[at + k] !== quote[from + k]) return false;
  return true;
}

/**
 * Locates `quote` in `items` (the page's text items in order). The start is the earliest run of
 * quote words found on the page and the end the latest run after it, so a passage that began on
 * the previous page or continues on the next one is still marked on this page.
 */
export function findPassage(items: readonly string[], quote: string): ItemRange | null {
  const q = words(quote);
  if (q.length === 0) return null;
  const page: string[] = [];
  const owner: number[] = [];
  items.forEach((str, i) => {
    for (const w of words(str)) {
      page.push(w);
      owner.push(i);
    }
  });
  const n = Math.min(ANCHOR, q.length, page.length);
  if (n === 0) return null;

  let startPage = -1;
  let startQuote = -1;
  for (let qi = 0; qi + n <= q.length && startPage < 0; qi++) {
    for (let p = 0; p + n <= page.length; p++) {
      if (matchAt(page, p, q, qi, n)) {
        startPage = p;
        startQuote = qi;
        break;
      }
    }
  }
  if (startPage < 0) return null;

  let endPage = -1;
  for (let qj = q.length - n; qj >= startQuote && endPage < 0; qj--) {
    for (let p = page.length - n; p >= startPage; p--) {
      if (matchAt(page, p, q, qj, n)) {
        endPage = p + n - 1;
        break;
      }
    }
  }
  // Nothing of the end is on this page: the passage runs on past it.
  if (endPage < 0) endPage = page.length - 1;
  return { first: owner[startPage]!, last: owner[endPage]! };
}
