import type { ChatTurn, Conversation, ConversationScope, ConversationSummary, EngineEvent, ModelChoice, SearchResponse } from '../contract/api';
import type { Result } from '../core/result';
import { fail, ok, toAppError } from '../core/result';
import type { ModelVocabulary } from '../enrich/model-vocabulary';
import type { Llm } from '../models/types';
import type { SearchOptions } from '../search/searcher';
import type { ChunkRecord } from '../storage/chunk-store';
import type { DocumentRecord } from '../storage/library.store';
import type { PagedText } from './passages';
import type { CreateConversationInput } from './conversation.store';
import { createConversationStore, DEFAULT_TITLE, newId } from './conversation.store';
import type { ExtractiveOptions } from './extractive.answerer';
import { answerExtractively } from './extractive.answerer';
import { withoutExtractedLabel } from '../core/extracted-label';
import type { HistoryMessage, LlmAnswer } from './llm.answerer';
import { answerWithLlm } from './llm.answerer';
import { conversationToMarkdown, exportFileName } from './markdown.export';
import { closestToUnknown } from './closest-models';
import type { UnknownModel } from './model-guard';
import type { ChatIndex, RetrieveOptions } from './retrieve';
import { retrieverFor } from '../core/vocabulary';
import { analyzeQuery, type QueryAnalysis } from '../search/query-analysis';
import { followUpQuestion } from './follow-up';
import { docsListing } from './covered-models';
import { askBack, chosenByChip, pickedCandidate, questionBackNote, questionPicked } from './undocumented-models';
import { listNames, onceEach } from '../core/name-list';
import { isAskedModel, namedWhere, questionForLines, retrieve, sameModelSpelled } from './retrieve';
import type { QuestionPlan } from './question-plan';
import { confirmUnknown, planQuestion, readAsExtended } from './question-plan';

/**
 * Chat over one library: conversations (persisted in the library folder) and answers grounded in
 * its passages with numbered citations. With an LLM the answer is generated and streamed; without
 * one (the default) it is extracted verbatim. A question about a model the library has no manual
 * for, or one no passage is relevant to, gets a plain "not found" instead of a sibling's answer.
 * Follow-up questions that name no model keep the model(s) of the previous answer.
 */

export type { ChatIndex };

/** Longest question, in characters (the contract's search limit). */
export const MAX_QUESTION_CHARS = 2000;
/** What a question stopped before its answer began is told (`cancelled`; the engine's door says the same). */
export const STOPPED_BEFORE_ANSWERING = 'Stopped before answering.';
/** Earlier messages offered to the LLM (the budget may keep fewer). */
const HISTORY_MESSAGES = 12;
/** Characters of the first question used as a conversation's title. */
const TITLE_CHARS = 60;

export interface ChatServiceOptions {
  /** The library folder; conversations live in `<libraryDir>/conversations/`. */
  libraryDir: string;
  /** Library name, carried by events and the export header. */
  libraryName: string;
  index: ChatIndex;
  /** The chat model chosen in settings, or null to answer extractively. Throwing fails the ask. */
  getLlm: () => Promise<Llm | null>;
  /** Receives `chat.token` (in order, adding up to the answer text) and `chat.done` events. */
  emit: (event: EngineEvent) => void;
  /** Retrieval tuning (hits fetched, passages kept, relevance threshold). */
  retrieve?: RetrieveOptions;
  /** Tokens reserved for a generated answer (default: a quarter of the context, at most 1024). */
  answerTokens?: number;
}

export interface AskOptions {
  /**
   * Aborting stops the answer: before its first word (already aborted included) it is `cancelled`,
   * nothing stored; after it, the partial answer is kept with `stopped: true`.
   */
  signal?: AbortSignal;
}

export interface AnswerOptions extends AskOptions {
  scope?: ConversationScope;
  /** Earlier turns, oldest first: their models are inherited and (with an LLM) their text is context. */
  history?: readonly ChatTurn[];
  /** Receives the answer text piece by piece, in order. */
  onToken?: (piece: string) => void;
}

