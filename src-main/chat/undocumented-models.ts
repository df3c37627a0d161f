import type { ModelChoice } from '../contract/api';
import type { ModelVocabulary } from '../enrich/model-vocabulary';
import { contentTerms, isStopword, isUnitLike, joinable, modelTokens, nameKey, shortCapitals, unitOf, type ModelToken } from '../enrich/text.util';
import { analyzeQuery, modelNameShape, nameWords, readExtensions, type QueryAnalysis, type QueryMention } from '../search/query-analysis';
import { listNames, onceEach } from '../core/name-list';
import { askedKey, type UnknownModel } from './model-guard';
import { stem } from './text-terms';
import type { ChatIndex } from './retrieve';
import type { QuestionPlan } from './question-plan';
import { writtenOrSlipOf } from './topic-gate';

/**
 * Models the library mentions but has no manual for, though a manual of a model with a longer
 * name has ("S20+" beside the Galaxy S20+ 5G's manual): the question is answered for that model,
 * and says so (`readAsExtended` in question-plan.ts, the note in chat.service.ts); when several models'
 * manuals have such names ("Galaxy S20": the S20+ 5G's and the S20 Ultra 5G's), the reply asks
 * which one (`askBack`): before anything else when the question names no other model, else first
 * in the answer for the models it names (`withoutNames`, `questionBackNote`).
 */

/**
 * How many documented models a question back names at most. A name that begins a few models'
 * names is one model asked for without its last words ("Galaxy S20": the S20+ 5G or the S20 Ultra
 * 5G), and a technician picks one from a short list at a glance; a name that begins more is a
 * product line's name ("Galaxy"), which a search across its manuals answers better than a list.
 */
export const MAX_CANDIDATES = 5;

/**
 * The question's mentions of a model no manual is about whose name the words of documented
 * models' names begin (the library has the Galaxy S20+ 5G's manual, and mentions the S20+ only in
 * other manuals' text; `documentedExtensions`), as names the library has no manual for: with
 * exactly one such model (`fuller`: "S20+", "Galaxy S20 Plus"), answered for it, saying so; with
 * two to `MAX_CANDIDATES` (`ambiguous`: "Galaxy S20", the S20+ 5G and the S20 Ultra 5G), asked
 * back which one; in both cases rather than from whichever manual the search ranks first for a
 * model none is about. Not when the question names one of those models too ("the Foo X2 and the
 * Foo X2 Pro 5G" compares them). A name the question goes on writing (`goesOnWithName`: "Foo X2
 * Lite") is another model, kept as written with the word that goes on with it: the library has no
 * manual for it, and the mentioned model is not asked about (`family`, as with a family name and
 * a code after it). `index` gives the library's words; without them a lower-case word after a
 * name is read as the question's.
 */
export function undocumentedMentions(question: string, analysis: QueryAnalysis, vocabulary: ModelVocabulary, index: Pick<ChatIndex, 'libraryWords'> = {}): UnknownModel[] {
  const out: UnknownModel[] = [];
  // Each word read against the library's words once per question: the walk is over every word it
  // writes, and a question may repeat a name many times.
  const written = new Map<string, boolean>();
  const libraryWords = index.libraryWords;
  const writes = libraryWords
    ? (word: string): boolean => {
        let got = written.get(word);
        if (got === undefined) written.set(word, (got = libraryWrites(word, libraryWords())));
        return got;
      }
    : null;
  for (const m of analysis.mentions) {
    if (!analysis.models.includes(m.model)) continue;
    const read = readExtensions(question, m, vocabulary);
    // `readExtensions` reads no model when a word that may go on with the name follows it ("Foo
    // X2 Lite"): here, the models the name is read as had the question ended with it.
    const models = read.models.length > 0 ? read.models : readExtensions(question.slice(0, m.end), m, vocabulary).models;
    if (models.length === 0) continue;
    const next = wordAfter(question, m.end);
    // A name run into what follows ("Galaxy S20+5G") ends elsewhere than its mention: read as written.
    if (next === null && read.models.length === 0) continue;
    if (next !== null && goesOnWithName(question, m, next, vocabulary, writes)) {
      // Every word after that goes on with it too ("Foo X2 Mini 5G"), up to the first that is the question's.
      let end = next.end;
      for (let w = wordAfter(question, end); w !== null && goesOnWithName(question, { start: m.start, text: question.slice(m.start, end) }, w, vocabulary, writes); w = wordAfter(question, end)) end = w.end;
      const text = question.slice(m.start, end);
      out.push({ text, kind: 'sibling', key: askedKey(text, vocabulary).replace(/[^\p{L}\p{N}]/gu, ''), start: m.start, end, family: true });
      continue;
    }
    // In a fixed order, whatever order the vocabulary learned them in ("S9" before "S10").
    const fuller = models.map((e) => e.name).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    if (fuller.length > MAX_CANDIDATES || fuller.some((name) => analysis.models.includes(name))) continue;
    const unknown: UnknownModel = { text: m.text, kind: 'sibling', key: vocabulary.lookup(m.model)?.key ?? '', start: m.start, end: m.end };
    out.push(fuller.length === 1 ? { ...unknown, fuller: { mentioned: m.model, documented: fuller[0]! } } : { ...unknown, ambiguous: { mentioned: m.model, documented: fuller } });
  }
  return out;
}

