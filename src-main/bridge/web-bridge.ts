import http from 'node:http';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { EngineEvent, Handlers } from '../contract/api';
import { CONTRACT_KEYS } from '../contract/keys';
import { CodedError, fail, type AppError } from '../core/result';
import { CONTENT_SECURITY_POLICY } from '../core/csp';
import { dispatch } from '../engine/dispatch';
import { stageUploadedFile } from '../engine/uploads';
import { megabytes, sizeOver, tooLargeReason } from '../ingest/import-limits';

/**
 * The web bridge: the same contract as Electron's IPC, over HTTP + server-sent events on the
 * loopback interface, guarded by a random per-run token. It serves the built renderer so the real
 * UI runs in any local browser (how `npm start` works without an Electron binary, and how the UI
 * is tested in Chromium). Hand-written on node:http because it is ~300 lines and a framework would
 * add surface (body parsers, static middleware) we would then have to harden.
 *
 * Least privilege for whoever holds the token:
 * - The token travels only as `Authorization: Bearer` (the page keeps it in memory and in its
 *   tab's sessionStorage, which is bound to this origin, port included). No cookie: browsers send
 *   a 127.0.0.1 cookie to every port of 127.0.0.1, so any local service the browser visits would
 *   receive it.
 * - No path on this computer is ever named by the page: `import.start` is refused here (Electron
 *   keeps it, behind its path grants); dropped files are uploaded, streamed to disk one request per
 *   file (`PUT /upload?id=&path=`, never buffered whole), with a size cap and a bound on uploads
 *   in flight, then imported with `import.upload`.
 * - The renderer's static files are served without the token (they are the app's public code and
 *   hold no data); every API call, event stream and upload needs it.
 *
 * API calls reach the engine in the order they arrived (see `createTurns`), as they do over IPC.
 */

export interface WebBridgeOptions {
  handlers: Handlers;
  /** Subscribes to engine events; returns an unsubscribe function. */
  subscribe: (listener: (event: EngineEvent) => void) => () => void;
  /** Folder with the built renderer (index.html + assets); null serves the API only. */
  rendererDir: string | null;
  /** Loopback address only; anything else is refused. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Fixed token (tests); by default 32 random bytes per run. */
  token?: string;
  /** Folder uploads are staged in (the engine's `uploadsDir`); null or absent refuses uploads. */
  uploadsDir?: string | null;
  /** Largest file one upload may carry, in bytes (default 500 MB, the engine's own import limit). */
  maxUploadBytes?: number;
  /** Uploads in flight at once (default 4); one more is answered 503 `busy`, and the page retries. */
  maxConcurrentUploads?: number;
  /** How long calls wait behind an earlier call whose body has not come in, in ms (default 5 s; see `createTurns`). */
  turnWaitMs?: number;
  log?: (message: string) => void;
}

export interface WebBridge {
  /** The URL to open: it carries the token once; the page then keeps it in memory and sends it as a Bearer header. */
  url: string;
  origin: string;
  port: number;
  token: string;
  /** Routes served under /api/, one per contract key (for the transport-parity test). */
  routes: readonly string[];
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
/** Contract calls are small JSON; files come through `/upload`, streamed. */
const MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_MAX_UPLOAD_BYTES = 500 * 1024 * 1024;
const DEFAULT_MAX_CONCURRENT_UPLOADS = 4;

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

function sameToken(given: string | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function send(res: http.ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

/** A JSON error answer. */
function sendError(res: http.ServerResponse, status: number, error: AppError): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ ok: false, error }));
}

/** How much of a refused body is read and dropped so the client can read the refusal. */
const LINGER_BYTES = 4 * 1024 * 1024;

/**
 * Answers a refused upload, then reads and drops what the client still sends, up to
 * `LINGER_BYTES`, before cutting the connection. Closing at once would reset it while the client
 * is still sending, and the client would see "connection reset" instead of the refusal (the
 * lingering close web servers do); reading all of a 10 GB body would waste the disk's time.
 */
function refuseUpload(req: http.IncomingMessage, res: http.ServerResponse, status: number, error: AppError): void {
  sendError(res, status, error);
  if (req.readableEnded) return;
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) req.socket.destroy();
  });
  req.resume();
}

/** The bridge never imports a path the page names (see the header comment). */
const refuseServerPaths: Handlers['import.start'] = async () =>
  fail('unsafe-path', 'A browser page cannot import paths on this computer: drop the files or choose them with "Add files", and they are uploaded.');