export interface ChatService {
  list(): Promise<Result<ConversationSummary[]>>;
  create(input?: CreateConversationInput): Promise<Result<Conversation>>;
  get(id: string): Promise<Result<Conversation>>;
  rename(id: string, title: string): Promise<Result<ConversationSummary>>;
  /** Limits every later retrieval of the conversation to these documents / models. */
  setScope(id: string, scope: ConversationScope): Promise<Result<Conversation>>;
  /** Deletes the conversation, stopping an answer in progress. */
  delete(id: string): Promise<Result<{ deleted: string }>>;
  /**
   * Answers `question` in the conversation: emits `chat.token` events while answering and
   * `chat.done` with the final assistant turn, stores the question and the answer, and returns
   * the answer. One answer at a time per conversation (`unavailable` otherwise).
   */
  ask(id: string, question: string, options?: AskOptions): Promise<Result<ChatTurn>>;
  /** Stops the answer in progress in the conversation; `stopped` is false when none was running. */
  stop(id: string): Promise<Result<{ stopped: boolean }>>;
  /** The conversation as Markdown with numbered citations, and a file name for it. */
  exportMarkdown(id: string): Promise<Result<{ fileName: string; markdown: string }>>;
  /** A one-off answer (the CLI's `ask`): nothing stored, no events. */
  answer(question: string, options?: AnswerOptions): Promise<Result<ChatTurn>>;
}

/** The shape of `LibraryIndex` this module reads (kept structural so tests can pass fakes). */
export interface LibraryIndexLike {
  search(query: string, options: SearchOptions): Promise<Result<SearchResponse>>;
  readonly enrichment: {
    readonly vocabulary: ModelVocabulary;
    readonly terms?: { words(): Iterable<string> };
    /** Passage statistics: how many passages were counted, and in how many a word occurs. */
    readonly passages?: { readonly passages: number; frequency(term: string): number };
  };
  readonly library: {
    readonly config: { readonly embedder: unknown };
    /** With `loadNormalized`: where a document's pages begin, so a citation names its line's page. */
    document?(id: string): Promise<DocumentRecord | undefined>;
    loadNormalized?(rec: DocumentRecord): Promise<PagedText | null>;
    /** The library's document records: a "not found" in a library with none ready says so. */
    documents?(): Promise<DocumentRecord[]>;
  };
  listChunks(docId: string): Promise<ChunkRecord[]>;
}

/** Normalized documents kept for page look-ups (a few: a question cites a handful of documents). */
const PAGED_CACHE = 8;

/** Adapts an open `LibraryIndex` to what chat needs; the vocabulary is read live. */
export function chatIndexOf(index: LibraryIndexLike): ChatIndex {
  const paged = new Map<string, Promise<PagedText | null>>();
  return {
    search: (query, options) => index.search(query, options),
    get vocabulary() {
      return index.enrichment.vocabulary;
    },
    get retriever() {
      return retrieverFor(index.library.config.embedder !== null);
    },
    listChunks: (docId) => index.listChunks(docId),
    ...(index.library.documents ? { readyDocuments: async () => (await index.library.documents!()).filter((d) => d.status === 'ready').length } : {}),
    libraryWords: () => index.enrichment.terms?.words() ?? [],
    passageFrequency(term) {
      const stats = index.enrichment.passages;
      return stats && stats.passages > 0 ? stats.frequency(term) : undefined;
    },
    async pagedText(docId) {
      const { library } = index;
      const rec = await library.document?.(docId);
      if (!rec || !library.loadNormalized) return null;
      // Keyed by content, so a re-imported document is read afresh.
      const key = `${docId}\u0000${rec.contentHash ?? ''}`;
      let doc = paged.get(key);
      if (!doc) {
        doc = library.loadNormalized(rec);
        paged.set(key, doc);
        if (paged.size > PAGED_CACHE) paged.delete(paged.keys().next().value!);
      }
      return doc;
    },
  };
}

function cleanQuestion(question: string): Result<string> {
  const q = question.trim();
  if (q === '') return fail('invalid-input', 'Type a question.');
  if (q.length > MAX_QUESTION_CHARS) return fail('invalid-input', `Questions are at most ${MAX_QUESTION_CHARS} characters.`);
  return ok(q);
}

function titleFrom(question: string): string {
  const q = question.replace(/\s+/g, ' ').trim();
  return q.length <= TITLE_CHARS ? q : `${q.slice(0, TITLE_CHARS - 1).trimEnd()}…`;
}

