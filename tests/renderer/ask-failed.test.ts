import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { create, type StoreApi } from 'zustand';
import type { Handlers, RendererBridge } from '../../src-main/contract/api';
import { fail, ok } from '../../src-main/core/result';
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
const DELETED_HERE = 'The conversation was deleted before this question was answered, so the question was not answered. Ask it again to start a new conversation.';
const DELETED = 'This conversation was deleted elsewhere (in another window or from the command line), so the question was not answered. Ask it again to start a new conversation.';

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
/** Set: `chat.ask` goes through it, with the engine's own `chat.ask` as `engineAsk`. */
let around: ((input: Parameters<Handlers['chat.ask']>[0], engineAsk: Handlers['chat.ask']) => ReturnType<Handlers['chat.ask']>) | null = null;
/** Set: these calls go here instead of to the engine (as another process's timing would answer them). */
let fakes: Partial<Pick<Handlers, 'chat.stop' | 'chat.delete'>> = {};

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
    if (around) return around(input, engine.handlers['chat.ask']);
    if (!busy) return engine.handlers['chat.ask'](input);
    onBusy();
    return Promise.resolve(fail('unavailable', BUSY));
  };
  const stop: Handlers['chat.stop'] = (input) => (fakes['chat.stop'] ?? engine.handlers['chat.stop'])(input);
  const del: Handlers['chat.delete'] = (input) => (fakes['chat.delete'] ?? engine.handlers['chat.delete'])(input);
  const handlers = { ...engine.handlers, 'chat.ask': ask, 'chat.stop': stop, 'chat.delete': del };
  const manualmate: RendererBridge = { api: apiOf(handlers, () => undefined), onEvent: (listener) => engine.subscribe(listener) };
  // What the preload puts on the page before the renderer's modules load.
  (globalThis as unknown as { window: { manualmate: RendererBridge } }).window = { manualmate };
});

