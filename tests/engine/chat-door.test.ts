import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { access, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EngineEvent } from '../../src-main/contract/api';
import { createEngine, type Engine, type EngineOptions } from '../../src-main/engine/engine';
import { ensureTinyGguf } from '../models/tiny-gguf';
import { tempDir } from '../helpers/temp';

/**
 * A question held at the engine's door (taken in by `chat.ask`, its library not yet looked up,
 * through the test-only `EngineOptions.atChatDoor`) when its conversation or library is deleted or
 * the engine closes: the question is answered at once, while the held step still waits, never by
 * its chat service, and nothing of it is stored; the deletion or closing waits for the held step.
 * A question arriving while its library is being deleted is refused; a door step that throws is
 * logged once and never keeps a deletion or closing waiting; a library deletion that fails lets its
 * questions in again. Real engine, real index, extracted
 * answers.
 */

const QUESTION = 'Which fuse does the P-200 take?';
const MANUAL = '# P-200 pump service manual\n\n## Fuses\n\nThe P-200 takes a 10 A slow-blow fuse.\n\n## Seals\n\nReplace the P-200 shaft seal after 2000 hours.\n';

let tmp: { dir: string; cleanup: () => Promise<void> };

/** The door of the engines below: holds the next question that reaches it, once `holdNext` asked for it. */
let next: { reached: () => void; held: Promise<void> } | null = null;
/** When set, the door step of the next question throws (`failNext`). */
let failing: Error | null = null;
const atChatDoor: EngineOptions['atChatDoor'] = async () => {
  const thrown = failing;
  failing = null;
  if (thrown) throw thrown;
  const gate = next;
  next = null;
  if (!gate) return;
  gate.reached();
  await gate.held;
};

/** Holds the next question at the door: `reached` once it is there, `release` lets it go on, `fail` makes its held step throw. */
function holdNext(): { reached: Promise<void>; release: () => void; fail: (err: Error) => void } {
  let release!: () => void;
  let fail!: (err: Error) => void;
  const held = new Promise<void>((resolve, reject) => {
    release = resolve;
    fail = reject;
  });
  let reached!: () => void;
  const there = new Promise<void>((resolve) => (reached = resolve));
  next = { reached, held };
  return { reached: there, release, fail };
}

/** How many of the engine's log lines tell of `err` (its message, or its stack that starts with it). */
const told = (logs: readonly string[], err: Error) => logs.filter((l) => l.includes(err.message)).length;

/** Lets the calls under way take their turns (I/O included) before a check that something has not settled. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** An engine over `dataDir` with the door above and library `name` holding the manual; `logs` collects its log. */
async function engineWith(dataDir: string, name: string, logs: string[] = []): Promise<Engine> {
  const engine = createEngine({ dataDir, bundledModelsDir: path.join(tmp.dir, 'none'), threads: 1, log: (m) => logs.push(m), atChatDoor });
  const manual = path.join(tmp.dir, 'p-200.md');
  await writeFile(manual, MANUAL);
  const imported = await engine.importPaths(name, [manual]);
  if (!imported.ok || imported.value.summary.imported !== 1) throw new Error('import failed');
  await engine.idle();
  return engine;
}

async function conversation(engine: Engine, library: string): Promise<string> {
  const created = await engine.api['chat.create']({ library });
  if (!created.ok) throw new Error(created.error.message);
  return created.value.id;
}

/** Whether `promise` has settled by the time the calls already under way have had their turn. */
function settledFlag(promise: Promise<unknown>): () => boolean {
  let settled = false;
  void promise.finally(() => (settled = true));
  return () => settled;
}

beforeAll(async () => {
  tmp = await tempDir();
});

afterAll(async () => {
  await tmp?.cleanup();
});

