import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Api, RendererBridge } from '../../src-main/contract/api';
import type { useStore } from '../../src-renderer/src/store/index';

/**
 * The renderer's edge for engine events (src-renderer/src/api/client.ts): what the preload passes
 * on, or the web bridge's event stream sends, is checked against its kind's schema before it
 * reaches the store. Broken events (a field missing or of the wrong type, an unknown kind, not
 * JSON) are dropped with a warning naming the kind and why; well-formed ones reach the store as
 * before. The client takes its bridge when it loads, so each transport loads it afresh.
 */

type Listener = (raw: unknown) => void;

let warn: ReturnType<typeof vi.spyOn>;

beforeAll(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  warn.mockClear();
});

afterAll(() => {
  warn.mockRestore();
  vi.unstubAllGlobals();
});

/** The warnings printed since the last clear, one string each. */
const warnings = (): string[] => warn.mock.calls.map((args: unknown[]) => args.map(String).join(' '));

describe('engine events from the Electron preload', () => {
  const listeners = new Set<Listener>();
  /** What the main process sends: the preload passes it to the page unchanged. */
  const send = (raw: unknown) => {
    for (const l of listeners) l(raw);
  };
  // The engine's answers the store asks for while it handles events; import.start names the job.
  const answers: Record<string, unknown> = { 'import.start': { jobId: 'job-1' }, 'libraries.list': [], 'documents.list': [] };
  /** The calls the store made, by key, in order. */
  const calls: string[] = [];
  const api = new Proxy({}, { get: (_t, key: string) => async () => (calls.push(key), { ok: true, value: answers[key] ?? {} }) }) as Api;
  let store: typeof useStore;
  let unsubscribe: () => void;

  beforeAll(async () => {
    vi.resetModules();
    const manualmate: RendererBridge = {
      api,
      onEvent(listener) {
        listeners.add(listener as Listener);
        return () => listeners.delete(listener as Listener);
      },
    };
    vi.stubGlobal('window', { manualmate });
    const client = await import('../../src-renderer/src/api/client');
    store = (await import('../../src-renderer/src/store/index')).useStore;
    // As App.tsx subscribes the store.
    unsubscribe = client.bridge.onEvent((e) => store.getState().handleEngineEvent(e));
    await store.getState().startImport('Pumps', ['/in/a.md']);
  });

  afterAll(() => unsubscribe());

  const progress = { type: 'import.progress', jobId: 'job-1', library: 'Pumps', file: 'a.md', stage: 'parsing', fraction: 0.5, done: 0, total: 1 };
  const job = () => store.getState().jobs.find((j) => j.jobId === 'job-1');

  it('hands a well-formed progress event to the store', () => {
    send(progress);
    expect(job()?.files['a.md']).toEqual({ file: 'a.md', stage: 'parsing', fraction: 0.5 });
    expect(warn).not.toHaveBeenCalled();
  });

  it.each([
    ['a missing field and no job', { ...progress, jobId: undefined, file: undefined, stage: 'ready' }, 'import.progress', 'file'],
    ['a stage no document has and a job id that is a number', { ...progress, jobId: 1, stage: 'exploded' }, 'import.progress', 'stage'],
    ['a fraction that is text and an empty job id', { ...progress, jobId: '', fraction: 'half' }, 'import.progress', 'fraction'],
    ['a summary and its job left out', { type: 'import.done', library: 'Pumps' }, 'import.done', 'jobId'],
    ['a failure without its message nor its job', { type: 'import.failed', library: 'Pumps' }, 'import.failed', 'jobId'],
    ['an unknown kind', { type: 'import.paused', jobId: 'job-1', library: 'Pumps' }, 'import.paused', 'does not know that kind'],
    ['no kind', { jobId: 'job-1', library: 'Pumps' }, '(no kind)', 'no "type"'],
    ['null', null, '(no kind)', 'null'],
    ['a string', '{"type":"library.changed","library":"Pumps"}', '(no kind)', 'a string'],
  ])('drops an event with %s, warns with its kind and why, and leaves the store as it was', (_what, raw, kind, why) => {
    const before = store.getState().jobs;
    expect(() => send(raw)).not.toThrow();
    expect(store.getState().jobs).toBe(before);
    expect(job()?.phase).toBe('running');
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toContain(`(${kind})`);
    expect(warnings()[0]).toContain(why);
  });

  it('warns once for a run of the same broken event', () => {
    const token = { type: 'chat.token', library: 'Pumps', conversationId: 'c1', messageId: 'm1', text: 7 };
    for (let i = 0; i < 5; i++) send(token);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatch(/\(chat\.token\).*text/);
  });

  it('drops a broken index report and keeps the well-formed one after it', () => {
    send({ type: 'index.progress', library: 'Pumps', task: 'sleeping', done: 1, total: 2 });
    expect(store.getState().indexProgress['Pumps']).toBeUndefined();
    send({ type: 'index.progress', library: 'Pumps', task: 'embedding', done: 1, total: 2 });
    expect(store.getState().indexProgress['Pumps']?.embedding).toEqual({ library: 'Pumps', task: 'embedding', done: 1, total: 2 });
    expect(warnings()).toEqual([expect.stringContaining('(index.progress)')]);
  });

  it('finishes the import on a well-formed summary after the broken ones', () => {
    send({ ...progress, stage: 'ready', fraction: 1, done: 1 });
    send({
      type: 'import.done',
      jobId: 'job-1',
      library: 'Pumps',
      summary: { results: [{ file: 'a.md', status: 'imported' }], skipped: [], summary: { imported: 1, already: 0, replaced: 0, failed: 0, cancelled: 0 } },
    });
    expect(job()).toMatchObject({ phase: 'done', order: ['a.md'], files: { 'a.md': { stage: 'ready', fraction: 1 } } });
    expect(warn).not.toHaveBeenCalled();
  });

  describe('a broken update of an import job the page can tell', () => {
    let n = 1;
    /** Starts an import in the page under a job id of its own; returns that id. */
    const started = async () => {
      const jobId = `job-broken-${n++}`;
      answers['import.start'] = { jobId };
      await store.getState().startImport('Pumps', [`/in/${jobId}.md`]);
      return jobId;
    };
    const jobNamed = (jobId: string) => store.getState().jobs.find((j) => j.jobId === jobId);
    const summary = { results: [{ file: 'b.md', status: 'imported' }], skipped: [], summary: { imported: 1, already: 0, replaced: 0, failed: 0, cancelled: 0 } };
    const done = (jobId: string) => ({ type: 'import.done', jobId, library: 'Pumps', summary });
    /** What a second listener of the bridge is handed while `run` runs. */
    const handed = async (run: () => void | Promise<void>) => {
      const seen: unknown[] = [];
      const { bridge } = await import('../../src-renderer/src/api/client');
      const stop = bridge.onEvent((e) => seen.push(e));
      try {
        await run();
      } finally {
        stop();
      }
      return seen;
    };
    /** A job this page stopped following: started, one file on its way, its end unreadable. */
    const unfollowedJob = async () => {
      const jobId = await started();
      send({ ...progress, jobId, file: 'b.md', stage: 'parsing' });
      send({ type: 'import.done', jobId, library: 'Pumps', summary: { ...summary, results: 'b.md' } });
      expect(jobNamed(jobId)?.phase).toBe('stopped');
      return jobId;
    };

    // Each broken in a way no other test is, so each warns (a reason is warned about once).
    it.each([
      ['count is text', (jobId: string) => ({ ...progress, jobId, file: 'b.md', done: 'one' })],
      ['total is left out', (jobId: string) => ({ ...progress, jobId, total: undefined })],
      ['library is a number', (jobId: string) => ({ ...progress, jobId, library: 7 })],
    ])('drops a progress whose %s with a warning, leaves the job running, and ends it on the engine\'s end as usual', async (_what, broken) => {
      const jobId = await started();
      send({ ...progress, jobId, file: 'b.md', stage: 'parsing' });
      const seen = await handed(() => send(broken(jobId)));
      // A lost progress cannot leave the job running for good: the engine's end still comes.
      expect(seen).toEqual([]);
      expect(jobNamed(jobId)).toMatchObject({ phase: 'running', error: null, files: { 'b.md': { stage: 'parsing' } } });
      expect(warnings()).toEqual([expect.stringContaining('(import.progress)')]);
      send(done(jobId));
      expect(jobNamed(jobId)).toMatchObject({ phase: 'done', error: null, files: { 'b.md': { stage: 'ready', fraction: 1 } } });
      expect(jobNamed(jobId)?.summary?.summary.imported).toBe(1);
    });

    it.each([
      ['an end whose skipped files are not a list', (jobId: string) => ({ type: 'import.done', jobId, library: 'Pumps', summary: { ...summary, skipped: 'c.md' } }), 'import.done'],
      ['an end without its counts', (jobId: string) => ({ type: 'import.done', jobId, library: 'Pumps', summary: { ...summary, summary: undefined } }), 'import.done'],
      ['a failure whose message is a number', (jobId: string) => ({ type: 'import.failed', jobId, library: 'Pumps', message: 500 }), 'import.failed'],
    ])('ends the job in words on %s, still warns, and reads the library list again', async (_what, broken, kind) => {
      const jobId = await started();
      send({ ...progress, jobId, file: 'b.md', stage: 'parsing' });
      expect(jobNamed(jobId)?.phase).toBe('running');
      calls.length = 0;
      send(broken(jobId));
      expect(jobNamed(jobId)).toMatchObject({
        phase: 'stopped',
        error: expect.stringContaining("could not read the engine's report of how this import ended (perhaps"),
        files: { 'b.md': { stage: 'failed', reason: expect.stringContaining("the library's document list shows whether it was imported") } },
      });
      expect(warnings()).toEqual([expect.stringContaining(`(${kind})`)]);
      expect(calls).toContain('libraries.list');
    });

    it('ends the job once however many of its ends are broken, with a marked failure, and not a job that has ended', async () => {
      const jobId = await started();
      const seen = await handed(async () => {
        send({ type: 'import.done', jobId, library: 'Pumps', summary: { ...summary, results: 'b.md' } });
        send({ type: 'import.failed', jobId, library: 'Pumps' });
        send({ type: 'import.done', jobId, library: 'Pumps' });
        // A job that ended in the engine's words is not ended again by a broken late end.
        const other = await started();
        send(done(other));
        send({ type: 'import.failed', jobId: other, library: 'Pumps' });
        expect(jobNamed(other)?.phase).toBe('done');
      });
      expect(seen).toEqual([
        { type: 'import.failed', jobId, library: 'Pumps', message: expect.stringContaining('could not read'), unfollowed: true },
        expect.objectContaining({ type: 'import.done', jobId: expect.not.stringMatching(jobId) }),
      ]);
    });

    it('keeps a finished job as its summary left it when a late update of it comes', async () => {
      const jobId = await started();
      send({ ...progress, jobId, file: 'b.md', stage: 'parsing' });
      send(done(jobId));
      const finished = jobNamed(jobId);
      expect(finished).toMatchObject({ phase: 'done', files: { 'b.md': { stage: 'ready' } } });
      send({ ...progress, jobId, file: 'b.md', stage: 'chunking', fraction: 0.7 });
      send({ ...progress, jobId, file: 'late.md', stage: 'parsing' });
      send({ type: 'import.failed', jobId, library: 'Pumps', message: 'The engine ran out of memory.' });
      expect(jobNamed(jobId)).toEqual(finished);
      // Where a file is read from is kept even from a late event: its Retry reads it there.
      expect(store.getState().canRetry('Pumps', 'late-path.md')).toBe(false);
      send({ ...progress, jobId, file: 'late-path.md', stage: 'queued', path: '/in/late-path.md' });
      expect(store.getState().canRetry('Pumps', 'late-path.md')).toBe(true);
      expect(jobNamed(jobId)).toEqual(finished);
    });

    it("replaces the page's end with the engine's readable summary when it still comes", async () => {
      const jobId = await unfollowedJob();
      calls.length = 0;
      send(done(jobId));
      expect(jobNamed(jobId)).toMatchObject({ phase: 'done', error: null, files: { 'b.md': { stage: 'ready', fraction: 1 } }, done: 1, total: 1 });
      expect(jobNamed(jobId)?.summary?.results).toEqual(summary.results);
      expect(jobNamed(jobId)?.unfollowed).toBeUndefined();
      expect(calls).toContain('libraries.list');
    });

    it("replaces the page's end with the engine's readable failure when it still comes", async () => {
      const jobId = await unfollowedJob();
      send({ type: 'import.failed', jobId, library: 'Pumps', message: 'The engine ran out of memory.' });
      expect(jobNamed(jobId)).toMatchObject({
        phase: 'stopped',
        error: 'The engine ran out of memory. Files already imported are kept.',
        files: { 'b.md': { stage: 'failed', reason: 'Not imported: the import stopped before this file finished.' } },
      });
      expect(jobNamed(jobId)?.unfollowed).toBeUndefined();
      // Ended by the engine: nothing later replaces it.
      send(done(jobId));
      expect(jobNamed(jobId)?.phase).toBe('stopped');
    });

    it("takes the engine's failure for the engine's, whatever its words and fields", async () => {
      const { UNREADABLE_IMPORT_END } = await import('../../src-renderer/src/api/client');
      const jobId = await started();
      send({ ...progress, jobId, file: 'b.md', stage: 'parsing' });
      // The marker is not a field of the engine's event: the check drops it.
      send({ type: 'import.failed', jobId, library: 'Pumps', message: UNREADABLE_IMPORT_END, unfollowed: true });
      expect(jobNamed(jobId)).toMatchObject({
        phase: 'stopped',
        error: `${UNREADABLE_IMPORT_END} Files already imported are kept.`,
        files: { 'b.md': { stage: 'failed', reason: 'Not imported: the import stopped before this file finished.' } },
      });
      expect(jobNamed(jobId)?.unfollowed).toBeUndefined();
    });

    it('ends a job whose broken end came before the page knew its id, once it does', async () => {
      const jobId = `job-broken-${n++}`;
      send({ type: 'import.done', jobId, library: 'Pumps' });
      answers['import.start'] = { jobId };
      await store.getState().startImport('Pumps', ['/in/early.md']);
      expect(jobNamed(jobId)).toMatchObject({ phase: 'stopped', error: expect.stringContaining('could not read') });
    });
  });
});

