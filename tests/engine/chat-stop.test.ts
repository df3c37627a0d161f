import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EngineEvent } from '../../src-main/contract/api';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { ensureTinyGguf } from '../models/tiny-gguf';
import { tempDir } from '../helpers/temp';

/**
 * A stop sent at once after the question, through the contract as every door sends it (the
 * renderer's Esc, the CLI's Ctrl+C, the web bridge): the engine reads the library (following
 * another process's writes) and opens its index before the chat service has the question, and the
 * stop must not find "nothing running" meanwhile. Real engine, real index, extracted answers; the
 * tiny GGUF (real node-llama-cpp) for an answer long enough to be stopped after a rename.
 */

let tmp: { dir: string; cleanup: () => Promise<void> };
let engine: Engine;
const events: EngineEvent[] = [];

beforeAll(async () => {
  tmp = await tempDir();
  engine = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none'), threads: 1, log: () => undefined });
  const manual = path.join(tmp.dir, 'p-200.md');
  await writeFile(manual, '# P-200 pump service manual\n\n## Fuses\n\nThe P-200 takes a 10 A slow-blow fuse.\n\n## Seals\n\nReplace the P-200 shaft seal after 2000 hours.\n');
  const imported = await engine.importPaths('Pumps', [manual]);
  if (!imported.ok || imported.value.summary.imported !== 1) throw new Error('import failed');
  await engine.idle();
  engine.subscribe((e) => events.push(e));
});

afterAll(async () => {
  await engine?.dispose();
  await tmp?.cleanup();
});

async function conversation(): Promise<string> {
  const created = await engine.api['chat.create']({ library: 'Pumps' });
  if (!created.ok) throw new Error(created.error.message);
  return created.value.id;
}

async function messagesOf(id: string): Promise<number> {
  const conv = await engine.api['chat.get']({ library: 'Pumps', id });
  if (!conv.ok) throw new Error(conv.error.message);
  return conv.value.messages.length;
}

