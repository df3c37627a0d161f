import type { RankStageName } from '../../core/vocabulary';
import { answerLineStage } from './answer-line.stage';
import { documentNamesStage } from './document-names.stage';
import { headingMatchStage } from './heading-match.stage';
import { modelWeightStage } from './model-weight.stage';
import { passageOrderStage } from './passage-order.stage';
import type { RankStage } from './stage';
import { tableViewsStage } from './table-views.stage';
import { termCoverageStage } from './term-coverage.stage';

/**
 * The ranking stages after candidate generation, in the order they run. A new stage (a reranker,
 * a new signal) is one file in this folder and one entry here; `SearchOptions.stages` picks a
 * subset by name (the default is all of them), which is how an ablation switches one off.
 */
export const RANK_STAGES = [tableViewsStage, termCoverageStage, modelWeightStage, documentNamesStage, passageOrderStage, answerLineStage, headingMatchStage] as const;

/** The name of a ranking stage (the list in core/vocabulary.ts names the same stages in the same order). */
export type StageName = (typeof RANK_STAGES)[number]['name'];
// Compile-time check that core's list and the stages here name the same stages.
const sameNames: [StageName, RankStageName] extends [RankStageName, StageName] ? true : never = true;
void sameNames;

/** Every stage name, in running order. */
export const STAGE_NAMES: readonly StageName[] = RANK_STAGES.map((s) => s.name);

/** The stages to run, in running order: those named in `enabled` (all when absent). */
export function stagesFor(enabled?: readonly StageName[]): RankStage[] {
  return enabled ? RANK_STAGES.filter((s) => enabled.includes(s.name)) : [...RANK_STAGES];
}

export type { RankContext, RankStage } from './stage';
