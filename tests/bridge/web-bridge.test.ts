import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
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
      uploadsDir: engine.uploadsDir,
      maxUploadBytes: 256 * 1024,
      maxConcurrentUploads: 2,
    });
  });
  afterAll(async () => {
    await bridge.close();
    await engine.dispose();
    await cleanup();
  });

  const auth = () => ({ authorization: `Bearer ${bridge.token}` });

  it('answers 401 to API calls, events and uploads without the Bearer token, and to a page URL with a wrong token', async () => {
    expect((await request(bridge.port, '/api/libraries.list', { method: 'POST', body: '{}' })).status).toBe(401);
    expect((await request(bridge.port, '/api/events')).status).toBe(401);
    expect((await request(bridge.port, '/upload?id=drop-0001&path=a.md', { method: 'PUT', body: 'x' })).status).toBe(401);
    expect((await request(bridge.port, '/api/libraries.list', { method: 'POST', body: '{}', headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await request(bridge.port, '/?token=wrong')).status).toBe(401);
  });

  it('refuses a request that carries the token as a cookie but not as a header: no cookie is set or read', async () => {
    const page = await request(bridge.port, `/?token=${bridge.token}`);
    expect(page.status).toBe(200);
    expect(page.headers['set-cookie']).toBeUndefined();
    for (const cookie of [`mm_token=${bridge.token}`, `token=${bridge.token}`]) {
      const res = await request(bridge.port, '/api/libraries.list', { method: 'POST', body: '{}', headers: { cookie } });
      expect(res.status, cookie).toBe(401);
    }
  });

  it('serves the renderer (public code, no data) with its security headers, and the page takes the token from its URL', async () => {
    expect(bridge.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    for (const pathName of ['/', `/?token=${bridge.token}`]) {
      const page = await request(bridge.port, pathName);
      expect(page.status, pathName).toBe(200);
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('refuses import.start with a path on this computer, with a typed error, and imports nothing', async () => {
    const secret = path.join(path.dirname(engine.uploadsDir), '..', 'secret.txt');
    const res = await request(bridge.port, '/api/import.start', { method: 'POST', body: JSON.stringify({ library: 'Stolen', paths: [secret] }), headers: auth() });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'unsafe-path', message: expect.stringMatching(/cannot import paths on this computer/) } });
    await engine.idle();
    expect(await engine.libraries.get('Stolen')).toBeUndefined();
  });

  it('checks the names import.start gives its paths as Electron does, before refusing the call itself', async () => {
    const call = async (body: unknown) => JSON.parse((await request(bridge.port, '/api/import.start', { method: 'POST', body: JSON.stringify(body), headers: auth() })).body) as unknown;
    const file = path.join(path.dirname(engine.uploadsDir), 'manual.md');
    expect(await call({ library: 'Stolen', paths: [file], names: ['../../manual.md'] })).toMatchObject({ ok: false, error: { code: 'unsafe-path', message: expect.stringContaining('inside the library') } });
    expect(await call({ library: 'Stolen', paths: [file, file], names: ['manual.md', 'MANUAL.md'] })).toMatchObject({ ok: false, error: { code: 'already-exists' } });
    expect(await call({ library: 'Stolen', paths: [file], names: ['manual.md'] })).toMatchObject({ ok: false, error: { code: 'unsafe-path', message: expect.stringMatching(/cannot import paths on this computer/) } });
    await engine.idle();
    expect(await engine.libraries.get('Stolen')).toBeUndefined();
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

  /** An upload request whose body the test writes piece by piece; `response` settles when the bridge answers. */
  function openUpload(pathName: string, headers: Record<string, string> = {}) {
    let answered = false;
    const req = http.request({ host: '127.0.0.1', port: bridge.port, path: pathName, method: 'PUT', headers: { host: `127.0.0.1:${bridge.port}`, ...auth(), ...headers } });
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        answered = true;
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      });
      req.on('error', (err) => (answered ? undefined : reject(err)));
    });
    return { req, response, answered: () => answered };
  }

  const staged = async (id: string) => {
    const dir = path.join(engine.uploadsDir, id);
    return existsSync(dir) ? (await readdir(dir, { recursive: true })).map(String) : [];
  };

  it('streams dropped files to disk one request each and imports them with import.upload', async () => {
    const files = { 'manuals/pump.md': '# P-100 pump\n\nThe P-100 takes a 4 A fuse.\n', 'manuals/notes.txt': 'Prime the P-100 before the first start.' };
    for (const [name, text] of Object.entries(files)) {
      const res = await request(bridge.port, `/upload?id=drop-0100&path=${encodeURIComponent(name)}`, { method: 'PUT', body: text, headers: auth() });
      expect(JSON.parse(res.body)).toEqual({ ok: true, value: { bytes: Buffer.byteLength(text) } });
    }
    const queued: Extract<EngineEvent, { type: 'import.progress' }>[] = [];
    const done = new Promise<EngineEvent>((resolve) => {
      const off = engine.subscribe((e) => {
        if (e.type === 'import.progress' && e.stage === 'queued') queued.push(e);
        if (e.type === 'import.done' || e.type === 'import.failed') {
          off();
          resolve(e);
        }
      });
    });
    const started = await request(bridge.port, '/api/import.upload', { method: 'POST', body: JSON.stringify({ library: 'Uploads', uploadId: 'drop-0100' }), headers: auth() });
    expect(JSON.parse(started.body)).toMatchObject({ ok: true, value: { jobId: expect.any(String) } });
    expect(await done).toMatchObject({ type: 'import.done', summary: { summary: { imported: 2, failed: 0 } } });
    // The files were read from the bridge's staging folder: the page learns no path on this computer.
    expect(queued.map((e) => e.file).sort()).toEqual(['manuals/notes.txt', 'manuals/pump.md']);
    expect(queued.filter((e) => e.path !== undefined)).toEqual([]);
    await engine.idle();
    const docs = await engine.handlers['documents.list']({ library: 'Uploads' });
    expect(docs.ok && docs.value.map((d) => d.id).sort()).toEqual(['manuals/notes.txt', 'manuals/pump.md']);
    expect(await staged('drop-0100')).toEqual([]);
  });

  it('answers 409 to a second upload under a name the upload already holds, keeping the first', async () => {
    const put = (body: string) => request(bridge.port, '/upload?id=drop-0150&path=manual.md', { method: 'PUT', body, headers: auth() });
    expect((await put('# First')).status).toBe(200);
    const second = await put('# Second');
    expect(second.status).toBe(409);
    expect(JSON.parse(second.body)).toMatchObject({ ok: false, error: { code: 'already-exists', message: expect.stringContaining('already named "manual.md"') } });
    expect(await readFile(path.join(engine.uploadsDir, 'drop-0150', 'manual.md'), 'utf8')).toBe('# First');
  });

  it('refuses an upload whose declared size is over the cap before its body is sent', async () => {
    const up = openUpload('/upload?id=drop-0200&path=huge.txt', { 'content-length': String(10 * 1024 ** 3) });
    up.req.write(Buffer.alloc(1024, 0x61));
    const res = await up.response;
    up.req.destroy();
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, error: { code: 'too-large', message: expect.stringContaining('too large to import (limit 256 KB)') } });
    expect(await staged('drop-0200')).toEqual([]);
  });

  it('stops an upload of undeclared size at the cap, answers 413 while the body is still coming, and keeps none of it', async () => {
    const up = openUpload('/upload?id=drop-0300&path=endless.txt', { 'transfer-encoding': 'chunked' });
    const chunk = Buffer.alloc(64 * 1024, 0x62);
    let sent = 0;
    // Keeps sending until the bridge answers; 64 MB would be the whole body (256 times the cap).
    while (!up.answered() && sent < 64 * 1024 * 1024 && !up.req.destroyed) {
      if (!up.req.write(chunk)) await new Promise<void>((resolve) => setTimeout(resolve, 5).unref() && up.req.once('drain', () => resolve()));
      sent += chunk.length;
      await new Promise((r) => setImmediate(r));
    }
    const res = await up.response;
    up.req.destroy();
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe('too-large');
    expect(sent).toBeLessThan(16 * 1024 * 1024);
    expect(await staged('drop-0300')).toEqual([]);
  });

  it('bounds uploads in flight: one more than the bound is answered busy, and goes through once one ends', async () => {
    const open = [openUpload('/upload?id=drop-0400&path=a.txt', { 'content-length': '8' }), openUpload('/upload?id=drop-0400&path=b.txt', { 'content-length': '8' })];
    for (const up of open) up.req.write('1234');
    // Both are in flight once their first bytes are staged.
    await expect.poll(async () => (await staged('drop-0400')).filter((n) => n.includes('.upload-')).length).toBe(2);
    const third = await request(bridge.port, '/upload?id=drop-0400&path=c.txt', { method: 'PUT', body: '12345678', headers: auth() });
    expect(third.status).toBe(503);
    expect(JSON.parse(third.body)).toMatchObject({ ok: false, error: { code: 'busy' } });
    for (const up of open) up.req.end('5678');
    expect((await Promise.all(open.map((u) => u.response))).map((r) => r.status)).toEqual([200, 200]);
    const again = await request(bridge.port, '/upload?id=drop-0400&path=c.txt', { method: 'PUT', body: '12345678', headers: auth() });
    expect(again.status).toBe(200);
    expect((await staged('drop-0400')).sort()).toEqual(['a.txt', 'b.txt', 'c.txt']);
  });

  it('refuses an upload name that leaves the upload folder', async () => {
    for (const bad of ['../escape.md', '/abs.md', 'a/../../b.md']) {
      const res = await request(bridge.port, `/upload?id=drop-0500&path=${encodeURIComponent(bad)}`, { method: 'PUT', body: 'x', headers: auth() });
      expect(res.status, bad).toBe(400);
      expect(JSON.parse(res.body).error.code, bad).toBe('unsafe-path');
    }
    expect(existsSync(path.join(path.dirname(engine.uploadsDir), 'escape.md'))).toBe(false);
  });
});
