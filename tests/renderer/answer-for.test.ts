import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { create, type StoreApi } from 'zustand';
import type { Handlers, RendererBridge } from '../../src-main/contract/api';
import { fail } from '../../src-main/core/result';
import { apiOf } from '../../src-main/engine/dispatch';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import type { Store } from '../../src-renderer/src/store/index';
import { openQuestionBack } from '../../src-renderer/src/util/question-back';
import { tempDir } from '../helpers/temp';

/**
 * A candidate of a question back pressed and its reply not answered: the renderer's chat slice
 * over the contract, a real engine in a temp folder. The press picks the candidate's chip before
 * the reply goes; when the reply fails, the chip (and the conversation's scope in the engine) must
 * be the one picked before, the error said, and the candidates offered again.
 */

const LIBRARY = 'Devices';
const BUSY = 'Still answering the previous question in this conversation; stop it or wait for it.';
const manual = (name: string, battery: number): string => `# ${name} User Manual\n\n## Battery\n\nThe ${name} has a ${battery} mAh battery.\n`;

let engine: Engine;
let cleanup: () => Promise<void>;
let store: StoreApi<Store>;
/**
 * Set: `chat.ask` answers the engine's own "still answering" refusal. The engine gives it when
 * another window asks in the same conversation at that moment, which no test can time; every other
 * call, and every other answer, is the engine's.
 */
let busy = false;

beforeAll(async () => {
  const tmp = await tempDir();
  const dir = await realpath(tmp.dir);
  cleanup = tmp.cleanup;
  engine = createEngine({ dataDir: path.join(dir, 'data'), bundledModelsDir: path.join(dir, 'none'), log: () => undefined });
  const files: string[] = [];
  for (const [name, battery] of [['Foo X1', 80], ['Bar Z5 Mini 5G', 40], ['Bar Z5 Max 5G', 90]] as const) {
    const file = path.join(dir, 'in', `${name.replaceAll(' ', '_')}.md`);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, manual(name, battery));
    files.push(file);
  }
  const imported = await engine.importPaths(LIBRARY, files);
  if (!imported.ok) throw new Error(imported.error.message);
  const handlers: Handlers = { ...engine.handlers, 'chat.ask': (input) => (busy ? Promise.resolve(fail('unavailable', BUSY)) : engine.handlers['chat.ask'](input)) };
  const manualmate: RendererBridge = { api: apiOf(handlers, () => undefined), onEvent: (listener) => engine.subscribe(listener) };
  // What the preload puts on the page before the renderer's modules load.
  (globalThis as unknown as { window: { manualmate: RendererBridge } }).window = { manualmate };
});

beforeEach(async () => {
  busy = false;
  const { createChatSlice } = await import('../../src-renderer/src/store/chat.slice');
  // The chat slice with what it asks of the other slices.
  store = create<Store>()((set, get, api) => ({ ...createChatSlice(set, get, api), selectedLibrary: LIBRARY }) as unknown as Store);
});

afterAll(async () => {
  await engine.dispose();
  await cleanup();
});

/** Asks, with Foo X1's chip picked, about a name two manuals begin: the engine asks back which. */
async function questionBack(): Promise<string> {
  store.getState().toggleModelFilter('Foo X1');
  expect(await store.getState().ask('What battery does the Bar Z5 have?')).toBe(true);
  const conversation = store.getState().activeConversation!;
  expect(openQuestionBack(conversation.messages).flatMap((c) => c.models)).toEqual(['Bar Z5 Max 5G', 'Bar Z5 Mini 5G']);
  return conversation.id;
}

async function engineScope(id: string): Promise<string[] | undefined> {
  const conv = await engine.handlers['chat.get']({ library: LIBRARY, id });
  if (!conv.ok) throw new Error(conv.error.message);
  return conv.value.scope.models;
}

describe('answerFor when the reply is not answered', () => {
  it('puts the chip picked before back, in the engine too, says why and offers the candidates again', async () => {
    const id = await questionBack();
    busy = true;
    expect(await store.getState().answerFor('Bar Z5 Max 5G')).toBe(false);
    const s = store.getState();
    expect(s.modelFilter).toEqual(['Foo X1']);
    expect(await engineScope(id)).toEqual(['Foo X1']);
    expect(s.chatError).toBe(`Could not answer for Bar Z5 Max 5G. ${BUSY}`);
    expect(s.streaming).toBeNull();
    // The engine kept no reply: the transcript neither, and the question back is open again.
    expect(s.activeConversation!.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(openQuestionBack(s.activeConversation!.messages).flatMap((c) => c.models)).toEqual(['Bar Z5 Max 5G', 'Bar Z5 Mini 5G']);

    // Pressed again once the engine is free, the candidate answers and keeps its chip.
    busy = false;
    expect(await store.getState().answerFor('Bar Z5 Max 5G')).toBe(true);
    expect(store.getState().modelFilter).toEqual(['Bar Z5 Max 5G']);
    expect(await engineScope(id)).toEqual(['Bar Z5 Max 5G']);
    expect(store.getState().chatError).toBeNull();
    expect(store.getState().activeConversation!.messages.at(-1)!.text).toContain('90 mAh');
  });

  it('puts the chip back, drops the conversation deleted elsewhere and its question goes back in the box', async () => {
    const id = await questionBack();
    await store.getState().loadConversations();
    expect(store.getState().conversations.map((c) => c.id)).toContain(id);
    const deleted = await engine.handlers['chat.delete']({ library: LIBRARY, id });
    expect(deleted.ok).toBe(true);
    expect(await store.getState().answerFor('Bar Z5 Mini 5G')).toBe(false);
    const s = store.getState();
    expect(s.modelFilter).toEqual(['Foo X1']);
    // The reply's reason, not the failed save of the scope put back after it.
    expect(s.chatError).toBe(
      'Could not answer for Bar Z5 Mini 5G. This conversation was deleted elsewhere (in another window or from the command line). Its question is back in the question box: ask it again to start a new conversation.',
    );
    // Gone from the list, and from the transcript (a next question or press would fail again).
    expect(s.conversations.map((c) => c.id)).not.toContain(id);
    expect(s.activeConversation).toBeNull();
    expect(s.questionDraft).toBe('What battery does the Bar Z5 have?');
  });

  it('leaves chips changed while the reply was under way as they are', async () => {
    await questionBack();
    busy = true;
    const pressed = store.getState().answerFor('Bar Z5 Max 5G');
    // The user picks another chip before the refusal comes back: that choice is not undone.
    store.getState().toggleModelFilter('Bar Z5 Mini 5G');
    expect(await pressed).toBe(false);
    expect(store.getState().modelFilter).toEqual(['Bar Z5 Max 5G', 'Bar Z5 Mini 5G']);
  });
});
