import type { ChatTurn, EngineEvent, Handlers } from '../contract/api';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import { chatIndexOf, createChatService, STOPPED_BEFORE_ANSWERING, type ChatService } from '../chat/chat.service';
import { CONVERSATION_GONE } from '../chat/conversation.store';
import type { LibraryIndexes } from '../index/library-indexes';
import type { ModelRuntime } from '../models/runtime';
import type { Llm } from '../models/types';
import { noLibrary, sameLibraryName, type Library, type LibraryManager } from '../storage/library.store';
import type { SettingsStore } from './settings';

/**
 * The `chat.*` handlers, each run on its library's chat service (chat/chat.service.ts), and that
 * service made on first use with the chat model chosen in settings. The engine hands `chatFor` to
 * the CLI's one-off answers too.
 *
 * `chat.ask` takes its question in before anything else, as the call arrives: a `chat.stop` that
 * arrives after it (Esc at once in the app, Ctrl+C in the CLI; over the web bridge, which
 * dispatches calls in the order their requests arrived) finds it while the engine still follows
 * the library and opens its index, and aborts it there; the chat service sees the abort through
 * the signal it is handed. Registered any later (by the chat service alone), the stop came back
 * `stopped: false` in that window and the answer ran in full. A stop whose request reached the
 * bridge before the ask's still finds nothing; the app's page sends it again (chat.slice.ts).
 *
 * Deleting the question's conversation or library, or closing the engine, stops it the same way;
 * waiting at the door it then leaves at once (`not-found`, or `cancelled` when closing) and never
 * reaches its chat service, so nothing of it is stored after the delete. Deleting a library and
 * closing also wait for every step of its questions to end before its index is closed; a question
 * arriving while its library is being deleted (`deleting`) or once the engine closes is refused
 * at the door, so none opens the index again after it was closed. A question that left the door
 * goes no further than the step under way; should that step throw, nobody receives the error
 * (after a stop, the question is told it was stopped): it is logged.
 */

/** What the chat handlers share with the engine (`createEngine` makes them). */
export interface ChatContext {
  libraries: LibraryManager;
  indexes: LibraryIndexes;
  settings: SettingsStore;
  models: ModelRuntime;
  /** The chat services by library id; the library handlers drop one when its library is renamed or deleted. */
  chats: Map<string, ChatService>;
  emit: (event: EngineEvent) => void;
  /** Before a question: takes in what another process wrote or synced to the library (team.ts `follow`, the step of every read). */
  follow: (lib: Library) => Promise<void>;
  /** Tests only (`EngineOptions.atChatDoor`): awaited by `chat.ask` once it has taken the question in, before its look-ups. */
  atDoor?: (question: { library: string; conversationId: string }) => Promise<void>;
  /** Where a door step's error goes that no caller receives (its question had left already): the engine's log. */
  log: (message: string) => void;
}

/** Why a question was stopped: `chat.stop`, its conversation or library deleted, the engine closing. */
type StoppedBy = 'stop' | 'deleted' | 'closing';

/** A question `chat.ask` took in, from the call's arrival until all its work is over. */
interface Asked {
  /** The library as the question names it; a stop naming it so (in any case) finds it at once. */
  library: string;
  /** Its id once looked up: a stop naming the library by a new name (renamed since) finds it by that. */
  libraryId: string | null;
  conversationId: string;
  /** Aborted when it is stopped; its signal is the chat service's `AskOptions.signal`. */
  controller: AbortController;
  stoppedBy: StoppedBy | null;
  /**
   * While the question is at the door (looking up and following its library, opening its index):
   * lets it leave with the outcome of `why` at once, the step under way going on unawaited.
   */
  leaveDoor: ((why: Exclude<StoppedBy, 'stop'>) => void) | null;
  /** `chat.ask` has returned: a stop no longer finds it. */
  answered: boolean;
  /** Settles when every step of it is over, a door step it left included: what closing waits for. */
  ended: Promise<void>;
}

/** What a question stopped at the door returns, by who stopped it. */
const DOOR_OUTCOMES: Record<StoppedBy, Result<never>> = {
  // The chat service's own words for a question stopped before its answer began.
  stop: fail('cancelled', STOPPED_BEFORE_ANSWERING),
  // The conversation store's own `not-found` (a question sent to a deleted conversation).
  deleted: fail('not-found', CONVERSATION_GONE),
  closing: fail('cancelled', 'ManualMate is closing: the question was not answered.'),
};

type ChatKeys = 'chat.list' | 'chat.create' | 'chat.get' | 'chat.rename' | 'chat.scope' | 'chat.delete' | 'chat.ask' | 'chat.stop' | 'chat.export';

/**
 * The chat side of the engine (`createChats`): the library's chat service for the CLI's one-off
 * answers, the `chat.*` handlers, and the two ways the engine stops questions wholesale (a library
 * deleted, the engine closing), each waiting until no step of them works any longer.
 */
