import type { ModelVocabulary } from '../enrich/model-vocabulary';
import { askedKey, catalog, lead, type UnknownModel } from './model-guard';

/**
 * The library's models closest to a name it has no manual for ("E99C" -> E54C, E52C, E24C), for
 * the reply that says so: what the technician can ask about instead. Ranked on the normalized
 * keys `model-guard.ts` compares names with.
 */

/** How many of the library's models a reply names as closest to one it has no manual for. */
const CLOSEST = 3;

/** First number in a key, for ranking equally distant names ("e99c" -> 99). */
function firstNumber(key: string): number | null {
  const m = /\d+/.exec(key);
  return m ? Number(m[0]) : null;
}

/**
 * Levenshtein distance. Hand-written (a dozen lines) because the keys are a few characters long
 * and no dependency of the project offers it.
 */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** Length of the common beginning of two keys. */
function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * The library's models closest to `name`, at most `limit` (only those sharing a beginning with
 * it, when some do): same leading letters first, then the longest common beginning ("ESP32-C9"
 * -> the ESP32-C boards), then edit distance on normalized keys, then how near their first number
 * is ("E99C" -> E54C, E52C, E24C).
 */
export function closestModels(name: string, vocabulary: ModelVocabulary, limit = CLOSEST): string[] {
  const key = askedKey(name, vocabulary);
  const l = lead(key);
  const n = firstNumber(key);
  // A product only other manuals mention ("Galaxy S20" in the S20 Ultra's) has no manual to ask
  // about instead; a member has its parent's.
  const withManual = catalog(vocabulary).filter((m) => m.docCount > 0 || m.kind === 'member');
  return withManual
    .map((m) => {
      const mn = firstNumber(m.key);
      return {
        name: m.name,
        sameLead: lead(m.key) === l ? 0 : 1,
        prefix: commonPrefix(key, m.key),
        distance: editDistance(key, m.key),
        numberGap: n !== null && mn !== null ? Math.abs(n - mn) : Number.MAX_SAFE_INTEGER,
      };
    })
    .sort((a, b) => a.sameLead - b.sameLead || b.prefix - a.prefix || a.distance - b.distance || a.numberGap - b.numberGap || a.name.localeCompare(b.name))
    // A model whose key shares no beginning with the asked one is another product line, no near
    // model while some share one ("Bar Pico-C9": the Pico-C3 and Pico-S3, not the Foo X2 after them).
    .filter((m, _, all) => m.prefix > 0 || all[0]!.prefix === 0)
    .slice(0, limit)
    .map((m) => m.name);
}

/**
 * Each of a question's unknown names with the library's models closest to it ("E99C": E54C,
 * E52C; "ROCK 9X": ROCK 5B, ROCK 5A), in question order; none for a code of another product line
 * ("ZX-900"), which has no near model worth naming.
 */
export function closestToUnknown(unknown: readonly UnknownModel[], vocabulary: ModelVocabulary): { text: string; closest: string[] }[] {
  return unknown.map((u) => {
    if (u.kind !== 'sibling') return { text: u.text, closest: [] };
    // A model only other manuals mention ("S20+") is answered for the documented model its name
    // begins (the Galaxy S20+ 5G): that one first, as the answer is.
    if (u.fuller === undefined) return { text: u.text, closest: closestModels(u.text, vocabulary) };
    const { documented, mentioned } = u.fuller;
    return { text: u.text, closest: [documented, ...closestModels(mentioned, vocabulary).filter((m) => m !== documented && m !== mentioned)].slice(0, CLOSEST) };
  });
}