/**
 * The word right after a name ending at `end` that may be one more word of it, as `readExtensions`
 * reads one: joined to it, no stopword; null when there is none, or the name runs into what follows.
 */
function wordAfter(question: string, end: number): ModelToken | null {
  const next = modelTokens(question).find((t) => t.start >= end);
  if (!next || next.start === end || next.kind !== 'word' || !joinable(question.slice(end, next.start)) || isStopword(next.norm)) return null;
  return next;
}

/**
 * Whether the word right after a mention of a model no manual is about (`m`, or its name with the
 * words read as going on with it so far) goes on with its name, making another model's ("Foo X2
 * Lite", "foo x2 lite", "Foo X2 Mini", "Foo X2 2", "Foo X2 Mini 5G"), rather than
 * saying what the question asks about it ("foo x2 battery", "foo x2 overheats", "Foo X2
 * Bluetooth"). Read from how the question writes it and what the library writes, in this order:
 * - a code or a number goes on with it, unless it is a quantity ("5V", "4 GB") in a unit no word
 *   of the library's model names is written in ("4G" goes on, as the Foo X2 Pro 5G's "5G");
 * - so does a word of the library's model names ("Mini", "Plus");
 * - a word the library writes, or a slip of typing of one ("batery"), is the question's: the
 *   manuals say it of their models ("Foo X2 Battery", "Bluetooth");
 * - a word written with a capital in a question not written in title case goes on with it, but a
 *   short word in capitals ("OK") where no model name of the library has such a word ("FE"): its
 *   capitals say nothing, as a lower-case word's case does not;
 * - without the library's words, a lower-case word is the question's;
 * - an inflected word (`inflected`: "overheats", "charging") is the question's, as is a lower-case
 *   word after a name the question writes with capitals ("Foo X2 overheat"): the question would
 *   write the name's words alike;
 * - else it goes on with the name ("foo x2 lite" where no manual writes "lite").
 */
function goesOnWithName(question: string, m: Pick<QueryMention, 'start' | 'text'>, word: ModelToken, vocabulary: ModelVocabulary, writes: ((word: string) => boolean) | null): boolean {
  const names = modelNameShape(vocabulary);
  if (/\p{N}/u.test(word.norm)) return !(isUnitLike(word.norm) && !names.units.has(unitOf(word.norm))) && !countedBy(question, word);
  if (word.norm === '+' || names.allWords.has(word.norm)) return true;
  if (writes?.(word.raw)) return false;
  // A short word in capitals ("OK") is as often one the question says ("Is Foo X2 OK?") as a
  // name's ("FE"): its capitals tell a name only where the library's model names have such words.
  const capital = /^\p{Lu}/u.test(word.raw) && !(shortCapitals(word.raw) && !names.hasShortCapitals);
  if (capital && !titleCased(question, m.start, word.end)) return true;
  if (!writes || inflected(word.norm)) return false;
  return capital || !modelTokens(m.text).some((t) => /^\p{Lu}\p{L}*$/u.test(t.raw));
}

/** Whether a number is a quantity by the unit after it ("4 GB", "2 A"), as `isUnitLike` reads a number and its unit written together. */
function countedBy(question: string, number: ModelToken): boolean {
  if (!/^\d+$/u.test(number.norm)) return false;
  const unit = modelTokens(question.slice(number.end))[0];
  return unit !== undefined && /^ +$/u.test(question.slice(number.end, number.end + unit.start)) && isUnitLike(number.norm + unit.norm);
}

/**
 * An inflected form, a verb's or a plural's ("overheats", "charging", "stopped", "buttons"): it
 * ends as inflections do and the stemmer cuts that ending. The words of a model's name do not
 * inflect; "plus", "iris" and "glass" end in an "s" that is no inflection.
 */
const INFLECTION = /(?:[^isu]s|ed|ing)$/u;

function inflected(word: string): boolean {
  return INFLECTION.test(word) && stem(word) !== word;
}

/** Share of a question's words inside sentences written with a capital above which case says nothing of names. */
const TITLE_CASE_SHARE = 0.5;

/**
 * Whether the question is written in title case ("How Do I Charge The Foo X2"), where a capital
 * says nothing of a name: more than half its words of letters inside sentences are capitalised,
 * the name read between `start` and `end` left out.
 */
