import type { ConversationScope, SearchHit, SearchResponse } from '../contract/api';
import type { Result } from '../core/result';
import { ok } from '../core/result';
import type { ModelVocabulary } from '../enrich/model-vocabulary';
import { modelTokens } from '../enrich/text.util';
import { modelMatch, withoutMentions, type QueryAnalysis } from '../search/query-analysis';
import type { SearchOptions } from '../search/searcher';
import { everyModelShown } from '../search/compared-models';
import type { Retriever } from '../core/vocabulary';
import type { ChunkRecord } from '../storage/chunk-store';
import type { QuestionPlan } from './question-plan';
import type { PagedText, Passage, PassageMember } from './passages';
import { locateMembers, pageLocator } from './passages';
import { splitSentences, terms } from './sentences';
import { synonymMap } from '../search/thesaurus';
import { ASKING_WORDS, questionKind, unitPatterns } from './question-kind';
import { HEADING_ONE_LINE } from '../enrich/chunk-view';
import { withoutCopies } from './passage-copies';
import { compoundParts, offLibrary, topicWordGroups, unsaidTopic, type UnsaidTopic } from './topic-gate';

/**
 * Retrieval for chat: model-aware search within the conversation's scope for the models a
 * question is about (its plan, `question-plan.ts`), and the relevance gate that decides between
 * answering and an honest "not found".
 */

/** What chat needs from a library's index (`chatIndexOf(LibraryIndex)` builds it). */
export interface ChatIndex {
  search(query: string, options: SearchOptions): Promise<Result<SearchResponse>>;
  /** The library's model vocabulary (read at each question, so imports are seen). */
  readonly vocabulary: ModelVocabulary;
  /** The library's retriever: hybrid once it has an embedder, else BM25 (read at each question). */
  readonly retriever: Retriever;
  /** A document's stored records; used to locate the members of merged units. */
  listChunks?(docId: string): Promise<ChunkRecord[]>;
  /** A document's text and its blocks' pages (null when not stored); used to cite a quoted line's own page. */
  pagedText?(docId: string): Promise<PagedText | null>;
  /** How many of the library's documents are ready (imported and indexed); undefined: not known. */
  readyDocuments?(): Promise<number>;
  /** The library's words (its term statistics' terms); used to tell a code the manuals mention. */
  libraryWords?(): Iterable<string>;
  /**
   * In how many of the library's passages a word (stemmed as `terms` stems it) occurs; undefined
   * when the library has no passage statistics.
   */
  passageFrequency?(term: string): number | undefined;
}

export interface RetrieveOptions {
  /** Hits fetched from the index (default 10). */
  topK?: number;
  /** Passages kept after the relevance gate (default 6). */
  maxPassages?: number;
  /** Share of the question's content words a passage must contain (default 0.4, at least one word). */
  minCoverage?: number;
}

export interface Retrieved {
  /** Relevant passages, best first; empty means "not found". */
  passages: Passage[];
  /** The models the answer is about: named, else inherited, else the scope's. */
  resolvedModels: string[];
  /** The scope's models, when the question names another model and is answered for it instead; else empty. */
  setAside: string[];
  /** The question's words no passage of the library holds, when that made the answer "not found" (`topic-gate.ts`); else empty. */
  unsaid: string[];
}

/** Passages of the asked model kept below the coverage gate when none of its passages clears it. */
const OWN_MODEL_RESCUE = 2;

/** Why dense search may be unavailable for a while; chat then searches by keywords. */
const VECTOR_TROUBLE: ReadonlySet<string> = new Set(['unavailable', 'model-missing', 'model-mismatch']);

/**
 * The search's thesaurus (`search/data/thesaurus.json`) as chat's `terms` reads words: a manual
 * says "LCD" where the question says "display", "screen" where it says "panel".
 */
const SYNONYMS = synonymMap(terms);

/** Whether a word occurs in the hit's text, title or section path, or a thesaurus word of it does, or its unit states it. */
function heldBy(hit: SearchHit, measured: ReadonlyMap<string, readonly RegExp[]> = new Map()): (t: string) => boolean {
  const have = new Set(terms(`${hit.title}\n${hit.headingPath.join('\n')}\n${hit.text}`));
  return (t) => have.has(t) || (SYNONYMS.get(t)?.some((s) => have.has(s)) ?? false) || (measured.get(t)?.some((re) => re.test(hit.text)) ?? false);
}

