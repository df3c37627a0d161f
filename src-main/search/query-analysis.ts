import type { ModelVocabulary } from '../enrich/model-vocabulary';
import type { ModelEntry } from '../enrich/model-vocabulary.types';
import { MAX_WINDOW } from '../enrich/model-keys';
import { isStopword, isUnitLike, joinable, modelTokens, shortCapitals, unitOf } from '../enrich/text.util';

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
 * the mentioned model's name, not the mention's words: those may be a short alias ("S20") or carry
 * a vendor word ("Samsung S20 Ultra"), which documented names never begin with. Names are compared
 * word by word (`nameWords`), so "Pi 4" never begins "Pi 400".
 */
function fullerName(query: string, m: QueryMention, vocabulary: ModelVocabulary): QueryMention {
  const mentioned = undocumented(m, vocabulary);
  if (!mentioned) return m;
  const toks = modelTokens(query).filter((t) => t.start >= m.end);
  const words = nameWords(mentioned.name);
  let end = m.end;
  let found: { entry: ModelEntry; end: number } | null = null;
  const { documented } = documentedNames(vocabulary);
  for (const t of toks.slice(0, MAX_WINDOW)) {
    if (t.kind !== 'word' || !joinable(query.slice(end, t.start))) break;
    words.push(...wordsOf(t.norm));
    end = t.end;
    const fuller = documented.filter((d) => beginsWith(d.words, words));
    if (fuller.length !== 1) break;
    found = { entry: fuller[0]!.entry, end };
  }
  if (found) return { ...m, model: found.entry.name, text: query.slice(m.start, found.end), end: found.end };
  const shared = sharedWordsEnd(query, m, vocabulary);
  return shared > m.end ? { ...m, text: query.slice(m.start, shared), end: shared } : m;
}

/**
 * Where a mention of a model no document is about ends with the words after it that every
 * documented model its name begins has after its words ("5G" of "Galaxy S20 5G" when the S20+ 5G
 * and the S20 Ultra 5G are the ones): they say nothing about which, so the question's name is the
 * mentioned model's, written longer, and is read (answered for the one, or asked back) as the
 * mentioned name alone would be. `m.end` when no such word follows.
 */
function sharedWordsEnd(query: string, m: QueryMention, vocabulary: ModelVocabulary): number {
  const mentioned = undocumented(m, vocabulary);
  const fuller = mentioned ? extendingModels(mentioned, vocabulary) : [];
  if (fuller.length === 0) return m.end;
  const length = nameWords(mentioned!.name).length;
  const tails = fuller.map((d) => new Set(d.words.slice(length)));
  let end = m.end;
  for (const t of modelTokens(query).filter((tok) => tok.start >= m.end).slice(0, MAX_WINDOW)) {
    // A name run into what follows ("Galaxy S20+5G") is read as written (`documentedExtensions`).
    if (t.kind !== 'word' || t.start === m.end || !joinable(query.slice(end, t.start))) break;
    if (!wordsOf(t.norm).every((w) => tails.every((tail) => tail.has(w)))) break;
    end = t.end;
  }
  return end;
}

/** The vocabulary's entry of a mention's model when no document is about it (not a revision, not a pattern's member); else null. */
function undocumented(m: QueryMention, vocabulary: ModelVocabulary): ModelEntry | null {
  if (m.byPattern) return null;
  const mentioned = vocabulary.lookup(m.model);
  return mentioned && mentioned.docCount === 0 && mentioned.revision === null ? mentioned : null;
}

/** A model some document is about (revisions aside: those a question's name can be extended to), with its name's words. */
interface DocumentedName {
  entry: ModelEntry;
  /** `nameWords(entry.name)`. */
  words: string[];
}

/** What the name extension reads of a vocabulary: the same for every question until a document is added or removed. */
interface DocumentedNames {
  documented: DocumentedName[];
  /** Every word of the library's model names, digits and "+" included ("galaxy", "s20", "+", "5g", "mini"). */
  allWords: ReadonlySet<string>;
  /** `allWords` without digits and "+" ("galaxy", "ultra", "mini"): those a word goes on with a name by alone. */
  nameWords: ReadonlySet<string>;
  /** Units of the quantities written as words of the names ("g" of "5g"): a quantity in another unit goes on with no name. */
  units: ReadonlySet<string>;
  /** Whether a word of a name after its first is a short one in capitals ("Galaxy S20 FE", "Bar Z5 GT"). */
  hasShortCapitals: boolean;
}

/**
 * `DocumentedNames` by the `vendorWords` array of the vocabulary state they were made from: the
 * vocabulary hands out the same array until a document is added or removed, so a question reads
 * every model once per state of the library, not once per mention.
 */
const documentedNamesOf = new WeakMap<readonly string[], DocumentedNames>();

function documentedNames(vocabulary: ModelVocabulary): DocumentedNames {
  const state = vocabulary.vendorWords();
  let names = documentedNamesOf.get(state);
  if (!names) {
    const models = vocabulary.models();
    const allWords = new Set(models.flatMap((e) => nameWords(e.name)));
    names = {
      documented: models.filter((e) => e.docCount > 0 && e.revision === null).map((entry) => ({ entry, words: nameWords(entry.name) })),
      allWords,
      nameWords: new Set([...allWords].filter((w) => !/\p{N}/u.test(w) && w !== '+')),
      units: new Set([...allWords].filter(isUnitLike).map(unitOf)),
      hasShortCapitals: models.some((e) => modelTokens(e.name).slice(1).some((t) => t.kind === 'word' && shortCapitals(t.raw))),
    };
    documentedNamesOf.set(state, names);
  }
  return names;
}

