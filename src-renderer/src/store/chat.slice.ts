import type { StateCreator } from 'zustand';
import type { AppError, ChatTurn, Conversation, ConversationSummary, EngineEvent } from '../../../src-main/contract/api';
import { api } from '../api/client';
import { MAX_QUESTION_CHARS } from '../util/messages';
import type { Store } from './index';

/** The answer being written: tokens arrive as `chat.token` events until `chat.done`. */
export interface StreamingAnswer {
  conversationId: string;
  messageId: string | null;
  text: string;
  /** True once the user asked to stop and the engine has not finished yet. */
  stopping: boolean;
}

type ChatLibraryState = Pick<
  ChatSlice,
  'conversations' | 'conversationsLoaded' | 'activeConversation' | 'streaming' | 'pending' | 'chatError' | 'chatNote' | 'modelFilter' | 'unsentQuestions'
>;

/** The chat state that belongs to one library: its initial value, and what a library switch resets. */
export function chatLibraryState(): ChatLibraryState {
  return {
    conversations: [],
    conversationsLoaded: false,
    activeConversation: null,
    streaming: null,
    pending: null,
    chatError: null,
    chatNote: null,
    modelFilter: [],
    unsentQuestions: [],
  };
}

export interface ChatSlice {
  conversations: ConversationSummary[];
  conversationsLoaded: boolean;
  activeConversation: Conversation | null;
  streaming: StreamingAnswer | null;
  /**
   * A question on its way: set from the press that sends it until it is answered or back in the
   * box, which starts before `streaming` (the chips' scope is saved first and, with no conversation
   * open, one is created) and ends after it. While set nothing else is sent; `stopping` once the
   * user asked to stop it before `streaming` was set, which gives it up before the engine has it.
   * Reset with the library: a question asked of the one left goes on there (see `post`), and this
   * library's composer has nothing of it to stop.
   */
  pending: { stopping: boolean } | null;
  chatError: string | null;
  /**
   * What became of a question the user stopped before the first word of its answer, in words for
   * a status line by the question box (not an error: nothing went wrong). Cleared by the next send.
   */
  chatNote: string | null;
  /** Models chosen with the filter chips; empty means "let the question decide". */
  modelFilter: string[];
  /**
   * What is typed in the question box and not sent yet: kept here, not in the box, so a look at
   * another screen (the Documents list, for a model's exact name) does not throw it away. Not
   * reset with the library: the box kept it across a library switch before, and still does.
   */
  questionDraft: string;
  setQuestionDraft(text: string): void;
  /**
   * Questions not answered that did not fit in the question box with what was typed there since
   * (the box holds at most MAX_QUESTION_CHARS): kept whole beside the box until the user asks one
   * again, puts it in the box, or dismisses it. Oldest first; never the same question twice.
   * Reset with the library, unlike the box: each was asked of the library it failed in, and "Ask
   * again" would ask it of the one open now, where its models may not be.
   */
  unsentQuestions: string[];
  /** Puts a kept question in the box, before what is typed there; false (and kept) when both would not fit. */
  restoreUnsent(index: number): boolean;
  /**
   * Asks a kept question again as it is, leaving the box alone. False, sending nothing, while
   * another question is on its way (`pending`): the list shifts as one is asked, so a second click
   * of a double click lands on the next one's button.
   */
  askUnsent(index: number): Promise<boolean>;
  dismissUnsent(index: number): void;
  loadConversations(): Promise<void>;
  openConversation(id: string): Promise<void>;
  /** Clears the transcript; the next question starts a new conversation. */
  newConversation(): void;
  renameConversation(id: string, title: string): Promise<void>;
  deleteConversation(id: string): Promise<void>;
  /**
   * Asks in the open conversation (or a new one). False when it was not sent or not answered (the
   * conversation deleted while it was answered included, or the user stopped it before the first
   * word of its answer): then the question is out of the transcript and back in the question box
   * (`questionDraft`), before anything typed there since, or in `unsentQuestions` when both would
   * not fit in the box; the error in `chatError` (or, after a stop, the note in `chatNote`) says which.
   * Not answered while another library is open, none of this lands there: the question is kept
   * beside the box of its own library (`unsentQuestions`) once that library is opened again.
   */
  ask(question: string): Promise<boolean>;
  /**
   * Answers a question back ("Which model: ...?") with one of its candidates: the chat's model
   * chip becomes that model and its name is sent as the reply, which the engine reads as the
   * earlier question asked for it. False when it was not sent or not answered: then the chips are
   * back as they were before the press (unless changed since), the error is in `chatError`, and the
   * question back is the last turn again. A reply the user stops keeps the chip on the model they
   * picked, as after a question they stop; stopped before its first word, it is out of the
   * transcript (the engine kept nothing of it), the question back the last turn again.
   */
  answerFor(model: string): Promise<boolean>;
  /**
   * Stops the question on its way (the one `pending` shows): before the engine has it, it is not
   * sent; after, `chat.stop` is sent (the engine has a question from the moment `chat.ask`
   * reaches it, so a stop arriving after it finds it; one that outran it is sent again).
   */
  stop(): Promise<void>;
  exportConversation(id: string): Promise<void>;
  /** Adds or removes a model chip; the open conversation's scope follows. */
  toggleModelFilter(model: string): void;
  clearModelFilter(): void;
  handleChatEvent(event: Extract<EngineEvent, { type: 'chat.token' | 'chat.done' }>): void;
}