function titleCased(question: string, start: number, end: number): boolean {
  const inner = modelTokens(question).filter((t) => /^\p{L}{2,}$/u.test(t.raw) && (t.end <= start || t.start >= end) && !/(?:^|[.!?:;"“‘([])\s*$/u.test(question.slice(0, t.start)));
  return inner.filter((t) => /^\p{Lu}/u.test(t.raw)).length > inner.length * TITLE_CASE_SHARE;
}

/** Whether the library's words (its term statistics' terms) have `word`, read as they are read (lower case, singular); a word no term is made of counts as written. */
function libraryWrites(word: string, libraryWords: Iterable<string>): boolean {
  const wanted = new Set(contentTerms(word));
  if (wanted.size === 0) return true;
  // Read through, not copied: a library has tens of thousands of words, and this is asked rarely.
  // A slip of typing of a library word ("foo x2 batery capacity?") is that word, the question's,
  // as the topic gate reads it (`writtenOrSlipOf`).
  for (const w of libraryWords) {
    for (const x of wanted) if (writtenOrSlipOf(x, w)) wanted.delete(x);
    if (wanted.size === 0) return true;
  }
  return false;
}

/**
 * An ambiguous name read as the one of its candidates the user picked as a model chip (`models`
 * of the conversation's scope): the chip says which model is asked about, as a reply naming it
 * would, so the name is answered for it (`fuller`), saying so. Chips naming several candidates
 * narrow the question back to them; the name as it was when they name none.
 */
export function chosenByChip(u: UnknownModel, chips: readonly string[]): UnknownModel {
  if (u.ambiguous === undefined || chips.length === 0) return u;
  const { mentioned, documented } = u.ambiguous;
  const chosen = documented.filter((d) => chips.some((c) => nameKey(c) === nameKey(d)));
  if (chosen.length === 0 || chosen.length === documented.length) return u;
  const { ambiguous: _asked, ...rest } = u;
  return chosen.length === 1 ? { ...rest, fuller: { mentioned, documented: chosen[0]! } } : { ...rest, ambiguous: { mentioned, documented: chosen } };
}

/** A question once its ambiguous names are asked back (`askBack`). */
export interface AskedBack {
  /** The whole reply when it is the question back alone: the question names no other model. */
  reply?: string;
  /** Each ambiguous name and its candidates, once however often the question writes it; empty when none. */
  clarify: ModelChoice[];
  /** The question to answer, its analysis and plan: without the ambiguous names when there were some. */
  asked: string;
  analysis: QueryAnalysis;
  plan: QuestionPlan;
}

/**
 * The question back for the plan's ambiguous names (a model no manual is about whose name begins
 * several documented models' names, "Galaxy S20": the S20+ 5G and the S20 Ultra 5G), decided
 * before any search or LLM: any manual the search ranks first would answer for a model the user
 * may not mean. Naming or picking one of them in the next question answers this one again for
 * it (`questionPicked`). A question naming other models besides ("Compare the battery of the Foo
 * X1 and the Bar Z5") is answered for those, as the question without the ambiguous names
 * (`withoutNames`, planned again by `planFor`), with the question back said first
 * (`questionBackNote`) and its candidates kept on the turn, so the picking buttons still show.
 */
export async function askBack(
  asked: string,
  analysis: QueryAnalysis,
  plan: QuestionPlan,
  planFor: (question: string, analysis: QueryAnalysis) => Promise<QuestionPlan>,
  vocabulary: ModelVocabulary,
): Promise<AskedBack> {
  const ambiguous = plan.unknown.filter((u) => u.ambiguous !== undefined);
  if (ambiguous.length === 0) return { clarify: [], asked, analysis, plan };
  // A name the question writes twice is asked about once: one row of candidate buttons.
  const clarify = onceEach(ambiguous, (u) => u.text).map((u) => ({ name: u.text, models: u.ambiguous!.documented }));
  const rest = withoutNames(asked, analysis, ambiguous);
  const restAnalysis = analyzeQuery(rest, vocabulary);
  const restPlan = restAnalysis.models.length === 0 ? null : await planFor(rest, restAnalysis);
  if (restPlan === null || restPlan.named.length === 0) {
    const reply = clarify.map((c) => `This library has no manual for ${c.name}. Which model: ${listNames(c.models, 'or')}?`).join('\n\n');
    return { reply, clarify, asked, analysis, plan };
  }
  return { clarify, asked: rest, analysis: restAnalysis, plan: restPlan };
}

/** The question back as said first in an answer for the other models the question names (`named`), worded as the note for a name read as one documented model. */
export function questionBackNote(clarify: readonly ModelChoice[], named: readonly string[]): string {
  return `${clarify.map((c) => `This library has no manual for ${c.name}: which model, ${listNames(c.models, 'or')}?`).join(' ')} Answering for ${listNames(named)}.`;
}

/** What joins a name to the model named beside it: a comma, a slash, "&", "and", "or", "vs", and a "the" after it. */
const JOINER = String.raw`\s*(?:,|\/|&|\band\b|\bor\b|\bvs\b\.?|\bversus\b)\s*(?:the\s+)?`;
const JOINER_BEFORE = new RegExp(`${JOINER}$`, 'i');
const JOINER_AFTER = new RegExp(`^${JOINER}`, 'i');

/**
 * The question without its ambiguous names, so it asks about the models it names besides them
 * ("Compare the battery of the Foo X1 and the Bar Z5" -> "Compare the battery of the Foo X1"):
 * searched and answered as that, with the question back said first. The word joining a name to
 * a model named beside it goes with it ("the Bar Z5 and the Foo X1" -> "the Foo X1"); a name in
 * the middle of a sentence leaves its words ("Does the Bar Z5 charger fit the Foo X1?" -> "Does
 * the charger fit the Foo X1?"). `ambiguous` are positions in `question`, as `analysis` read it.
 */
export function withoutNames(question: string, analysis: QueryAnalysis, ambiguous: readonly UnknownModel[]): string {
  const dropped = (m: QueryAnalysis['mentions'][number]): boolean => ambiguous.some((u) => m.start < u.end && m.end > u.start);
  const kept = analysis.mentions.filter((m) => analysis.models.includes(m.model) && !dropped(m));
  let text = question;
  // From the end, so the positions of the names before stay true.
  for (const u of [...ambiguous].sort((a, b) => b.start - a.start)) {
    const before = JOINER_BEFORE.exec(question.slice(0, u.start))?.[0] ?? '';
    const after = JOINER_AFTER.exec(question.slice(u.end))?.[0] ?? '';
    let start = u.start;
    let end = u.end;
    if (before !== '' && kept.some((m) => m.end === u.start - before.length)) start -= before.length;
    else if (after !== '' && kept.some((m) => m.start === u.end + after.length)) end += after.length;
    text = `${text.slice(0, start)}${text.slice(end)}`;
  }
  return text.replace(/\s{2,}/g, ' ').replace(/\s+([?.!,;:])/g, '$1').trim();
}

/**
 * The question a question back asked about, with the name it asked about written as the
 * candidate the reply picked ("Compare the battery of the Foo X1 and the Bar Z5" and "the Mini"
 * -> "... the Foo X1 and the Bar Z5 Mini 5G"): the other models it names stay asked about. Null
 * when no choice lists `model` or the question does not write that choice's name.
 */
export function questionPicked(question: string, choices: readonly ModelChoice[], model: string): string | null {
  for (const choice of choices) {
    if (!choice.models.includes(model)) continue;
    // Written whole, not inside a longer name ("Bar Z50"); every time the question writes it.
    const name = new RegExp(`(?<![\\p{L}\\p{N}])${choice.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}+])`, 'giu');
    if (name.test(question)) return question.replace(name, () => model);
  }
  return null;
}

/**
 * Whether a stored chunk is about `model` (its signature's model): a combined manual's section
 * ("## Foo X3" in a legacy guide) is, though no document is. The search is limited to that
 * model's chunks, so any hit is one; a failed search counts as one, which keeps the answer as it
 * was (from the search, for the model asked).
 */
export async function chunksAbout(index: Pick<ChatIndex, 'search'>, model: string): Promise<boolean> {
  const found = await index.search(model, { topK: 1, retriever: 'bm25', models: [model] });
  return !found.ok || found.value.results.length > 0;
}

/**
 * The candidate a reply to a question back names by the words that set it apart ("the Ultra" or
 * "the Plus" after "Which model: Galaxy S20 Ultra 5G or Galaxy S20+ 5G?"): the one candidate whose
 * name has every word of the reply but its stopwords. Null when no candidate or several have them
 * ("5G"), or the reply says anything else (then it is a question of its own; one naming a
 * candidate whole is a follow-up already, `followUpQuestion`).
 */
export function pickedCandidate(reply: string, choices: readonly ModelChoice[]): string | null {
  const words = modelTokens(reply)
    .filter((t) => !isStopword(t.norm))
    .flatMap((t) => nameWords(t.raw));
  if (words.length === 0) return null;
  const picked = new Set<string>();
  for (const choice of choices) {
    const names = choice.models.map((m) => new Set(nameWords(m)));
    const fits = choice.models.filter((_, i) => words.every((w) => names[i]!.has(w)));
    if (fits.length === 1) picked.add(fits[0]!);
  }
  return picked.size === 1 ? [...picked][0]! : null;
}
