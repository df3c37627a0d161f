import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { create, type StoreApi } from 'zustand';
import type { Handlers, RendererBridge } from '../../src-main/contract/api';
import { fail } from '../../src-main/core/result';
import { apiOf } from '../../src-main/engine/dispatch';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import type { Store } from '../../src-renderer/src/store/index';
import { tempDir } from '../helpers/temp';

/**
 * A question sent from the composer and not answered: the renderer's chat slice over the contract,
 * a real engine in a temp folder. The engine keeps nothing of a question it did not answer, so the
 * transcript must not either (a reload would show it gone): the question goes back in the question
 * box, without losing what was typed there meanwhile, and the error says why. A conversation deleted
 * elsewhere also leaves the Conversations list.
 */

const LIBRARY = 'Pumps';
const BUSY = 'Still answering the previous question in this conversation; stop it or wait for it.';
const DELETED = 'This conversation was deleted elsewhere (in another window or from the command line), so the question was not sent. Ask it again to start a new conversation.';

let engine: Engine;
let cleanup: () => Promise<void>;
let store: StoreApi<Store>;
/**
 * Set: `chat.ask` answers the engine's own "still answering" refusal, which it gives when another
 * window asks in the same conversation at that moment (no test can time that); `onBusy` runs first,
 * as the user's typing while the question was under way. Every other call is the engine's.
 */
let busy = false;
let onBusy: () => void = () => undefined;

beforeAll(async () => {
  const tmp = await tempDir();
  const dir = await realpath(tmp.dir);
  cleanup = tmp.cleanup;
  engine = createEngine({ dataDir: path.join(dir, 'data'), bundledModelsDir: path.join(dir, 'none'), log: () => undefined });
  const file = path.join(dir, 'in', 'rac-225b.md');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, '# RAC-225B service\n\n## Fuse\n\nThe RAC-225B takes a 5 A slow-blow fuse.\n');
  const imported = await engine.importPaths(LIBRARY, [file]);
  if (!imported.ok) throw new Error(imported.error.message);
  const ask: Handlers['chat.ask'] = (input) => {
    if (!busy) return engine.handlers['chat.ask'](input);
    onBusy();
    return Promise.resolve(fail('unavailable', BUSY));
  };
  const manualmate: RendererBridge = { api: apiOf({ ...engine.handlers, 'chat.ask': ask }, () => undefined), onEvent: (listener) => engine.subscribe(listener) };
  // What the preload puts on the page before the renderer's modules load.
  (globalThis as unknown as { window: { manualmate: RendererBridge } }).window = { manualmate };
});

beforeEach(async () => {
  busy = false;
  onBusy = () => undefined;
  const { createChatSlice } = await import('../../src-renderer/src/store/chat.slice');
  // The chat slice with what it asks of the other slices.
  store = create<Store>()((set, get, api) => ({ ...createChatSlice(set, get, api), selectedLibrary: LIBRARY }) as unknown as Store);
});

afterAll(async () => {
  await engine.dispose();
  await cleanup();
});

/** What the composer does: the box is emptied as the question goes. */
function send(question: string): Promise<boolean> {
  store.getState().setQuestionDraft('');
  return store.getState().ask(question);
}

/** The turns the engine holds for a conversation, as the transcript shows them after a reload. */
async function engineTurns(id: string): Promise<string[]> {
  const conv = await engine.handlers['chat.get']({ library: LIBRARY, id });
  if (!conv.ok) throw new Error(conv.error.message);
  return conv.value.messages.map((m) => m.text);
}

/** A conversation with one question answered, open in the store. */
async function answered(): Promise<string> {
  store.getState().newConversation();
  expect(await send('What fuse does the RAC-225B take?')).toBe(true);
  const s = store.getState();
  expect(s.activeConversation!.messages.at(-1)!.text).toContain('5 A slow-blow');
  return s.activeConversation!.id;
}

const transcript = (): string[] => store.getState().activeConversation?.messages.map((m) => m.text) ?? [];

