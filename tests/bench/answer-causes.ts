// Why an extracted answer's first quoted line misses the gold answer, from the answer alone (its
// quoted lines and the passages it cites); used by `npm run bench:answers -- --causes`.
import type { Citation } from '../../src-main/contract/api';
import { splitSentences } from '../../src-main/chat/sentences';
import { normalizeForRelevance } from '../../src-main/eval/relevance';

/** A question's gold answers: a document and a string one of its passages contains. */
export interface Gold {
  doc: string;
  contains: string;
}

/** A quoted line of an answer: its text without the markers, and the sources it cites. */
export interface QuotedLine {
  text: string;
  cites: number[];
}

/**
 * Where a first-line miss comes from, in the order the columns are printed:
 * - `wrongLine`: a later line of the first line's passage holds the gold string (line choice);
 * - `otherPassage`: a line of another passage holds it and the first line's passage does not
 *   (which passage leads: the search's order, or chat's when it moves a passage up or groups
 *   lines by model);
 * - `otherPassageToo`: a line of another passage holds it, and so does the first line's passage
 *   (in a line not quoted);
 * - `notQuoted`: no line holds it, but one sentence of a cited passage does (line choice);
 * - `split`: no sentence of a cited passage holds it, two adjacent ones do (the gold crosses a
 *   sentence end);
 * - `lost`: a cited passage holds it, but in no sentence or pair (markup, or the sentence
 *   splitter cut it);
 * - `uncited`: no cited passage holds it (the search or the relevance gate; the caller tells
 *   these apart with a search).
 */
export type MissCause = 'wrongLine' | 'otherPassage' | 'otherPassageToo' | 'notQuoted' | 'split' | 'lost' | 'uncited';

/** The columns of `MissCause`, in order, with their table headings. */
export const CAUSE_COLUMNS: readonly [MissCause, string][] = [
  ['wrongLine', 'later line, same passage'],
  ['otherPassage', "later line, another passage (first line's lacks the gold)"],
  ['otherPassageToo', "later line, another passage (first line's holds it too)"],
  ['notQuoted', 'cited passage, sentence not quoted'],
  ['split', 'cited passage, across two sentences'],
  ['lost', 'cited passage, in no sentence (markup)'],
  ['uncited', 'no cited passage'],
];

function holds(doc: string | undefined, text: string, gold: readonly Gold[]): boolean {
  const norm = normalizeForRelevance(text);
  return gold.some((a) => a.doc === doc && norm.includes(normalizeForRelevance(a.contains)));
}

/** The cause of a first-line miss (call only when the first quoted line misses). */
export function missCause(lines: readonly QuotedLine[], citations: readonly Citation[], gold: readonly Gold[]): MissCause {
  const cite = (n: number | undefined): Citation | undefined => citations.find((c) => c.n === n);
  const lineHolds = (l: QuotedLine): boolean => l.cites.some((n) => holds(cite(n)?.doc, l.text, gold));
  const firstPassage = cite(lines[0]?.cites[0]);
  const later = lines.slice(1).find(lineHolds);
  if (later) {
    const at = cite(later.cites.find((n) => holds(cite(n)?.doc, later.text, gold)));
    if (at?.chunkId === firstPassage?.chunkId) return 'wrongLine';
    return firstPassage && holds(firstPassage.doc, firstPassage.quote, gold) ? 'otherPassageToo' : 'otherPassage';
  }
  const cited = citations.filter((c) => holds(c.doc, c.quote, gold));
  if (cited.length === 0) return 'uncited';
  let best: MissCause = 'lost';
  for (const c of cited) {
    const units = splitSentences(c.quote);
    if (units.some((u) => holds(c.doc, u.text, gold))) return 'notQuoted';
    if (units.some((u, i) => i + 1 < units.length && holds(c.doc, `${u.text} ${units[i + 1]!.text}`, gold))) best = 'split';
  }
  return best;
}

/** Share of a gold string's words a quoted line must hold to say the same (`saysGold`). */
const NEAR_SHARE = 0.8;

/** Lowercase words of letters and digits. */
function wordSet(text: string): Set<string> {
  return new Set(normalizeForRelevance(text).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/**
 * Whether a quoted line holds a gold string, or says it in nearly its words: it cites the gold
 * document and holds at least NEAR_SHARE of the gold string's words ("You can learn the voice
 * commands to use the Bixby in various situations." for the gold "... the voice commands that let
 * you use Bixby in various situations."). A manual that repeats a sentence with small changes in
 * several sections has one gold copy; `--near` counts the others beside the exact measure, never
 * instead of it.
 */
export function saysGold(line: QuotedLine, citations: readonly Citation[], golds: readonly Gold[]): boolean {
  const docs = new Set(line.cites.map((n) => citations.find((c) => c.n === n)?.doc));
  const norm = normalizeForRelevance(line.text);
  const have = wordSet(line.text);
  return golds.some((g) => {
    if (!docs.has(g.doc)) return false;
    if (norm.includes(normalizeForRelevance(g.contains))) return true;
    const words = wordSet(g.contains);
    let held = 0;
    for (const w of words) if (have.has(w)) held++;
    return words.size > 0 && held >= NEAR_SHARE * words.size;
  });
}