describe("engine events from the web bridge's event stream", () => {
  /** Server-sent-event frames, one `data:` line each. */
  const frames = (messages: string[]) => messages.map((m) => `data: ${m}\n\n`).join('');
  const requests: string[] = [];
  /** Whether the frames were served: a later request is a reconnect, which waits. */
  let served = false;

  beforeAll(() => {
    vi.resetModules();
    vi.stubGlobal('window', {
      location: { href: 'http://127.0.0.1:4310/?token=t0k3n' },
      history: { state: null, replaceState: () => undefined },
      sessionStorage: { setItem: () => undefined, getItem: () => null },
    });
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      requests.push(url);
      if (url !== '/api/events') throw new Error(`unexpected request ${url}`);
      if (served) {
        // A reconnect waits here until the page stops listening.
        return new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
      }
      served = true;
      const body = frames([
        JSON.stringify({ type: 'library.changed', library: 'Pumps' }),
        'not json {',
        JSON.stringify({ type: 'library.renamed', library: 'Pumps' }),
        JSON.stringify({ type: 'index.progress', library: 'Pumps', task: 'rebuilding', done: '3', total: 4 }),
        '42',
        JSON.stringify({ type: 'index.progress', library: 'Pumps', task: 'rebuilding', done: 3, total: 4, error: 'Stopped.' }),
      ]);
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    });
  });

  it('passes the well-formed events on and drops the rest with a warning each', async () => {
    const { bridge } = await import('../../src-renderer/src/api/client');
    const received: unknown[] = [];
    const stop = bridge.onEvent((e) => received.push(e));
    try {
      await vi.waitFor(() => expect(received).toHaveLength(2), { timeout: 10_000 });
      await vi.waitFor(() => expect(warnings()).toHaveLength(4), { timeout: 10_000 });
    } finally {
      stop();
    }
    expect(received).toEqual([
      { type: 'library.changed', library: 'Pumps' },
      { type: 'index.progress', library: 'Pumps', task: 'rebuilding', done: 3, total: 4, error: 'Stopped.' },
    ]);
    const said = warnings();
    expect(said[0]).toMatch(/\(not JSON\).*not JSON/);
    expect(said[1]).toMatch(/\(library\.renamed\).*does not know that kind/);
    expect(said[2]).toMatch(/\(index\.progress\): done: .*expected number/);
    expect(said[3]).toMatch(/\(no kind\).*a number, not an object/);
    expect(requests[0]).toBe('/api/events');
  });

  it("keeps the stream for every listener when one listener throws, and reports that listener's error", async () => {
    vi.resetModules();
    requests.length = 0;
    // The frames served again, as to a page opening the stream for the first time.
    served = false;
    const reported: unknown[] = [];
    vi.stubGlobal('reportError', (err: unknown) => reported.push(err));
    const { bridge } = await import('../../src-renderer/src/api/client');
    const received: unknown[] = [];
    const stopBroken = bridge.onEvent(() => {
      throw new Error('a store bug');
    });
    const stop = bridge.onEvent((e) => received.push(e));
    try {
      await vi.waitFor(() => expect(received).toHaveLength(2), { timeout: 10_000 });
    } finally {
      stop();
      stopBroken();
    }
    expect(reported.map((e) => (e as Error).message)).toEqual(['a store bug', 'a store bug']);
    // One request: the stream was read to its end, not cut and opened again.
    expect(requests).toEqual(['/api/events']);
  });
});
