import type { ChatTurn } from '../contract/api';
import type { ModelVocabulary } from '../enrich/model-vocabulary';
import { analyzeQuery, type QueryAnalysis } from '../search/query-analysis';
import { topicTerms } from './retrieve';

/**
 * Elliptical follow-ups: "and the ESP32C3?" after "How much current can the 3V3 pin of the XIAO
 * SAMD21 supply?" names a model and nothing else, so searched as typed it finds nothing. Such a
 * question asks the last question that had a topic again, for the model it names: the earlier
 * question with its model names replaced by the new one.
 */

/** What joins model names into one list: a comma, a slash, "&", "and", "or", "vs". */
const LIST_JOINER = /^\s*(?:,|\/|&|and|or|vs\.?|versus)?\s*(?:(?:and|or)\s+)?(?:the\s+)?$/i;

/** Earlier user turns looked at for the topic (a chain of "and the X?" questions reaches back). */
const LOOK_BACK = 6;

/**
 * The question to answer for `question` in a conversation: `null` when it stands on its own (it
 * has words of a topic, or names no model, or nothing earlier had a topic), else the last earlier
 * question with a topic, asked for the models this one names.
 */
export function followUpQuestion(question: string, analysis: QueryAnalysis, vocabulary: ModelVocabulary, history: readonly ChatTurn[]): string | null {
  const named = modelMentions(analysis);
  if (named.length === 0 || topicTerms(question, analysis, vocabulary).length > 0) return null;
  const asked = named.map((m) => m.text).join(' and ');
  const earlier = history.filter((t) => t.role === 'user').slice(-LOOK_BACK).reverse();
  for (const turn of earlier) {
    const before = analyzeQuery(turn.text, vocabulary);
    if (topicTerms(turn.text, before, vocabulary).length === 0) continue;
    const theirs = modelMentions(before).sort((a, b) => a.start - b.start);
    if (theirs.length === 0) return `${turn.text.trim()} (${asked})`;
    // Names joined as a list ("A or B", "A, B and C") are one place: the new name takes the first
    // such place, the others go ("A or B: fuse?" -> "C: fuse?").
    const places: { start: number; end: number }[] = [];
    for (const m of theirs) {
      const last = places[places.length - 1];
      if (last && LIST_JOINER.test(turn.text.slice(last.end, m.start))) last.end = m.end;
      else places.push({ start: m.start, end: m.end });
    }
    let text = turn.text;
    for (const [k, p] of [...places.entries()].reverse()) text = `${text.slice(0, p.start)}${k === 0 ? asked : ''}${text.slice(p.end)}`;
    return text.replace(/\s{2,}/g, ' ').trim();
  }
  return null;
}

/** The mentions that name one of the question's models (not the low-confidence ones). */
function modelMentions(analysis: QueryAnalysis): QueryAnalysis['mentions'] {
  return analysis.mentions.filter((m) => analysis.models.includes(m.model));
}
