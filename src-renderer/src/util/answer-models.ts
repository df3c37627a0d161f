import type { ChatTurn } from '../../../src-main/contract/api';
import { listNames, namesBesides } from '../../../src-main/core/name-list';

/**
 * What an answer's header says of the models it is for: `models` (it was answered for these),
 * `any` (answered, but from whichever model's manual matched best), or nothing.
 */
export type AnswerModels = { kind: 'models'; models: string[] } | { kind: 'any' } | null;

/**
 * The header's model line for an assistant turn. Nothing for a question back (its "Which model"
 * and its buttons say it; "no model" above "Answer for:" read as a contradiction) nor for any other
 * answer that found nothing: its own first sentence says why ("I found nothing about this"), and a
 * line about the question's models either repeated it or, under a question naming none, claimed
 * it named one; the names no manual is for have a line of their own (`modelsWithoutManual`). Old
 * turns do not say whether the question named a model no manual is for, so the `any` line is
 * worded to be true either way.
 */
export function answerModels(turn: ChatTurn): AnswerModels {
  if (turn.resolvedModels && turn.resolvedModels.length > 0) return { kind: 'models', models: turn.resolvedModels };
  if ((turn.clarify?.length ?? 0) > 0 || turn.mode === 'not-found') return null;
  return { kind: 'any' };
}

/**
 * The names the question wrote that no manual is for, as the header says them ("No manual for
 * ZX-900"): the turn's `unknownModels` (none on turns saved before it existed), but a name asked
 * back, whose question and candidate buttons say it already.
 */
export function modelsWithoutManual(turn: ChatTurn): string[] {
  return namesBesides(turn.unknownModels ?? [], (turn.clarify ?? []).map((c) => c.name));
}

/** Names as a sentence lists them: "A", "A and B", "A, B and C", as the engine's replies list them. */
export function listed(names: readonly string[]): string {
  return listNames(names);
}
