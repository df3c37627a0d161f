import type { Api, ContractKey, EngineEvent, RendererBridge, Result } from '../../../src-main/contract/api';
import { checkEngineEvent } from '../../../src-main/contract/events';
import { CONTRACT_KEYS } from '../../../src-main/contract/keys';
import { plainMessage } from '../util/messages';

/**
 * The renderer's only way to the engine: `window.manualmate` in Electron (built by the preload
 * from the contract keys), the same calls over HTTP + server-sent events in a browser (the web
 * bridge). In a browser the per-run token comes in the URL ManualMate printed; the page takes it
 * out of the address bar, keeps it in memory (and in this tab's sessionStorage, which only this
 * origin, port included, can read, so a reload keeps working) and sends it as an
 * `Authorization: Bearer` header. Never a cookie: the browser would send that to every port of
 * 127.0.0.1.
 */

/** What the Electron preload adds next to the contract: file choosing and dropped-file paths. */
export interface ShellBridge {
  /** Shows the OS open dialog (`one`: a single file); resolves to the granted paths (empty when cancelled). */
  pickFiles?(options?: { folders?: boolean; one?: boolean }): Promise<Result<string[]>>;
  /** Paths of files/folders dropped on the window, granted for import. */
  pathsForDroppedFiles?(files: File[]): Promise<Result<string[]>>;
  /** Files the OS asked the app to open (already granted); returns an unsubscribe function. */
  onOpenFiles?(listener: (paths: string[]) => void): () => void;
}

declare global {
  interface Window {
    manualmate?: RendererBridge & ShellBridge;
  }
}

const TOKEN_KEY = 'manualmate.token';

/** The bridge token: from the printed URL (then removed from the address bar), else from this tab's earlier load. */
function takeToken(): string | null {
  if (window.manualmate) return null;
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
    try {
      window.sessionStorage.setItem(TOKEN_KEY, fromUrl);
    } catch {
      /* storage disabled: the token lives in memory only, a reload asks for the URL again */
    }
    return fromUrl;
  }
  try {
    return window.sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

const token = takeToken();
const authHeaders = (): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});
const LOST_TOKEN: Result<never> = { ok: false, error: { code: 'invalid-input', message: 'This page lost its access token. Open the URL ManualMate printed again.' } };
const NOT_RUNNING: Result<never> = { ok: false, error: { code: 'unavailable', message: 'ManualMate is not running (the local engine did not answer).' } };