/** How many of `wanted` the hit holds (`heldBy`). */
function coverage(wanted: readonly string[], hit: SearchHit, measured: ReadonlyMap<string, readonly RegExp[]> = new Map()): number {
  return wanted.filter(heldBy(hit, measured)).length;
}


/** A model name's key without its revision: lowercase letters and digits of its word tokens. */
function nameKey(name: string): string {
  return modelTokens(name)
    .filter((t) => t.kind === 'word')
    .map((t) => t.norm)
    .join('');
}

/**
 * Whether two spellings name one model although the vocabulary keeps them apart: one is the
 * other with leading words that carry no digit (a maker's name the vocabulary did not learn as a
 * vendor: "Acme Pump X2" and "Pump X2").
 */
export function sameModelSpelled(a: string, b: string): boolean {
  const ka = nameKey(a);
  const kb = nameKey(b);
  if (ka === '' || kb === '') return false;
  const [long, short] = ka.length >= kb.length ? [ka, kb] : [kb, ka];
  return long.endsWith(short) && /^\p{L}*$/u.test(long.slice(0, long.length - short.length)) && /\p{N}/u.test(short);
}

/** Whether `model` is one of `asked`, of their family, or one of them spelled with a maker's name. */
export function isAskedModel(asked: readonly string[], model: string, vocabulary: ModelVocabulary): boolean {
  return modelMatch(asked, model, vocabulary) !== 'none' || asked.some((m) => sameModelSpelled(m, model));
}

/**
 * Whether a hit belongs to a sibling of the models asked about, so it must not be quoted: its
 * chunk model is another model, and neither its document's file name nor its title or section
 * path names one of the asked models. A chunk model the enrichment got wrong (a maker's name,
 * a spelling the vocabulary keeps apart) is then overruled by the document's own name.
 */
function isSiblings(models: readonly string[], hit: SearchHit, vocabulary: ModelVocabulary): boolean {
  const chunkModel = hit.signature.model;
  if (chunkModel === null) return false;
  if (modelMatch(models, chunkModel, vocabulary) !== 'none') return false;
  if (models.some((m) => sameModelSpelled(m, chunkModel))) return false;
  return !namedWhere(models, hit, vocabulary);
}

/**
 * Whether a hit's document file name, title or section path names one of `models` (or their
 * family). A file named for the hit's own chunk model, another than those asked, is that model's
 * manual, as its identity says: a title or section path naming an asked model does not make it
 * theirs (m5stickc_plus.md, a page copied from the M5StickC's with its "M5StickC" title kept,
 * gave the Plus's 120 mAh battery as the M5StickC's).
 */
export function namedWhere(
  models: readonly string[],
  hit: Pick<SearchHit, 'doc' | 'title' | 'headingPath'> & { signature?: Pick<SearchHit['signature'], 'model'> },
  vocabulary: ModelVocabulary,
): boolean {
  const fileName = (hit.doc.split('/').pop() ?? '').replace(/\.[^.]+$/, '').replace(/[_]+/g, ' ');
  const own = hit.signature?.model ?? null;
  if (own !== null && !isAskedModel(models, own, vocabulary)) {
    const byFile = vocabulary.findMentions(fileName).map((m) => m.model);
    if (byFile.includes(own) && !byFile.some((n) => isAskedModel(models, n, vocabulary))) return false;
  }
  const named = vocabulary.findMentions(`${fileName}\n${hit.title}\n${hit.headingPath.join('\n')}`).map((m) => m.model);
  return named.some((n) => isAskedModel(models, n, vocabulary));
}

/** A revision written after a model name ("V1.73", "v3.00", "Rev. B2"): it names a version, not another model. */
const REVISION = /^(?:v\d+(?:\.\d+)*[a-z]?|rev\.?\s*[a-z]?\d+(?:\.\d+)*)$/i;

/**
 * The question as the extractive answerer reads it: model names blanked (every passage is about
 * the model already), but a revision written with the name kept, since inside one model's manual
 * it is what tells the lines apart ("ROCK Pi E V3.00: what changed?" -> "  V3.00: what changed?").
 */
export function questionForLines(question: string, analysis: QueryAnalysis): string {
  let rest = question;
  for (const m of [...analysis.mentions].sort((a, b) => b.start - a.start)) {
    const named = new Set(m.model.toLowerCase().split(/\s+/));
    const kept = m.text.split(/\s+/).filter((t) => REVISION.test(t) && !named.has(t.toLowerCase()));
    rest = `${rest.slice(0, m.start)} ${kept.join(' ')} ${rest.slice(m.end)}`;
  }
  return rest;
}

