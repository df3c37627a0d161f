import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src-main/contract/api';
import { checkEngineEvent, ENGINE_EVENT_KINDS } from '../../src-main/contract/events';
import { createEngine } from '../../src-main/engine/engine';
import { tempDir } from '../helpers/temp';
import { unwrap } from '../chat/fixtures';

/**
 * The engine events' schemas (contract/events.ts), which the renderer checks every event against.
 * The compile-time assertion keeps each schema the same as its type; these check the schemas take
 * what the engine really sends and refuse what is broken.
 */

/** One well-formed event of each kind, with every optional field set. */
const samples: { [K in EngineEvent['type']]: Extract<EngineEvent, { type: K }> } = {
  'import.progress': { type: 'import.progress', jobId: 'j', library: 'L', file: 'a.md', stage: 'queued', fraction: 0, done: 0, total: 2, reason: 'r', note: 'n', path: '/in/a.md' },
  'import.done': {
    type: 'import.done',
    jobId: 'j',
    library: 'L',
    summary: {
      results: [{ file: 'a.md', status: 'failed', reason: 'Empty.', code: 'empty', sameAs: 'b.md', note: 'n' }],
      skipped: [{ file: '.x', reason: 'hidden' }],
      summary: { imported: 0, already: 0, replaced: 0, failed: 1, cancelled: 0 },
    },
  },
  'import.failed': { type: 'import.failed', jobId: 'j', library: 'L', message: 'It stopped.' },
  'library.changed': { type: 'library.changed', library: 'L' },
  'index.progress': { type: 'index.progress', library: 'L', task: 'enriching', done: 1, total: 3, error: 'Stopped.' },
  'chat.token': { type: 'chat.token', library: 'L', conversationId: 'c', messageId: 'm', text: 'The' },
  'chat.done': {
    type: 'chat.done',
    library: 'L',
    conversationId: 'c',
    message: {
      id: 'm',
      role: 'assistant',
      text: 'The fuse is 10 A [1].',
      createdAt: '2026-01-01T00:00:00.000Z',
      mode: 'extracted',
      citations: [{ n: 1, chunkId: 'k', doc: 'a.md', title: 'A', headingPath: ['Fuses'], pages: [3], start: 0, end: 9, quote: '10 A fuse', model: null }],
      resolvedModels: ['RAC-225B'],
      stopped: false,
    },
  },
};

/** The sample with one field (by path) left out. */
function without(event: object, fieldPath: string[]): unknown {
  const copy = structuredClone(event) as Record<string, unknown>;
  let at: Record<string, unknown> = copy;
  for (const step of fieldPath.slice(0, -1)) at = at[step] as Record<string, unknown>;
  delete at[fieldPath.at(-1) as string];
  return copy;
}

describe('engine event schemas', () => {
  it('have a sample here for every kind the contract names', () => {
    expect(Object.keys(samples).sort()).toEqual([...ENGINE_EVENT_KINDS].sort());
  });

  it.each(ENGINE_EVENT_KINDS)('take a well-formed %s event unchanged', (kind) => {
    expect(checkEngineEvent(samples[kind])).toEqual({ ok: true, event: samples[kind] });
  });

  it.each([
    ['import.progress', ['file']],
    ['import.progress', ['stage']],
    ['import.progress', ['jobId']],
    ['import.done', ['summary', 'skipped']],
    ['import.done', ['summary', 'summary']],
    ['import.failed', ['message']],
    ['library.changed', ['library']],
    ['index.progress', ['total']],
    ['chat.token', ['text']],
    ['chat.done', ['message', 'role']],
  ] as const)('refuse a %s event without %s, naming the field', (kind, fieldPath) => {
    const checked = checkEngineEvent(without(samples[kind], [...fieldPath]));
    expect(checked).toMatchObject({ ok: false, kind });
    expect(checked.ok ? '' : checked.why).toContain(fieldPath.join('.'));
  });

  it('refuse a field of the wrong type deep inside an event', () => {
    const done = structuredClone(samples['chat.done']);
    (done.message.citations?.[0] as unknown as Record<string, unknown>)['pages'] = ['3'];
    expect(checkEngineEvent(done)).toMatchObject({ ok: false, kind: 'chat.done', why: expect.stringContaining('message.citations.0.pages.0') });
    const result = structuredClone(samples['import.done']);
    (result.summary.results[0] as unknown as Record<string, unknown>)['code'] = 'melted';
    expect(checkEngineEvent(result)).toMatchObject({ ok: false, kind: 'import.done', why: expect.stringContaining('summary.results.0.code') });
  });

  it('take every event a real engine sends while it imports files and answers a question', async () => {
    const tmp = await tempDir('manualmate-events-');
    const engine = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none') });
    const seen: EngineEvent[] = [];
    const unsubscribe = engine.subscribe((e) => seen.push(e));
    try {
      const manual = path.join(tmp.dir, 'rac-225b.md');
      await writeFile(manual, '# RAC-225B service manual\n\n## Fuses\n\nThe RAC-225B takes a 10 A slow-blow fuse.\n');
      const empty = path.join(tmp.dir, 'empty.txt');
      await writeFile(empty, '');
      const { jobId } = unwrap(await engine.api['import.start']({ library: 'Fans', paths: [manual, empty] }));
      await expect.poll(() => seen.some((e) => e.type === 'import.done' && e.jobId === jobId), { timeout: 30_000 }).toBe(true);
      const conversation = unwrap(await engine.api['chat.create']({ library: 'Fans' }));
      unwrap(await engine.api['chat.ask']({ library: 'Fans', id: conversation.id, question: 'What fuse does the RAC-225B take?' }));

      const kinds = new Set(seen.map((e) => e.type));
      for (const kind of ['import.progress', 'import.done', 'library.changed', 'chat.done'] as const) expect(kinds).toContain(kind);
      // What crosses IPC or the event stream is the structured clone or JSON of what was emitted.
      for (const e of seen) expect(checkEngineEvent(JSON.parse(JSON.stringify(e)))).toMatchObject({ ok: true, event: { type: e.type } });
      for (const e of seen) expect(checkEngineEvent(structuredClone(e))).toMatchObject({ ok: true });
    } finally {
      unsubscribe();
      await engine.dispose();
      await tmp.cleanup();
    }
  });
});
