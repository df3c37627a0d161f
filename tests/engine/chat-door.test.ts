import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EngineEvent } from '../../src-main/contract/api';
import { createEngine, type Engine, type EngineOptions } from '../../src-main/engine/engine';
import { ensureTinyGguf } from '../models/tiny-gguf';
import { tempDir } from '../helpers/temp';

/**
 * A question held at the engine's door (taken in by `chat.ask`, its library not yet looked up,
 * through the test-only `EngineOptions.atChatDoor`) when its conversation or library is deleted or
 * the engine closes: the question is answered at once, while the held step still waits, never by
 * its chat service, and nothing of it is stored. Real engine, real index, extracted answers.
 */

const QUESTION = 'Which fuse does the P-200 take?';
const MANUAL = '# P-200 pump service manual\n\n## Fuses\n\nThe P-200 takes a 10 A slow-blow fuse.\n\n## Seals\n\nReplace the P-200 shaft seal after 2000 hours.\n';

let tmp: { dir: string; cleanup: () => Promise<void> };

/** The door of the engines below: holds the next question that reaches it, once `holdNext` asked for it. */
let next: { reached: () => void; held: Promise<void> } | null = null;
const atChatDoor: EngineOptions['atChatDoor'] = async () => {
  const gate = next;
  next = null;
  if (!gate) return;
  gate.reached();
  await gate.held;
};

/** Holds the next question at the door: `reached` once it is there, `release` lets it go on. */
function holdNext(): { reached: Promise<void>; release: () => void } {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let reached!: () => void;
  const there = new Promise<void>((resolve) => (reached = resolve));
  next = { reached, held };
  return { reached: there, release };
}

/** An engine over `dataDir` with the door above and library `name` holding the manual. */
async function engineWith(dataDir: string, name: string): Promise<Engine> {
  const engine = createEngine({ dataDir, bundledModelsDir: path.join(tmp.dir, 'none'), threads: 1, log: () => undefined, atChatDoor });
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
  let engine: Engine;
  const events: EngineEvent[] = [];

  beforeAll(async () => {
    engine = await engineWith(path.join(tmp.dir, 'conversation'), 'Pumps');
    engine.subscribe((e) => events.push(e));
  });

  afterAll(async () => {
    next = null;
    await engine?.dispose();
  });

  it('answers the question not-found as the delete arrives, stores nothing, and the delete succeeds', async () => {
    const id = await conversation(engine, 'Pumps');
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
    expect(await asked).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await engine.api['chat.get']({ library: 'Pumps', id })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    const listed = await engine.api['chat.list']({ library: 'Pumps' });
    expect(listed.ok && listed.value.some((c) => c.id === id)).toBe(false);
    expect(events.filter((e) => (e.type === 'chat.token' || e.type === 'chat.done') && e.conversationId === id)).toEqual([]);
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
});

describe('deleting a library whose question waits at the door', () => {
  it('answers the question not-found before the library is gone, and deletes it once the held step ends', async () => {
    const engine = await engineWith(path.join(tmp.dir, 'library'), 'Tanks');
    try {
      const id = await conversation(engine, 'Tanks');
      const door = holdNext();
      const asked = engine.api['chat.ask']({ library: 'Tanks', id, question: QUESTION });
      await door.reached;
      const deleting = engine.api['libraries.delete']({ library: 'Tanks' });
      try {
        // The deletion waits for the question's held step; the question does not wait for it.
        const first = await Promise.race([asked, deleting.then(() => 'the library was deleted while the question still waited')]);
        expect(first).toMatchObject({ ok: false, error: { code: 'not-found' } });
      } finally {
        door.release();
      }
      expect(await deleting).toEqual({ ok: true, value: { deleted: 'Tanks' } });
      const libs = await engine.api['libraries.list']({});
      expect(libs.ok && libs.value.map((l) => l.name)).toEqual([]);
    } finally {
      next = null;
      await engine.dispose();
    }
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
    try {
      // Closing waits for the question's held step (so nothing reads an index it closed); the question does not wait.
      const first = await Promise.race([asked, disposing.then(() => 'the engine closed while the question still waited')]);
      expect(first).toMatchObject({ ok: false, error: { code: 'cancelled' } });
      expect(await engine.api['chat.ask']({ library: 'Pumps', id, question: QUESTION })).toMatchObject({ ok: false, error: { code: 'cancelled' } });
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