/** Earlier turns as LLM context: the extracted label dropped, empty stopped answers skipped. */
function historyFor(turns: readonly ChatTurn[]): HistoryMessage[] {
  return turns
    .map((t) => ({ role: t.role, text: withoutExtractedLabel(t.text).trim() }))
    .filter((m) => m.text !== '')
    .slice(-HISTORY_MESSAGES);
}

/**
 * A question's unknown names as a reply writes them, with the library's models closest to them:
 * `closest` once after the names when every name has that same list (one name, or "E98C and
 * E99C"), else each name followed by its own ("E99C (closest: E54C, E52C) and ROCK 9X (closest:
 * ROCK 5B, ROCK 5A)"), so no list reads as another name's.
 */
function unknownNames(unknown: readonly UnknownModel[], vocabulary: ModelVocabulary): { names: string; closest: string[] } {
  // A name the question writes twice ("foo x2 lite ... Foo X2 Lite") is named once, as written first.
  const once = onceEach(unknown, (u) => u.text);
  const lists = closestToUnknown(once, vocabulary);
  const first = lists[0]?.closest ?? [];
  if (lists.every((l) => l.closest.join('\n') === first.join('\n'))) return { names: listNames(lists.map((l) => l.text)), closest: first };
  return { names: listNames(lists.map((l) => (l.closest.length > 0 ? `${l.text} (closest: ${l.closest.join(', ')})` : l.text))), closest: [] };
}

/**
 * The names a question wrote that no manual is for (`ChatTurn.unknownModels`), once each whatever
 * their case: those asked back, then the plan's (`unmentioned` codes are not: they may be the
 * asked product's own number).
 */
function withoutManual(clarify: readonly ModelChoice[], unknown: readonly UnknownModel[]): string[] {
  return onceEach([...clarify.map((c) => c.name), ...unknown.map((u) => u.text)], (name) => name);
}

/** The one library model a heading, caption or table row names, else null. */
function modelNamedIn(vocabulary: ModelVocabulary, text: string): string | null {
  const names = new Set(vocabulary.findMentions(text).filter((m) => m.confidence >= 0.5).map((m) => m.model));
  return names.size === 1 ? [...names][0]! : null;
}

/** Whether `model` is one of `asked` or a revision of one (not a member or the parent: other hardware). */
function exactModel(asked: readonly string[], model: string, vocabulary: ModelVocabulary): boolean {
  return asked.some((a) => sameModelSpelled(a, model) || ['same', 'revision'].includes(vocabulary.relation(a, model)));
}

function extractOptions(vocabulary: ModelVocabulary, resolvedModels: readonly string[], listing: ReadonlySet<string>): ExtractiveOptions {
  return {
    listing,
    modelIn: (text) => modelNamedIn(vocabulary, text),
    models: resolvedModels,
    modelNamed: resolvedModels.length > 0,
    sameModel: (asked, model) => isAskedModel(asked, model, vocabulary),
    exactModel: (asked, model) => exactModel(asked, model, vocabulary),
    namesAsked: (asked, text) => vocabulary.findMentions(text).some((m) => m.confidence >= 0.5 && exactModel(asked, m.model, vocabulary)),
    namesOther: (asked, text) => vocabulary.findMentions(text).some((m) => m.confidence >= 0.5 && !exactModel(asked, m.model, vocabulary)),
    namedWhere: (asked, hit) => namedWhere(asked, hit, vocabulary),
  };
}