export interface Chats {
  /** The library's chat service, made on first use (one per library); `not-found` while the library is being deleted. */
  chatFor: (library: string) => Promise<Result<ChatService>>;
  handlers: Pick<Handlers, ChatKeys>;
  /**
   * The library is being deleted: refuses its new questions (`not-found`), stops those under way
   * and resolves, once none of them works any longer, with the release that lets questions in
   * again (the deletion calls it when it ends, whether or not the folder went).
   */
  stopLibraryQuestions: (lib: Library) => Promise<() => void>;
  /** Stops every question and refuses new ones (the engine is closing); resolves once none works any longer. */
  close: () => Promise<void>;
}

export function createChats(ctx: ChatContext): Chats {
  const { libraries, indexes, settings, models, chats, emit, follow, atDoor, log } = ctx;
  /** The questions taken in; each leaves once all its work is over, whatever became of its library. */
  const asked = new Set<Asked>();
  /** Ids of the libraries being deleted (`stopLibraryQuestions` until its release): their questions are refused. */
  const deleting = new Set<string>();
  /** Set by `close`: questions arriving afterwards are refused. */
  let closing = false;

  /** The questions not answered yet in the conversation that `named` picks. */
  const unanswered = (conversationId: string, named: (a: Asked) => boolean): Asked[] =>
    [...asked].filter((a) => !a.answered && a.conversationId === conversationId && named(a));

  /**
   * Aborts the questions; one stopped by a deletion or closing that waits at the door leaves it at
   * once. A stop's question leaves when the door step under way ends: the app shows "Stopping"
   * until then. A deletion's or closing's reason wins over an earlier stop's.
   */
  function stopAll(found: readonly Asked[], why: StoppedBy): void {
    for (const a of found) {
      if (why !== 'stop' || a.stoppedBy === null) a.stoppedBy = why;
      a.controller.abort();
      if (why !== 'stop') a.leaveDoor?.(why);
    }
  }

  /** The chat model chosen in settings, loaded on first use; null answers extractively. */
  async function chatLlm(): Promise<Llm | null> {
    const { chatModel } = await settings.get();
    if (!chatModel) return null;
    const known = (await models.list()).some((m) => m.id === chatModel);
    return known ? models.llm(chatModel) : null;
  }

  /** One chat service per library (conversations live in its folder). */
  async function chatOf(lib: Library): Promise<ChatService> {
    let chat = chats.get(lib.config.id);
    if (!chat) {
      const index = await indexes.open(lib);
      // Made by another call while the index opened: one service per library, so a delete and an
      // answer in one conversation take turns on its file (the conversation store's locks).
      chat = chats.get(lib.config.id);
      if (chat) return chat;
      chat = createChatService({ libraryDir: lib.dir, libraryName: lib.name, index: chatIndexOf(index), getLlm: chatLlm, emit });
      chats.set(lib.config.id, chat);
    }
    return chat;
  }

  async function chatFor(library: string): Promise<Result<ChatService>> {
    const lib = await libraries.require(library);
    if (!lib.ok) return lib;
    // Its index is being closed and its folder removed: a service made now would reopen the index.
    if (deleting.has(lib.value.config.id)) return noLibrary(library);
    return ok(await chatOf(lib.value));
  }

  /** A handler that runs on the library's chat service. */
  function withChat<I extends { library: string }, O>(run: (chat: ChatService, input: I) => Promise<Result<O>>): (input: I) => Promise<Result<O>> {
    return async (input) => {
      const chat = await chatFor(input.library);
      return chat.ok ? run(chat.value, input) : chat;
    };
  }

  /**
   * Whether the question has left the door (its conversation or library deleted, the engine
   * closing): its way in stops at the next step. Not after a stop: its question leaves when the
   * step under way ends, the app showing "Stopping" until then, so the step finishes as before.
   */
  const gone = (taken: Asked): taken is Asked & { stoppedBy: 'deleted' | 'closing' } => taken.stoppedBy === 'deleted' || taken.stoppedBy === 'closing';

  /** The question's way to its chat service: the library looked up and followed, its index opened. */
  async function enter(taken: Asked): Promise<Result<ChatService>> {
    await atDoor?.({ library: taken.library, conversationId: taken.conversationId });
    if (gone(taken)) return DOOR_OUTCOMES[taken.stoppedBy];
    const lib = await libraries.get(taken.library);
    if (gone(taken)) return DOOR_OUTCOMES[taken.stoppedBy];
    if (lib) {
      // Arrived while its library is being deleted (after the deletion stopped those under way):
      // refused before `follow`, as `chatFor` would refuse it after.
      if (deleting.has(lib.config.id)) return noLibrary(taken.library);
      taken.libraryId = lib.config.id;
      await follow(lib);
      if (gone(taken)) return DOOR_OUTCOMES[taken.stoppedBy];
    }
    // Looked up again, not `lib` reused: a deletion meanwhile, or another process's rename that `follow` took in, leaves `lib` unlisted or under another name.
    return chatFor(taken.library);
  }

  const handlers: Pick<Handlers, ChatKeys> = {
    'chat.list': withChat((chat) => chat.list()),
    'chat.create': withChat((chat, { title, scope }) => chat.create({ ...(title ? { title } : {}), ...(scope ? { scope } : {}) })),
    'chat.get': withChat((chat, { id }) => chat.get(id)),
    'chat.rename': withChat((chat, { id, title }) => chat.rename(id, title)),
    'chat.scope': withChat((chat, { id, scope }) => chat.setScope(id, scope)),
    'chat.delete': async ({ library, id }) => {
      // Before the look-up, as a stop: a question asked in it and still at the door leaves at once,
      // `not-found`, before it opens the index; one being answered stops (its chat service's
      // `delete` does too, but the question may be another service's: the library renamed since).
      // Told `not-found` before the delete has happened: should the store's delete then fail (a
      // file error; a missing file is `not-found` itself), the question was stopped all the same
      // and the call's error says the conversation stayed. Accepted: waiting for the delete's
      // outcome would keep the question behind the conversation's lock, which an answer under way
      // in it holds until it has stopped.
      stopAll(unanswered(id, (a) => sameLibraryName(a.library, library)), 'deleted');
      const lib = await libraries.require(library);
      if (!lib.ok) return lib;
      stopAll(unanswered(id, (a) => a.libraryId === lib.value.config.id), 'deleted');
      return (await chatOf(lib.value)).delete(id);
    },
    'chat.ask': ({ library, id, question }) => {
      if (closing) return Promise.resolve(DOOR_OUTCOMES.closing);
      // Registered before the first await (see above); the look-ups follow.
      const taken: Asked = { library, libraryId: null, conversationId: id, controller: new AbortController(), stoppedBy: null, leaveDoor: null, answered: false, ended: Promise.resolve() };
      const left = new Promise<Result<never>>((resolve) => (taken.leaveDoor = (why) => resolve(DOOR_OUTCOMES[why])));
      asked.add(taken);
      const entered = enter(taken);
      /** A door step's error that reached the caller (through `dispatch`, which logs it): not logged again below. */
      let thrown = false;
      const answered = (async (): Promise<Result<ChatTurn>> => {
        let chat: Result<ChatService>;
        try {
          chat = await Promise.race([entered, left]);
        } catch (err) {
          // Failed after a stop: the stop's outcome, the error logged below.
          if (taken.stoppedBy !== null) return DOOR_OUTCOMES[taken.stoppedBy];
          thrown = true;
          throw err;
        } finally {
          taken.leaveDoor = null;
        }
        // Stopped at the door: answered by nobody, nothing stored.
        if (taken.stoppedBy !== null) return DOOR_OUTCOMES[taken.stoppedBy];
        return chat.ok ? await chat.value.ask(id, question, { signal: taken.controller.signal }) : chat;
      })().finally(() => {
        taken.answered = true;
      });
      taken.ended = Promise.allSettled([entered, answered]).then(([door]) => {
        asked.delete(taken);
        // Its question had left (or was stopped): nobody else receives this error.
        if (door.status === 'rejected' && !thrown) {
          const err: unknown = door.reason;
          log(`[engine] the door step of a question stopped in ${library} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        }
      });
      return answered;
    },
    'chat.stop': async ({ library, id }) => {
      const named = unanswered(id, (a) => sameLibraryName(a.library, library));
      stopAll(named, 'stop');
      if (named.length > 0) return ok({ stopped: true });
      const lib = await libraries.require(library);
      if (!lib.ok) return lib;
      const byId = unanswered(id, (a) => a.libraryId === lib.value.config.id);
      stopAll(byId, 'stop');
      if (byId.length > 0) return ok({ stopped: true });
      // Nothing under way here: a stop opens no index to find that out.
      return chats.get(lib.value.config.id)?.stop(id) ?? ok({ stopped: false });
    },
    'chat.export': withChat((chat, { id }) => chat.exportMarkdown(id)),
  };

  /** Stops the questions picked and waits for every step of them to end. */
  async function stopAndWait(pick: (a: Asked) => boolean, why: StoppedBy): Promise<void> {
    const found = [...asked].filter(pick);
    stopAll(found, why);
    await Promise.all(found.map((a) => a.ended));
  }

  return {
    chatFor,
    handlers,
    async stopLibraryQuestions(lib) {
      const id = lib.config.id;
      // Before the questions under way are picked: one arriving from now on is refused at the door.
      deleting.add(id);
      try {
        await stopAndWait((a) => a.libraryId === id || (a.libraryId === null && sameLibraryName(a.library, lib.name)), 'deleted');
      } catch (e) {
        // No release reaches the caller: the library must not refuse questions until restart.
        deleting.delete(id);
        throw e;
      }
      return () => deleting.delete(id);
    },
    close() {
      closing = true;
      return stopAndWait(() => true, 'closing');
    },
  };
}
