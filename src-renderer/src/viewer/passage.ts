/**
 * Finds a cited passage among a PDF page's text items, and an answer's quoted line inside a
 * passage. The quote comes from the normalized text (Markdown: `#` headings, table pipes, joined
 * lines), the page from pdf.js text items and the line from the answer (its Markdown cleaned away,
 * a table row read with its header), so all are compared as sequences of lower-case words,
 * ignoring punctuation and layout, by one forward walk (`bestWalk`).
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
 * forward together (see `bestWalk`). A passage that began on the previous page or continues on
 * the next one is marked on this page from its first to its last word here.
 */
export function findPassage(items: readonly string[], quote: string): ItemRange | null {
  const { page, owner } = itemWords(items);
  const best = bestWalk(page, words(quote), ANCHOR, Infinity);
  return best ? { first: owner[best.first]!, last: owner[best.last]! } : null;
}

/** The words of text items in order, each with the index of the item it is in. */
function itemWords(items: readonly string[]): { page: string[]; owner: number[] } {
  const page: string[] = [];
  const owner: number[] = [];
  items.forEach((str, i) => {
    for (const w of words(str)) {
      page.push(w);
      owner.push(i);
    }
  });
  return { page, owner };
}

/**
 * The stretch of `page` (words) that holds `q` (words), as word indices, found by walking both
 * forward together. Both only ever move forward: a datasheet repeats a table header ("Min. Typ
 * Max. Unit") in every table, and matching a phrase from the quote's end anywhere on the page
 * ended the mark at the first table's header, above the cited rows. Where the two disagree (a
 * footer, a symbol the text layer spells differently) the walk resumes at the nearest place both
 * agree on `anchor` words again, skipping at most `maxSkip` words of page and quote together.
 * Of several candidate starts, the one whose walk matches the most words wins, so a stray phrase
 * elsewhere on the page (a running header, the table of contents) does not pass for the passage.
 * A position an earlier walk went through is not tried as a start, which keeps a page of repeated
 * table values quick; with `retry` it is, unless that walk had it at the same quote word: a line
 * that says a phrase twice ("You can set the start ... You can set the start time") may have had
 * its own start walked through as its second phrase.
 */
