import { isStopword } from '../enrich/text.util';

/**
 * The part of a result's text a search list shows: the stretch that holds the most of the query's
 * words, so a hit shows why it matched ("PIR Unit | Sensor Pin" of a pin map for "GROVE B port
 * PIR", not the table's header row). Written by hand: it is a window over one chunk's text
 * (3,000 characters at most) scored by the query's distinct words, which no highlighter library
 * here does without a DOM or an index of its own.
 */

/** Characters shown. */
export const SNIPPET_CHARS = 240;
/** Characters shown at most before the word a window is placed for. */
const LEAD_CHARS = 80;

/** The query's words worth finding: not stopwords; 3 characters or more, or with a digit ("5V"). */
export function snippetTerms(query: string): string[] {
  const words = query.toLowerCase().split(/[^\p{L}\p{N}]+/u);
  return [...new Set(words.filter((w) => (w.length > 2 || (w.length === 2 && /\p{N}/u.test(w))) && !isStopword(w)))];
}

/** Where each term starts a word of `text`, any case ("port" in "Port C", not in "support"). */
function matches(text: string, terms: readonly string[]): { at: number; term: number }[] {
  const out: { at: number; term: number }[] = [];
  terms.forEach((t, term) => {
    // On the text itself, not a lower-cased copy: lower-casing may change a string's length ("İ").
    // A term is letters and digits only (`snippetTerms`), so it needs no escaping.
    for (const m of text.matchAll(new RegExp(`(?<![\\p{L}\\p{N}])${t}`, 'giu'))) out.push({ at: m.index, term });
  });
  return out.sort((a, b) => a.at - b.at);
}

/** `i` moved back off the second half of a surrogate pair, so a cut never splits a character. */
function charStart(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return i > 0 && c >= 0xdc00 && c <= 0xdfff ? i - 1 : i;
}

/**
 * Where a window showing the word at `at` starts: the first line that starts at most
 * `LEAD_CHARS` before it (whole lines read best, and the line before often names what the matched
 * one is about), else the first word starting within `LEAD_CHARS` before it.
 */
function windowStart(text: string, at: number): number {
  const from = Math.max(0, at - LEAD_CHARS);
  if (from === 0) return 0;
  const line = text.indexOf('\n', from - 1);
  if (line !== -1 && line < at) return line + 1;
  WORD_START.lastIndex = from;
  const word = WORD_START.exec(text);
  return charStart(text, word !== null && word.index < at ? word.index : from);
}

/** A letter or digit after a character that is neither. */
const WORD_START = /(?<=[^\p{L}\p{N}])[\p{L}\p{N}]/gu;

/**
 * The shortest stretch of `found` (sorted by position) holding one match of each of its terms:
 * where the words a window holds sit together.
 */
function tightest(found: readonly { at: number; term: number }[]): { span: number; from: number } {
  const need = new Set(found.map((f) => f.term)).size;
  const count = new Map<number, number>();
  let best = { span: Infinity, from: 0 };
  let left = 0;
  for (const right of found) {
    count.set(right.term, (count.get(right.term) ?? 0) + 1);
    while (count.size === need) {
      const l = found[left]!;
      if (right.at - l.at < best.span) best = { span: right.at - l.at, from: l.at };
      const c = count.get(l.term)! - 1;
      if (c === 0) count.delete(l.term);
      else count.set(l.term, c);
      left++;
    }
  }
  return best;
}

/**
 * ~`SNIPPET_CHARS` characters of `text`: the window, starting at a line's start or a word shortly
 * before a matched word (`windowStart`), that holds the most distinct query words, where they sit
 * closest together, starting nearest to them; the text's opening when it holds none. "…" marks a
 * cut inside a line. ~15 µs for a hit of the shared sets (the first word found: ~5 µs).
 */
export function snippet(text: string, query: string): string {
  const found = matches(text, snippetTerms(query));
  // Each window's distinct words with two pointers (starts rise with the matches they are placed for).
  const windows: { start: number; from: number; to: number; words: number }[] = [];
  const count = new Map<number, number>();
  let lo = 0;
  let hi = 0;
  for (const m of found) {
    const start = windowStart(text, m.at);
    if (windows.length > 0 && windows[windows.length - 1]!.start === start) continue;
    while (hi < found.length && found[hi]!.at < start + SNIPPET_CHARS) {
      count.set(found[hi]!.term, (count.get(found[hi]!.term) ?? 0) + 1);
      hi++;
    }
    while (lo < hi && found[lo]!.at < start) {
      const c = count.get(found[lo]!.term)! - 1;
      if (c === 0) count.delete(found[lo]!.term);
      else count.set(found[lo]!.term, c);
      lo++;
    }
    windows.push({ start, from: lo, to: hi, words: count.size });
  }
  const most = Math.max(0, ...windows.map((w) => w.words));
  let best = { start: 0, span: Infinity, lead: Infinity };
  for (const w of windows) {
    if (w.words < most) continue;
    const { span, from } = tightest(found.slice(w.from, w.to));
    const lead = from - w.start;
    if (span < best.span || (span === best.span && lead < best.lead)) best = { start: w.start, span, lead };
  }
  const end = charStart(text, Math.min(text.length, best.start + SNIPPET_CHARS));
  // A window that starts a line shows whole lines: no mark in front (it would glue onto a list
  // item's bullet or a row's first pipe, which previews then no longer read as such).
  const cutBefore = best.start > 0 && text[best.start - 1] !== '\n';
  return `${cutBefore ? '…' : ''}${text.slice(best.start, end)}${end < text.length ? '…' : ''}`;
}
