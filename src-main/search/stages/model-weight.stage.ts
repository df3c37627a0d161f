import type { ModelVocabulary } from '../../enrich/model-vocabulary';
import type { ChunkHit } from '../../storage/chunk-store';
import { modelMatch, type QueryAnalysis } from '../query-analysis';
import { byScore, type RankStage } from './stage';

/**
 * Share of its score a hit keeps, by how its chunk's model relates to the models the question
 * names: the same model, its family, no model at all, or another model. Applied once per search.
 */
export const SCORE_KEPT_BY_MODEL = { exact: 1, family: 0.85, noModel: 0.6, otherModel: 0.3 } as const;
/** Extra share of score for a chunk naming every model of a multi-model question. */
export const ALL_MODELS_BONUS = 0.3;
/** Extra share of score for a chunk of the page whose title names the question's model. */
const MODEL_PAGE_BONUS = 0.25;

/**
 * Model-aware ranking: when the question names a model, each hit's score is weighted by how its
 * chunk's model relates to the named one: the same model keeps its score, its family (another
 * revision, a "+" member, the series page) keeps most of it, chunks without a model less, and
 * chunks of a different model are demoted hard. A weight, not a strict tier, so a strong passage
 * on the series page still beats a passing mention on the exact model's page. Two lighter signals
 * follow the same idea:
 * - a question naming several models ("Can I plug a CM5 into the CM3 IO board?") is about how
 *   they relate, so chunks that name all of them are preferred;
 * - a page whose title names the model (its overview page in a docs site) is the model's
 *   reference, preferred over a page on another topic that mentions it in passing.
 * Without a named model, order is unchanged. Stubs (no text or title yet) get the model weight
 * alone, which is what candidate selection uses.
 */
export function weighByModel(hits: ChunkHit[], analysis: QueryAnalysis, vocabulary: ModelVocabulary): ChunkHit[] {
  if (analysis.models.length === 0) return hits;
  const weight = (h: ChunkHit): number => {
    if (!h.record.model) return SCORE_KEPT_BY_MODEL.noModel;
    const match = modelMatch(analysis.models, h.record.model, vocabulary);
    return match === 'none' ? SCORE_KEPT_BY_MODEL.otherModel : SCORE_KEPT_BY_MODEL[match];
  };
  const namesAll = (h: ChunkHit): boolean => {
    if (analysis.models.length < 2) return false;
    const named = new Set(vocabulary.findMentions(h.record.text).map((m) => m.model));
    return analysis.models.every((m) => named.has(m));
  };
  const titled = new Map<string, boolean>();
  const titleNamesModel = (h: ChunkHit): boolean => {
    let named = titled.get(h.record.docId);
    if (named === undefined) {
      named = vocabulary.findMentions(h.record.headingPath[0] ?? '').some((m) => analysis.models.includes(m.model));
      titled.set(h.record.docId, named);
    }
    return named;
  };
  return byScore(
    hits.map((h, i) => {
      // 0 stays 0 whatever its model (see `byScore`).
      if (h.score === 0) return { hit: h, i };
      const bonus = (namesAll(h) ? 1 + ALL_MODELS_BONUS : 1) * (titleNamesModel(h) ? 1 + MODEL_PAGE_BONUS : 1);
      return { hit: { ...h, score: h.score * weight(h) * bonus }, i };
    }),
  );
}

/** `weighByModel` as a stage. */
export const modelWeightStage: RankStage<'model-weight'> = {
  name: 'model-weight',
  describes: "weights each hit by how its chunk's model relates to the models the question names",
  run: (hits, ctx) => weighByModel(hits, ctx.analysis, ctx.vocabulary),
};
