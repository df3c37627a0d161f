import { stemmer } from 'stemmer';
import type { NormalizedDocument } from '../core/document';
import type { TableWordRule } from './text.util';
import { isStopword, tableWordList, tableWordSet, WordTable } from './text.util';

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
 * Stems of the words seen so far (`stemOf`'s answers), found in place: most words repeat, and one
 * lookup then answers whether a word counts and as what.
 */
const wordStems = new WordTable<string | null>(MAX_CACHED_STEMS);

/** Passage words are `[\p{L}\p{N}][\p{L}\p{N}+]*`: a digit may start one ("5v", "3d"), and a dot or hyphen ends it. */
const PASSAGE_WORDS: TableWordRule = { letterFirst: false, joinDotted: false };

/** The lower-case NFKC form passage words are read in. */
function passageForm(text: string): string {
  // Most manual text is ASCII, which NFKC leaves as it is.
  return NON_ASCII.test(text) ? text.normalize('NFKC').toLowerCase() : text.toLowerCase();
}

/**
 * The words of a text as passage statistics count them: NFKC, lowercase, letters and digits (a
 * trailing `+` kept: "S3+" is not "S3"), at least 2 characters, no stopwords; words of letters
 * are Porter-stemmed ("charging" = "charge"), codes with digits are kept as written.
 */
export function passageTerms(text: string): string[] {
  return tableWordList(passageForm(text), wordStems, stemOf, PASSAGE_WORDS);
}

/**
 * `new Set(passageTerms(text))` without the list of every occurrence: the statistics count a
 * passage's distinct terms only.
 */
export function distinctPassageTerms(text: string): Set<string> {
  return tableWordSet(passageForm(text), wordStems, stemOf, PASSAGE_WORDS);
}

/** The stem a word of 2 or more characters is counted as, null for a stopword. */
function stemOf(w: string): string | null {
  return isStopword(w) ? null : LETTERS.test(w) ? stemmer(w) : w;
}

/** The blocks of a document whose words are counted (front matter says nothing a passage answers). */
export function passagesOf(doc: Pick<NormalizedDocument, 'text' | 'blocks'>): string[] {
  return doc.blocks.filter((b) => b.kind !== 'frontmatter').map((b) => doc.text.slice(b.start, b.end));
}