let localIds = 0;

/**
 * How often `stop` sends a stop the engine found nothing for while the question is unanswered, and
 * how long it waits in between: a request that outran the question's over the web bridge is behind
 * it by a few milliseconds, so a second try holds; the bound keeps a stop from being sent forever.
 */
const STOP_TRIES = 10;
const STOP_AGAIN_MS = 100;

/** A question put back before what was typed since, as it was asked first. */
const merge = (question: string, typed: string): string => `${question}\n\n${typed}`;

/** True when two model lists hold the same models, in any order. */
const sameModels = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((m) => b.includes(m));

export const createChatSlice: StateCreator<Store, [], [], ChatSlice> = (set, get) => {
  const finish = (conversationId: string, message: ChatTurn) => {
    const s = get();
    if (s.streaming?.conversationId === conversationId) set({ streaming: null });
    const active = s.activeConversation;
    if (active?.id === conversationId && !active.messages.some((m) => m.id === message.id)) {
      set({ activeConversation: { ...active, messages: [...active.messages, message], turns: active.turns + 1 } });
    }
    void get().loadConversations();
  };

  /**
   * The chips' latest scope change while it is being saved: a question sent right after a chip
   * click waits for it, so the engine never answers with the scope from before the click.
   */
  let scopeSaved: Promise<unknown> = Promise.resolve();

  /** Scope follows the chips: new conversations are created with it, open ones are updated. */
  const applyFilter = (models: string[]): Promise<unknown> => {
    set({ modelFilter: models });
    return (scopeSaved = scopeSaved.then(() => saveFilter(models)));
  };

  const saveFilter = async (models: string[]) => {
    const library = get().selectedLibrary;
    const active = get().activeConversation;
    if (!library || !active) return;
    const { models: _previous, ...rest } = active.scope;
    const scope = models.length > 0 ? { ...rest, models } : rest;
    const res = await api['chat.scope']({ library, id: active.id, scope });
    if (!res.ok) return set({ chatError: res.error.message });
    if (get().activeConversation?.id === active.id) set({ activeConversation: { ...get().activeConversation!, scope: res.value.scope } });
  };

  /** True from a candidate's press until its reply is answered (or refused). */
  let replying = false;

  /**
   * One question on its way, from `post`'s start until it is done with: its library and (once
   * known) conversation are kept here, not read from the store, as a library switch resets the
   * store's chat state while the question goes on in the library it was asked of. Compared by
   * identity, so a stop meant for it never reaches a later question in the same conversation.
   */
  interface Asking {
    library: string;
    /** The conversation it is asked in, once there is one. */
    conversationId: string | null;
    /** True once `chat.ask` is sent: a stop then goes to the engine. */
    sent: boolean;
    /** True once the user asked to stop it (read after `streaming` is cleared, to tell their stop from another's). */
    stopRequested: boolean;
    /** True once `chat.ask` returned (or the question was given up before it). */
    ended: boolean;
  }

  /** Every question on its way: a delete here tells the one asked in that conversation about it. */
  const inFlight = new Set<Asking>();

  /**
   * The question `pending` (and `streaming`) shows, which the Stop button and Esc stop. Stays set
   * across a library switch (the store's `pending` is reset then): the question goes on in its own
   * library, and a question asked in the next one takes its place here.
   */
  let owner: Asking | null = null;

  /** `pending` goes as soon as the question's `chat.ask` returns: what follows is not stoppable. */
  const release = (ask: Asking) => {
    ask.ended = true;
    if (owner !== ask) return;
    owner = null;
    // Not after a library switch: that reset `pending`, and a question asked since owns it.
    if (get().selectedLibrary === ask.library) set({ pending: null });
  };

  /**
   * Questions of a library not answered while another library was open: neither put in that one's
   * box (its manuals are not the ones asked) nor lost. They are kept beside the box, as
   * `unsentQuestions`, when their own library is opened again (its list is loaded then).
   */
  const awayQuestions = new Map<string, string[]>();

  /**
   * Why a send failed: `gone` when the conversation was deleted before the question was answered,
   * `here` when by this window (else another window, the command line); else `failed` (refused as
   * asked, the engine busy, the model failing, ...).
   */
  type Failure =
    | { kind: 'gone'; here: boolean; error: AppError }
    | { kind: 'failed'; error: AppError }
    /** `cancelled` with no stop asked for here: another window or the command line stopped it. */
    | { kind: 'stopped-elsewhere'; error: AppError };

  /**
   * What became of a question `post` was given: answered (a stopped answer with words included);
   * else not, with why when something went wrong, or `stopped` when the user stopped it before the
   * first word of its answer.
   */
  type Posted =
    | { sent: true }
    | {
        sent: false;
        failure?: Failure;
        stopped?: true;
        /** The question's library, when another was open as it ended: its outcome is not for the box shown now. */
        away?: string;
        /** Why deleting the conversation opened for it failed (it then stays listed, empty). */
        deleteError?: string;
      };

  /**
   * Conversations this window asked the engine to delete, each with whether it did. Deleting a
   * conversation stops the answer under way in it, which `chat.ask` reports as `cancelled` (or
   * `not-found`, when the answer was written and could not be saved), possibly before the delete
   * itself is done: `post` waits for it, so the question is known to be gone with its conversation
   * (and goes back in the box) rather than taken for one the user stopped. An entry goes once the
   * question asked in that conversation is done with, or once the delete is done if none was.
   */
  const deletedHere = new Map<string, Promise<boolean>>();

  /**
   * True when the conversation is no longer in the library, read from the list just reloaded: a
   * `not-found` from `chat.ask` may also mean the library itself is gone, which the list tells apart.
   */
  const deletedElsewhere = (library: string, id: string): boolean =>
    get().selectedLibrary === library && get().conversationsLoaded && !get().conversations.some((c) => c.id === id);

  /**
   * `ask`'s work. The question's turn shows in the transcript while it is answered; when it is not
   * answered the engine kept nothing of it, so neither does the transcript (nor the list, of a
   * conversation opened only for it): a reload would show it gone. `failure` says why, and is not
   * written to `chatError` here: each caller says it in its own words.
   */
  const post = async (question: string): Promise<Posted> => {
    const library = get().selectedLibrary;
    const text = question.trim();
    // `pending`, not only `streaming`: a second send before `streaming` is set (a double click on
    // "Ask again") would otherwise start a second conversation.
    if (!library || !text || get().streaming || get().pending) return { sent: false };
    const ask: Asking = { library, conversationId: null, sent: false, stopRequested: false, ended: false };
    inFlight.add(ask);
    owner = ask;
    set({ pending: { stopping: false }, chatNote: null });
    try {
      const posted = await postNow(ask, text);
      if (!posted.sent && get().selectedLibrary !== library) return { ...posted, away: library };
      return posted;
    } finally {
      release(ask);
      inFlight.delete(ask);
      // The delete's entry for the conversation asked in is read by now, or not needed (answered);
      // a delete still under way drops its own entry once it is done, no question asking in it now.
      if (ask.conversationId !== null) deletedHere.delete(ask.conversationId);
    }
  };

  /** Deletes a conversation opened for a question not answered; the error's words when that failed. */
  const dropCreated = async (library: string, id: string): Promise<string | undefined> => {
    const res = await api['chat.delete']({ library, id });
    // Gone already (deleted elsewhere meanwhile) is what was wanted.
    if (res.ok || res.error.code === 'not-found') return undefined;
    return `The empty conversation opened for this question could not be deleted: ${res.error.message}`;
  };

  const postNow = async (ask: Asking, text: string): Promise<Posted> => {
    const library = ask.library;
    // Another library opened before the engine has the question: not sent (its answer would land in
    // a library not shown, and the chips saved were this one's).
    const leftBeforeSent = () => get().selectedLibrary !== library;
    await scopeSaved;
    if (ask.stopRequested) return { sent: false, stopped: true };
    if (leftBeforeSent()) return { sent: false };
    let conversation = get().activeConversation;
    const createdNow = !conversation;
    if (!conversation) {
      const models = get().modelFilter;
      const created = await api['chat.create']({ library, ...(models.length > 0 ? { scope: { models } } : {}) });
      if (!created.ok) return { sent: false, failure: { kind: 'failed', error: created.error } };
      conversation = created.value;
      if (ask.stopRequested || leftBeforeSent()) {
        // Opened for this question only: it goes with it, as after a question not answered.
        const deleteError = await dropCreated(library, conversation.id);
        return { sent: false, ...(ask.stopRequested ? { stopped: true as const } : {}), ...(deleteError ? { deleteError } : {}) };
      }
    }
    const userTurn: ChatTurn = { id: `local-${++localIds}`, role: 'user', text, createdAt: new Date().toISOString() };
    set({
      activeConversation: { ...conversation, messages: [...conversation.messages, userTurn] },
      streaming: { conversationId: conversation.id, messageId: null, text: '', stopping: false },
      chatError: null,
    });
    // The call returns the finished turn; tokens meanwhile arrive as events (whichever comes first wins).
    ask.conversationId = conversation.id;
    ask.sent = true;
    const res = await api['chat.ask']({ library, id: conversation.id, question: text });
    // Nothing to stop from here on: what follows (list reloads, a delete) is not the question.
    release(ask);
    if (res.ok) {
      finish(conversation.id, res.value);
      return { sent: true };
    }
    if (get().streaming?.conversationId === conversation.id) set({ streaming: null });
    // Read from the question, not `streaming` (cleared just above): was this a stop asked for here?
    const stoppedHere = ask.stopRequested;
    if (res.error.code === 'cancelled' || res.error.code === 'not-found') {
      // Deleting a conversation stops its answer: the question went with it, unanswered, and goes
      // back in the box like any question not answered (a stop the user asked for does not).
      const here = (await deletedHere.get(conversation.id)) ?? false;
      // After a stop asked for here, a delete elsewhere at that moment is unlikely, and reloading the
      // list first would show the conversation opened for this question until it is deleted below.
      if (!here && !stoppedHere) await get().loadConversations();
      if (here || (!stoppedHere && deletedElsewhere(library, conversation.id))) {
        // The list no longer shows it; the transcript goes too, else the next question would be
        // sent to it and fail again. The next question starts a new conversation.
        if (get().activeConversation?.id === conversation.id) set({ activeConversation: null });
        return { sent: false, failure: { kind: 'gone', here, error: res.error } };
      }
    }
    // Not answered: the engine kept nothing of the question, so the transcript does not either (nor
    // the list, of a conversation opened only for it), else a reload would show it gone.
    const active = get().activeConversation;
    let deleteError: string | undefined;
    if (createdNow) {
      if (active?.id === conversation.id) set({ activeConversation: null });
      deleteError = await dropCreated(library, conversation.id);
      await get().loadConversations();
    } else if (active?.id === conversation.id) {
      set({ activeConversation: { ...active, messages: active.messages.filter((m) => m.id !== userTurn.id) } });
    }
    const deleted = deleteError ? { deleteError } : {};
    if (res.error.code === 'cancelled') {
      // Stopped by the user before the first word (the engine returns `cancelled` and keeps no turn):
      // nothing went wrong, and the question goes back in the box like one not answered. Stopped by
      // another window or the command line, it is said as a failure: this user asked for an answer.
      if (stoppedHere) return { sent: false, stopped: true, ...deleted };
      return { sent: false, failure: { kind: 'stopped-elsewhere', error: res.error }, ...deleted };
    }
    return { sent: false, failure: { kind: 'failed', error: res.error }, ...deleted };
  };

  /**
   * Where `restoreDraft` put a question: `box` alone in the question box (or it was there already),
   * `before-typed` in the box before what was typed since, `kept` in `unsentQuestions`.
   */
  type Restored = 'box' | 'before-typed' | 'kept';

  /**
   * Puts a question that was not sent back in the question box. Text typed there since is kept:
   * the question goes before it, as it was asked first (and the caret, at the end, stays after what
   * was being typed). When both would not fit in the box, the box is left as typed and the question
   * is kept beside it whole: cutting either would lose words, and a box over its limit could only
   * be sent to be refused.
   */
  const restoreDraft = (question: string): Restored => {
    const draft = get().questionDraft;
    const kept = get().unsentQuestions;
    // Decided by the box first: a question kept already (asked again from there and failing again)
    // goes in the box when there is room now, and leaves the kept line, never in both.
    const same = (q: string) => q.trim() === question.trim();
    const rest = kept.filter((q) => !same(q));
    if (!draft.trim()) {
      set({ questionDraft: question, unsentQuestions: rest });
      return 'box';
    }
    if (same(draft)) {
      set({ unsentQuestions: rest });
      return 'box';
    }
    const merged = merge(question, draft);
    if (merged.length <= MAX_QUESTION_CHARS) {
      set({ questionDraft: merged, unsentQuestions: rest });
      return 'before-typed';
    }
    // Kept where it was in the line when it was there already.
    if (rest.length === kept.length) set({ unsentQuestions: [...kept, question] });
    return 'kept';
  };

  /**
   * `chatNote` after a question stopped before the first word of its answer, for each place
   * `restoreDraft` put it. Put back rather than kept in the transcript as stopped: the engine keeps
   * no turn of a question stopped this early, so a transcript keeping it would lose it on a reload,
   * and a question stopped at once is usually one to correct before asking it again.
   */
  const STOPPED: Record<Restored, string> = {
    box: 'Stopped before the answer began: the question is back in the question box.',
    'before-typed': 'Stopped before the answer began: the question is back in the question box, before what you typed since.',
    kept: `Stopped before the answer began: the question is kept above the question box (with what you typed since, it would not fit in it).`,
  };

  const DELETED_ELSEWHERE = 'This conversation was deleted elsewhere (in another window or from the command line)';
  const STOPPED_ELSEWHERE = 'Stopped elsewhere (in another window or from the command line) before the answer began';
  const DELETED_HERE = 'The conversation was deleted before this question was answered';
  /** What the error adds about where the question went, for each place `restoreDraft` puts it. */
  const WHERE: Record<Restored, string> = {
    box: '',
    'before-typed': ' It is back in the question box, before what you typed since.',
    kept: ` It is kept above the question box: with what you typed since, it would not fit in it (at most ${MAX_QUESTION_CHARS} characters).`,
  };

  return {
    ...chatLibraryState(),
    questionDraft: '',

    restoreUnsent(index) {
      const question = get().unsentQuestions[index];
      if (question === undefined) return false;
      const draft = get().questionDraft;
      const text = draft.trim() ? merge(question, draft) : question;
      if (text.length > MAX_QUESTION_CHARS) return false;
      set({ questionDraft: text, unsentQuestions: get().unsentQuestions.filter((_, i) => i !== index) });
      return true;
    },

    async askUnsent(index) {
      const question = get().unsentQuestions[index];
      if (question === undefined || get().streaming || get().pending || replying) return false;
      set({ unsentQuestions: get().unsentQuestions.filter((_, i) => i !== index) });
      return get().ask(question);
    },

    dismissUnsent(index) {
      set({ unsentQuestions: get().unsentQuestions.filter((_, i) => i !== index) });
    },

    setQuestionDraft(text) {
      // The note about a stopped question is about the box as it was put back: an edit moves on.
      set({ questionDraft: text, ...(text !== get().questionDraft ? { chatNote: null } : {}) });
    },

    async loadConversations() {
      const library = get().selectedLibrary;
      if (!library) return set({ conversations: [], conversationsLoaded: true });
      const res = await api['chat.list']({ library });
      if (get().selectedLibrary !== library) return;
      if (!res.ok) return set({ chatError: res.error.message, conversationsLoaded: true });
      set({ conversations: res.value, conversationsLoaded: true });
      // The library is open again (its list is loaded as it opens): its questions not answered while
      // another was open are kept beside the box, as any question that did not fit in it.
      const away = awayQuestions.get(library);
      if (away) {
        awayQuestions.delete(library);
        const kept = get().unsentQuestions;
        set({ unsentQuestions: [...kept, ...away.filter((q) => !kept.some((k) => k.trim() === q.trim()))] });
      }
    },

    async openConversation(id) {
      const library = get().selectedLibrary;
      if (!library) return;
      const res = await api['chat.get']({ library, id });
      if (!res.ok && res.error.code === 'not-found') {
        // Deleted elsewhere since the list was read (or while its answer was written, which stops
        // it): the list is read again so it stops offering it.
        await get().loadConversations();
        if (deletedElsewhere(library, id)) {
          if (get().activeConversation?.id === id) set({ activeConversation: null, streaming: null });
          return set({ chatError: `${DELETED_ELSEWHERE}.` });
        }
      }
      if (!res.ok) return set({ chatError: res.error.message });
      if (get().selectedLibrary !== library) return;
      set({ activeConversation: res.value, chatError: null, chatNote: null, modelFilter: res.value.scope.models ?? [] });
    },

    newConversation() {
      set({ activeConversation: null, chatError: null, chatNote: null });
    },

    async renameConversation(id, title) {
      const library = get().selectedLibrary;
      if (!library || !title.trim()) return;
      const res = await api['chat.rename']({ library, id, title: title.trim() });
      if (!res.ok) return set({ chatError: res.error.message });
      const active = get().activeConversation;
      if (active?.id === id) set({ activeConversation: { ...active, title: res.value.title } });
      await get().loadConversations();
    },

    async deleteConversation(id) {
      const library = get().selectedLibrary;
      if (!library) return;
      const call = api['chat.delete']({ library, id });
      deletedHere.set(id, call.then((r) => r.ok));
      const res = await call;
      // No question waits on it: nothing will read the entry.
      if (![...inFlight].some((a) => a.conversationId === id)) deletedHere.delete(id);
      if (!res.ok) return set({ chatError: res.error.message });
      if (get().activeConversation?.id === id) set({ activeConversation: null, streaming: null });
      await get().loadConversations();
    },

    async ask(question) {
      const posted = await post(question);
      if (posted.sent) return true;
      if (posted.away) {
        // Ended while another library is open: the box and status lines shown are that library's.
        // The question is kept for its own library, beside the box once that library is opened
        // again (a question answered stays in its conversation there, as any answer).
        const kept = awayQuestions.get(posted.away) ?? [];
        if (!kept.some((q) => q.trim() === question.trim())) awayQuestions.set(posted.away, [...kept, question]);
        return false;
      }
      // Nothing typed is lost: the question goes back in the box, to be edited or sent again.
      const restored = restoreDraft(question);
      if (posted.stopped) {
        set({ chatNote: STOPPED[restored], ...(posted.deleteError ? { chatError: posted.deleteError } : {}) });
        return false;
      }
      const failure = posted.failure;
      if (!failure) return false;
      // "Not answered", not "not sent": a conversation deleted while its answer was written took a
      // question the engine had, and a `not-found` does not tell that from one deleted before.
      const why =
        failure.kind === 'gone'
          ? `${failure.here ? DELETED_HERE : DELETED_ELSEWHERE}, so the question was not answered. Ask it again to start a new conversation.`
          : failure.kind === 'stopped-elsewhere'
            ? `${STOPPED_ELSEWHERE}, so the question was not answered.`
            : `This question was not sent. ${failure.error.message}`;
      set({ chatError: why + WHERE[restored] + (posted.deleteError ? ` ${posted.deleteError}.` : '') });
      return false;
    },

    async answerFor(model) {
      // A second press before the reply shows (a double click) would send it twice: `ask` marks the
      // answer as under way only once the scope is saved.
      const conversationId = get().activeConversation?.id;
      if (!get().selectedLibrary || !conversationId || get().streaming || get().pending || replying) return false;
      replying = true;
      const before = get().modelFilter;
      // The question the question back is about: the user's last turn before the press.
      const asked = get().activeConversation?.messages.findLast((m) => m.role === 'user')?.text;
      try {
        // Re-sending the earlier question under the chip would be asked back again (the engine asks
        // about a name no manual is for before it reads the scope), so the reply names the model:
        // the engine's own answer to its question back. The chip is set too, so the scope the
        // composer shows is the one the answer and the next questions use (another model's chip
        // left picked would say one model while the answer is for another).
        void applyFilter([model]);
        const posted = await post(model);
        if (posted.sent) return true;
        // Ended while another library is open: its chips and box are not this reply's. The question
        // it answers stays in its conversation there, with its buttons.
        if (posted.away) return false;
        if (posted.deleteError) set({ chatError: posted.deleteError });
        // Stopped before its first word: the chip stays on the model picked, as after any stop.
        if (posted.stopped) return false;
        // Not answered (the engine busy or refusing, the conversation gone): `post` took the reply
        // out of the transcript, so the question back is the last turn again with its buttons; the
        // chips go back to the scope picked before the press, unless they were changed since (or
        // another conversation or library opened).
        const failure = posted.failure;
        const gone = failure?.kind === 'gone';
        const active = get().activeConversation;
        const filter = get().modelFilter;
        if ((gone ? active === null : active?.id === conversationId) && filter.length === 1 && filter[0] === model && !sameModels(before, filter)) {
          await applyFilter(before);
        }
        // Said after the scope is put back: its save failing too (the conversation gone) would
        // otherwise put its own message in place of why the answer did not come.
        if (failure?.kind === 'gone') {
          // The transcript went with the conversation: the question the user typed is not lost with it.
          const restored = asked ? restoreDraft(asked) : null;
          const next =
            restored === 'kept'
              ? ` Its question is kept above the question box (with what you typed since, it would not fit in it): ask it again to start a new conversation.`
              : restored
                ? ` Its question is back in the question box: ask it again to start a new conversation.${restored === 'before-typed' ? ' It is before what you typed since.' : ''}`
                : '';
          const deleted = failure.here ? 'The conversation was deleted before this reply was answered' : DELETED_ELSEWHERE;
          set({ chatError: `Could not answer for ${model}. ${deleted}.${next}` });
        } else if (failure?.kind === 'stopped-elsewhere') {
          set({ chatError: `Could not answer for ${model}. ${STOPPED_ELSEWHERE}.` });
        } else if (failure) {
          set({ chatError: `Could not answer for ${model}. ${failure.error.message}` });
        }
        return false;
      } finally {
        replying = false;
      }
    },

    async stop() {
      // The question on its way, by identity: `streaming` and `pending` alone would not tell it
      // from a later question in the same conversation, which this stop must never reach.
      const ask = owner;
      if (!ask || ask.ended || ask.stopRequested) return;
      ask.stopRequested = true;
      const streaming = get().streaming;
      const shown = streaming?.conversationId === ask.conversationId && ask.conversationId !== null;
      if (shown) set({ streaming: { ...streaming!, stopping: true } });
      if (get().pending && get().selectedLibrary === ask.library) set({ pending: { stopping: true } });
      // Not yet with the engine (the scope being saved, its conversation being created): `post`
      // gives it up before sending it.
      if (!ask.sent || ask.conversationId === null) return;
      // The engine's `chat.ask` takes the question in as the call arrives, before it reads the
      // library, so a stop that reaches the engine after it finds it: over IPC, calls arrive in the
      // order sent and the first stop holds. Over the web bridge the two are requests on separate
      // connections, which may reach it out of order (the bridge dispatches in arrival order): a
      // stop that came back `stopped: false` while this question is still unanswered outran it, and
      // is sent again, at most STOP_TRIES times in all. Otherwise `stopped: false` means the
      // question was done with first (answered, failed, or stopped some other way).
      for (let tries = 1; ; tries++) {
        const res = await api['chat.stop']({ library: ask.library, id: ask.conversationId });
        if (!res.ok) {
          if (get().selectedLibrary === ask.library) set({ chatError: res.error.message });
          return;
        }
        if (res.value.stopped || ask.ended || tries >= STOP_TRIES) return;
        await new Promise((resolve) => setTimeout(resolve, STOP_AGAIN_MS));
        if (ask.ended) return;
      }
    },

    async exportConversation(id) {
      const library = get().selectedLibrary;
      if (!library) return;
      const res = await api['chat.export']({ library, id });
      if (!res.ok) return set({ chatError: res.error.message });
      // A blob link downloads without any network and without touching the page's HTML.
      const url = URL.createObjectURL(new Blob([res.value.markdown], { type: 'text/markdown' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = res.value.fileName;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 0);
    },

    toggleModelFilter(model) {
      const current = get().modelFilter;
      void applyFilter(current.includes(model) ? current.filter((m) => m !== model) : [...current, model]);
    },

    clearModelFilter() {
      void applyFilter([]);
    },

    handleChatEvent(event) {
      if (event.library !== get().selectedLibrary) return;
      if (event.type === 'chat.token') {
        const s = get().streaming;
        if (!s || s.conversationId !== event.conversationId) return;
        set({ streaming: { ...s, messageId: event.messageId, text: s.text + event.text } });
      } else {
        finish(event.conversationId, event.message);
      }
    },
  };
};
