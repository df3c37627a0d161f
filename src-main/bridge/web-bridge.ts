import http from 'node:http';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { EngineEvent, Handlers } from '../contract/api';
import { CONTRACT_KEYS } from '../contract/keys';
import { CodedError } from '../core/result';
import { CONTENT_SECURITY_POLICY } from '../core/csp';
import { dispatch } from '../engine/dispatch';

/**
 * The web bridge: the same contract as Electron's IPC, over HTTP + server-sent events on the
 * loopback interface, guarded by a random per-run token. It serves the built renderer so the real
 * UI runs in any local browser (how `npm start` works without an Electron binary, and how the UI
 * is tested in Chromium). Hand-written on node:http because it is ~200 lines and a framework would
 * add surface (body parsers, static middleware) we would then have to harden.
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
  log?: (message: string) => void;
}

export interface WebBridge {
  /** The URL to open: it carries the token once; the page then keeps it in an HttpOnly cookie. */
  url: string;
  origin: string;
  port: number;
  token: string;
  /** Routes served under /api/, one per contract key (for the transport-parity test). */
  routes: readonly string[];
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
const COOKIE = 'mm_token';
const MAX_BODY_BYTES = 1024 * 1024;
/** Dropped files arrive base64-encoded in `import.upload`; allow up to ~500 MB of file data. */
const MAX_UPLOAD_BYTES = 700 * 1024 * 1024;

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

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

function send(res: http.ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

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

/** Starts the bridge; rejects with a CodedError when asked to bind a non-loopback address. */
export async function startWebBridge(options: WebBridgeOptions): Promise<WebBridge> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host)) {
    throw new CodedError('invalid-input', `The web bridge only listens on the loopback address (127.0.0.1), not ${host}.`);
  }
  const token = options.token ?? randomBytes(32).toString('base64url');
  const log = options.log ?? (() => undefined);
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
    // DNS rebinding: a page on another name resolving to 127.0.0.1 must not reach us.
    if (!allowedHosts().has(req.headers.host ?? '')) return send(res, 403, 'Forbidden: unexpected Host header.');
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedHosts().has(origin.replace(/^http:\/\//, ''))) {
      return send(res, 403, 'Forbidden: requests from other origins are refused.');
    }

    const queryToken = url.searchParams.get('token') ?? undefined;
    if (req.method === 'GET' && queryToken !== undefined && (url.pathname === '/' || url.pathname === '/index.html')) {
      if (!sameToken(queryToken, token)) return send(res, 401, 'Unauthorized: the token in this URL is not valid for this run.');
      res.writeHead(302, {
        location: '/',
        'set-cookie': `${COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`,
        'cache-control': 'no-store',
      });
      return void res.end();
    }

    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!sameToken(bearer ?? cookieValue(req.headers.cookie, COOKIE), token)) {
      return send(res, 401, 'Unauthorized: open the URL ManualMate printed; it carries a per-run token.');
    }

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
      let raw: unknown;
      try {
        const body = await readBody(req, url.pathname === '/api/import.upload' ? MAX_UPLOAD_BYTES : MAX_BODY_BYTES);
        raw = body.trim() === '' ? {} : JSON.parse(body);
      } catch (err) {
        const message = err instanceof CodedError ? err.message : 'The request body is not valid JSON.';
        return send(res, 400, JSON.stringify({ ok: false, error: { code: 'invalid-input', message } }), 'application/json');
      }
      const result = await dispatch(options.handlers, url.pathname.slice('/api/'.length), raw, log);
      return send(res, 200, JSON.stringify(result), 'application/json; charset=utf-8');
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'Method not allowed.');
    return serveStatic(url.pathname, res);
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
