import type { SearchHit, SearchResponse } from '../contract/api';
import { pageRange } from '../core/chunk';
import type { Result } from '../core/result';
import { MAX_TOP_K, type Retriever } from '../core/vocabulary';
import { ok } from '../core/result';
import type { ModelVocabulary } from '../enrich/model-vocabulary';
import type { ChunkFilter, ChunkHit, ChunkRecord, ChunkStore } from '../storage/chunk-store';
import { analyzeQuery, type QueryAnalysis } from './query-analysis';
import { stagesFor, type RankContext, type StageName } from './stages';
import { weighByModel } from './stages/model-weight.stage';
import type { DocumentEvidence } from './document-evidence';
import { expandQuery } from './thesaurus';
import { keywordText } from './keyword-query';
import { completedCodes, corrected } from './spelling';
import { everyModelShown } from './compared-models';
import { snippet, snippetTerms } from './snippet';
import { readWithTables, resultTail, type ShownResult } from './result-tail';

/**
 * The read side of a library: candidate generation (BM25, dense or hybrid; a named model's own
 * chunks searched apart from the rest), then the ranking stages of `./stages`, then the hits as
 * the contract shows them. It reads the store and the vocabulary it is given and writes nothing.
 */

export interface SearchOptions {
  topK: number;
  retriever: Retriever;
  /** Restrict to these models (the user's filter). */
  models?: string[];
  /** Rank these models first when the question names none (a follow-up inheriting the model). */
  preferModels?: string[];
  docIds?: string[];
  /** The question's analysis when the caller already has it (chat analyses each question once). */
  analysis?: QueryAnalysis;
  /** Ranking stages to run, by name (default: all, see `RANK_STAGES`). */
  stages?: readonly StageName[];
}

/** What search reads from an open library. */
export interface SearchSource {
  readonly store: ChunkStore;
  readonly vocabulary: ModelVocabulary;
  /** The question's vector for dense and hybrid search, or why there is none. */
  queryVector(query: string): Promise<Result<Float32Array>>;
  /** The names of the library's documents, for the `document-names` stage. */
  documentEvidence(): Promise<DocumentEvidence>;
  /** How rare a stemmed word is as a passage of the library (see `enrich/passage-terms.ts`). */
  idf(term: string): number;
  /** The library's longer words that begin with `prefix`, most used first (`PassageTermStats.longerTerms`). */
  longerTerms?(prefix: string, limit: number): string[];
}

/** How many extra candidates the first stage fetches so model-aware ranking has room to work. */
const CANDIDATE_FACTOR = 3;
/** Of those, how many per POOL slot are read whole and reranked (20 of the 30 candidates). */
const HYDRATE_FACTOR = 2;
/**
 * How many results the ranking is made for, whatever top-k asks: the candidate searches, the
 * passages read and reranked (HYDRATE_FACTOR) and the passages left unread as inert are sized
 * from it, never from k, so asking for fewer results returns the first ones of a longer list, with
 * the same scores. Results past the ranked list (a top-k longer than it) come from a deeper
 * first-stage search of fixed depth (`./result-tail.ts`). 10 is chat's, the CLI's and the UI's
 * top-k. At 15 (with PASSAGE_LIMIT and COMPARED_WITHIN as they are, and dev's d012 kept since a
 * repeated question word counts once in `./document-evidence.ts`) every set keeps its Hit@1 and
 * galaxy-s10's and smart-tv's MRR rise (.924 -> .929, .831 -> .833), but two smart-tv first
 * results swap with a near-twin passage (a deeper first stage scores it more fully) and the answer
 * bench's first lines drop (galaxy-s10 42 -> 41, smart-tv 392 -> 390); at 30, dev loses a first
 * result (d019) to another model's specification table read from deep in the whole library's
 * candidates. A pool that grew with k gave a different first result at k 60 than at k 10.
 */
const POOL = 10;
/**
 * How many passages of the documents the question names best the passage search reads (for
 * `passage-order`), fixed apart from POOL: at 30 and 60 it brought seeed-xiao a named page's
 * passage that took a first result from the answer (sx002).
 */
const PASSAGE_LIMIT = 20;
/** Where a compared model's best passage is shown (`everyModelShown`): within chat's, the CLI's and the UI's top-k. */
const COMPARED_WITHIN = 10;
/** The deepest first-stage search, for results past the ranked list: the contract's largest top-k, times CANDIDATE_FACTOR. */
const TAIL_LIMIT = MAX_TOP_K * CANDIDATE_FACTOR;

