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

/** How many consecutive words must agree before a position counts as part of the passage. */
const ANCHOR = 4;

interface Chain {
  first: number;
  last: number;
  matched: number;
}

/**
 * Locates `quote` in `items` (the page's text items in order) by walking page and quote words
 * forward together. Both only ever move forward: a datasheet repeats a table header ("Min. Typ
 * Max. Unit") in every table, and matching a phrase from the quote's end anywhere on the page
 * ended the mark at the first table's header, above the cited rows. Where the two disagree (a
 * footer, a symbol the text layer spells differently) the walk resumes at the nearest place both
 * agree on ANCHOR words again. A passage that began on the previous page or continues on the next
 * one is marked on this page from its first to its last word here. Of several candidate starts,
 * the one whose walk matches the most words wins, so a stray phrase elsewhere on the page (a
 * running header, the table of contents) does not pass for the passage.
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

  // Where each run of n quote words occurs in the quote (ascending), and the page's runs by position.
  const inQuote = new Map<string, number[]>();
  for (let i = 0; i + n <= q.length; i++) {
    const key = q.slice(i, i + n).join(' ');
    const at = inQuote.get(key);
    if (at) at.push(i);
    else inQuote.set(key, [i]);
  }
  const pageRuns = page.slice(0, page.length - n + 1).map((_, p) => page.slice(p, p + n).join(' '));

  /** The agreeing run at or after (p, qi) that skips the fewest words of page and quote together. */
  const resume = (p: number, qi: number): [number, number] | null => {
    let best: [number, number] | null = null;
    let cost = Infinity;
    for (let pp = p; pp < pageRuns.length && pp - p < cost; pp++) {
      const at = inQuote.get(pageRuns[pp]!);
      const qq = at ? firstAtLeast(at, qi) : -1;
      if (qq >= 0 && pp - p + (qq - qi) < cost) {
        cost = pp - p + (qq - qi);
        best = [pp, qq];
      }
    }
    return best;
  };

  const used = new Uint8Array(page.length);
  const walk = (p0: number, q0: number): Chain => {
    const chain: Chain = { first: p0, last: p0, matched: 0 };
    let p = p0;
    let qi = q0;
    for (;;) {
      if (p < page.length && qi < q.length && page[p] === q[qi]) {
        used[p] = 1;
        chain.last = p;
        chain.matched++;
        p++;
        qi++;
        continue;
      }
      const next = resume(p, qi);
      if (!next) return chain;
      [p, qi] = next;
    }
  };

  let best: Chain | null = null;
  for (let p = 0; p < pageRuns.length; p++) {
    // A position already inside a walk would only repeat the tail of that walk.
    if (used[p]) continue;
    const at = inQuote.get(pageRuns[p]!);
    if (!at) continue;
    const chain = walk(p, at[0]!);
    // On a tie the tighter walk: a header that repeats the passage's first words sits apart from it.
    if (!best || chain.matched > best.matched || (chain.matched === best.matched && chain.last - chain.first < best.last - best.first)) best = chain;
  }
  return best ? { first: owner[best.first]!, last: owner[best.last]! } : null;
}

/** The first value in ascending `sorted` that is at least `min`, or -1. */
function firstAtLeast(sorted: readonly number[], min: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < min) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length ? sorted[lo]! : -1;
}