/** Stemmed vendor sets by the vocabulary's `vendorWordSet` they were made from (one per vocabulary state). */
const stemmedVendors = new WeakMap<ReadonlySet<string>, ReadonlySet<string>>();

/** The question's content words outside model names and vendor words. */
export function topicTerms(question: string, analysis: QueryAnalysis, vocabulary: ModelVocabulary): string[] {
  const rest = withoutMentions(question, analysis);
  // Stemmed as the question's words are ("Sony" is "soni" there), so vendor words never count as topic.
  const words = vocabulary.vendorWordSet();
  let vendors = stemmedVendors.get(words);
  if (!vendors) {
    vendors = new Set([...words].flatMap((v) => terms(v)));
    stemmedVendors.set(words, vendors);
  }
  // Revisions ("v1.2") name a model's version, not the topic.
  return [...new Set(terms(rest).filter((t) => !vendors.has(t) && !/^v\d/.test(t)))];
}

/** What the topic gate reads of a question (`topic-gate.ts`): no word unsaid without passage statistics. */
function topicRead(index: ChatIndex, question: string, topic: readonly string[], measured: ReadonlyMap<string, readonly RegExp[]>, noted: ReadonlySet<string>): UnsaidTopic {
  const frequency = index.passageFrequency?.bind(index);
  if (!frequency) return { unsaid: [], names: [], counted: [] };
  // A word a value's unit says ("current" for "500mA") is stated though never written.
  const passageFrequency = (t: string): number | undefined => (measured.has(t) ? undefined : frequency(t));
  const libraryWords = index.libraryWords?.bind(index);
  return unsaidTopic(question, { topic, passageFrequency, synonyms: SYNONYMS, asking: ASKING_WORDS, noted, ...(libraryWords ? { libraryWords } : {}) });
}

/** Of every this many topic words of a question the library writes, a passage may lack one (`holdingTheRest`). */
const REST_SLACK = 3;

/**
 * The passages that hold the rest of the question, where one of its topic words is in no passage
 * at all: that word is missing from each passage, so the words the library does write must be
 * there for a passage to be about the question ("How do I set a custom ringtone for a contact?",
 * no manual writing "ringtone", is not answered by "Picture Size: Custom" sharing "set" and
 * "custom" but not "contact"). A passage may lack one of every three of them past the first
 * (a long question says things no one passage does), or only the most common of every three
 * (the passage names its subject by the question's rarer words). Words no passage holds and
 * words the library writes otherwise (a misspelling) are not asked for; a word a unit states
 * counts as the rarest. Only the words the gate counted are asked for: never a word the question
 * asks with ("fix", "troubleshoot"), which a passage about the subject need not write.
 */
function holdingTheRest(index: ChatIndex, hits: readonly SearchHit[], counted: readonly string[], measured: ReadonlyMap<string, readonly RegExp[]>): SearchHit[] {
  const frequency = (t: string): number => (measured.has(t) ? 0 : (index.passageFrequency?.(t) ?? 0));
  // A compound ("wi-fi") is one word of the question, held by a passage holding the parts of it
  // the library writes (the statistics count "wi" and "fi", never "wi-fi").
  const written = counted
    .map((t) => (measured.has(t) ? [t] : compoundParts(t).filter((p) => measured.has(p) || frequency(p) > 0)))
    .filter((parts) => parts.length > 0)
    .map((parts) => ({ parts, frequency: Math.min(...parts.map(frequency)) }))
    .sort((a, b) => a.frequency - b.frequency);
  if (written.length === 0) return [...hits];
  const rarer = written.slice(0, written.length - Math.floor(written.length / REST_SLACK));
  const need = written.length - Math.floor((written.length - 1) / REST_SLACK);
  return hits.filter((hit) => {
    const held = heldBy(hit, measured);
    const holding = (words: typeof written): number => words.filter((w) => w.parts.every(held)).length;
    return holding(written) >= need || holding(rarer) >= rarer.length;
  });
}

/**
 * Searches within the scope and keeps the passages that clear the relevance gate: enough of the
 * question's words, and (when the question is about models) a chunk of those models, their
 * family, or of no model; never a sibling model's manual.
 */