beforeEach(async () => {
  busy = false;
  onBusy = () => undefined;
  around = null;
  fakes = {};
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
    // The list is read again once the answer is in, not awaited by `ask`: it shows the new one soon after.
    await expect.poll(() => store.getState().conversations.map((c) => c.id)).toContain(next.id);
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

/** The conversations the engine holds. */
async function engineIds(): Promise<string[]> {
  const listed = await engine.handlers['chat.list']({ library: LIBRARY });
  if (!listed.ok) throw new Error(listed.error.message);
  return listed.value.map((c) => c.id);
}

describe('a question whose conversation is deleted while it is answered', () => {
  it('goes back in the box when the delete here stops its answer, even before the delete is done', async () => {
    const id = await answered();
    // The user deletes the conversation while the answer is under way: the engine stops the answer
    // at once ("Stopped before answering.", what it returns when the stop comes before the first
    // word) and the delete is done after.
    around = (input) => {
      void store.getState().deleteConversation(input.id);
      return Promise.resolve(fail('cancelled', 'Stopped before answering.'));
    };
    expect(await send('How do I reach the fuse?')).toBe(false);
    const s = store.getState();
    expect(s.questionDraft).toBe('How do I reach the fuse?');
    expect(s.chatError).toBe(DELETED_HERE);
    expect(s.activeConversation).toBeNull();
    expect(s.streaming).toBeNull();
    expect(await engineIds()).not.toContain(id);
    expect(s.conversations.map((c) => c.id)).not.toContain(id);

    // Asked again, as the error says: a new conversation answers it.
    around = null;
    expect(await send(s.questionDraft)).toBe(true);
    expect(store.getState().activeConversation!.id).not.toBe(id);
    expect(store.getState().chatError).toBeNull();
  });

  it('goes back in the box when the answer was written but its conversation was deleted here before it was saved', async () => {
    const id = await answered();
    // The engine's own answer to a question whose conversation is gone by the time it is saved.
    around = async (input, engineAsk) => {
      await store.getState().deleteConversation(input.id);
      return engineAsk(input);
    };
    store.getState().setQuestionDraft('');
    const asked = store.getState().ask('How do I reach the fuse?');
    store.getState().setQuestionDraft('And the spare');
    expect(await asked).toBe(false);
    const s = store.getState();
    expect(s.questionDraft).toBe('How do I reach the fuse?\n\nAnd the spare');
    expect(s.chatError).toBe(`${DELETED_HERE} It is back in the question box, before what you typed since.`);
    expect(await engineIds()).not.toContain(id);
  });

  it('goes back in the box when another window deletes it and its answer is stopped, and says so', async () => {
    const id = await answered();
    await store.getState().loadConversations();
    around = async (input) => {
      expect((await engine.handlers['chat.delete']({ library: LIBRARY, id: input.id })).ok).toBe(true);
      return fail('cancelled', 'Stopped before answering.');
    };
    expect(await send('How do I reach the fuse?')).toBe(false);
    const s = store.getState();
    expect(s.questionDraft).toBe('How do I reach the fuse?');
    expect(s.chatError).toBe(DELETED);
    expect(s.activeConversation).toBeNull();
    expect(s.conversations.map((c) => c.id)).not.toContain(id);
  });

});

describe('a question the user stops before the first word of its answer', () => {
  const STOPPED = 'Stopped before the answer began: the question is back in the question box.';
  /**
   * The user presses Stop as the question reaches the engine, and the engine's own answer to a stop
   * that comes before the first word: it keeps no turn.
   */
  const stopped = () => {
    void store.getState().stop();
    return Promise.resolve(fail('cancelled', 'Stopped before answering.'));
  };

  it('leaves the transcript as the engine keeps it (without the question) and goes back in the box, said as a note, not an error', async () => {
    const id = await answered();
    const before = await engineTurns(id);
    around = stopped;
    expect(await send('How do I reach the fuse?')).toBe(false);
    const s = store.getState();
    expect(s.questionDraft).toBe('How do I reach the fuse?');
    expect(s.chatNote).toBe(STOPPED);
    expect(s.chatError).toBeNull();
    expect(s.streaming).toBeNull();
    expect(s.pending).toBeNull();
    expect(s.activeConversation?.id).toBe(id);
    expect(await engineTurns(id)).toEqual(before);
    expect(transcript()).toEqual(before);

    // Asked again from the box: answered in the same conversation, the note gone.
    around = null;
    expect(await send(s.questionDraft)).toBe(true);
    expect(transcript()).toEqual(await engineTurns(id));
    expect(transcript()).toHaveLength(before.length + 2);
    expect(store.getState().chatNote).toBeNull();
  });

  it('takes the conversation opened for it out again, and keeps what was typed meanwhile after it', async () => {
    store.getState().newConversation();
    const before = await engineIds();
    around = () => {
      store.getState().setQuestionDraft('and the spare');
      return stopped();
    };
    store.getState().setQuestionDraft('');
    expect(await store.getState().ask('How do I reach the fuse?')).toBe(false);
    const s = store.getState();
    expect(s.questionDraft).toBe('How do I reach the fuse?\n\nand the spare');
    expect(s.chatNote).toBe('Stopped before the answer began: the question is back in the question box, before what you typed since.');
    expect(s.activeConversation).toBeNull();
    expect(await engineIds()).toEqual(before);
    expect(s.conversations.map((c) => c.id)).toEqual(before);
  });

  it('is on its way from the send, before its answer streams: a stop then sends nothing and opens no conversation', async () => {
    store.getState().newConversation();
    const before = await engineIds();
    let asked = 0;
    around = (input, engineAsk) => {
      asked++;
      return engineAsk(input);
    };
    store.getState().setQuestionDraft('');
    const asking = store.getState().ask('How do I reach the fuse?');
    // Set at once, while the scope is saved and the conversation created: nothing streams yet.
    expect(store.getState().pending).toEqual({ stopping: false });
    expect(store.getState().streaming).toBeNull();
    await store.getState().stop();
    expect(store.getState().pending).toEqual({ stopping: true });
    expect(await asking).toBe(false);
    const s = store.getState();
    expect(asked).toBe(0);
    expect(s.pending).toBeNull();
    expect(s.questionDraft).toBe('How do I reach the fuse?');
    expect(s.chatNote).toBe(STOPPED);
    expect(s.activeConversation).toBeNull();
    expect(await engineIds()).toEqual(before);
  });
});

describe('a question not answered that would not fit in the box with what was typed since', () => {
  const typed = (n: number): string => 'The spare fuse sits under the cover. '.repeat(60).slice(0, n);

  it('leaves the box as typed and keeps the question whole beside it, and says so', async () => {
    await answered();
    busy = true;
    const question = 'How do I reach the fuse?';
    // Room for the question alone, not for it and the blank line before what was typed.
    const meanwhile = typed(2000 - question.length - 1);
    onBusy = () => store.getState().setQuestionDraft(meanwhile);
    expect(await send(question)).toBe(false);
    const s = store.getState();
    expect(s.questionDraft).toBe(meanwhile);
    expect(s.unsentQuestions).toEqual([question]);
    expect(s.chatError).toBe(`This question was not sent. ${BUSY} It is kept above the question box: with what you typed since, it would not fit in it (at most 2000 characters).`);

    // Failing again, it is not kept twice.
    expect(await store.getState().askUnsent(0)).toBe(false);
    expect(store.getState().unsentQuestions).toEqual([question]);
    expect(store.getState().questionDraft).toBe(meanwhile);

    // No room yet: it stays kept and the box as typed.
    expect(store.getState().restoreUnsent(0)).toBe(false);
    expect(store.getState().unsentQuestions).toEqual([question]);
    // One character freed is room enough: it goes before what was typed.
    const shorter = meanwhile.slice(0, -1);
    store.getState().setQuestionDraft(shorter);
    expect(store.getState().restoreUnsent(0)).toBe(true);
    expect(store.getState().questionDraft).toBe(`${question}\n\n${shorter}`);
    expect(store.getState().questionDraft).toHaveLength(2000);
    expect(store.getState().unsentQuestions).toEqual([]);
  });

  it('fits exactly at the limit: then it is merged', async () => {
    await answered();
    busy = true;
    const question = 'How do I reach the fuse?';
    const meanwhile = typed(2000 - question.length - 2);
    onBusy = () => store.getState().setQuestionDraft(meanwhile);
    expect(await send(question)).toBe(false);
    expect(store.getState().questionDraft).toBe(`${question}\n\n${meanwhile}`);
    expect(store.getState().questionDraft).toHaveLength(2000);
    expect(store.getState().unsentQuestions).toEqual([]);
  });

  it('is answered when asked again from beside the box, which keeps what is typed', async () => {
    await answered();
    busy = true;
    const meanwhile = typed(1990);
    onBusy = () => store.getState().setQuestionDraft(meanwhile);
    expect(await send('How do I reach the fuse?')).toBe(false);
    busy = false;
    expect(await store.getState().askUnsent(0)).toBe(true);
    const s = store.getState();
    expect(s.unsentQuestions).toEqual([]);
    expect(s.questionDraft).toBe(meanwhile);
    expect(s.activeConversation!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(s.activeConversation!.messages[2]!.text).toBe('How do I reach the fuse?');
  });

  it('is gone only when dismissed', async () => {
    await answered();
    busy = true;
    onBusy = () => store.getState().setQuestionDraft(typed(1990));
    expect(await send('How do I reach the fuse?')).toBe(false);
    expect(store.getState().unsentQuestions).toHaveLength(1);
    store.getState().dismissUnsent(0);
    expect(store.getState().unsentQuestions).toEqual([]);
    expect(store.getState().questionDraft).toBe(typed(1990));
  });
});

describe('questions kept beside the box', () => {
  const typed = (n: number): string => 'Check the cover screws too. '.repeat(80).slice(0, n);

  /** Two questions not answered, kept beside a box of `meanwhile`: the engine busy for both. */
  async function keepTwo(meanwhile: string): Promise<[string, string]> {
    busy = true;
    onBusy = () => store.getState().setQuestionDraft(meanwhile);
    const asked: [string, string] = ['How do I reach the fuse?', 'Which fuse is the spare?'];
    for (const q of asked) expect(await send(q)).toBe(false);
    expect(store.getState().unsentQuestions).toEqual(asked);
    busy = false;
    return asked;
  }

  it('sends nothing on a second "Ask again" while the first is on its way (a double click): one conversation, the next question still kept', async () => {
    store.getState().newConversation();
    const [first, second] = await keepTwo(typed(1990));
    const before = await engineIds();
    // No conversation open: the first waits on `chat.create` before it shows as answered.
    const asking = store.getState().askUnsent(0);
    // The list has shifted: the second click lands on the next question's button.
    expect(store.getState().unsentQuestions).toEqual([second]);
    expect(await store.getState().askUnsent(0)).toBe(false);
    expect(store.getState().unsentQuestions).toEqual([second]);
    expect(await asking).toBe(true);
    const after = await engineIds();
    expect(after).toHaveLength(before.length + 1);
    const id = after.find((c) => !before.includes(c))!;
    const turns = await engineTurns(id);
    expect(turns).toHaveLength(2);
    expect(turns[0]).toBe(first);
    expect(store.getState().questionDraft).toBe(typed(1990));
  });

  it('goes in the box, not the kept line, when the box is empty as it fails again, and the alert says so', async () => {
    await answered();
    const [first, second] = await keepTwo(typed(1990));
    // The box emptied; the first kept question typed there again and sent, and refused again.
    store.getState().setQuestionDraft('');
    busy = true;
    onBusy = () => undefined;
    expect(await send(first)).toBe(false);
    const s = store.getState();
    expect(s.questionDraft).toBe(first);
    expect(s.unsentQuestions).toEqual([second]);
    expect(s.chatError).toBe(`This question was not sent. ${BUSY}`);
  });

  it('moves from the kept line into the box when it fits beside what is typed now', async () => {
    await answered();
    const [first, second] = await keepTwo(typed(1990));
    // The second typed again in an emptied box and sent; a short note typed while it is refused again.
    busy = true;
    onBusy = () => store.getState().setQuestionDraft('And the cover');
    expect(await send(second)).toBe(false);
    expect(store.getState().questionDraft).toBe(`${second}\n\nAnd the cover`);
    expect(store.getState().unsentQuestions).toEqual([first]);
    expect(store.getState().chatError).toBe(`This question was not sent. ${BUSY} It is back in the question box, before what you typed since.`);
  });

  it('are dropped when another library is opened, where "Ask again" would ask the wrong manuals; the box keeps its text', async () => {
    const { useStore } = await import('../../src-renderer/src/store/index');
    useStore.setState({ unsentQuestions: ['How do I reach the fuse?'], questionDraft: 'And the spare' });
    useStore.getState().resetForLibrary();
    expect(useStore.getState().unsentQuestions).toEqual([]);
    expect(useStore.getState().questionDraft).toBe('And the spare');
  });
});

/** A `chat.ask` that waits until the test ends it, and says when the engine has the question. */
function held(): { asked: Promise<Parameters<Handlers['chat.ask']>[0]>; end: (r: Awaited<ReturnType<Handlers['chat.ask']>>) => void } {
  let end!: (r: Awaited<ReturnType<Handlers['chat.ask']>>) => void;
  let reached!: (input: Parameters<Handlers['chat.ask']>[0]) => void;
  const asked = new Promise<Parameters<Handlers['chat.ask']>[0]>((r) => (reached = r));
  around = (input) => {
    reached(input);
    return new Promise((r) => (end = r));
  };
  return { asked, end: (r) => end(r) };
}

const STOPPED_NOTE = 'Stopped before the answer began: the question is back in the question box.';
const CANCELLED = fail<never>('cancelled', 'Stopped before answering.');

describe('a stop sent right after the question reaches the engine', () => {
  it('is sent once and stops it: the engine has the question from the moment chat.ask arrives, before it reads the library', async () => {
    const id = await answered();
    const stops: boolean[] = [];
    fakes['chat.stop'] = async (input) => {
      const res = await engine.handlers['chat.stop'](input);
      stops.push(res.ok && res.value.stopped);
      return res;
    };
    // The engine's own chat.ask, and the stop (Esc) at once, before it has read anything.
    around = (input, engineAsk) => {
      const answering = engineAsk(input);
      void store.getState().stop();
      return answering;
    };
    expect(await send('How do I reach the fuse?')).toBe(false);
    expect(stops).toEqual([true]);
    expect(store.getState().chatNote).toBe(STOPPED_NOTE);
    expect(store.getState().questionDraft).toBe('How do I reach the fuse?');
    expect(await engineTurns(id)).toHaveLength(2);
  });

  it('is not sent again when the question was done with first: a later question is never stopped by it', async () => {
    await answered();
    const ask = held();
    let stops = 0;
    fakes['chat.stop'] = async () => {
      stops++;
      // Answered meanwhile (the engine wrote it before the stop came).
      ask.end(fail('unavailable', BUSY));
      return ok({ stopped: false });
    };
    const asking = send('How do I reach the fuse?');
    await ask.asked;
    await store.getState().stop();
    await asking;
    around = null;
    // The next question in the same conversation is answered in full.
    expect(await send('What fuse does the RAC-225B take?')).toBe(true);
    expect(stops).toBe(1);
  });
});

describe('a stop that outran the question (the web bridge: separate requests, arriving out of order)', () => {
  it('is sent again while the question is unanswered, until one stops it', async () => {
    await answered();
    const ask = held();
    const answers = [false, true];
    let stops = 0;
    fakes['chat.stop'] = async () => {
      const stopped = answers[stops++]!;
      // The second reaches the engine after the question, and stops it there.
      if (stopped) ask.end(CANCELLED);
      return ok({ stopped });
    };
    const asking = send('How do I reach the fuse?');
    await ask.asked;
    await store.getState().stop();
    expect(await asking).toBe(false);
    expect(stops).toBe(2);
    expect(store.getState().questionDraft).toBe('How do I reach the fuse?');
  });

  it('is sent a bounded number of times, never for ever', async () => {
    await answered();
    const ask = held();
    let stops = 0;
    fakes['chat.stop'] = async () => {
      stops++;
      return ok({ stopped: false });
    };
    const asking = send('How do I reach the fuse?');
    await ask.asked;
    await store.getState().stop();
    const sent = stops;
    ask.end(fail('unavailable', BUSY));
    await asking;
    expect(sent).toBeGreaterThan(1);
    expect(sent).toBeLessThanOrEqual(10);
    expect(stops).toBe(sent);
  });
});

describe('a question on its way when another library is opened', () => {
  /** What selecting another library does to the chat slice (the store's `resetForLibrary`). */
  async function openLibrary(name: string): Promise<void> {
    const { chatLibraryState } = await import('../../src-renderer/src/store/chat.slice');
    store.setState({ ...chatLibraryState(), selectedLibrary: name } as Partial<Store>);
  }

  it('leaves nothing to stop in the next library, and its outcome stays out of that library’s box, kept for its own', async () => {
    await answered();
    const ask = held();
    const asking = send('How do I reach the fuse?');
    const input = await ask.asked;
    await openLibrary('Elsewhere');
    expect(store.getState().pending).toBeNull();
    expect(store.getState().streaming).toBeNull();
    store.getState().setQuestionDraft('Typed in the other library');
    ask.end(fail('unavailable', BUSY));
    expect(await asking).toBe(false);
    let s = store.getState();
    expect(s.questionDraft).toBe('Typed in the other library');
    expect(s.chatError).toBeNull();
    expect(s.chatNote).toBeNull();
    expect(s.unsentQuestions).toEqual([]);
    expect(s.pending).toBeNull();

    // Back in its own library: the question is kept beside the box, and was not kept by the engine.
    await openLibrary(LIBRARY);
    await store.getState().loadConversations();
    s = store.getState();
    expect(s.unsentQuestions).toEqual(['How do I reach the fuse?']);
    expect(await engineTurns(input.id)).toHaveLength(2);
  });

  it('is stopped in its own library by a stop with no answer streaming', async () => {
    await answered();
    const ask = held();
    const stopped: Parameters<Handlers['chat.stop']>[0][] = [];
    fakes['chat.stop'] = async (input) => {
      stopped.push(input);
      ask.end(CANCELLED);
      return ok({ stopped: true });
    };
    const asking = send('How do I reach the fuse?');
    const input = await ask.asked;
    // Its answer no longer shows (as after a library switch), the question still with the engine.
    store.setState({ streaming: null });
    await store.getState().stop();
    expect(stopped).toEqual([{ library: LIBRARY, id: input.id }]);
    expect(await asking).toBe(false);
  });
});

describe('a question stopped before its answer began, in a conversation opened for it', () => {
  it('never shows that conversation in the list, and says so when it could not be deleted', async () => {
    store.getState().newConversation();
    await store.getState().loadConversations();
    const before = await engineIds();
    const seen: string[][] = [];
    const unsubscribe = store.subscribe((st) => seen.push(st.conversations.map((c) => c.id)));
    let pendingAtDelete: unknown = 'not called';
    fakes['chat.delete'] = async () => {
      // What the list showed until the delete (failing, the conversation is listed after it, as it is).
      unsubscribe();
      pendingAtDelete = store.getState().pending;
      return fail('unavailable', 'The library is busy.');
    };
    let created = '';
    around = (input) => {
      created = input.id;
      void store.getState().stop();
      return Promise.resolve(CANCELLED);
    };
    expect(await send('How do I reach the fuse?')).toBe(false);
    const s = store.getState();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.some((ids) => ids.includes(created))).toBe(false);
    expect(s.chatNote).toBe(STOPPED_NOTE);
    expect(s.chatError).toBe('The empty conversation opened for this question could not be deleted: The library is busy.');
    // Nothing to stop once `chat.ask` returned, while the delete runs.
    expect(pendingAtDelete).toBeNull();
    fakes = {};
    await engine.handlers['chat.delete']({ library: LIBRARY, id: created });
    expect(await engineIds()).toEqual(before);
  });
});

describe('a question stopped before its answer began by another window or the command line', () => {
  it('is said as a failure, not as the stop note of a stop this window never asked for', async () => {
    await answered();
    around = () => Promise.resolve(CANCELLED);
    expect(await send('How do I reach the fuse?')).toBe(false);
    const s = store.getState();
    expect(s.chatNote).toBeNull();
    expect(s.chatError).toBe('Stopped elsewhere (in another window or from the command line) before the answer began, so the question was not answered.');
    expect(s.questionDraft).toBe('How do I reach the fuse?');
  });
});

describe('the note about a stopped question', () => {
  it('goes once the box is edited, another conversation is opened or a new one started', async () => {
    const id = await answered();
    const stopNow = () => {
      void store.getState().stop();
      return Promise.resolve(CANCELLED);
    };
    around = stopNow;
    expect(await send('How do I reach the fuse?')).toBe(false);
    expect(store.getState().chatNote).toBe(STOPPED_NOTE);
    store.getState().setQuestionDraft('How do I reach the fuse? And');
    expect(store.getState().chatNote).toBeNull();

    expect(await send('How do I reach the fuse?')).toBe(false);
    store.getState().newConversation();
    expect(store.getState().chatNote).toBeNull();

    await store.getState().openConversation(id);
    expect(await send('How do I reach the fuse?')).toBe(false);
    expect(store.getState().chatNote).toBe(STOPPED_NOTE);
    await store.getState().openConversation(id);
    expect(store.getState().chatNote).toBeNull();
  });
});