async function httpCall(key: ContractKey, input: unknown): Promise<Result<unknown>> {
  try {
    const res = await fetch(`/api/${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authHeaders() },
      body: JSON.stringify(input ?? {}),
      credentials: 'omit',
    });
    if (res.status === 401) return LOST_TOKEN;
    if (res.status === 404) {
      return { ok: false, error: { code: 'unavailable', message: 'This version of the engine does not offer that yet.' } };
    }
    return (await res.json()) as Result<unknown>;
  } catch {
    return NOT_RUNNING;
  }
}

/**
 * Server-sent events read with fetch, because `EventSource` cannot send an Authorization header.
 * Reconnects after a second when the stream ends, until `stop` is called.
 */
function eventStream(onData: (data: string) => void): { stop(): void } {
  const controller = new AbortController();
  const connect = async (): Promise<void> => {
    while (!controller.signal.aborted) {
      try {
        const res = await fetch('/api/events', { headers: authHeaders(), credentials: 'omit', cache: 'no-store', signal: controller.signal });
        if (res.status === 401) return;
        if (!res.body) throw new Error('no event stream');
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buf = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buf += value;
          let end: number;
          while ((end = buf.indexOf('\n\n')) !== -1) {
            const frame = buf.slice(0, end);
            buf = buf.slice(end + 2);
            const data = frame
              .split('\n')
              .filter((l) => l.startsWith('data:'))
              .map((l) => l.slice(5).replace(/^ /, ''))
              .join('\n');
            if (data) onData(data);
          }
        }
      } catch {
        if (controller.signal.aborted) return;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  };
  void connect();
  return { stop: () => controller.abort() };
}

/** A fresh id for one drop's uploads (letters and digits, as the bridge requires). */
export function newUploadId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `up-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Uploads this page sends at once, across all its drops: the bridge's own bound (4), so it never
 * has to answer "busy" to this page (only when another tab uploads too).
 */
const UPLOAD_SLOTS = 4;
let uploadsRunning = 0;
const waitingForSlot: (() => void)[] = [];

async function withUploadSlot<T>(run: () => Promise<T>): Promise<T> {
  if (uploadsRunning >= UPLOAD_SLOTS) await new Promise<void>((resolve) => waitingForSlot.push(resolve));
  else uploadsRunning++;
  try {
    return await run();
  } finally {
    // The slot passes straight to the next waiter, or is given back.
    const next = waitingForSlot.shift();
    if (next) next();
    else uploadsRunning--;
  }
}

/**
 * Sends one dropped file to the web bridge (`PUT /upload`), the File itself as the body so the
 * browser streams it from disk; retried while the bridge has as many uploads in flight as it takes.
 */
export function uploadFile(uploadId: string, relPath: string, file: Blob): Promise<Result<{ bytes: number }>> {
  return withUploadSlot(() => sendUpload(uploadId, relPath, file));
}

async function sendUpload(uploadId: string, relPath: string, file: Blob): Promise<Result<{ bytes: number }>> {
  if (window.manualmate) return { ok: false, error: { code: 'unavailable', message: 'Files are imported by path in the desktop app.' } };
  const url = `/upload?id=${encodeURIComponent(uploadId)}&path=${encodeURIComponent(relPath)}`;
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream', ...authHeaders() }, body: file, credentials: 'omit' });
    } catch {
      return { ok: false, error: { code: 'unavailable', message: `"${relPath}" could not be sent to ManualMate (the upload was cut off; files over the upload limit are refused).` } };
    }
    if (res.status === 401) return LOST_TOKEN;
    if (res.status === 503 && attempt < 100) {
      await new Promise((resolve) => setTimeout(resolve, 200 + 50 * Math.min(attempt, 20)));
      continue;
    }
    try {
      return (await res.json()) as Result<{ bytes: number }>;
    } catch {
      return NOT_RUNNING;
    }
  }
}

/** Subscribes to engine events as they arrive, before any check: a preload's values, or the event stream's JSON. */
type RawEvents = (listener: (raw: unknown) => void) => () => void;

/** Kinds and reasons already warned about: a stream of broken events (a token each) warns once, not per token. */
const warned = new Set<string>();

function dropEvent(kind: string, why: string): void {
  // The same broken field in every row of a list ("summary.results.3.status") is one reason.
  const said = `${kind}\n${why.replace(/\.\d+(?=[.:])/g, '')}`;
  if (warned.has(said)) return;
  warned.add(said);
  console.warn(`ManualMate dropped an engine event (${kind}): ${why}. Events like it are dropped without another warning.`);
}

/**
 * The `import.failed` this page gives an import whose end it could not read (see `checkedEvents`):
 * `unfollowed` tells it from the engine's own, whose schema has no such field (the check strips
 * one an engine might send). Its files are not known to have failed, only no longer followed.
 */
export type UnfollowedImport = Extract<EngineEvent, { type: 'import.failed' }> & { unfollowed: true };

/** Whether `event` is this page's own end of an import it could not follow, not the engine's. */
export function isUnfollowed(event: EngineEvent): event is UnfollowedImport {
  return event.type === 'import.failed' && (event as Partial<UnfollowedImport>).unfollowed === true;
}

/** The words of an `UnfollowedImport`. */
export const UNREADABLE_IMPORT_END =
  "This window could not read the engine's report of how this import ended (perhaps the engine is newer or older than the window), so it stops following the import here. The library's document list shows what was imported.";

/**
 * The kinds that end an import job: losing one leaves the job running in the page for good. A
 * lost progress cannot (the end still comes and says how every file went).
 */
const IMPORT_END_KINDS: readonly string[] = ['import.done', 'import.failed'];

/** The job and library a value that failed its check names, when it is an import's end naming its job in a field that can be read. */
function endedJobOf(raw: unknown, kind: string): { jobId: string; library: string } | null {
  if (!IMPORT_END_KINDS.includes(kind) || typeof raw !== 'object' || raw === null) return null;
  const { jobId, library } = raw as { jobId?: unknown; library?: unknown };
  if (typeof jobId !== 'string' || jobId === '') return null;
  return { jobId, library: typeof library === 'string' ? library : '' };
}

/**
 * The renderer's edge for engine events, as `validateInput` is the engine's for calls: each value
 * is checked against its kind's schema (contract/events.ts) and only a well-formed event reaches
 * the listeners; anything else is dropped with a warning in words, so it can neither throw in the
 * store nor leave half a file in it. A dropped end of an import job that can be told which job it
 * was (a `jobId` to read) would leave that job running in the page for good: the listener gets an
 * `UnfollowedImport` for it instead (once per job, never for a job that has ended), so its card
 * ends in words and the lists are read again. The engine's readable end of that job, should one
 * still come, is passed on like any event: the store lets it replace the page's own.
 */
function checkedEvents(subscribe: RawEvents): RendererBridge['onEvent'] {
  return (listener) => {
    // Per listener: each one is told once that it lost track of a job. Ended jobs (their end
    // passed, or this page ended them) are never ended again by the page.
    const ended = new Set<string>();
    return subscribe((raw) => {
      const checked = checkEngineEvent(raw);
      if (checked.ok) {
        if (checked.event.type === 'import.done' || checked.event.type === 'import.failed') ended.add(checked.event.jobId);
        listener(checked.event);
        return;
      }
      dropEvent(checked.kind, checked.why);
      const job = endedJobOf(raw, checked.kind);
      if (!job || ended.has(job.jobId)) return;
      ended.add(job.jobId);
      const unfollowed: UnfollowedImport = { type: 'import.failed', jobId: job.jobId, library: job.library, message: UNREADABLE_IMPORT_END, unfollowed: true };
      listener(unfollowed);
    });
  };
}

function httpBridge(): RendererBridge {
  const api = Object.fromEntries(CONTRACT_KEYS.map((key) => [key, (input: unknown) => httpCall(key, input)])) as unknown as Api;
  const listeners = new Set<(raw: unknown) => void>();
  let source: { stop(): void } | null = null;
  const rawEvents: RawEvents = (listener) => {
    listeners.add(listener);
    if (!source) {
      source = eventStream((data) => {
        let raw: unknown;
        try {
          raw = JSON.parse(data);
        } catch {
          dropEvent('(not JSON)', 'the event stream sent a message that is not JSON');
          return;
        }
        // A listener that throws is a bug to report, not a reason to cut the stream: thrown into
        // the stream's reader it reconnected, and the events sent meanwhile were lost to every listener.
        for (const l of listeners) {
          try {
            l(raw);
          } catch (err) {
            reportError(err);
          }
        }
      });
    }
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && source) {
        source.stop();
        source = null;
      }
    };
  };
  return { api, onEvent: checkedEvents(rawEvents) };
}

/** The preload's bridge with its events checked: the preload passes on whatever the main process sent. */
function electronBridge(shell: RendererBridge): RendererBridge {
  return { api: shell.api, onEvent: checkedEvents((listener) => shell.onEvent(listener)) };
}

/** Every call's refusal of its input in words (see plainMessage), whichever bridge carries it. */
function withPlainMessages(raw: Api): Api {
  const calls = raw as unknown as Record<ContractKey, (input: unknown) => Promise<Result<unknown>>>;
  const wrap = (key: ContractKey) => async (input: unknown) => {
    const res = await calls[key](input);
    return res.ok || res.error.code !== 'invalid-input' ? res : { ok: false, error: { ...res.error, message: plainMessage(res.error.message) } };
  };
  return Object.fromEntries(CONTRACT_KEYS.map((key) => [key, wrap(key)])) as unknown as Api;
}

export const bridge: RendererBridge = window.manualmate ? electronBridge(window.manualmate) : httpBridge();
export const api: Api = withPlainMessages(bridge.api);
export const transport: 'electron' | 'web' = window.manualmate ? 'electron' : 'web';
/** The Electron shell's file functions; every member is absent in a browser. */
export const shell: ShellBridge = window.manualmate ?? {};
