import type { ModelVocabulary } from '../enrich/model-vocabulary';
import type { ModelEntry } from '../enrich/model-vocabulary.types';
import { MAX_WINDOW } from '../enrich/model-keys';
import { joinable, modelTokens } from '../enrich/text.util';

/**
 * Query-side model detection: which of the library's models a question names, so retrieval can
 * prefer chunks whose CNM model matches. Tolerant of case, spacing, hyphens, "plus"/"+", vendor
 * words and revision suffixes (all handled by `ModelVocabulary.findMentions`); a question that
 * names no model yields no models, never a guess.
 */

export interface QueryMention {
  /** The words of the question that name the model. */
  text: string;
  /** Canonical model name (a variant such as "ESP32-S3-DevKitC-1 v1.1" when a known revision is named). */
  model: string;
  /** 0..1; short codes in lowercase ("x4") score lower since they also name other things. */
  confidence: number;
  /** Where the words stand in the question: character offsets, end exclusive. */
  start: number;
  end: number;
  /** The words name one member of a family known by a pattern ("LM7812A" of "LM78XX"): they stay in the question. */
  byPattern?: boolean;
}

export interface QueryAnalysis {
  mentions: QueryMention[];
  /** Distinct models named with confidence >= `minConfidence`, in question order. */
  models: string[];
  /** The named models' families (base, revisions, parent) not already in `models`, for soft matching. */
  related: string[];
}

export interface QueryAnalysisOptions {
  /** Mentions below this confidence stay in `mentions` but not in `models`; default 0.5. */
  minConfidence?: number;
}

/** Finds the models a question names. Pure and fast (no model, no I/O). */
export function analyzeQuery(query: string, vocabulary: ModelVocabulary, options: QueryAnalysisOptions = {}): QueryAnalysis {
  const min = options.minConfidence ?? 0.5;
  const mentions = vocabulary
    .findMentions(query)
    .map((m) => ({ text: m.text, model: m.model, confidence: m.confidence, start: m.start, end: m.end, ...(m.byPattern ? { byPattern: true } : {}) }))
    .map((m) => fullerName(query, m, vocabulary));
  const models: string[] = [];
  for (const m of mentions) if (m.confidence >= min && !models.includes(m.model)) models.push(m.model);
  const related: string[] = [];
  for (const model of models) {
    for (const f of vocabulary.familyOf(model)) if (!models.includes(f) && !related.includes(f)) related.push(f);
  }
  return { mentions, models, related };
}

/**
 * A mention of a name the library only mentions (no document is about it: "Galaxy S20", learned
 * from the text of other manuals), followed in the question by words that begin exactly one name
 * the library has documents for ("Galaxy S20 Ultra" before "Galaxy S20 Ultra 5G"): the question
 * asks about that one. The mention finder stops at the longest known name, which is the mentioned
 * one; the question's words after it say which documented model it is. The words after it extend
 * the mentioned model's key, not the mention's words: those may be a short alias ("S20") or carry
 * a vendor word ("Samsung S20 Ultra"), which documented keys never begin with.
 */
function fullerName(query: string, m: QueryMention, vocabulary: ModelVocabulary): QueryMention {
  if (m.byPattern) return m;
  const mentioned = vocabulary.lookup(m.model);
  if (!mentioned || mentioned.docCount > 0 || mentioned.revision !== null) return m;
  const toks = modelTokens(query).filter((t) => t.start >= m.end);
  let key = mentioned.key;
  let end = m.end;
  let found: { entry: ModelEntry; end: number } | null = null;
  // Only here (a name no document is about, rare in a question): every model, read once.
  const documented = vocabulary.models().filter((e) => e.docCount > 0 && e.revision === null);
  for (const t of toks.slice(0, MAX_WINDOW)) {
    if (t.kind !== 'word' || !joinable(query.slice(end, t.start))) break;
    key += t.norm;
    end = t.end;
    const fuller = documented.filter((e) => e.key.startsWith(key));
    if (fuller.length !== 1) break;
    found = { entry: fuller[0]!, end };
  }
  return found ? { ...m, model: found.entry.name, text: query.slice(m.start, found.end), end: found.end } : m;
}

/** How well a chunk's model answers a question's models: the same model, its family, or neither. */
export type ModelMatch = 'exact' | 'family' | 'none';

/**
 * Compares a chunk's signature model with the models a question names. 'family' covers another
 * revision of the same board and a product/member pair ("ROCK 5B" for a "ROCK 5B+" question);
 * siblings ("ZERO 3E" for "ZERO 3W") are 'none'.
 */
export function modelMatch(queryModels: readonly string[], chunkModel: string | null, vocabulary: ModelVocabulary): ModelMatch {
  if (!chunkModel || queryModels.length === 0) return 'none';
  let best: ModelMatch = 'none';
  for (const q of queryModels) {
    const r = vocabulary.relation(q, chunkModel);
    if (r === 'same') return 'exact';
    if (r === 'revision' || r === 'member') best = 'family';
  }
  return best;
}

/**
 * The question with every model name it mentions blanked out (they say which manual, not what),
 * except a family member's code ("LM7812A"), which says which part of the family's manual.
 */
export function withoutMentions(query: string, analysis: QueryAnalysis): string {
  let rest = query;
  for (const m of [...analysis.mentions].sort((a, b) => b.start - a.start)) if (!m.byPattern) rest = rest.slice(0, m.start) + ' ' + rest.slice(m.end);
  return rest;
}
