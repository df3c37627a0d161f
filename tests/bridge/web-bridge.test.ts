import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EngineEvent } from '../../src-main/contract/api';
import { startWebBridge, type WebBridge } from '../../src-main/bridge/web-bridge';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { tempDir } from '../helpers/temp';

/** A raw request, so tests control Host, Origin and cookies exactly. */
function request(
  port: number,
  pathName: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: pathName, method: opts.method ?? 'GET', headers: { host: `127.0.0.1:${port}`, ...opts.headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    if (opts.body) req.write(opts.body);
    req.end();
  });
}

describe('web bridge', () => {
  let engine: Engine;
  let bridge: WebBridge;
  let cleanup: () => Promise<void>;
  const events: ((e: EngineEvent) => void)[] = [];

  beforeAll(async () => {
    const tmp = await tempDir();
    cleanup = tmp.cleanup;
    const rendererDir = path.join(tmp.dir, 'renderer');
    await mkdir(rendererDir, { recursive: true });
    await writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
    await writeFile(path.join(tmp.dir, 'secret.txt'), 'outside the renderer');
    engine = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none') });
    bridge = await startWebBridge({
      handlers: engine.handlers,
      subscribe: (l) => {
        events.push(l);
        return engine.subscribe(l);
      },
      rendererDir,
    });
  });
  afterAll(async () => {
    await bridge.close();
    await engine.dispose();
    await cleanup();
  });

  const auth = () => ({ authorization: `Bearer ${bridge.token}` });

  it('answers 401 without the token, for pages and API calls alike', async () => {
    expect((await request(bridge.port, '/')).status).toBe(401);
    expect((await request(bridge.port, '/api/libraries.list', { method: 'POST', body: '{}' })).status).toBe(401);
    expect((await request(bridge.port, '/?token=wrong')).status).toBe(401);
    expect((await request(bridge.port, '/', { headers: { cookie: 'mm_token=wrong' } })).status).toBe(401);
  });

  it('trades the token in the printed URL for an HttpOnly SameSite cookie', async () => {
    expect(bridge.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    const res = await request(bridge.port, `/?token=${bridge.token}`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/');
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    const page = await request(bridge.port, '/', { headers: { cookie: cookie.split(';')[0]! } });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('refuses a foreign Origin with 403 even with the token', async () => {
    const res = await request(bridge.port, '/api/libraries.list', { method: 'POST', body: '{}', headers: { ...auth(), origin: 'http://evil.example' } });
    expect(res.status).toBe(403);
    const same = await request(bridge.port, '/api/libraries.list', { method: 'POST', body: '{}', headers: { ...auth(), origin: bridge.origin } });
    expect(same.status).toBe(200);
  });

  it('refuses a foreign Host header (DNS rebinding) with 403', async () => {
    const res = await request(bridge.port, '/api/libraries.list', { method: 'POST', body: '{}', headers: { ...auth(), host: `evil.example:${bridge.port}` } });
    expect(res.status).toBe(403);
  });

  it('refuses to bind a non-loopback address', async () => {
    await expect(startWebBridge({ handlers: engine.handlers, subscribe: engine.subscribe, rendererDir: null, host: '0.0.0.0' })).rejects.toThrow(/loopback/);
  });

  it('serves contract calls as results and validates input in words', async () => {
    const created = await request(bridge.port, '/api/libraries.create', { method: 'POST', body: JSON.stringify({ name: 'Pumps' }), headers: auth() });
    expect(JSON.parse(created.body)).toMatchObject({ ok: true, value: { name: 'Pumps', documents: 0 } });
    const bad = await request(bridge.port, '/api/libraries.create', { method: 'POST', body: JSON.stringify({ name: '' }), headers: auth() });
    expect(JSON.parse(bad.body)).toEqual({ ok: false, error: { code: 'invalid-input', message: 'A library needs a name. (name)' } });
    const notJson = await request(bridge.port, '/api/libraries.create', { method: 'POST', body: '{nope', headers: auth() });
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).error.code).toBe('invalid-input');
    const unknown = await request(bridge.port, '/api/libraries.explode', { method: 'POST', body: '{}', headers: auth() });
    expect(unknown.status).toBe(404);
  });

  it('does not serve files outside the renderer folder', async () => {
    const res = await request(bridge.port, '/..%2Fsecret.txt', { headers: auth() });
    expect([403, 404]).toContain(res.status);
    expect(res.body).not.toContain('outside the renderer');
  });

  it('streams engine events as server-sent events', async () => {
    const received = await new Promise<string>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: bridge.port, path: '/api/events', headers: { host: `127.0.0.1:${bridge.port}`, ...auth() } }, (res) => {
        res.setEncoding('utf8');
        let buf = '';
        res.on('data', (d: string) => {
          buf += d;
          if (buf.includes(': connected')) void engine.handlers['libraries.create']({ name: 'Events' });
          const m = /data: (.+)\n\n/.exec(buf);
          if (m) {
            req.destroy();
            resolve(m[1]!);
          }
        });
      });
      req.on('error', reject);
      req.end();
    });
    expect(JSON.parse(received)).toEqual({ type: 'library.changed', library: 'Events' });
  });
});