function bestWalk(page: readonly string[], q: readonly string[], anchor: number, maxSkip: number, retry = false): Chain | null {
  if (q.length === 0) return null;
  const n = Math.min(anchor, q.length, page.length);
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
    for (let pp = p; pp < pageRuns.length && pp - p < cost && pp - p <= maxSkip; pp++) {
      const at = inQuote.get(pageRuns[pp]!);
      const qq = at ? firstAtLeast(at, qi) : -1;
      if (qq >= 0 && pp - p + (qq - qi) < cost && pp - p + (qq - qi) <= maxSkip) {
        cost = pp - p + (qq - qi);
        best = [pp, qq];
      }
    }
    return best;
  };

  /** For each page word a walk matched: 1 + the quote word it matched. */
  const used = new Int32Array(page.length);
  const walk = (p0: number, q0: number): Chain => {
    const chain: Chain = { first: p0, last: p0, matched: 0 };
    let p = p0;
    let qi = q0;
    for (;;) {
      if (p < page.length && qi < q.length && page[p] === q[qi]) {
        used[p] = qi + 1;
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
    const at = inQuote.get(pageRuns[p]!);
    if (!at) continue;
    // A position already inside a walk, at the same quote word, would only repeat the tail of that walk.
    if (used[p] && (!retry || used[p] === at[0]! + 1)) continue;
    const chain = walk(p, at[0]!);
    // On a tie the tighter walk: a header that repeats the passage's first words sits apart from it.
    if (!best || chain.matched > best.matched || (chain.matched === best.matched && chain.last - chain.first < best.last - best.first)) best = chain;
  }
  return best;
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

/**
 * Finding an answer's quoted line inside its passage. Lines are short, so the walk anchors on
 * fewer words than a passage does, and may skip only a few: a line's words are together in the
 * passage, and a long skip would join a stray phrase before the line to the line itself.
 */
const LINE_ANCHOR = 2;
const LINE_SKIP = 8;
/** The share of a line's words the walk must match for the line to count as found. */
const LINE_MIN = 0.6;

/**
 * The word sequences an answer line may appear as in its passage: its own words, and for a table
 * row read with its header ("Pin Name: AVDD33_1; Min.: 2.1 V; Max.: 3.63 V") the cells' words
 * alone, since the header's words stand rows above in the table; and with a unit written after
 * each value ("2.1 V; 3.3 V") once at the row's end, where its column is.
 */
export function lineForms(line: string): string[][] {
  const own = words(line);
  const segments = line.split(/;\s+/);
  if (segments.length < 2 || !segments.some((s) => /:\s/.test(s))) return [own];
  const values = segments.map((s) => s.replace(/^.*?:\s+/, ''));
  const cells = words(values.join(' '));
  if (cells.length === 0 || cells.length >= own.length) return [own];
  // The unit column's unit, written after each value ("4.5 V; 5 V; 5.5 V"), stands once, last in the row.
  const unit = /\d\s+(\S+)$/.exec(values[values.length - 1]!)?.[1];
  const withUnit = unit ? values.filter((v) => v.endsWith(` ${unit}`) && /\d\s+\S+$/.test(v)) : [];
  if (!unit || withUnit.length < 2 || words(unit).length !== 1) return [own, cells];
  const once = words([...values.map((v) => (withUnit.includes(v) ? v.slice(0, -unit.length - 1) : v)), unit].join(' '));
  return [own, cells, once];
}

/**
 * Where answer `line` stands among `page` words (a passage's), as word indices; null when too few
 * of its words are found together. Of the line's forms (see `lineForms`) the one whose walk
 * matches the largest share of its words wins; on a tie the line as written. A sentence the
 * passage holds twice is found where it first occurs, unless the line's own context (the rest of
 * its paragraph, quoted with it) matches the later one better.
 */
function findLineWords(page: readonly string[], line: string): { first: number; last: number } | null {
  let best: Chain | null = null;
  let share = 0;
  for (const q of lineForms(line)) {
    const chain = bestWalk(page, q, LINE_ANCHOR, LINE_SKIP, true);
    if (chain && chain.matched / q.length > share) {
      best = chain;
      share = chain.matched / q.length;
    }
  }
  return best && share >= LINE_MIN ? { first: best.first, last: best.last } : null;
}

/** Punctuation touching a line's first or last word ("−20", "done.", "(see"); not markup, not other words. */
const TOKEN_EDGE = /[^\s\p{L}\p{N}|*_`<>[\]\\#]/u;

/** How many words beside the walk's ends `findLine` may add. */
const BESIDE = 3;

/** An HTML tag, or a Markdown link's or image's target: "](https://…)". */
const HIDDEN = /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^>\n]*)?\/?>|\]\([^)\s]*\)/g;

/** A fenced code block (to its closing fence, or the text's end) or an inline code span: shown as written, tags and all. */
const CODE = /^[ \t]*(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:\n[ \t]*\1[^\n]*|$(?![\s\S]))|`[^`\n]+`/gm;

/** `text` with what the viewer does not show (`HIDDEN`) blanked outside code, offsets kept; and whether an offset is in code. */
function shownWords(text: string): { shown: string; inCode: (at: number) => boolean } {
  const code = [...text.matchAll(CODE)].map((m) => [m.index, m.index + m[0].length] as const);
  const inCode = (at: number): boolean => code.some(([a, b]) => at >= a && at < b);
  const shown = text.replace(HIDDEN, (m: string, at: number) => (inCode(at) ? m : m.startsWith(']') ? `]${' '.repeat(m.length - 1)}` : ' '.repeat(m.length)));
  return { shown, inCode };
}

/**
 * Where answer `line` stands in `text` (a passage's Markdown), as character offsets, end
 * exclusive; null when it is not found. The range runs from the line's first matched word to its
 * last, widened over punctuation touching them (a sentence's full stop) but not over markup.
 */
export function findLine(text: string, line: string): { start: number; end: number } | null {
  // Words the viewer does not show (an HTML tag's name, a link's target) are blanked, offsets kept;
  // in code they are shown as written ("#include <stdio.h>").
  const { shown, inCode } = shownWords(text);
  const spans = [...shown.matchAll(/[\p{L}\p{N}]+/gu)];
  const lower = spans.map((m) => m[0].toLowerCase());
  const found = findLineWords(lower, line);
  if (!found) return null;
  // The walk cannot resume for a line's last word alone ("5.5 V" after a skipped unit): up to
  // BESIDE words next to the found ones are taken in, when the line has them to spare (not matched
  // yet) and no line or sentence ends between them.
  let { first, last } = found;
  const spare = new Map<string, number>();
  for (const w of words(line)) spare.set(w, (spare.get(w) ?? 0) + 1);
  for (let k = first; k <= last; k++) spare.set(lower[k]!, (spare.get(lower[k]!) ?? 0) - 1);
  const joins = (a: number, b: number, k: number): boolean => {
    const w = lower[k]!;
    if (/\n|[.!?]\s/.test(text.slice(spans[a]!.index + spans[a]![0].length, spans[b]!.index)) || (spare.get(w) ?? 0) <= 0) return false;
    spare.set(w, spare.get(w)! - 1);
    return true;
  };
  for (let n = 0; n < BESIDE && first > 0 && joins(first - 1, first, first - 1); n++) first--;
  for (let n = 0; n < BESIDE && last + 1 < spans.length && joins(last, last + 1, last + 1); n++) last++;
  let start = spans[first]!.index;
  let end = spans[last]!.index + spans[last]![0].length;
  // In code every character is shown as written: the line runs to its last non-blank one.
  const edge = (at: number): RegExp => (inCode(at) ? /[^\s`]/ : TOKEN_EDGE);
  while (start > 0 && edge(start - 1).test(text[start - 1]!)) start--;
  while (end < text.length && edge(end).test(text[end]!)) end++;
  return { start, end };
}

/** The text items (inclusive) that hold answer `line`, among a passage's items on a PDF page; null when it is not found. */
export function findLineItems(items: readonly string[], line: string): ItemRange | null {
  const { page, owner } = itemWords(items);
  const found = findLineWords(page, line);
  return found ? { first: owner[found.first]!, last: owner[found.last]! } : null;
}

/**
 * Where answer `line` stands in the passage `[start, end)` of `text`, as document offsets; null
 * when it is not there. A sentence the passage holds twice is looked for first on the cited
 * `pages` (the line's own, for a paged document), then in the whole passage.
 */
export function lineInPassage(text: string, start: number, end: number, line: string, pages: readonly number[], pageStarts: readonly number[]): { start: number; end: number } | null {
  if (!line || end <= start) return null;
  const windows: [number, number][] = [];
  if (pages.length > 0 && pageStarts.length > 0) {
    const from = Math.max(start, pageStarts[pages[0]! - 1] ?? start);
    const to = Math.min(end, pageStarts[pages[pages.length - 1]!] ?? end);
    if (to > from && (from > start || to < end)) windows.push([from, to]);
  }
  windows.push([start, end]);
  for (const [from, to] of windows) {
    const found = findLine(text.slice(from, to), line);
    if (found) return { start: found.start + from, end: found.end + from };
  }
  return null;
}