/**
 * What a word after a name is read by (`goesOnWithName` in chat/undocumented-models.ts): the
 * names' words, the units their quantities are written in, and whether a name has a short word
 * in capitals; the same for every question until a document is added or removed.
 */
export function modelNameShape(vocabulary: ModelVocabulary): Pick<DocumentedNames, 'allWords' | 'units' | 'hasShortCapitals'> {
  return documentedNames(vocabulary);
}

/**
 * The documented models whose names are the words of `mentioned` (a model no document is about)
 * and more; none when `mentioned` is a member of a product (whose manuals are about it) or one of
 * them is of its family (answered as one already, `modelMatch`).
 */
function extendingModels(mentioned: ModelEntry, vocabulary: ModelVocabulary): DocumentedName[] {
  // A member ("ROCK 4C" of the ROCK 4) has its parent's manuals, which are about it.
  if (mentioned.kind !== 'product') return [];
  const words = nameWords(mentioned.name);
  const fuller = documentedNames(vocabulary).documented.filter((d) => beginsWith(d.words, words));
  const unrelated = fuller.every((d) => ['none', 'sibling'].includes(vocabulary.relation(mentioned.name, d.entry.name)));
  return unrelated ? fuller : [];
}

/**
 * A token's key as words of a name: a "+" ending is a word of its own, as "Plus" written apart
 * already is ("s20+" -> "s20", "+"), so "S20+" and "S20 Plus" read alike and "S20" begins neither
 * as a word ("s20" is not "s20+").
 */
function wordsOf(norm: string): string[] {
  const plus = /^(.*?[^+])(\++)$/u.exec(norm);
  return plus ? [plus[1]!, ...plus[2]!.split('')] : [norm];
}

/** A model name's words as `wordsOf` reads them ("Galaxy S20+ 5G" -> galaxy, s20, +, 5g). */
export function nameWords(name: string): string[] {
  return modelTokens(name)
    .filter((t) => t.kind === 'word')
    .flatMap((t) => wordsOf(t.norm));
}

/** Whether `words` are the first words of `name` (whole words: "x2" does not begin "x20"). */
function beginsWith(name: readonly string[], words: readonly string[]): boolean {
  return words.length > 0 && words.length <= name.length && words.every((w, i) => name[i] === w);
}

/** The documented models a mention's name may be read as (`documentedExtensions`). */
export interface DocumentedExtensions {
  /** The documented models, in the vocabulary's order; empty when the question's name is none of theirs. */
  models: ModelEntry[];
}

/**
 * The models with documents whose names are a mention's model with more words after it ("Galaxy
 * S20+ 5G" for "S20+", a name only other manuals write; the S20+ 5G and the S20 Ultra 5G for
 * "Galaxy S20"), when no document is about the mentioned model and the question's name ends
 * there: the next word, joined to the mention, is no word of the library's model names and has no
 * digit or capital ("Foo X2 Mini" names another model, which the Foo X2 Pro 5G is not). Empty when
 * the mentioned model has documents, when its name begins none, when it is a member of a product
 * (whose manuals are about it), or when one of them is of its family (answered as one already,
 * `modelMatch`). Whether a stored chunk is about the mentioned model (a section of a combined
 * manual) the index knows, not the vocabulary: chat asks it (`confirmUnknown`).
 */
export function readExtensions(query: string, m: QueryMention, vocabulary: ModelVocabulary): DocumentedExtensions {
  const none: DocumentedExtensions = { models: [] };
  const mentioned = undocumented(m, vocabulary);
  if (!mentioned) return none;
  const next = modelTokens(query).find((t) => t.start >= m.end);
  // A name run into what follows ("Galaxy S20+5G") ends elsewhere than its mention: read as written.
  if (next && next.start === m.end) return none;
  if (next && next.kind === 'word' && joinable(query.slice(m.end, next.start)) && !isStopword(next.norm)) {
    // The name goes on ("Foo X2 Mini", "Foo X2 Lite", "Foo X2 2"): a word with a digit, a capital,
    // or of the library's model names names another model, which the documented one is not. A
    // lower-case word no model name has ("lite", "battery") the library's words tell: chat asks
    // them (`goesOnWithName` in undocumented-models.ts).
    if (/\p{N}/u.test(next.norm) || /\p{Lu}/u.test(next.raw) || documentedNames(vocabulary).nameWords.has(next.norm)) return none;
  }
  const models = extendingModels(mentioned, vocabulary).map((d) => d.entry);
  return models.length > 0 ? { models } : none;
}

/** `readExtensions`' models: those the question's name may be read as, as far as the vocabulary tells. */
export function documentedExtensions(query: string, m: QueryMention, vocabulary: ModelVocabulary): ModelEntry[] {
  return readExtensions(query, m, vocabulary).models;
}

/**
 * The one model with documents whose name is a mention's model with more words after it
 * (`documentedExtensions`); null when there is none or several ("Galaxy S20": the S20+ 5G and the
 * S20 Ultra 5G).
 */
export function documentedExtension(query: string, m: QueryMention, vocabulary: ModelVocabulary): ModelEntry | null {
  const fuller = documentedExtensions(query, m, vocabulary);
  return fuller.length === 1 ? fuller[0]! : null;
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
