import type { ChatTurn, ModelChoice } from '../../../src-main/contract/api';

/**
 * The candidates a transcript still asks the user to pick from: the `clarify` of its last turn
 * when that turn is an answer asking which model; else none. Only the last turn's count: the
 * engine reads a reply naming a candidate against the last answer's question back, so a pick under
 * an older one would re-ask a later question instead. Choices without candidates are left out.
 */
export function openQuestionBack(messages: readonly ChatTurn[] | undefined): ModelChoice[] {
  const last = messages?.at(-1);
  if (!last || last.role !== 'assistant' || !last.clarify) return [];
  return last.clarify.filter((c) => c.models.length > 0);
}
