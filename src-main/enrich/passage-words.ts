import { stemmer } from 'stemmer';
import type { NormalizedDocument } from '../core/document';
import { isStopword } from './text.util';

/**
 * The words of passages as passage statistics (`passage-terms.ts`) count them, apart from those
 * statistics' stored form (zod): the parse worker computes them for the learning extract
 * (`learning-extract.ts`) and loads no more than it needs.
 */

/**
 * Stems of the words seen so far, null for a word not counted (shorter than 2 characters, a
 * stopword): most words repeat, and one lookup then answers both questions for them.
 */
const stems = new Map<string, string | null>();
const MAX_CACHED_STEMS = 200_000;
// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;
const ASCII_WORD = /[a-z0-9][a-z0-9+]*/g;
const UNICODE_WORD = /[\p{L}\p{N}][\p{L}\p{N}+]*/gu;
const LETTERS = /^\p{L}+$/u;

/**
 * The words of a text as passage statistics count them: NFKC, lowercase, letters and digits (a
 * trailing `+` kept: "S3+" is not "S3"), at least 2 characters, no stopwords; words of letters
 * are Porter-stemmed ("charging" = "charge"), codes with digits are kept as written.
 */
export function passageTerms(text: string): string[] {
  const out: string[] = [];
  for (const w of passageWords(text) ?? []) {
    const s = stemOf(w);
    if (s !== null) out.push(s);
  }
  return out;
}

/**
 * `new Set(passageTerms(text))` without the list of every occurrence: the statistics count a
 * passage's distinct terms only.
 */
export function distinctPassageTerms(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of passageWords(text) ?? []) {
    const s = stemOf(w);
    if (s !== null) out.add(s);
  }
  return out;
}

/** The lower-case words of a text, before stemming and stopwords. */
function passageWords(text: string): RegExpMatchArray | null {
  // Most manual text is ASCII: it needs no NFKC and a plain character class finds its words
  // (measured: about half the time of the Unicode pattern on the dev corpora).
  return NON_ASCII.test(text) ? text.normalize('NFKC').toLowerCase().match(UNICODE_WORD) : text.toLowerCase().match(ASCII_WORD);
}

/** The stem a word is counted as, null for one not counted (see `stems`). */
function stemOf(w: string): string | null {
  let s = stems.get(w);
  if (s === undefined) {
    s = w.length < 2 || isStopword(w) ? null : LETTERS.test(w) ? stemmer(w) : w;
    if (stems.size >= MAX_CACHED_STEMS) stems.clear();
    stems.set(w, s);
  }
  return s;
}

/** The blocks of a document whose words are counted (front matter says nothing a passage answers). */
export function passagesOf(doc: Pick<NormalizedDocument, 'text' | 'blocks'>): string[] {
  return doc.blocks.filter((b) => b.kind !== 'frontmatter').map((b) => doc.text.slice(b.start, b.end));
}
