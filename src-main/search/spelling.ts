import { stemmer } from 'stemmer';
import { isStopword } from '../enrich/text.util';
import { expandQuery } from './thesaurus';

/**
 * Typos in a question ("actvate", "sheduled", "serached") match nothing, so the passage that
 * answers loses the word that named it. A question word of letters that the library has never
 * seen (as its passage statistics count words: stemmed, see `passageTerms`), and that the
 * thesaurus does not know, is searched together with the word the library uses most among those
 * the typist more likely meant: the word with a left-out letter put back, or with two
 * neighbouring letters swapped. The word itself stays in the question: a correctly spelled word
 * the library happens not to use ("mount" in a library that says "amount", "range" beside
 * "orange") keeps its own matches. An extra or a wrong letter is not corrected: measured on the
 * shared question sets, that turned "higher", "plain" or "fitted" into "highe", "plai" or "kitted".
 * Written by hand: spelling libraries correct against an English dictionary, and the library's
 * own words ("Anynet", "eMMC") are the vocabulary here.
 */

/** Shortest word corrected: short words have many neighbours one letter away ("fix" and "six"). */
const MIN_LENGTH = 5;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * The stemmed term a word of lowercase letters counts as in passage statistics (as `passageTerms`
 * makes it), or null for a stopword. Stemmed here, not through `passageTerms`: the ~250 made-up
 * neighbours of a word must not fill its shared cache of real words' stems.
 */
const termOf = (word: string): string | null => (isStopword(word) ? null : stemmer(word));

/**
 * The question with each word the library never saw followed by its most used neighbour (see
 * above); `idf` is the library's (`PassageTermStats.idf`: highest for a term never seen).
 */
export function corrected(question: string, idf: (term: string) => number): string {
  const unseen = idf('\u0000');
  return question.replace(/\p{L}+/gu, (word) => {
    const w = word.toLowerCase();
    const term = w.length >= MIN_LENGTH && /^[a-z]+$/.test(w) ? termOf(w) : null;
    if (term === null || idf(term) < unseen || expandQuery(w) !== '') return word;
    let best: string | null = null;
    let bestIdf = unseen;
    for (const c of neighbours(w)) {
      const t = termOf(c);
      const f = t === null ? unseen : idf(t);
      if (f < bestIdf) {
        best = c;
        bestIdf = f;
      }
    }
    return best === null ? word : `${word} ${best}`;
  });
}

/** `w` with one letter put in anywhere, or two neighbouring letters swapped. */
function neighbours(w: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i <= w.length; i++) {
    const a = w.slice(0, i);
    const b = w.slice(i);
    if (b.length > 1) out.add(a + b[1] + b[0] + b.slice(2));
    for (const c of LETTERS) out.add(a + c + b);
  }
  out.delete(w);
  return out;
}

/** Shortest code completed, and how many of the library's spellings it is searched with. */
const MIN_CODE_LENGTH = 5;
const CODE_SPELLINGS = 2;

/**
 * The question with each part number the library never saw as written followed by the library's
 * longer spellings of it, most used first (`longer`: `PassageTermStats.longerTerms`): technicians
 * type "ILI9342" or "CH32V307" where the manual prints "ILI9342C" or "CH32V307VCT6", and the
 * full-text index holds each code as one word, so the short spelling matches nothing. A code here
 * is a word of letters and digits that starts with a letter.
 */
export function completedCodes(question: string, idf: (term: string) => number, longer: (prefix: string, limit: number) => string[]): string {
  const unseen = idf('\u0000');
  return question.replace(/[\p{L}\p{N}]+/gu, (word) => {
    const w = word.toLowerCase();
    if (w.length < MIN_CODE_LENGTH || !/^\p{L}/u.test(w) || !/\p{N}/u.test(w) || idf(w) < unseen) return word;
    const spellings = longer(w, CODE_SPELLINGS);
    return spellings.length === 0 ? word : `${word} ${spellings.join(' ')}`;
  });
}
