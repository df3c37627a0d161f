import cues from '../data/question-types.json';
import { contentTerms } from '../../enrich/text.util';
import type { ChunkHit } from '../../storage/chunk-store';
import { byScore, type RankStage } from './stage';

/**
 * Question-type cue: a question that asks for a value ("how much flash", "CPU frequency",
 * "battery capacity") is answered by a specification table or list more often than by the prose
 * that mentions the same words (an introduction, a tutorial step). Such questions give a hit
 * under a value heading (data/question-types.json: "Specifications", "Electrical
 * characteristics", ...) a share of extra score. Measured on every shared set: seeed-xiao .583 ->
 * .617, m5stack .617 -> .600 (one question whose top hit becomes the spec table row "Battery |
 * 200mAh" while the gold string is only the prose's "200mAh Li-po battery"), the others unchanged.
 */

/** Extra share of score for a value-stating hit when the question asks for a value. */
export const VALUE_SECTION_WEIGHT = 0.25;

const valuePhrases = cues.valueWords.map((w) => contentTerms(w).join(' ')).filter((w) => w !== '');
const valueHeadings = new Set(cues.valueHeadings.map((h) => contentTerms(h).join(' ')));

/** Whether the question asks for a value: one of its word runs is a value word. */
export function asksForValue(query: string): boolean {
  const text = ` ${query.toLowerCase().normalize('NFKC').replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
  const terms = ` ${contentTerms(query).join(' ')} `;
  return valuePhrases.some((p) => terms.includes(` ${p} `)) || cues.valueWords.some((w) => text.includes(` ${w} `));
}

/**
 * Whether a hit states values: it sits under a value heading. (Also counting any chunk that holds
 * a table lifted seeed-xiao less and cost m5stack and dev MRR: pin maps and version tables are
 * tables too.)
 */
export function statesValues(hit: ChunkHit): boolean {
  return hit.record.headingPath.some((h) => valueHeadings.has(contentTerms(h).join(' ')));
}

export function weighByQuestionType(hits: ChunkHit[], query: string, weight = VALUE_SECTION_WEIGHT): ChunkHit[] {
  if (!asksForValue(query)) return hits;
  return byScore(hits.map((h, i) => ({ hit: statesValues(h) ? { ...h, score: h.score * (1 + weight) } : h, i })));
}

export const questionTypeStage: RankStage<'question-type'> = {
  name: 'question-type',
  describes: 'a question asking for a value prefers hits under a specification heading or holding a table',
  run: (hits, ctx) => weighByQuestionType(hits, ctx.topical),
};