/** Searches one library. */
export async function search(source: SearchSource, asked: string, options: SearchOptions): Promise<Result<SearchResponse>> {
  const { store, vocabulary } = source;
  // Typos read as the library's words (`./spelling.ts`); the response still quotes the question as asked.
  // ... and part numbers written short as the library's longer spellings (`completedCodes`).
  const spelled = corrected(asked, (t) => source.idf(t));
  const query = source.longerTerms ? completedCodes(spelled, (t) => source.idf(t), (p, n) => source.longerTerms!(p, n)) : spelled;
  let vector: Float32Array | null = null;
  if (options.retriever !== 'bm25') {
    const v = await source.queryVector(query);
    if (!v.ok) return v;
    vector = v.value;
  }
  let analysis = options.analysis ?? analyzeQuery(query, vocabulary);
  if (analysis.models.length === 0 && options.preferModels && options.preferModels.length > 0) {
    analysis = { ...analysis, models: options.preferModels, related: [] };
  }
  // The pools are sized from POOL alone (see there), so top-k only truncates the ranking.
  const pool = POOL;
  const limit = pool * CANDIDATE_FACTOR;
  // Whether a candidate search stopped at its limit (a deeper one could find more results).
  let full = false;
  const enabled = stagesFor(options.stages);
  const has = (name: StageName) => enabled.some((s) => s.name === name);
  const names = has('document-names') || has('passage-order') ? source.documentEvidence() : null;
  const base: ChunkFilter = options.docIds ? { docIds: options.docIds } : {};
  const firstAt =
    (depth: (expand: boolean) => number) =>
    async (question: string, filter: ChunkFilter, expand = true): Promise<ChunkHit[]> => {
      // Keyword search reads the question without its asking words (`./keyword-query.ts`).
      const text = keywordText(question);
      const opts = { limit: depth(expand), filter, expansion: expand ? expandQuery(text) : '', light: true };
      const hits = await (options.retriever === 'dense' ? store.searchVector(vector!, opts) : options.retriever === 'hybrid' ? store.searchHybrid(text, vector!, opts) : store.searchBm25(text, opts));
      if (hits.length >= opts.limit) full = true;
      return hits;
    };
  const first = firstAt((expand) => (expand ? limit : pool));
  const filtered = options.models !== undefined && options.models.length > 0;
  // The question without the model names it resolves to (see the named-model branch below).
  const topical = !filtered && analysis.models.length > 0 ? stripMentions(query, analysis) : query;
  // The candidate searches start first: the JavaScript below (the document names) runs while
  // LanceDB's threads search, instead of before they start.
  const found = candidatesFor(first, query, topical, base, filtered ? options.models : undefined, analysis);
  found.catch(() => undefined);
  // The passage words: the question without its model names and without the words that name the
  // documents it names best; searched inside those documents for the `passage-order` stage, at
  // the same time as the candidates.
  const passageWords = names && has('passage-order') ? names.then((e) => e.passageWords(topical)) : Promise.resolve(null);
  const passageHits = passageWords.then((w) =>
    // The user's model filter holds here too: a question naming another product's manual must not bring its passages past it.
    w ? store.searchBm25(w.words.join(' '), { limit: PASSAGE_LIMIT, filter: { ...base, docIds: w.docs, ...(filtered ? { models: options.models } : {}) }, light: true }) : [],
  );
  passageHits.catch(() => undefined);
  // The document names are scored once every search has started (a macrotask later: the passage
  // search starts in this turn's microtasks), while LanceDB's threads work.
  const evidence = names && has('document-names') ? names.then(afterStarts).then((e) => e.scores(query)) : Promise.resolve(new Map<string, number>());
  // Awaited below; a failed candidate search must not leave its rejection unhandled meanwhile.
  evidence.catch(() => undefined);
  const candidates = await found;
  // Candidates are stubs (id, model, parent) until here, and reading text is the costly part of
  // a search, so only those that model-aware ranking (by model weight alone: stubs carry neither
  // text nor document, so document names cannot weigh them here) puts in reach of the first POOL
  // are read: the lexical rerank moves a chunk by a bounded factor (measured when the pool still
  // grew with k, on the three question sets of then: no winner came from below twice the pool).
  // A table found through one of its row views is shown whole: those tables are read meanwhile.
  // The weights only choose which stubs are read: the stubs keep their first-stage scores, and the
  // model-weight stage weighs them once below (weighing here too squared every weight).
  //
  // What is read is sized from the stages that run: with none, the order is the first stage's
  // (as weighed to choose the stubs), so only the top k are read (the first k of that order
  // whatever k is, so still a prefix of a longer list); only the table-views stage
  // shows a table through its row views, so only it needs those tables.
  const documentEvidence = await evidence;
  const byId = new Map(candidates.map((h) => [h.record.id, h]));
  const reach = weighByModel(candidates, analysis, vocabulary)
    .slice(0, enabled.length === 0 ? options.topK : pool * HYDRATE_FACTOR)
    .map((h) => byId.get(h.record.id)!);
  const [words, passageFound] = await Promise.all([passageWords, passageHits]);
  const reached = new Set(reach.map((h) => h.record.id));
  // Passages of those documents that the whole question left out of reach join at the bottom.
  const extra = passageFound.filter((h) => !reached.has(h.record.id)).map((h) => ({ ...h, score: 0 }));
  const inert = inertPassages(reach, extra, pool);
  let { hydrated, tables } = await readWithTables(store, [...reach, ...extra.filter((h) => !inert.has(h))], has('table-views'));
  // Fewer than POOL results above 0 once read (a row gone meanwhile): those passages could show after all.
  if (inert.size > 0 && positiveResults(hydrated.filter((h) => reached.has(h.record.id))) < pool) {
    ({ hydrated, tables } = await readWithTables(store, [...reach, ...extra], has('table-views')));
  }
  const passageScores = new Map<string, number>();
  for (const h of passageFound) {
    const id = h.record.parentId ?? h.record.id;
    passageScores.set(id, Math.max(passageScores.get(id) ?? 0, h.score));
  }
  const passage = words ? { words: words.words.join(' '), docs: new Set(words.docs), scores: passageScores } : null;
  const whole = new Map(tables.map((r) => [r.id, r]));
  const ctx: RankContext = {
    query,
    topical,
    analysis,
    vocabulary,
    documentEvidence,
    passage,
    idf: (t) => source.idf(t),
    enabled: new Set(enabled.map((s) => s.name)),
    tables: whole,
    matchedView: new Map(),
  };
  let hits = hydrated;
  for (const stage of enabled) hits = stage.run(hits, ctx);
  // A question comparing models ("the M5StickC and the M5StickC Plus") shows each of them within
  // the first COMPARED_WITHIN, fixed so asking for fewer results still returns the first ones of the longer list.
  const compared = filtered ? options.models!.filter((m) => analysis.models.includes(m)) : analysis.models;
  if (compared.length >= 2 && enabled.length > 0) hits = everyModelShown(hits, compared, COMPARED_WITHIN, (h) => h.record.model, { same: (m, own) => vocabulary.relation(m, own) === 'same' });
  const ranked: ShownResult[] = hits.flatMap((h) => {
    const record = ctx.matchedView.has(h.record.id) ? whole.get(h.record.id) : h.record;
    return record ? [{ record, score: h.score, view: ctx.matchedView.get(h.record.id) }] : [];
  });
  let shown = ranked.slice(0, options.topK);
  const more = async (tailHits: readonly ChunkHit[]) => {
    const tail = await resultTail(store, tailHits, new Set(shown.map((r) => r.record.id)), options.topK - shown.length, has('table-views'));
    shown = [...shown, ...tail];
  };
  // A top-k longer than the ranked list: the passages left unread as inert come next (scored 0,
  // alone in their document: nothing moves them), then the rest in the first stage's order from
  // a deeper search.
  if (shown.length < options.topK && inert.size > 0) await more(extra.filter((h) => inert.has(h)));
  // A candidate search that stopped at its limit may have more; one that did not found every
  // match, but only the first POOL x HYDRATE_FACTOR of them were read: the rest come from the
  // deeper search too (the same set, in first-stage order, so still a prefix of a longer list).
  if (shown.length < options.topK && (full || candidates.length > reach.length)) {
    const deep = await candidatesFor(firstAt(() => TAIL_LIMIT), query, topical, base, filtered ? options.models : undefined, analysis);
    await more(weighByModel(deep, analysis, vocabulary));
  }
  const results = shown.map((r) => toHit(r, query, r.view));
  const resolvedModels = options.models && options.models.length > 0 ? options.models : analysis.models;
  return ok({ query: asked, resolvedModels, retriever: options.retriever, results, highlight: snippetTerms(asked) });
}