describe('chat.stop sent right after chat.ask', () => {
  it('is answered by an extracted answer when nobody stops it (the question below is answerable)', async () => {
    const id = await conversation();
    const res = await engine.api['chat.ask']({ library: 'Pumps', id, question: 'Which fuse does the P-200 take?' });
    expect(res.ok && res.value.mode).toBe('extracted');
    expect(await messagesOf(id)).toBe(2);
  });

  it('stops the question before the engine has read the library: cancelled, nothing stored, no events', async () => {
    const id = await conversation();
    events.length = 0;
    // Not awaited: the stop goes out in the same tick, as Esc right after Enter does.
    const asked = engine.api['chat.ask']({ library: 'Pumps', id, question: 'Which fuse does the P-200 take?' });
    const stopped = await engine.api['chat.stop']({ library: 'Pumps', id });
    expect(stopped).toEqual({ ok: true, value: { stopped: true } });
    const res = await asked;
    expect(res.ok).toBe(false);
    expect(!res.ok && res.error.code).toBe('cancelled');
    expect(await messagesOf(id)).toBe(0);
    expect(events.filter((e) => e.type === 'chat.token' || e.type === 'chat.done')).toEqual([]);
  });

  it('stops it when the stop spells the library otherwise (names are case-insensitive)', async () => {
    const id = await conversation();
    const asked = engine.api['chat.ask']({ library: 'Pumps', id, question: 'Which fuse does the P-200 take?' });
    expect(await engine.api['chat.stop']({ library: 'PUMPS', id })).toEqual({ ok: true, value: { stopped: true } });
    expect(await asked).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(await messagesOf(id)).toBe(0);
  });

  it('stops only the conversation it names', async () => {
    const [a, b] = [await conversation(), await conversation()];
    const askedA = engine.api['chat.ask']({ library: 'Pumps', id: a, question: 'Which fuse does the P-200 take?' });
    const askedB = engine.api['chat.ask']({ library: 'Pumps', id: b, question: 'When is the P-200 shaft seal replaced?' });
    expect(await engine.api['chat.stop']({ library: 'Pumps', id: a })).toEqual({ ok: true, value: { stopped: true } });
    expect(await askedA).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(await askedB).toMatchObject({ ok: true, value: { mode: 'extracted' } });
    expect([await messagesOf(a), await messagesOf(b)]).toEqual([0, 2]);
  });

  it('reports stopped: false with nothing running: never asked, or answered already', async () => {
    const id = await conversation();
    expect(await engine.api['chat.stop']({ library: 'Pumps', id })).toEqual({ ok: true, value: { stopped: false } });
    expect((await engine.api['chat.ask']({ library: 'Pumps', id, question: 'Which fuse does the P-200 take?' })).ok).toBe(true);
    // The answered question left nothing behind that a later stop would take for it.
    expect(await engine.api['chat.stop']({ library: 'Pumps', id })).toEqual({ ok: true, value: { stopped: false } });
    // Nor did a stopped one, nor one refused for a library that does not exist.
    const stopped = engine.api['chat.ask']({ library: 'Pumps', id, question: 'When is the P-200 shaft seal replaced?' });
    expect((await engine.api['chat.stop']({ library: 'Pumps', id })).ok).toBe(true);
    expect((await stopped).ok).toBe(false);
    expect(await engine.api['chat.ask']({ library: 'Nope', id, question: 'Which fuse?' })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await engine.api['chat.stop']({ library: 'Pumps', id })).toEqual({ ok: true, value: { stopped: false } });
    expect(await engine.api['chat.stop']({ library: 'Nope', id })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    // And the conversation takes its next question.
    expect((await engine.api['chat.ask']({ library: 'Pumps', id, question: 'When is the P-200 shaft seal replaced?' })).ok).toBe(true);
    expect(await messagesOf(id)).toBe(4);
  });
});

describe('chat.stop naming a library renamed while it answers', () => {
  it('stops the answer under way by the new name: the partial answer is kept, marked stopped', { timeout: 180_000 }, async () => {
    const dataDir = path.join(tmp.dir, 'renamed');
    await ensureTinyGguf(path.join(dataDir, 'models', 'chat.gguf'));
    const app = createEngine({ dataDir, bundledModelsDir: path.join(tmp.dir, 'none'), threads: 1, log: () => undefined });
    try {
      const manual = path.join(tmp.dir, 'p-300.md');
      await writeFile(manual, '# P-300 pump service manual\n\n## Fuses\n\nThe P-300 takes a 16 A slow-blow fuse.\n');
      expect((await app.importPaths('Tanks', [manual])).ok).toBe(true);
      await app.idle();
      expect(await app.handlers['settings.update']({ chatModel: 'chat.gguf' })).toMatchObject({ ok: true });
      const created = await app.api['chat.create']({ library: 'Tanks' });
      if (!created.ok) throw new Error(created.error.message);
      const id = created.value.id;
      let stop: Promise<unknown> | null = null;
      // At the first word: renamed (its chat service dropped, events now under the new name), then stopped by the new name.
      app.subscribe((e) => {
        if (e.type !== 'chat.token' || stop) return;
        stop = (async () => {
          expect(await app.api['libraries.rename']({ library: 'Tanks', name: 'Vessels' })).toMatchObject({ ok: true });
          return app.api['chat.stop']({ library: 'Vessels', id });
        })();
      });
      const res = await app.api['chat.ask']({ library: 'Tanks', id, question: 'Which fuse does the P-300 take?' });
      expect(stop).not.toBeNull();
      expect(await stop).toEqual({ ok: true, value: { stopped: true } });
      expect(res).toMatchObject({ ok: true, value: { mode: 'generated', stopped: true } });
      expect(await app.api['chat.stop']({ library: 'Vessels', id })).toEqual({ ok: true, value: { stopped: false } });
    } finally {
      await app.dispose();
    }
  });
});
