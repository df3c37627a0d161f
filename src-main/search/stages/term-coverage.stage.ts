import { contentTerms } from '../../enrich/text.util';
import type { ChunkHit, ChunkRecord } from '../../storage/chunk-store';
import type { RankStage } from './stage';

/** Lexical reranking of first-stage candidates: coverage of the question's words and their proximity. */

/** Share of a candidate's score kept when it contains none of the question's content words. */
const COVERAGE_FLOOR = 0.7;

/**
 * Extra share of a candidate's score when every adjacent pair of question words stands side by
 * side in it (a pair further apart earns less, see `proximityShare`).
 *
 * Measured on every shared set (2026-12-07, against 0.3 with every pair within the window counting
 * fully): with the 1/d² credit, 0.5-0.9 lift smart-tv Hit@1 by 5-7 questions net and galaxy-s10 by
 * one from 0.7, and move no other set's Hit@1; from 1.0 dev and m5stack each lose one.
 */
const PROXIMITY_WEIGHT = 0.8;
/** How many content words apart two question words may stand and still count as close. */
const PROXIMITY_WINDOW = 3;

/**
 * BM25 rewards a chunk that repeats one query word many times as much as one that contains all
 * of them, and it ignores word order; technicians' questions are short and every word counts.
 * Each candidate's score is therefore scaled by (a) the share of the question's content words it
 * contains (in its text, prefix or the matching table rows) and (b) the share of the question's
 * adjacent word pairs that also stand close together in the chunk ("power adapter", "USB port"):
 * a light form of the term-proximity features of classic IR rankers, which LanceDB's FTS does not
 * score (its phrase queries need positions and match all-or-nothing). Measured on the three
 * question sets, proximity lifts Smart TV Hit@1 from .617 to .648 and Galaxy from .74 to .76, and
 * leaves the board set as it was; a larger weight or window starts to hurt the board set. (That
 * was with every pair within the window counting fully; pairs now earn by distance, see
 * `proximityShare`, which takes a larger weight.)
 */
export function coverageRerank(hits: ChunkHit[], query: string, views: Map<string, ChunkRecord>): ChunkHit[] {
  const order = contentTerms(query);
  const terms = [...new Set(order)];
  if (terms.length < 2) return hits;
  const asked = new Set(terms);
  const sameText = new Map<string, string[]>();
  return hits
    .map((h, i) => {
      // 0 stays 0 whatever its words (see `byScore` in ./stage.ts).
      if (h.score === 0) return { h, i };
      const positions = termPositions(h.record, views.get(h.record.id)?.text ?? '', asked, sameText);
      const share = terms.filter((t) => positions.has(t)).length / terms.length;
      const factor = (COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * share) * (1 + PROXIMITY_WEIGHT * proximityShare(order, positions));
      return { h: { ...h, score: h.score * factor }, i };
    })
    .sort((a, b) => b.h.score - a.h.score || a.i - b.i)
    .map((x) => x.h);
}

/**
 * The content words of a record's indexed text and its matched view's text, in order, kept per
 * record object for as long as the record lives: one search scores the named documents'
 * passages twice (the passage-order stage, then this stage), and splitting the text into words
 * is most of this stage's time.
 */
const wordsByRecord = new WeakMap<object, { indexedText: string; viewText: string; words: string[] }>();

/**
 * Where each of the `asked` words stands among a record's content words (see `wordsByRecord`);
 * `sameText` holds the words already split in this reranking by text (sibling manuals repeat
 * passages word for word, and one question's hits are often copies of one passage).
 */
function termPositions(record: ChunkRecord, viewText: string, asked: ReadonlySet<string>, sameText: Map<string, string[]>): Map<string, number[]> {
  let have = wordsByRecord.get(record);
  if (!have || have.indexedText !== record.indexedText || have.viewText !== viewText) {
    const text = `${record.indexedText}\n${viewText}`;
    let words = sameText.get(text);
    // No underscore to replace first: content words never hold one, so it parts words as a space does.
    if (!words) sameText.set(text, (words = contentTerms(text)));
    have = { indexedText: record.indexedText, viewText, words };
    wordsByRecord.set(record, have);
  }
  // Only the question's words: a map of every word of a 3000-character chunk (~250 lists) was
  // most of the garbage this stage made.
  const positions = new Map<string, number[]>();
  have.words.forEach((t, k) => {
    if (!asked.has(t)) return;
    const list = positions.get(t);
    if (list) list.push(k);
    else positions.set(t, [k]);
  });
  return positions;
}

/**
 * How closely the question's adjacent term pairs stand in a chunk, from 0 to 1: each pair earns
 * 1/d² for the closest distance d between its two words, in content words (side by side d = 1,
 * one word between 1/4, two 1/9), nothing beyond `PROXIMITY_WINDOW`, and the pairs are averaged. The inverse square
 * is the decay of classic proximity rankers (Büttcher et al.'s BM25TP): a phrase of the question
 * ("recording time", "sound issues") counts fully where a chunk writes it as a phrase ("Changing
 * the recording time") and little where its two words only fall near each other. Counting every
 * pair within three words alike let a chunk that scatters the question's words rank with the one
 * that names its topic.
 */
export function proximityShare(order: readonly string[], positions: ReadonlyMap<string, readonly number[]>): number {
  let pairs = 0;
  let near = 0;
  for (let k = 0; k + 1 < order.length; k++) {
    if (order[k] === order[k + 1]) continue;
    pairs++;
    const a = positions.get(order[k]!);
    const b = positions.get(order[k + 1]!);
    if (!a || !b) continue;
    const d = closest(a, b);
    // d is at least 1 where each place holds one term (`termPositions`); a caller's lists that share
    // a place count as side by side rather than dividing by zero.
    if (d <= PROXIMITY_WINDOW) near += 1 / Math.max(1, d * d);
  }
  return pairs === 0 ? 0 : near / pairs;
}

/** The smallest distance between a position of `a` and one of `b` (both ascending, disjoint): one merge pass. */
function closest(a: readonly number[], b: readonly number[]): number {
  let best = Infinity;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    best = Math.min(best, Math.abs(a[i]! - b[j]!));
    if (a[i]! < b[j]!) i++;
    else j++;
  }
  return best;
}

/** `coverageRerank` as a stage: scored on the question without its model names. */
export const termCoverageStage: RankStage<'term-coverage'> = {
  name: 'term-coverage',
  describes: "scales each hit by the share of the question's words it contains and their proximity",
  run: (hits, ctx) => coverageRerank(hits, ctx.topical, ctx.matchedView),
};
