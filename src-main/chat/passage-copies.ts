import type { SearchHit } from '../contract/api';
import { HEADING_ONE_LINE } from '../enrich/chunk-view';

/**
 * Copies among the passages found for a question. A manual that prints a section twice (a quick
 * guide repeating a main chapter's section word for word under another heading path) gave chat
 * both copies, and the extracted answer reads only its first four passages, so a copy took the
 * place of a passage that says something else. Session 34 read the 35 smart-tv questions whose
 * gold passage was in the search's top 10 but not cited: 15 had it fifth or sixth of the passages,
 * never read, and 9 had it past the six passages kept; in 4 of the 15 a copy sat before it
 * ("Quick Guides > Using the Ambient Mode" and "Smart Features > Using the Ambient Mode").
 * Answer bench: smart-tv any line 576 -> 578 (3 won, 1 lost), first lines and every other set
 * unchanged; off-topic "not found" unchanged (a copy is never the last passage left).
 */

/** A passage's words in order (lower case, punctuation and heading lines left out): what a copy repeats. */
function wordsOf(text: string): string {
  const body = text
    .split('\n')
    .filter((l) => !HEADING_ONE_LINE.test(l.trim()))
    .join('\n');
  return (body.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');
}

/**
 * The hits without a later copy of an earlier one from the same document: the same words in the
 * same order under another heading (punctuation aside: a copy may drop a comma). The best ranked
 * copy stays where it was. A copy of the first hit stays too: the answer quotes a few lines of
 * each passage, and the best section's copy is where its further lines come from (smart-tv
 * tv-yesno-23, "Auto Brightness: ..." the fifth line of the best section, was quoted from its
 * copy; folding it too, smart-tv first lines went 371 -> 369). Passages only alike are no copies:
 * folding those sharing 80% of their three-word runs, smart-tv went 576 -> 573 any line and
 * 371 -> 368 first (copies whose lines differ by a comma, the gold written as one of them).
 *
 * Copies in two documents stay (two manuals may be for two models, and the answer says whose each
 * line is), except where `asked` says which: a later copy in a manual not of the asked model (a
 * sibling's of its family, which the model guard lets through) gives its place to the asked
 * model's copy ranked before it, the first hit's too, as it adds no line and no model the question
 * is about. The answer's line statistics count each passage's lines: the sibling's copy, second
 * of the passages read, counted the section's words twice and pushed the fourth passage out
 * (galaxy-s10 s10-111 with a deeper search pool: the Lite manual's copy of the S10 section moved
 * the S10 section's first line off the lead).
 */
export function withoutCopies<T extends Pick<SearchHit, 'doc' | 'text'>>(hits: readonly T[], asked?: (hit: T) => boolean): T[] {
  const seen: { hit: T; words: string }[] = [];
  const out: T[] = [];
  for (const hit of hits) {
    const words = wordsOf(hit.text);
    const copyOf = (s: { hit: T; words: string }): boolean => s.words === words;
    if (words !== '' && seen.slice(1).some((s) => s.hit.doc === hit.doc && copyOf(s))) continue;
    if (words !== '' && asked && !asked(hit) && seen.some((s) => s.hit.doc !== hit.doc && asked(s.hit) && copyOf(s))) continue;
    out.push(hit);
    seen.push({ hit, words });
  }
  return out;
}
