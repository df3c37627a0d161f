import type { EngineEvent, Handlers } from '../contract/api';
import type { Result } from '../core/result';
import { ok } from '../core/result';
import { chatIndexOf, createChatService, type ChatService } from '../chat/chat.service';
import type { LibraryIndexes } from '../index/library-indexes';
import type { ModelRuntime } from '../models/runtime';
import type { Llm } from '../models/types';
import { sameLibraryName, type Library, type LibraryManager } from '../storage/library.store';
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
}

/** A question `chat.ask` took in, from the call's arrival until it returns. */
interface Asked {
  /** The library as the question names it; a stop naming it so (in any case) finds it at once. */
  library: string;
  /** Its id once looked up: a stop naming the library by a new name (renamed since) finds it by that. */
  libraryId: string | null;
  conversationId: string;
  /** Aborted by a stop; its signal is the chat service's `AskOptions.signal`. */
  controller: AbortController;
}

type ChatKeys = 'chat.list' | 'chat.create' | 'chat.get' | 'chat.rename' | 'chat.scope' | 'chat.delete' | 'chat.ask' | 'chat.stop' | 'chat.export';

export function createChats(ctx: ChatContext): { chatFor: (library: string) => Promise<Result<ChatService>>; handlers: Pick<Handlers, ChatKeys> } {
  const { libraries, indexes, settings, models, chats, emit, follow } = ctx;
  /** The questions under way; each leaves as its `chat.ask` returns, whatever became of its library. */
  const asked = new Set<Asked>();

  /** Aborts the conversation's questions under way that `named` picks; false when there was none. */
  function stopAsked(conversationId: string, named: (a: Asked) => boolean): boolean {
    const found = [...asked].filter((a) => a.conversationId === conversationId && named(a));
    for (const a of found) a.controller.abort();
    return found.length > 0;
  }

  /** The chat model chosen in settings, loaded on first use; null answers extractively. */
  async function chatLlm(): Promise<Llm | null> {
    const { chatModel } = await settings.get();
    if (!chatModel) return null;
    const known = (await models.list()).some((m) => m.id === chatModel);
    return known ? models.llm(chatModel) : null;
  }

  /** One chat service per library (conversations live in its folder). */
  async function chatFor(library: string): Promise<Result<ChatService>> {
    const lib = await libraries.require(library);
    if (!lib.ok) return lib;
    let chat = chats.get(lib.value.config.id);
    if (!chat) {
      const index = await indexes.open(lib.value);
      chat = createChatService({ libraryDir: lib.value.dir, libraryName: lib.value.name, index: chatIndexOf(index), getLlm: chatLlm, emit });
      chats.set(lib.value.config.id, chat);
    }
    return ok(chat);
  }

  /** A handler that runs on the library's chat service. */
  function withChat<I extends { library: string }, O>(run: (chat: ChatService, input: I) => Promise<Result<O>>): (input: I) => Promise<Result<O>> {
    return async (input) => {
      const chat = await chatFor(input.library);
      return chat.ok ? run(chat.value, input) : chat;
    };
  }

  const handlers: Pick<Handlers, ChatKeys> = {
    'chat.list': withChat((chat) => chat.list()),
    'chat.create': withChat((chat, { title, scope }) => chat.create({ ...(title ? { title } : {}), ...(scope ? { scope } : {}) })),
    'chat.get': withChat((chat, { id }) => chat.get(id)),
    'chat.rename': withChat((chat, { id, title }) => chat.rename(id, title)),
    'chat.scope': withChat((chat, { id, scope }) => chat.setScope(id, scope)),
    'chat.delete': withChat((chat, { id }) => chat.delete(id)),
    'chat.ask': async ({ library, id, question }) => {
      // Registered before the first await (see above); the lookups follow.
      const taken: Asked = { library, libraryId: null, conversationId: id, controller: new AbortController() };
      asked.add(taken);
      try {
        const lib = await libraries.get(library);
        if (lib) {
          taken.libraryId = lib.config.id;
          await follow(lib);
        }
        const chat = await chatFor(library);
        return chat.ok ? await chat.value.ask(id, question, { signal: taken.controller.signal }) : chat;
      } finally {
        asked.delete(taken);
      }
    },
    'chat.stop': async ({ library, id }) => {
      if (stopAsked(id, (a) => sameLibraryName(a.library, library))) return ok({ stopped: true });
      const lib = await libraries.require(library);
      if (!lib.ok) return lib;
      if (stopAsked(id, (a) => a.libraryId === lib.value.config.id)) return ok({ stopped: true });
      // Nothing under way here: a stop opens no index to find that out.
      return chats.get(lib.value.config.id)?.stop(id) ?? ok({ stopped: false });
    },
    'chat.export': withChat((chat, { id }) => chat.exportMarkdown(id)),
  };
  return { chatFor, handlers };
}