/**
 * The passages added below the candidates (score 0) that can change no result, so they are
 * neither read nor weighed: one only moves when passage-order puts it into a slot of its
 * document, which needs another hit of that document, and a hit scored 0 ranks among the first
 * `depth` (POOL) only when fewer than `depth` distinct results score above it (every stage
 * multiplies by a positive factor, and passage-order keeps each slot's score). Sized from POOL,
 * not from k, so the ranked list is the same whatever k asks; a longer top-k shows them below it.
 * At 100k chunks the passage search finds the named manual's 21 copies, and most of its ~13
 * passages a search are alone in their copy.
 */
function inertPassages(reach: readonly ChunkHit[], extra: readonly ChunkHit[], depth: number): Set<ChunkHit> {
  if (extra.length === 0 || positiveResults(reach) < depth) return new Set();
  const hits = new Map<string, number>();
  for (const h of [...reach, ...extra]) hits.set(h.record.docId, (hits.get(h.record.docId) ?? 0) + 1);
  // A stub whose document is not known (read before the stub index was built) is kept.
  return new Set(extra.filter((h) => h.record.docId !== '' && hits.get(h.record.docId) === 1));
}

/** How many distinct results (a table's row views count as their table) the hits above 0 make. */
function positiveResults(hits: readonly ChunkHit[]): number {
  return new Set(hits.filter((h) => h.score > 0).map((h) => h.record.parentId ?? h.record.id)).size;
}

