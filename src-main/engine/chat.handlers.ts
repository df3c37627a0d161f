import type { EngineEvent, Handlers } from '../contract/api';
import type { Result } from '../core/result';
import { ok } from '../core/result';
import { chatIndexOf, createChatService, type ChatService } from '../chat/chat.service';
import type { LibraryIndexes } from '../index/library-indexes';
import type { ModelRuntime } from '../models/runtime';
import type { Llm } from '../models/types';
import type { LibraryManager } from '../storage/library.store';
import type { SettingsStore } from './settings';

/**
 * The `chat.*` handlers, each run on its library's chat service (chat/chat.service.ts), and that
 * service made on first use with the chat model chosen in settings. The engine hands `chatFor` to
 * the CLI's one-off answers too.
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
}

type ChatKeys = 'chat.list' | 'chat.create' | 'chat.get' | 'chat.rename' | 'chat.scope' | 'chat.delete' | 'chat.ask' | 'chat.stop' | 'chat.export';

export function createChats(ctx: ChatContext): { chatFor: (library: string) => Promise<Result<ChatService>>; handlers: Pick<Handlers, ChatKeys> } {
  const { libraries, indexes, settings, models, chats, emit } = ctx;

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
    'chat.ask': withChat((chat, { id, question }) => chat.ask(id, question)),
    'chat.stop': withChat((chat, { id }) => chat.stop(id)),
    'chat.export': withChat((chat, { id }) => chat.exportMarkdown(id)),
  };
  return { chatFor, handlers };
}