export async function retrieve(
  index: ChatIndex,
  question: string,
  analysis: QueryAnalysis,
  plan: QuestionPlan,
  scope: ConversationScope,
  options: RetrieveOptions = {},
): Promise<Result<Retrieved>> {
  const topK = options.topK ?? 10;
  const picked = scope.models && scope.models.length > 0 ? scope.models : [];
  // A picked chip wins over the conversation's memory, but a question that names another model
  // (not the chip's, nor of its family) asks about that one: it is answered for it, and says so.
  // The chips the question also names are not set aside ("Compare the E20C and the E52C" with
  // the E20C's chip is answered for both, and says nothing of the chip).
  const elsewhere = plan.named.some((n) => !isAskedModel(picked, n, index.vocabulary));
  const setAside = elsewhere ? picked.filter((p) => !plan.named.some((n) => isAskedModel([n], p, index.vocabulary))) : [];
  const scoped = elsewhere ? [] : picked;
  const searchOptions: SearchOptions = {
    topK,
    retriever: index.retriever,
    analysis,
    ...(scoped.length > 0 ? { models: scoped } : {}),
    ...(plan.inherited.length > 0 ? { preferModels: plan.inherited } : {}),
    ...(scope.docIds && scope.docIds.length > 0 ? { docIds: scope.docIds } : {}),
  };
  let found = await index.search(question, searchOptions);
  // Vectors that cannot be used right now (embedder missing, re-embed pending) never stop chat:
  // it answers from keyword search meanwhile.
  if (!found.ok && searchOptions.retriever !== 'bm25' && VECTOR_TROUBLE.has(found.error.code)) found = await index.search(question, { ...searchOptions, retriever: 'bm25' });
  if (!found.ok) return found;
  const resolvedModels = plan.named.length > 0 ? plan.named : plan.inherited.length > 0 ? plan.inherited : scoped;

  const vocabulary = index.vocabulary;
  const wanted = topicTerms(question, analysis, vocabulary);
  const groups = topicWordGroups(wanted);
  const need = groups.length === 0 ? 0 : Math.max(1, Math.ceil(groups.length * (options.minCoverage ?? 0.4)));
  const results = resolvedModels.length > 0 ? found.value.results.filter((hit) => !isSiblings(resolvedModels, hit, vocabulary)) : found.value.results;
  // A question word a value's unit says ("frequency" for "@240 MHz"; not for a how-to question, as
  // in the extractive answer): a specification table states the value and never the word.
  const measured = questionKind(question).steps ? new Map<string, RegExp[]>() : unitPatterns(wanted);
  let kept = results.filter((hit) => {
    const held = heldBy(hit, measured);
    return groups.filter((g) => g.some(held)).length >= need;
  });
  // A question naming none of the library's models, about something no passage of it holds
  // (`topic-gate.ts`), is answered "not found" whatever its other words share with the manuals.
  // A product code no manual mentions is said before the answer instead (`plan.unmentioned`).
  if (plan.named.length === 0 && kept.length > 0) {
    const noted = new Set(plan.unmentioned.flatMap((u) => u.text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}+]*/gu) ?? []));
    const topic = topicRead(index, question, wanted, measured, noted);
    const off = offLibrary(topic);
    if (off.length > 0) return ok({ passages: [], resolvedModels, setAside, unsaid: off });
    if (topic.unsaid.length > 0) {
      kept = holdingTheRest(index, kept, topic.counted, measured);
      if (kept.length === 0) return ok({ passages: [], resolvedModels, setAside, unsaid: topic.unsaid });
    }
  }
  // The asked model's own manual says it in its own words ("Power on: click the reset button"
  // for "turn it on"): when none of its passages clears the gate while pages of no model do,
  // its best few that share a word with the question stay, in search order. Only for a model
  // the question names or the user picked: a model kept from the previous question may not be
  // what this one asks about ("What fuse does the ZX-900 take?" after a RAC-225B question).
  const own = (hit: SearchHit): boolean => modelMatch(resolvedModels, hit.signature.model, vocabulary) === 'exact';
  if (plan.inherited.length === 0 && resolvedModels.length > 0 && !kept.some(own)) {
    const rescued = new Set(results.filter((hit) => own(hit) && coverage(wanted, hit) >= Math.min(need, 1)).slice(0, OWN_MODEL_RESCUE));
    if (rescued.size > 0) kept = results.filter((hit) => rescued.has(hit) || kept.includes(hit));
  }
  // A section the manual prints twice is quoted from once, and so is one a sibling's manual
  // repeats word for word after the asked model's copy (`withoutCopies`).
  kept = withoutCopies(kept, resolvedModels.length > 0 ? own : undefined);
  const maxPassages = options.maxPassages ?? 6;
  // Comparing models (named, kept from the previous question, or picked), each one's best passage
  // is among those quoted.
  if (resolvedModels.length >= 2) kept = everyModelShown(kept, resolvedModels, maxPassages, (hit) => hit.signature.model, { same: (m, own) => vocabulary.relation(m, own) === 'same' });
  // A section's lead sentence gives way to its subsection found next (`subsectionFirst`).
  kept = subsectionFirst(kept);
  const passages = await withMembers(index, kept.slice(0, maxPassages));
  return ok({ passages, resolvedModels, setAside, unsaid: [] });
}