describe('deleting a conversation whose question waits at the door', () => {
  it('answers the question not-found as the delete arrives, stores nothing, and the delete succeeds', async () => {
    const dataDir = path.join(tmp.dir, 'conversation-gone');
    const engine = await engineWith(dataDir, 'Pumps');
    const events: EngineEvent[] = [];
    engine.subscribe((e) => events.push(e));
    const lib = await engine.libraries.get('Pumps');
    const id = await conversation(engine, 'Pumps');
    try {
      const door = holdNext();
      const asked = engine.api['chat.ask']({ library: 'Pumps', id, question: QUESTION });
      const askedSettled = settledFlag(asked);
      await door.reached;
      try {
        const deleted = await engine.api['chat.delete']({ library: 'Pumps', id });
        expect(deleted).toEqual({ ok: true, value: { deleted: id } });
        // Answered while its door step is still held: not once the library was followed and the index opened.
        expect(askedSettled()).toBe(true);
      } finally {
        door.release();
      }
      expect(await asked).toMatchObject({ ok: false, error: { code: 'not-found', message: 'This conversation no longer exists.' } });
    } finally {
      next = null;
      // Closing waits for every step of the question, the released one included.
      await engine.dispose();
    }
    // Nothing of it was stored, nor answered, once all its steps had ended.
    await expect(access(path.join(lib!.dir, 'conversations', `${id}.json`))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(events.filter((e) => (e.type === 'chat.token' || e.type === 'chat.done') && e.conversationId === id)).toEqual([]);
    const reopened = createEngine({ dataDir, bundledModelsDir: path.join(tmp.dir, 'none'), threads: 1, log: () => undefined });
    try {
      expect(await reopened.api['chat.get']({ library: 'Pumps', id })).toMatchObject({ ok: false, error: { code: 'not-found' } });
      const listed = await reopened.api['chat.list']({ library: 'Pumps' });
      expect(listed.ok && listed.value.some((c) => c.id === id)).toBe(false);
    } finally {
      await reopened.dispose();
    }
  });

  describe('on one engine', () => {
    let engine: Engine;

    beforeAll(async () => {
      engine = await engineWith(path.join(tmp.dir, 'conversation'), 'Pumps');
    });

    afterAll(async () => {
      next = null;
      await engine?.dispose();
    });

    it('leaves the questions of other conversations alone', async () => {
      const [kept, gone] = [await conversation(engine, 'Pumps'), await conversation(engine, 'Pumps')];
      const door = holdNext();
      const asked = engine.api['chat.ask']({ library: 'Pumps', id: kept, question: QUESTION });
      await door.reached;
      try {
        expect(await engine.api['chat.delete']({ library: 'PUMPS', id: gone })).toEqual({ ok: true, value: { deleted: gone } });
      } finally {
        door.release();
      }
      expect(await asked).toMatchObject({ ok: true, value: { mode: 'extracted' } });
      const conv = await engine.api['chat.get']({ library: 'Pumps', id: kept });
      expect(conv.ok && conv.value.messages.length).toBe(2);
    });

    it('answers not-found when it comes after a stop of the same question (the delete says why)', async () => {
      const id = await conversation(engine, 'Pumps');
      const door = holdNext();
      const asked = engine.api['chat.ask']({ library: 'Pumps', id, question: QUESTION });
      const askedSettled = settledFlag(asked);
      await door.reached;
      try {
        expect(await engine.api['chat.stop']({ library: 'Pumps', id })).toEqual({ ok: true, value: { stopped: true } });
        await turn();
        // A stop lets the held step end first ("Stopping" in the app) ...
        expect(askedSettled()).toBe(false);
        expect(await engine.api['chat.delete']({ library: 'Pumps', id })).toEqual({ ok: true, value: { deleted: id } });
        // ... the delete does not.
        expect(await asked).toMatchObject({ ok: false, error: { code: 'not-found' } });
      } finally {
        door.release();
      }
    });

    it('gives one chat service to two calls that ask for it at once', async () => {
      // The engine has made none yet: both calls open the index before either keeps its service.
      const [a, b] = await Promise.all([engine.chat('Pumps'), engine.chat('pumps')]);
      expect(a.ok && b.ok && a.value === b.value).toBe(true);
    });
  });
});

describe('deleting a library whose question waits at the door', () => {
  it('answers the question not-found before the library is gone, and deletes it once the held step ends', async () => {
    const engine = await engineWith(path.join(tmp.dir, 'library'), 'Tanks');
    try {
      const dir = (await engine.libraries.get('Tanks'))!.dir;
      const id = await conversation(engine, 'Tanks');
      const door = holdNext();
      const asked = engine.api['chat.ask']({ library: 'Tanks', id, question: QUESTION });
      await door.reached;
      const deleting = engine.api['libraries.delete']({ library: 'Tanks' });
      const deleted = settledFlag(deleting);
      try {
        // The deletion waits for the question's held step; the question does not wait for it.
        expect(await asked).toMatchObject({ ok: false, error: { code: 'not-found' } });
        await turn();
        expect(deleted()).toBe(false);
      } finally {
        door.release();
      }
      expect(await deleting).toEqual({ ok: true, value: { deleted: 'Tanks' } });
      await expect(access(dir)).rejects.toMatchObject({ code: 'ENOENT' });
      const libs = await engine.api['libraries.list']({});
      expect(libs.ok && libs.value.map((l) => l.name)).toEqual([]);
    } finally {
      next = null;
      await engine.dispose();
    }
  });

  it('refuses a question that arrives while the deletion waits, and the library goes', async () => {
    const engine = await engineWith(path.join(tmp.dir, 'library-arriving'), 'Tanks');
    try {
      const dir = (await engine.libraries.get('Tanks'))!.dir;
      const [first, second] = [await conversation(engine, 'Tanks'), await conversation(engine, 'Tanks')];
      const door = holdNext();
      const held = engine.api['chat.ask']({ library: 'Tanks', id: first, question: QUESTION });
      await door.reached;
      const deleting = engine.api['libraries.delete']({ library: 'Tanks' });
      try {
        expect(await held).toMatchObject({ ok: false, error: { code: 'not-found' } });
        // Not held at the door: it would find the library still listed and its index open.
        expect(await engine.api['chat.ask']({ library: 'Tanks', id: second, question: QUESTION })).toMatchObject({ ok: false, error: { code: 'not-found' } });
      } finally {
        door.release();
      }
      expect(await deleting).toEqual({ ok: true, value: { deleted: 'Tanks' } });
      await expect(access(dir)).rejects.toMatchObject({ code: 'ENOENT' });
      // No service of the deleted library was kept: a library of that name made again starts empty.
      expect(await engine.api['libraries.create']({ name: 'Tanks' })).toMatchObject({ ok: true });
      expect(await engine.api['chat.list']({ library: 'Tanks' })).toEqual({ ok: true, value: [] });
    } finally {
      next = null;
      await engine.dispose();
    }
  });
});

describe('a library deletion that fails', () => {
  it('lets the library answer questions again: its deleting mark is released', async () => {
    const logs: string[] = [];
    const engine = await engineWith(path.join(tmp.dir, 'library-undeleted'), 'Tanks', logs);
    // The folder's removal fails (as a rename refused by the disk would), after the questions were stopped and the index closed.
    const err = new Error('EBUSY: the library folder could not be moved aside');
    const removal = vi.spyOn(engine.libraries, 'delete').mockRejectedValueOnce(err);
    try {
      const id = await conversation(engine, 'Tanks');
      expect(await engine.api['libraries.delete']({ library: 'Tanks' })).toMatchObject({ ok: false, error: { code: 'internal' } });
      expect(removal).toHaveBeenCalledTimes(1);
      expect(told(logs, err)).toBe(1);
      const libs = await engine.api['libraries.list']({});
      expect(libs.ok && libs.value.map((l) => l.name)).toEqual(['Tanks']);
      // Answered from the library (its index opened again), not refused with the library's not-found words.
      expect(await engine.api['chat.ask']({ library: 'Tanks', id, question: QUESTION })).toMatchObject({ ok: true, value: { mode: 'extracted' } });
    } finally {
      removal.mockRestore();
      await engine.dispose();
    }
  });
});

describe('a door step that throws', () => {
  it('is an internal error of the question, logged once; deleting the library and closing still end', async () => {
    const logs: string[] = [];
    const engine = await engineWith(path.join(tmp.dir, 'throws'), 'Pumps', logs);
    const id = await conversation(engine, 'Pumps');
    const err = new Error('the door broke (unstopped)');
    failing = err;
    try {
      // The contract's edge turns a thrown bug into an `internal` result and logs it; nothing throws past it.
      expect(await engine.api['chat.ask']({ library: 'Pumps', id, question: QUESTION })).toMatchObject({ ok: false, error: { code: 'internal' } });
      expect(told(logs, err)).toBe(1);
      expect(await engine.api['libraries.delete']({ library: 'Pumps' })).toEqual({ ok: true, value: { deleted: 'Pumps' } });
    } finally {
      failing = null;
      await engine.dispose();
    }
  });

  it('after its question left for a deletion: the question is not-found, the error logged once, the deletion ends', async () => {
    const logs: string[] = [];
    const engine = await engineWith(path.join(tmp.dir, 'throws-deleted'), 'Pumps', logs);
    try {
      const id = await conversation(engine, 'Pumps');
      const door = holdNext();
      const asked = engine.api['chat.ask']({ library: 'Pumps', id, question: QUESTION });
      await door.reached;
      const deleting = engine.api['libraries.delete']({ library: 'Pumps' });
      expect(await asked).toMatchObject({ ok: false, error: { code: 'not-found' } });
      const err = new Error('the door broke (deleted)');
      door.fail(err);
      expect(await deleting).toEqual({ ok: true, value: { deleted: 'Pumps' } });
      expect(told(logs, err)).toBe(1);
    } finally {
      next = null;
      await engine.dispose();
    }
  });

  it('after a stop: the question is told it was stopped, the error logged once; closing ends', async () => {
    const logs: string[] = [];
    const engine = await engineWith(path.join(tmp.dir, 'throws-stopped'), 'Pumps', logs);
    const id = await conversation(engine, 'Pumps');
    const door = holdNext();
    const asked = engine.api['chat.ask']({ library: 'Pumps', id, question: QUESTION });
    await door.reached;
    const err = new Error('the door broke (stopped)');
    try {
      expect(await engine.api['chat.stop']({ library: 'Pumps', id })).toEqual({ ok: true, value: { stopped: true } });
      door.fail(err);
      expect(await asked).toEqual({ ok: false, error: { code: 'cancelled', message: 'Stopped before answering.' } });
    } finally {
      next = null;
      await engine.dispose();
    }
    expect(told(logs, err)).toBe(1);
  });
});

describe('closing the engine with questions under way', () => {
  it('answers a question waiting at the door cancelled at once, closes once its held step ends, and refuses new ones', async () => {
    const dataDir = path.join(tmp.dir, 'closing');
    const engine = await engineWith(dataDir, 'Pumps');
    const id = await conversation(engine, 'Pumps');
    const door = holdNext();
    const asked = engine.api['chat.ask']({ library: 'Pumps', id, question: QUESTION });
    await door.reached;
    const disposing = engine.dispose();
    const disposed = settledFlag(disposing);
    try {
      // Closing waits for the question's held step (so nothing reads an index it closed); the question does not wait.
      expect(await asked).toMatchObject({ ok: false, error: { code: 'cancelled' } });
      expect(await engine.api['chat.ask']({ library: 'Pumps', id, question: QUESTION })).toMatchObject({ ok: false, error: { code: 'cancelled' } });
      await turn();
      expect(disposed()).toBe(false);
    } finally {
      door.release();
      await disposing;
    }
    // Nothing of either question was stored.
    const reopened = createEngine({ dataDir, bundledModelsDir: path.join(tmp.dir, 'none'), threads: 1, log: () => undefined });
    try {
      const conv = await reopened.api['chat.get']({ library: 'Pumps', id });
      expect(conv.ok && conv.value.messages).toEqual([]);
    } finally {
      await reopened.dispose();
    }
  });

  it('goes no further than the held step with a question it answered: no library looked up, no index opened', async () => {
    const dataDir = path.join(tmp.dir, 'closing-fresh');
    await (await engineWith(dataDir, 'Pumps')).dispose();
    // A fresh engine over that library: nothing of it looked up or opened yet.
    const engine = createEngine({ dataDir, bundledModelsDir: path.join(tmp.dir, 'none'), threads: 1, log: () => undefined, atChatDoor });
    const opened = vi.spyOn(engine.indexes, 'open');
    const looked = vi.spyOn(engine.libraries, 'get');
    const door = holdNext();
    const asked = engine.api['chat.ask']({ library: 'Pumps', id: '00000000-0000-4000-8000-000000000000', question: QUESTION });
    await door.reached;
    const disposing = engine.dispose();
    try {
      expect(await asked).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    } finally {
      door.release();
      await disposing;
    }
    expect(looked).not.toHaveBeenCalled();
    expect(opened).not.toHaveBeenCalled();
  });

  it('stops an answer being written and closes only once it has returned', { timeout: 180_000 }, async () => {
    const dataDir = path.join(tmp.dir, 'closing-answer');
    await ensureTinyGguf(path.join(dataDir, 'models', 'chat.gguf'));
    const engine = await engineWith(dataDir, 'Pumps');
    expect(await engine.handlers['settings.update']({ chatModel: 'chat.gguf' })).toMatchObject({ ok: true });
    const id = await conversation(engine, 'Pumps');
    // At the model's first word, the engine closes.
    const closing = new Promise<Promise<void>>((resolve) => {
      let started = false;
      engine.subscribe((e) => {
        if (e.type !== 'chat.token' || started) return;
        started = true;
        resolve(engine.dispose());
      });
    });
    const asked = engine.api['chat.ask']({ library: 'Pumps', id, question: QUESTION });
    const askedSettled = settledFlag(asked);
    await (await closing);
    expect(askedSettled()).toBe(true);
    const res = await asked;
    // Stopped after its first word: the partial answer is kept, marked stopped (as a stop does).
    expect(res).toMatchObject({ ok: true, value: { mode: 'generated', stopped: true } });
  });
});
