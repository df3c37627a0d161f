import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatTurn, Citation } from '../../src-main/contract/api';
import { createConversationStore, DEFAULT_TITLE, isConversationId, newId } from '../../src-main/chat/conversation.store';
import { tempDir } from '../helpers/temp';

let dir: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('manualmate-conv-'));
});
afterEach(async () => {
  await cleanup();
});

function unwrap<T>(r: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

const citation: Citation = {
  n: 1,
  chunkId: 'manual.pdf#3',
  doc: 'manual.pdf',
  title: 'Fuses',
  headingPath: ['RAC-225B', 'Fuses'],
  pages: [4, 5],
  start: 120,
  end: 480,
  quote: 'The RAC-225B takes a 10 A slow-blow fuse.',
  model: 'RAC-225B',
};

function turns(question: string): ChatTurn[] {
  const at = new Date().toISOString();
  return [
    { id: newId(), role: 'user', text: question, createdAt: at },
    { id: newId(), role: 'assistant', text: 'A 10 A slow-blow fuse [1].', createdAt: at, mode: 'generated', citations: [citation], resolvedModels: ['RAC-225B'] },
  ];
}

describe('conversation store', () => {
  it('persists a conversation with its messages and citations across store instances', async () => {
    const store = createConversationStore(dir);
    const conv = unwrap(await store.create({ title: 'Fuse questions', scope: { models: ['RAC-225B'] } }));
    unwrap(await store.append(conv.id, turns('What fuse?')));

    const reopened = createConversationStore(dir);
    const got = unwrap(await reopened.get(conv.id));
    expect(got.title).toBe('Fuse questions');
    expect(got.scope).toEqual({ models: ['RAC-225B'] });
    expect(got.turns).toBe(2);
    expect(got.messages[1]!.citations).toEqual([citation]);
    expect(got.messages[1]!.resolvedModels).toEqual(['RAC-225B']);
    expect(existsSync(path.join(dir, 'conversations', `${conv.id}.json`))).toBe(true);
  });

  it('keeps the names no manual is for, and loads turns saved before that field existed', async () => {
    const store = createConversationStore(dir);
    const conv = unwrap(await store.create());
    const at = new Date().toISOString();
    const missing: ChatTurn = { id: newId(), role: 'assistant', text: 'No manual for ZX-900 in this library.', createdAt: at, mode: 'not-found', citations: [], resolvedModels: [], unknownModels: ['ZX-900'] };
    unwrap(await store.append(conv.id, [{ id: newId(), role: 'user', text: 'ZX-900 fuse?', createdAt: at }, missing]));
    expect(unwrap(await createConversationStore(dir).get(conv.id)).messages[1]!.unknownModels).toEqual(['ZX-900']);
    // A file written by a version without the field, as it wrote it.
    const oldId = newId();
    const old = { version: 1, id: oldId, title: 'Old', createdAt: at, updatedAt: at, scope: {}, messages: turns('What fuse?') };
    await writeFile(path.join(dir, 'conversations', `${oldId}.json`), JSON.stringify(old));
    const got = unwrap(await store.get(oldId));
    expect(got.messages.map((m) => m.text)).toEqual(old.messages.map((m) => m.text));
    expect(got.messages[1]!.unknownModels).toBeUndefined();
    expect((await store.list()).map((c) => c.id).sort()).toEqual([conv.id, oldId].sort());
  });

  it('starts with the default title and an empty scope', async () => {
    const store = createConversationStore(dir);
    const conv = unwrap(await store.create());
    expect(conv.title).toBe(DEFAULT_TITLE);
    expect(conv.scope).toEqual({});
    expect(conv.messages).toEqual([]);
    expect(isConversationId(conv.id)).toBe(true);
  });

  it('lists summaries with the most recently updated first', async () => {
    const store = createConversationStore(dir);
    const a = unwrap(await store.create({ title: 'A' }));
    const b = unwrap(await store.create({ title: 'B' }));
    const c = unwrap(await store.create({ title: 'C' }));
    expect((await store.list()).map((s) => s.title)).toEqual(['C', 'B', 'A']);
    unwrap(await store.append(a.id, turns('Again?')));
    const list = await store.list();
    expect(list.map((s) => s.id)).toEqual([a.id, c.id, b.id]);
    expect(list[0]!.turns).toBe(2);
  });

  it('renames with a trimmed title and rejects empty or overlong titles', async () => {
    const store = createConversationStore(dir);
    const conv = unwrap(await store.create());
    expect(unwrap(await store.rename(conv.id, '  Pump   seals ')).title).toBe('Pump seals');
    const empty = await store.rename(conv.id, '   ');
    expect(empty.ok || empty.error.code).toBe('invalid-input');
    const long = await store.rename(conv.id, 'x'.repeat(500));
    expect(long.ok || long.error.code).toBe('invalid-input');
    expect(unwrap(await store.get(conv.id)).title).toBe('Pump seals');
  });

  it('deletes a conversation, after which it is gone from get and list', async () => {
    const store = createConversationStore(dir);
    const keep = unwrap(await store.create({ title: 'keep' }));
    const drop = unwrap(await store.create({ title: 'drop' }));
    expect(unwrap(await store.delete(drop.id))).toEqual({ deleted: drop.id });
    const gone = await store.get(drop.id);
    expect(gone.ok || gone.error.code).toBe('not-found');
    expect((await store.list()).map((s) => s.id)).toEqual([keep.id]);
    const again = await store.delete(drop.id);
    expect(again.ok || again.error.code).toBe('not-found');
  });

  it('never lets an id reach the file system unless it is one of its own', async () => {
    const store = createConversationStore(dir);
    await writeFile(path.join(dir, 'secret.json'), '{"version":1}');
    for (const id of ['../secret', '..', 'a/b', '', `${newId()}/../../secret`, newId().toUpperCase()]) {
      const got = await store.get(id);
      expect(got.ok || got.error.code).toBe('invalid-input');
      const del = await store.delete(id);
      expect(del.ok || del.error.code).toBe('invalid-input');
    }
    expect(existsSync(path.join(dir, 'secret.json'))).toBe(true);
  });

  it('reports a damaged file as corrupt and leaves it out of the list', async () => {
    const store = createConversationStore(dir);
    const good = unwrap(await store.create({ title: 'good' }));
    const badId = newId();
    await mkdir(path.join(dir, 'conversations'), { recursive: true });
    await writeFile(path.join(dir, 'conversations', `${badId}.json`), '{"version":1,"id":');
    const bad = await store.get(badId);
    expect(bad.ok || bad.error.code).toBe('corrupt');
    expect((await store.list()).map((s) => s.id)).toEqual([good.id]);
  });

  it('serializes concurrent appends to one conversation so no turn is lost', async () => {
    const store = createConversationStore(dir);
    const conv = unwrap(await store.create());
    await Promise.all(Array.from({ length: 6 }, (_, i) => store.append(conv.id, turns(`Question ${i}`))));
    const got = unwrap(await store.get(conv.id));
    expect(got.messages).toHaveLength(12);
    expect(new Set(got.messages.filter((m) => m.role === 'user').map((m) => m.text)).size).toBe(6);
    const leftovers = (await readdir(path.join(dir, 'conversations'))).filter((n) => n.endsWith('.tmp'));
    expect(leftovers).toEqual([]);
  });

  it('cleans a scope: repeated entries once, empty lists dropped, oversized scopes refused', async () => {
    const store = createConversationStore(dir);
    const conv = unwrap(await store.create({ scope: { docIds: ['a.md', 'a.md', 'b.md'], models: [] } }));
    expect(conv.scope).toEqual({ docIds: ['a.md', 'b.md'] });
    const changed = unwrap(await store.setScope(conv.id, { models: ['E52C'] }));
    expect(changed.scope).toEqual({ models: ['E52C'] });
    const tooMany = await store.setScope(conv.id, { models: Array.from({ length: 51 }, (_, i) => `M${i}`) });
    expect(tooMany.ok || tooMany.error.code).toBe('invalid-input');
  });
});