/**
 * Whether a passage is only its section's lead: under its heading, at most one sentence of prose
 * (a title or menu path line aside), no list, table or code, and no heading of a subsection ("###
 * I Can't Hear the Sound Clearly" and "When the TV has difficulties with sound, these steps may
 * help resolve the problem."). Such a line says what the section is about; its subsections say
 * what to do. Sentences are read as the answer reads them (`splitSentences`): several in one
 * line are several.
 */
export function leadOnly(text: string): boolean {
  const lines = text.split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  const body = first >= 0 && HEADING_ONE_LINE.test(lines[first]!.trim()) ? lines.slice(first + 1) : lines;
  if (body.some((l) => HEADING_ONE_LINE.test(l.trim()))) return false;
  const units = splitSentences(body.join('\n'));
  return units.every((u) => u.kind === 'prose') && units.filter((u) => !u.title).length <= 1;
}

/** Whether `inner` is from a subsection of `outer`'s section: same document, its heading path extends `outer`'s. */
function isSubsection(inner: Pick<SearchHit, 'doc' | 'headingPath'>, outer: Pick<SearchHit, 'doc' | 'headingPath'>): boolean {
  const a = outer.headingPath;
  const b = inner.headingPath;
  return inner.doc === outer.doc && a.length > 0 && b.length > a.length && a.every((h, i) => b[i] === h);
}

/**
 * The hits with a first hit that is only its section's lead (`leadOnly`) placed after the next
 * hit when that one is from a subsection of it: the answer leads with its best passage, and the
 * lead ("these steps may help resolve the problem") leaves the steps to the subsection. Only the
 * next hit: a subsection found further down is a weaker match. Measured on all six sets: smart-tv
 * +4 first lines, no question lost (a subsection anywhere in the first three or four would have
 * moved one seeed-xiao first line the other way, on a replay of the passages).
 */
export function subsectionFirst<T extends Pick<SearchHit, 'doc' | 'headingPath' | 'text'>>(hits: readonly T[]): T[] {
  const [first, second, ...rest] = hits;
  if (!first || !second || !leadOnly(first.text) || !isSubsection(second, first)) return [...hits];
  return [second, first, ...rest];
}

/**
 * Attaches member spans to merged units (ids with `+`; plain chunks have none), and to a passage
 * that spans pages the page map that cites each quoted line's own page.
 */
async function withMembers(index: ChatIndex, hits: SearchHit[]): Promise<Passage[]> {
  const byDoc = new Map<string, Promise<ChunkRecord[]>>();
  const paged = new Map<string, Promise<PagedText | null>>();
  const once = <T>(cache: Map<string, Promise<T>>, doc: string, load: () => Promise<T>): Promise<T> => {
    let got = cache.get(doc);
    if (!got) {
      got = load();
      cache.set(doc, got);
    }
    return got;
  };
  const out: Passage[] = [];
  for (const hit of hits) {
    let members: PassageMember[] = [];
    if (hit.chunkId.includes('+') && index.listChunks) {
      const listChunks = index.listChunks.bind(index);
      const record = (await once(byDoc, hit.doc, () => listChunks(hit.doc))).find((r) => r.id === hit.chunkId);
      members = record ? locateMembers(record) : [];
    }
    const doc = hit.pages.length > 1 && index.pagedText ? await once(paged, hit.doc, () => index.pagedText!(hit.doc)) : null;
    out.push(doc ? { hit, members, pagesAt: pageLocator(hit, members, doc) } : { hit, members });
  }
  return out;
}