describe('a question from the composer that is not answered', () => {
  it('leaves the transcript, as the engine kept nothing of it, and goes back in the question box', async () => {
    const id = await answered();
    busy = true;
    expect(await send('How do I reach the fuse?')).toBe(false);
    const s = store.getState();
    expect(s.streaming).toBeNull();
    expect(s.chatError).toBe(`This question was not sent. ${BUSY}`);
    expect(s.questionDraft).toBe('How do I reach the fuse?');
    expect(transcript()).toEqual(await engineTurns(id));
    expect(transcript()).toHaveLength(2);
  });

  it('keeps what was typed in the box while it was under way, after the question, and says so', async () => {
    await answered();
    busy = true;
    onBusy = () => store.getState().setQuestionDraft('And the spare');
    expect(await send('How do I reach the fuse?')).toBe(false);
    const s = store.getState();
    expect(s.questionDraft).toBe('How do I reach the fuse?\n\nAnd the spare');
    expect(s.chatError).toBe(`This question was not sent. ${BUSY} It is back in the question box, before what you typed since.`);
  });

  it('does not put it in the box twice when the same question was typed again meanwhile', async () => {
    await answered();
    busy = true;
    onBusy = () => store.getState().setQuestionDraft('How do I reach the fuse? ');
    expect(await send('How do I reach the fuse?')).toBe(false);
    expect(store.getState().questionDraft).toBe('How do I reach the fuse? ');
    expect(store.getState().chatError).toBe(`This question was not sent. ${BUSY}`);
  });

  it('takes the conversation opened for it out of the list again', async () => {
    store.getState().newConversation();
    await store.getState().loadConversations();
    const before = store.getState().conversations.map((c) => c.id);
    busy = true;
    expect(await send('Where is the fuse holder?')).toBe(false);
    const s = store.getState();
    expect(s.activeConversation).toBeNull();
    expect(s.questionDraft).toBe('Where is the fuse holder?');
    expect(s.conversations.map((c) => c.id)).toEqual(before);
    const listed = await engine.handlers['chat.list']({ library: LIBRARY });
    expect(listed.ok && listed.value.map((c) => c.id)).toEqual(before);
  });

  it('keeps a refused question out of the transcript and in the box, with the engine’s reason', async () => {
    const id = await answered();
    const long = `What fuse? ${'x'.repeat(2010)}`;
    expect(await send(long)).toBe(false);
    const s = store.getState();
    expect(s.chatError).toBe('This question was not sent. It is too long: at most 2000 characters.');
    expect(s.questionDraft).toBe(long);
    expect(transcript()).toEqual(await engineTurns(id));
  });
});

describe('a question sent to a conversation deleted elsewhere', () => {
  it('drops the conversation from the list and the transcript, says so, and the next question starts a new one', async () => {
    const id = await answered();
    await store.getState().loadConversations();
    expect(store.getState().conversations.map((c) => c.id)).toContain(id);
    // Another window (or the command line) deletes it while it is open here.
    expect((await engine.handlers['chat.delete']({ library: LIBRARY, id })).ok).toBe(true);
    expect(await send('How do I reach the fuse?')).toBe(false);
    const s = store.getState();
    expect(s.chatError).toBe(DELETED);
    expect(s.conversations.map((c) => c.id)).not.toContain(id);
    expect(s.activeConversation).toBeNull();
    expect(s.questionDraft).toBe('How do I reach the fuse?');

    // Sent again as the message says: a new conversation, answered.
    expect(await send(s.questionDraft)).toBe(true);
    const next = store.getState().activeConversation!;
    expect(next.id).not.toBe(id);
    expect(await engineTurns(next.id)).toHaveLength(2);
    expect(store.getState().conversations.map((c) => c.id)).toContain(next.id);
    expect(store.getState().chatError).toBeNull();
  });

  it('drops a conversation deleted elsewhere from the list when it is opened from there', async () => {
    const id = await answered();
    store.getState().newConversation();
    await store.getState().loadConversations();
    expect((await engine.handlers['chat.delete']({ library: LIBRARY, id })).ok).toBe(true);
    // Its entry is still listed here: the user picks it.
    expect(store.getState().conversations.map((c) => c.id)).toContain(id);
    await store.getState().openConversation(id);
    const s = store.getState();
    expect(s.chatError).toBe('This conversation was deleted elsewhere (in another window or from the command line).');
    expect(s.conversations.map((c) => c.id)).not.toContain(id);
    expect(s.activeConversation).toBeNull();
  });
});