async function readBody(req: http.IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new CodedError('invalid-input', 'The request is too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** How long a call's body may take to come in before the calls behind it stop waiting for it, in ms. */
const DEFAULT_TURN_WAIT_MS = 5_000;

/** One call's place in the order: `ready` once every earlier call has been dispatched or has given up its turn. */
interface Turn {
  ready: Promise<void>;
  /** Lets the next call go; called once this call is dispatched or refused, or on its own after `waitMs`. Idempotent. */
  release(): void;
}

/**
 * API calls handed to the engine in the order their requests arrived. Each call comes on its own
 * HTTP request and its body is read before it can be dispatched, so without an order a call's
 * small body could overtake an earlier one's: a `chat.stop` sent right after a `chat.ask` was
 * dispatched first, found no question and answered `stopped: false`, and the answer then ran in
 * full. A turn ends when the call is dispatched (the handler has been called: `chat.ask` takes its
 * question in synchronously), not when it completes, so a long answer holds up nothing. A body
 * that has not come in after `waitMs` (a stalled client) gives up its turn, so one stuck request
 * delays the others by at most that long instead of until the server's request timeout (5 min).
 */
function createTurns(waitMs: number): () => Turn {
  // Settles once every turn taken so far has been released.
  let allReleased: Promise<void> = Promise.resolve();
  return () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const timer = setTimeout(release, waitMs);
    timer.unref();
    const ready = allReleased;
    allReleased = ready.then(() => released);
    return {
      ready,
      release() {
        clearTimeout(timer);
        release();
      },
    };
  };
}

/** Starts the bridge; rejects with a CodedError when asked to bind a non-loopback address. */
export async function startWebBridge(options: WebBridgeOptions): Promise<WebBridge> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host)) {
    throw new CodedError('invalid-input', `The web bridge only listens on the loopback address (127.0.0.1), not ${host}.`);
  }
  const token = options.token ?? randomBytes(32).toString('base64url');
  const log = options.log ?? (() => undefined);
  const handlers: Handlers = { ...options.handlers, 'import.start': refuseServerPaths };
  const maxUploadBytes = options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  const maxConcurrentUploads = options.maxConcurrentUploads ?? DEFAULT_MAX_CONCURRENT_UPLOADS;
  let uploadsInFlight = 0;
  const takeTurn = createTurns(options.turnWaitMs ?? DEFAULT_TURN_WAIT_MS);
  const routes = CONTRACT_KEYS.map((k) => `/api/${k}`);
  const routeSet = new Set<string>(routes);
  const sseClients = new Set<http.ServerResponse>();
  let port = 0;

  const unsubscribe = options.subscribe((event) => {
    const frame = `data: ${JSON.stringify(event)}\n\n`;
    for (const client of sseClients) client.write(frame);
  });

  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      log(`[bridge] ${req.method} ${req.url} failed: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) send(res, 500, 'Internal error.');
      else res.end();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    res.setHeader('referrer-policy', 'no-referrer');
    // DNS rebinding: a page on another name resolving to 127.0.0.1 must not reach us.
    if (!allowedHosts().has(req.headers.host ?? '')) return send(res, 403, 'Forbidden: unexpected Host header.');
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedHosts().has(origin.replace(/^http:\/\//, ''))) {
      return send(res, 403, 'Forbidden: requests from other origins are refused.');
    }

    const isApi = url.pathname.startsWith('/api/') || url.pathname === '/upload';
    if (!isApi) {
      // The page reads the token from its URL and takes it out of the address bar itself.
      const queryToken = url.searchParams.get('token') ?? undefined;
      if (queryToken !== undefined && !sameToken(queryToken, token)) return send(res, 401, 'Unauthorized: the token in this URL is not valid for this run.');
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'Method not allowed.');
      return serveStatic(url.pathname, res);
    }

    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!sameToken(bearer, token)) {
      const error: AppError = { code: 'invalid-input', message: 'Unauthorized: open the URL ManualMate printed; it carries a per-run token.' };
      return url.pathname === '/upload' ? refuseUpload(req, res, 401, error) : sendError(res, 401, error);
    }

    // Uploads take no turn: a body of up to `maxUploadBytes` streams for as long as the disk and the
    // page take, and a turn held that long would hold up every call behind it (a stop behind a
    // folder's upload). Nor do they need one: they only stage bytes, and the page awaits its
    // uploads before the `import.upload` call that uses them, which does take its turn.
    if (url.pathname === '/upload') return upload(req, res, url);

    if (url.pathname === '/api/events') {
      if (req.method !== 'GET') return send(res, 405, 'Method not allowed.');
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write(': connected\n\n');
      sseClients.add(res);
      const heartbeat = setInterval(() => res.write(': ping\n\n'), 15_000);
      req.on('close', () => {
        clearInterval(heartbeat);
        sseClients.delete(res);
      });
      return;
    }

    if (url.pathname.startsWith('/api/')) {
      if (req.method !== 'POST') return send(res, 405, 'Method not allowed: API calls use POST.');
      if (!routeSet.has(url.pathname)) {
        return send(res, 404, JSON.stringify({ ok: false, error: { code: 'not-found', message: 'Unknown call.' } }), 'application/json');
      }
      // Taken as the request arrives (no await before it since the 'request' event), so turns follow arrival.
      const turn = takeTurn();
      let result: Promise<unknown>;
      try {
        let raw: unknown;
        try {
          const body = await readBody(req, MAX_BODY_BYTES);
          raw = body.trim() === '' ? {} : JSON.parse(body);
        } catch (err) {
          const message = err instanceof CodedError ? err.message : 'The request body is not valid JSON.';
          return send(res, 400, JSON.stringify({ ok: false, error: { code: 'invalid-input', message } }), 'application/json');
        }
        await turn.ready;
        // dispatch calls the handler before its first await: once this returns, the engine has the call.
        result = dispatch(handlers, url.pathname.slice('/api/'.length), raw, log);
      } finally {
        turn.release();
      }
      return send(res, 200, JSON.stringify(await result), 'application/json; charset=utf-8');
    }
    return send(res, 404, 'Not found.');
  }

  /**
   * `PUT /upload?id=UPLOAD&path=REL`: one file's bytes as the raw body, streamed to the staging
   * folder. Refused before reading when its declared length is over the cap or too many uploads
   * are in flight; stopped at the cap when it declares none.
   */
  async function upload(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
    if (req.method !== 'PUT') return refuseUpload(req, res, 405, { code: 'invalid-input', message: 'Uploads use PUT.' });
    if (!options.uploadsDir) return refuseUpload(req, res, 404, { code: 'unavailable', message: 'This bridge does not take uploads.' });
    const declared = req.headers['content-length'] === undefined ? null : Number(req.headers['content-length']);
    if (declared !== null && !(declared <= maxUploadBytes)) {
      // Worded as the engine's own size refusal: the user dropped a file, "uploading" is ours.
      return refuseUpload(req, res, 413, { code: 'too-large', message: tooLargeReason(`it is ${sizeOver(declared, maxUploadBytes)}`, megabytes(maxUploadBytes)) });
    }
    if (uploadsInFlight >= maxConcurrentUploads) {
      res.setHeader('retry-after', '1');
      return refuseUpload(req, res, 503, { code: 'busy', message: `Too many uploads at once (at most ${maxConcurrentUploads}); try again in a moment.` });
    }
    uploadsInFlight++;
    try {
      const staged = await stageUploadedFile(options.uploadsDir, url.searchParams.get('id') ?? '', url.searchParams.get('path') ?? '', req, maxUploadBytes);
      if (staged.ok) return send(res, 200, JSON.stringify(staged), 'application/json; charset=utf-8');
      const status = staged.error.code === 'too-large' ? 413 : staged.error.code === 'already-exists' ? 409 : staged.error.code === 'unreadable' ? 500 : 400;
      return refuseUpload(req, res, status, staged.error);
    } finally {
      uploadsInFlight--;
    }
  }

  async function serveStatic(pathname: string, res: http.ServerResponse): Promise<void> {
    if (!options.rendererDir) return send(res, 404, 'No renderer is being served.');
    const root = path.resolve(options.rendererDir);
    let rel: string;
    try {
      rel = decodeURIComponent(pathname);
    } catch {
      return send(res, 400, 'Bad path.');
    }
    if (rel.includes('\0')) return send(res, 400, 'Bad path.');
    const file = path.resolve(root, `.${rel === '/' ? '/index.html' : rel}`);
    if (file !== root && !file.startsWith(root + path.sep)) return send(res, 403, 'Forbidden.');
    let data: Buffer;
    try {
      data = await fs.readFile(file);
    } catch {
      return send(res, 404, 'Not found.');
    }
    res.writeHead(200, {
      'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cache-control': 'no-store',
    });
    res.end(data);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    routes,
    async close() {
      unsubscribe();
      for (const client of sseClients) client.end();
      sseClients.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