/** `value`, once the microtasks queued so far (which start the searches) have run. */
function afterStarts<T>(value: T): Promise<T> {
  return new Promise((resolve) => setImmediate(() => resolve(value)));
}

/**
 * The first stage's candidates. With the user's model filter, that filter restricts the search.
 * With a named model, its own (and its family's) chunks are searched separately so 30 sibling
 * manuals cannot crowd them out of the candidates. Both searches use the question without the
 * model's name (every chunk of that model carries it in its prefix, so it says nothing about
 * which passage answers), which also keeps their scores comparable. The search over the whole
 * library only has to find what could outrank the model's own chunks (other models' chunks keep
 * a fraction of their score), so it fetches no extra candidates and adds no synonyms: with them
 * it found nothing more on the three question sets (same Hit@1) and cost twice as much.
 */
async function candidatesFor(
  first: (text: string, filter: ChunkFilter, expand?: boolean) => Promise<ChunkHit[]>,
  query: string,
  topical: string,
  base: ChunkFilter,
  models: string[] | undefined,
  analysis: QueryAnalysis,
): Promise<ChunkHit[]> {
  if (models) return first(query, { ...base, models });
  if (analysis.models.length === 0) return first(query, base);
  const [own, all] = await Promise.all([first(topical, { ...base, models: [...analysis.models, ...analysis.related] }), first(topical, base, false)]);
  const seen = new Set(own.map((h) => h.record.id));
  return [...own, ...all.filter((h) => !seen.has(h.record.id))];
}

/**
 * The question without the words that name its models (a family member's code stays: it tells
 * the family manual's sections apart); the whole question if nothing else is left.
 */
function stripMentions(query: string, analysis: QueryAnalysis): string {
  let rest = query;
  for (const m of analysis.mentions) if (analysis.models.includes(m.model) && !m.byPattern) rest = rest.split(m.text).join(' ');
  return /[\p{L}\p{N}]{2,}/u.test(rest) ? rest : query;
}

function toHit(hit: { record: ChunkRecord; score: number }, query: string, view?: ChunkRecord): SearchHit {
  const r = hit.record;
  return {
    chunkId: r.id,
    doc: r.docId,
    title: r.title ?? r.headingPath[0] ?? r.docId,
    text: r.text,
    score: hit.score,
    pages: pageRange(r.pageStart, r.pageEnd),
    headingPath: r.headingPath,
    start: r.start,
    end: r.end,
    signature: { category: r.category, nouns: r.nouns, model: r.model },
    snippet: snippet(view?.text ?? r.text, query),
  };
}

