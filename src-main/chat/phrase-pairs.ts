import { terms } from './text-terms';

/**
 * The question's words as phrases: pairs of content words the question writes next to each other
 * ("Bixby function" of "What must be required to use the Bixby function?"), as a
 * sequential-dependence model in IR scores ordered bigrams beside single terms. A line that writes
 * such a pair in the same order, in one clause, says the question's phrase ("To use the Bixby
 * function, you must:"), where a line sharing the same words scattered ("You may be required to
 * pay ...") only meets them one by one.
 */

/**
 * Weight, for its place in its passage only (see `answerExtractively`), of a line that writes a
 * phrase of the question (see `phrasesIn`; ordered proximity, as sequential-dependence models in
 * IR score it). "You can personalize the sound quality ... HDMI Input Audio Format Try Now ..."
 * answers "How do I change HDMI Input Audio Format?" before "The Dolby Digital+ option is only
 * available via ARC(HDMI) for external devices that support the format.", which shares the words
 * one by one. Measured on all six sets, smart-tv first lines of 684 from 361 (no any line moved
 * unless said):
 * - words adjacent only, every line: 1.1 +3 -2, 1.2 +7 -4, 1.3 +11 -5 (and galaxy-s10, m5stack,
 *   seeed-xiao -1 each: a code identifier's parts, a product's words in a line with no number for
 *   "how big", a pair made across a model's blanked name), 1.5 +12 -8;
 * - with those left out and one word allowed between (`PAIR_SPAN`): 1.2 +8 -5, 1.3 +11 -5, 1.4
 *   +12 -5 and pdf-dev -1, 1.5 +12 -8 and galaxy-s10 +1, pdf-dev -1; but asked how, a passage's
 *   description ("You can connect a speaker ...") then led its step, as unit tests say it must not;
 * - at 1.3, leaving out only the non-step lines of such a passage: +10 -6 and 1 any line; only
 *   its "You can ..." lines: +11 -11, 1 any line and galaxy-s10 +1; the whole passage (kept):
 *   +10 -2, no other set moved (the configuration key alike: no question moved by it). The two
 *   lost: "From where I can see program information?" led by "In the Guide, you can see ... see
 *   program information" (an answer too), and "Can I enlarge my TV screen?" by a line on "the TV
 *   screen" (the question's common words as its phrase).
 * Weighing the found pairs by their words' idf or the pair's own idf (share of the question's
 * weight) won fewer (+5) and lost more; added to the score rather than the lead (0.1-0.3 x the
 * pair's idf), smart-tv +5 to +8 first lines and +2 any, but galaxy-s10 and pdf-dev -1 first line
 * each. Only pairs whose words are rare (idf at least the question's mean) lost 4 and won none:
 * the phrase decides where the words alone are common in the passage.
 */
export const PHRASE_LEAD_WEIGHT = 1.3;

/** Where a line's clauses end: a phrase does not run across them ("... update. The TV ..."). */
const CLAUSE_END = /[.;:!?](?:\s|$)|,\s/;

/**
 * How far apart, in content words, a line may write a pair's words: next to each other or one
 * word between ("Link to another contact" for "link a contact": a galaxy-s10 first line lost with
 * adjacent words only; no other question moved).
 */
const PAIR_SPAN = 2;

/** A pair of content words, written first then second; the key `pairsOf` and `phrasesIn` share. */
function pairKey(first: string, second: string): string {
  return `${first} ${second}`;
}

/**
 * The ordered pairs of adjacent content words of `words` (the question's terms in its order, see
 * `terms`; null where a word breaks the run, such as a model's name), each with its two words; a
 * word repeated next to itself makes no pair.
 */
export function pairsOf(words: readonly (string | null)[]): Map<string, [string, string]> {
  const out = new Map<string, [string, string]>();
  for (let i = 0; i + 1 < words.length; i++) {
    const [a, b] = [words[i], words[i + 1]];
    if (a && b && a !== b) out.set(pairKey(a, b), [a, b]);
  }
  return out;
}

/** The pairs of `pairs` (see `pairsOf`) that `text` writes in order, at most `PAIR_SPAN` words apart, inside one clause, each once. */
export function phrasesIn(text: string, pairs: ReadonlyMap<string, [string, string]>): [string, string][] {
  if (pairs.size === 0) return [];
  const found = new Map<string, [string, string]>();
  for (const clause of text.split(CLAUSE_END)) {
    const ws = terms(clause);
    for (let i = 0; i + 1 < ws.length; i++) {
      for (let j = i + 1; j <= Math.min(ws.length - 1, i + PAIR_SPAN); j++) {
        const pair = pairs.get(pairKey(ws[i]!, ws[j]!));
        if (pair) found.set(pairKey(...pair), pair);
      }
    }
  }
  return [...found.values()];
}
