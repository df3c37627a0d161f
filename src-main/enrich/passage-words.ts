import { stemmer } from 'stemmer';
import type { NormalizedDocument } from '../core/document';
import { charClass, hashUnits, isStopword, WordTable } from './text.util';

/**
 * The words of passages as passage statistics (`passage-terms.ts`) count them, apart from those
 * statistics' stored form (zod): the parse worker computes them for the learning extract
 * (`learning-extract.ts`) and loads no more than it needs.
 */

/** Words kept in `wordStems` before it is emptied. */
const MAX_CACHED_STEMS = 200_000;
// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;
const LETTERS = /^\p{L}+$/u;

/**
 * The words of a text as passage statistics count them: NFKC, lowercase, letters and digits (a
 * trailing `+` kept: "S3+" is not "S3"), at least 2 characters, no stopwords; words of letters
 * are Porter-stemmed ("charging" = "charge"), codes with digits are kept as written.
 */
export function passageTerms(text: string): string[] {
  const out: string[] = [];
  forEachPassageTerm(text, (s) => out.push(s));
  return out;
}

/**
 * `new Set(passageTerms(text))` without the list of every occurrence: the statistics count a
 * passage's distinct terms only.
 */
export function distinctPassageTerms(text: string): Set<string> {
  const out = new Set<string>();
  forEachPassageTerm(text, (s) => out.add(s));
  return out;
}

/**
 * Stems of the words seen so far (`stemOf`'s answers), found in place: most words repeat, and one
 * lookup then answers whether a word counts and as what.
 */
const wordStems = new WordTable<string | null>(MAX_CACHED_STEMS);

/**
 * Calls `take` with each term of `text`, in order (`passageTerms`): the stem of each match of
 * `[\p{L}\p{N}][\p{L}\p{N}+]*` (a Unicode pattern) in the text's lower-case NFKC form, read code
 * point by code point, each word's stem found in `wordStems` by its place in the text: cutting
 * every word out (`match`) and hashing it for a map was most of this function's time and
 * garbage (it reads every passage of every learned document).
 */
function forEachPassageTerm(text: string, take: (term: string) => unknown): void {
  // Most manual text is ASCII, which NFKC leaves as it is.
  const lower = NON_ASCII.test(text) ? text.normalize('NFKC').toLowerCase() : text.toLowerCase();
  const n = lower.length;
  let i = 0;
  while (i < n) {
    let c = lower.charCodeAt(i);
    if (c >= 0xd800) c = lower.codePointAt(i)!;
    if (charClass(c) === 0) {
      i += c > 0xffff ? 2 : 1;
      continue;
    }
    const from = i;
    let h = 0;
    for (;;) {
      h = hashUnits(h, lower, i, c);
      i += c > 0xffff ? 2 : 1;
      if (i >= n) break;
      c = lower.charCodeAt(i);
      if (c >= 0xd800) c = lower.codePointAt(i)!;
      if (c !== 43 && charClass(c) === 0) break;
    }
    if (i - from < 2) continue;
    let s = wordStems.find(lower, from, i, h);
    if (s === undefined) {
      const w = lower.slice(from, i);
      s = wordStems.add(w, h, stemOf(w));
    }
    if (s !== null) take(s);
  }
}

/** The stem a word of 2 or more characters is counted as, null for a stopword. */
function stemOf(w: string): string | null {
  return isStopword(w) ? null : LETTERS.test(w) ? stemmer(w) : w;
}

/** The blocks of a document whose words are counted (front matter says nothing a passage answers). */
export function passagesOf(doc: Pick<NormalizedDocument, 'text' | 'blocks'>): string[] {
  return doc.blocks.filter((b) => b.kind !== 'frontmatter').map((b) => doc.text.slice(b.start, b.end));
}
