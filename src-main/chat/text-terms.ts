import { stemmer } from 'stemmer';
import { isStopword } from '../enrich/text.util';

/**
 * The words of a text as the extractive answer counts them (see `answerExtractively`): stemmed
 * content words, and identifiers. Split from sentences.ts, which cuts passages into the units an
 * answer quotes, and re-exports these.
 */

/** Words of a question that ask rather than say what is asked about. */
const QUESTION_FILLER = new Set(
  (
    'much many happen happens happened tell know explain describe anything something thing things way ok okay possible ' +
    'get got give gives find kind sort won don isn doesn didn aren wasn weren couldn shouldn wouldn ll ve re'
  ).split(' '),
);

/**
 * Stopwords kept as content words here: the particle of a phrasal verb is the action in a manual
 * ("power off" vs "power on", "scroll down"), so a line saying "Power off: ..." answers "how do I
 * power it off?" better than "Power input: 5V". "before" and "after" say which side of an event a
 * line is about ("hold time ... after CHIP_EN is pulled high" vs "setup time ... before"; pdf-dev
 * +1 first line, no other set moved).
 */
const ACTION_PARTICLES = new Set(['off', 'up', 'down', 'before', 'after']);

/**
 * More of the enrichment's stopwords that say what a question asks (its list drops them as no
 * topic of a chunk): "supported" in "'Mode Not Supported' appears" or "which crystal frequencies
 * does it support" ("Support XTAL 24/32/38.4/40MHz"), "new" in "create a new account" (the line
 * "... to create a new account or sign in"), counts and ordinals ("the first time", "two
 * buttons"), and "notes" ("the connection notes for audio devices", a section's title). Measured
 * on all six sets: smart-tv +3 any line and +2 first line, pdf-dev +1 any line, no question lost. Kept words that cost questions stay dropped: "use" (galaxy-s10 -1,
 * smart-tv -5, pdf-dev -1, seeed-xiao -2 first lines), "show" (galaxy-s10 -1 any), "click" and
 * "step" (smart-tv -3 first), "see" and "following" (smart-tv -1 first).
 */
const ASKED_STOPWORDS = new Set(['support', 'supports', 'supported', 'new', 'first', 'second', 'one', 'two', 'three', 'note', 'notes']);

/**
 * The Porter stem of a word of letters, as the search stems its passage statistics
 * (enrich/passage-terms.ts), so "resetting"/"reset", "flashing"/"flash" and "supplies"/"supply"
 * meet; applied to both sides alike. A hand-made suffix cut left a doubled consonant
 * ("resetting" -> "resett"), which then never met "reset". A word with digits or joiners
 * ("gpio14", "quad-core") is a code and kept as written.
 */
export function stem(word: string): string {
  const w = word.toLowerCase();
  return LETTERS.test(w) ? stemmer(w) : w;
}

const LETTERS = /^\p{L}+$/u;

/**
 * Stemmed content words of a text (letters first, >= 2 chars, no stopwords). A compound
 * ("quad-core", "Cortex-A76") counts as itself and as its parts, so "core" meets "Quad-core".
 */
export function terms(text: string): string[] {
  const out: string[] = [];
  const add = (w: string): void => {
    if (w.length < 2 || !/^\p{L}/u.test(w) || (isStopword(w) && !ACTION_PARTICLES.has(w) && !ASKED_STOPWORDS.has(w)) || QUESTION_FILLER.has(w)) return;
    out.push(stem(w));
  };
  for (const m of text.toLowerCase().matchAll(/[\p{L}][\p{L}\p{N}+]*(?:[.\-_][\p{L}\p{N}]+)*/gu)) {
    const w = m[0];
    add(w);
    if (/[-_]/.test(w)) for (const part of w.split(/[-_]+/)) if (part !== w) add(part);
  }
  return out;
}

/** Tokens with a digit or an identifier shape ("5V", "GPIO3_A4", "UART1", "VCC5V0_SYS_S5", "TX"). */
export function identifiers(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}_./-]*[\p{L}\p{N}]|\p{N}/gu)) {
    const t = m[0];
    if (/\d/.test(t) || /^[A-Z][A-Z0-9_]{1,}$/.test(t)) out.add(t.toLowerCase());
  }
  return [...out];
}