export function createChatService(options: ChatServiceOptions): ChatService {
  const store = createConversationStore(options.libraryDir);
  const running = new Map<string, AbortController>();
  const { index, libraryName } = options;

  const emit = (event: EngineEvent): void => {
    try {
      options.emit(event);
    } catch {
      // A failing listener must not break the answer; the engine logs listener errors itself.
    }
  };

  async function answer(question: string, opts: AnswerOptions & { messageId?: string } = {}): Promise<Result<ChatTurn>> {
    const q = cleanQuestion(question);
    if (!q.ok) return q;
    const scope = opts.scope ?? {};
    const history = opts.history ?? [];
    const onToken = opts.onToken ?? (() => undefined);
    const vocabulary = index.vocabulary;
    // A model the user picked for the conversation wins over the one it remembered.
    const picked = scope.models ?? [];
    const lastAnswer = history.findLast((t) => t.role === 'assistant');
    const previous = picked.length > 0 ? [] : (lastAnswer?.resolvedModels ?? []);
    // The question is analysed once; the plan, the search and the answer all read this analysis.
    // "And the ESP32C3?" asks the last question with a topic again, for the model it names.
    // A reply to a question back that picks one of its models by the words setting it apart ("the
    // Ultra") is read as naming that model.
    const asBack = lastAnswer?.clarify;
    let typed = analyzeQuery(q.value, vocabulary);
    const chosen = asBack && typed.models.length === 0 ? pickedCandidate(q.value, asBack) : null;
    if (chosen !== null) typed = analyzeQuery(chosen, vocabulary);
    let followUp = followUpQuestion(chosen ?? q.value, typed, vocabulary, history);
    // A reply picking a candidate (by its distinct words or its whole name, as the candidate
    // buttons send it) answers the question asked back with the candidate in place of the name it
    // asked about: the other models that question named stay ("the Foo X1 and the Bar Z5" -> "the
    // Foo X1 and the Bar Z5 Mini 5G"), where a follow-up would put the reply's model in place of all.
    const pick = chosen ?? (followUp !== null && typed.models.length === 1 ? typed.models[0]! : null);
    const before = lastAnswer ? history.slice(0, history.lastIndexOf(lastAnswer)) : [];
    const askedBack = before.findLastIndex((t) => t.role === 'user');
    const repicked = asBack && pick !== null && askedBack >= 0 ? questionPicked(before[askedBack]!.text, asBack, pick) : null;
    if (repicked !== null) {
      // The question asked back may itself have been a follow-up ("and the Bar Z5?"): read as one again.
      followUp = followUpQuestion(repicked, analyzeQuery(repicked, vocabulary), vocabulary, before.slice(0, askedBack)) ?? repicked;
    }
    const planFor = async (text: string, read: QueryAnalysis): Promise<QuestionPlan> => {
      const plan = await confirmUnknown(index, planQuestion(text, read, vocabulary, previous, index), previous);
      // A model chip the user picked that is one of the models an ambiguous name may be ("Galaxy
      // S20" under the S20+ 5G's chip) says which one: answered for it, saying so, not asked back.
      return { ...plan, unknown: plan.unknown.map((u) => chosenByChip(u, picked)) };
    };
    const first = followUp ?? chosen ?? q.value;
    const firstAnalysis = followUp ? analyzeQuery(followUp, vocabulary) : typed;
    // A name that begins several documented models' names ("Galaxy S20") is asked back, before
    // any search or LLM; a question naming other models besides is answered for those (`askBack`).
    const back = await askBack(first, firstAnalysis, await planFor(first, firstAnalysis), planFor, vocabulary);
    let { asked, analysis, plan } = back;
    const { clarify } = back;
    const asksBack = clarify.length > 0 ? { clarify } : {};
    // Every turn says the names the question gave that no manual is for, whatever it then does.
    const missing = withoutManual(clarify, plan.unknown);
    const turn = (fields: Omit<ChatTurn, 'id' | 'role' | 'createdAt'>): ChatTurn => ({
      id: opts.messageId ?? newId(),
      role: 'assistant',
      createdAt: new Date().toISOString(),
      ...fields,
      ...(missing.length > 0 ? { unknownModels: missing } : {}),
    });
    const whole = (fields: Omit<ChatTurn, 'id' | 'role' | 'createdAt'>): Result<ChatTurn> => {
      // A reply written at once, stopped before it was written (while the passages were read):
      // stopped before its first word, as a generated answer is.
      if (opts.signal?.aborted) return fail('cancelled', STOPPED_BEFORE_ANSWERING);
      onToken(fields.text);
      return ok(turn(fields));
    };
    if (back.reply !== undefined) return whole({ text: back.reply, mode: 'not-found', citations: [], resolvedModels: [], clarify });

    if (plan.unknown.length > 0 && plan.named.length === 0) {
      const names = unknownNames(plan.unknown, vocabulary);
      // A code of another product line ("ZX-900" in a follow-up) is no sibling: no manual of the library mentions it.
      const unsaid = plan.unknown.some((u) => u.kind === 'sibling') ? '' : `, and none of its manuals mentions ${plan.unknown.length > 1 ? 'them' : 'it'}`;
      const text = `No manual for ${names.names} in this library${unsaid}${names.closest.length > 0 ? `; closest: ${names.closest.join(', ')}` : ''}.`;
      return whole({ text, mode: 'not-found', citations: [], resolvedModels: [] });
    }

    // A name extending a library model ("M5StickC Plus2") is answered for the model it extends (the
    // M5StickC+), also when its mention read a shorter one (the M5StickC).
    const extended = readAsExtended(asked, analysis, plan.unknown);
    if (extended !== null) {
      asked = extended;
      analysis = analyzeQuery(extended, vocabulary);
      plan = { ...plan, named: analysis.models };
    }
    const found = await retrieve(index, asked, analysis, plan, scope, options.retrieve);
    if (!found.ok) return found;
    const { passages, resolvedModels, setAside, unsaid } = found.value;
    // A question naming a known and an unknown model is answered for the known one, said first,
    // with the library's models closest to the unknown name, so the technician sees what it has.
    // The question back comes first, worded as the note for a name read as one documented model.
    let note = clarify.length > 0 ? `${questionBackNote(clarify, plan.named)}\n\n` : '';
    if (followUp) note += `Read as: “${followUp}”\n\n`;
    if (plan.unknown.length > 0) {
      const names = unknownNames(plan.unknown, vocabulary);
      note += `No manual for ${names.names} in this library${names.closest.length > 0 ? ` (closest: ${names.closest.join(', ')})` : ''}; answering for ${listNames(plan.named)}.\n\n`;
    }
    // A product code no manual mentions: maybe another product, maybe the asked one's number that
    // its manual never prints; the answer comes, and says so first.
    // A question about something the library never writes (`unsaid`: then nothing is quoted) says
    // which of its words no manual has.
    if (plan.unmentioned.length > 0 || unsaid.length > 0) {
      const names = [...plan.unmentioned.map((u) => u.text), ...unsaid];
      note += `None of the manuals in this library mentions ${listNames(names, unsaid.length > 0 ? 'or' : 'and')}${passages.length > 0 ? ': the lines below are from the manuals that best match the rest of the question, which may be about another product' : ''}.\n\n`;
    }
    // A question naming another model than the picked chip's is answered for the model it names:
    // said first, so the answer is never taken for the chip's.
    if (setAside.length > 0) note += `Answered for ${listNames(plan.named)}, named in the question, not for the chosen ${listNames(setAside)}.\n\n`;
    // A follow-up naming no model says which model it kept, so a silent carry-over can be seen.
    if (plan.inherited.length > 0) note += `Kept ${listNames(plan.inherited)} from the previous question (name another model or pick a model chip to change it).\n\n`;

    // For an extracted answer: manuals written under a family member's name that list the asked model among theirs.
    const listing = (): Promise<ReadonlySet<string>> =>
      resolvedModels.length === 0
        ? Promise.resolve(new Set<string>())
        : docsListing(
            index,
            passages,
            (m) => isAskedModel(resolvedModels, m, vocabulary) && !exactModel(resolvedModels, m, vocabulary),
            (m) => exactModel(resolvedModels, m, vocabulary),
            (text) => modelNamedIn(vocabulary, text),
          );

    if (passages.length === 0) {
      // Nothing was searched: "found nothing in the manuals" would say the manuals were read.
      if (index.readyDocuments && (await index.readyDocuments()) === 0) {
        return whole({ text: 'No document of this library is ready to search yet: import manuals into it first, then ask again.', mode: 'not-found', citations: [], resolvedModels: [] });
      }
      const about = resolvedModels.length > 0 ? ` for ${listNames(resolvedModels)}` : '';
      const limited = ((scope.models?.length ?? 0) > 0 && setAside.length === 0) || (scope.docIds?.length ?? 0) > 0 ? ' (this conversation is limited to some documents or models)' : '';
      const text = `${note}I found nothing about this${about} in the manuals of this library${limited}.`;
      return whole({ text, mode: 'not-found', citations: [], resolvedModels, ...asksBack });
    }
    if (opts.signal?.aborted) return fail('cancelled', STOPPED_BEFORE_ANSWERING);

    let llm: Llm | null;
    try {
      llm = await options.getLlm();
    } catch (err) {
      const e = toAppError(err);
      return fail(e.code === 'internal' ? 'model-failed' : e.code, e.message);
    }

    if (llm) {
      if (note) onToken(note);
      let generated: LlmAnswer | null;
      try {
        generated = await answerWithLlm(
          llm,
          { question: asked, passages, history: historyFor(history) },
          {
            onToken,
            ...(opts.signal ? { signal: opts.signal } : {}),
            ...(options.answerTokens !== undefined ? { answerTokens: options.answerTokens } : {}),
          },
        );
      } catch (err) {
        const e = toAppError(err);
        return fail(e.code === 'internal' ? 'model-failed' : e.code, e.code === 'internal' ? `The chat model failed: ${e.message}` : e.message);
      }
      // Stopped before the model wrote a word: nothing was answered, so nothing is stored and the
      // question goes back to the asker, as a stop before generation does (the renderer puts it
      // back in the question box either way).
      if (generated?.stopped && generated.text.trim() === '') return fail('cancelled', STOPPED_BEFORE_ANSWERING);
      if (generated) {
        return ok(
          turn({
            text: note + generated.text,
            mode: 'generated',
            citations: generated.citations,
            resolvedModels,
            ...asksBack,
            ...(generated.stopped ? { stopped: true } : {}),
          }),
        );
      }
      // Not even the best passage fits the model's context: quote instead of generating.
      const extracted = answerExtractively(questionForLines(asked, analysis), passages, extractOptions(vocabulary, resolvedModels, await listing()));
      onToken(extracted.text);
      return ok(turn({ text: note + extracted.text, mode: 'extracted', citations: extracted.citations, resolvedModels, ...asksBack }));
    }

    const extracted = answerExtractively(questionForLines(asked, analysis), passages, extractOptions(vocabulary, resolvedModels, await listing()));
    return whole({ text: note + extracted.text, mode: 'extracted', citations: extracted.citations, resolvedModels, ...asksBack });
  }

  return {
    async list() {
      return ok(await store.list());
    },

    create: (input) => store.create(input),
    get: (id) => store.get(id),
    rename: (id, title) => store.rename(id, title),
    setScope: (id, scope) => store.setScope(id, scope),

    async delete(id) {
      running.get(id)?.abort();
      return store.delete(id);
    },

    async ask(id, question, askOptions = {}) {
      const q = cleanQuestion(question);
      if (!q.ok) return q;
      if (running.has(id)) return fail('unavailable', 'Still answering the previous question in this conversation; stop it or wait for it.');
      // Registered before the first await, so `stop` finds a question it was handed. Through the
      // engine a stop sent right after the question comes earlier still, while the engine reads
      // the library and opens its index: the engine's `chat.ask` takes the question in first and
      // aborts `askOptions.signal` (engine/chat.handlers.ts), which may then be aborted already.
      const controller = new AbortController();
      const outer = askOptions.signal;
      const forward = (): void => controller.abort();
      if (outer?.aborted) controller.abort();
      outer?.addEventListener('abort', forward, { once: true });
      running.set(id, controller);
      try {
        const conv = await store.get(id);
        if (!conv.ok) return conv;
        const userTurn: ChatTurn = { id: newId(), role: 'user', text: q.value, createdAt: new Date().toISOString() };
        // Stopped before anything was read: nothing answered, nothing stored, as a stop before generation.
        if (controller.signal.aborted) return fail('cancelled', STOPPED_BEFORE_ANSWERING);
        const messageId = newId();
        const answered = await answer(q.value, {
          scope: conv.value.scope,
          history: conv.value.messages,
          signal: controller.signal,
          messageId,
          onToken: (text) => {
            if (text !== '') emit({ type: 'chat.token', library: libraryName, conversationId: id, messageId, text });
          },
        });
        if (!answered.ok) return answered;
        const retitle = conv.value.title === DEFAULT_TITLE && conv.value.messages.length === 0 ? { title: titleFrom(q.value) } : {};
        const saved = await store.append(id, [userTurn, answered.value], retitle);
        if (!saved.ok) return saved;
        emit({ type: 'chat.done', library: libraryName, conversationId: id, message: answered.value });
        return answered;
      } finally {
        running.delete(id);
        outer?.removeEventListener('abort', forward);
      }
    },

    async stop(id) {
      const controller = running.get(id);
      controller?.abort();
      return ok({ stopped: controller !== undefined });
    },

    async exportMarkdown(id) {
      const conv = await store.get(id);
      if (!conv.ok) return conv;
      return ok({ fileName: exportFileName(conv.value), markdown: conversationToMarkdown(conv.value, libraryName) });
    },

    answer: (question, answerOptions) => answer(question, answerOptions ?? {}),
  };
}
