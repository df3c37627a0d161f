import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { decideNavigation, isAllowedRequest, isAppPage, isExternalLinkAllowed, secureWindowOptions, securityHeaders } from '../../src-main/electron/window';
import { makeSenderCheck, registerIpcHandlers } from '../../src-main/electron/ipc';
import { CONTENT_SECURITY_POLICY } from '../../src-main/core/csp';
import type { Handlers } from '../../src-main/contract/api';

const rendererDir = path.resolve('/opt/ManualMate/resources/app.asar/out/renderer');
const pages = { rendererDir };
const fileUrl = (...segments: string[]) => pathToFileURL(path.join(...segments)).href;
const indexUrl = fileUrl(rendererDir, 'index.html');

describe('Electron window security', () => {
  it('isolates and sandboxes the renderer with Node off and web security on', () => {
    const prefs = secureWindowOptions('/app/preload.cjs').webPreferences!;
    expect(prefs).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
    });
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
    expect(prefs).not.toHaveProperty('additionalArguments');
  });

  it('restores remembered bounds but keeps the window hidden until it is ready', () => {
    const opts = secureWindowOptions('/p.cjs', { width: 1000, height: 700, x: 10, y: 20 });
    expect(opts).toMatchObject({ width: 1000, height: 700, x: 10, y: 20, show: false, minWidth: 720, minHeight: 480 });
    expect(secureWindowOptions('/p.cjs')).not.toHaveProperty('x');
  });

  it('sends a CSP with no remote origins, no eval and no inline scripts', () => {
    const headers = securityHeaders();
    const csp = headers['Content-Security-Policy']![0]!;
    expect(csp).toBe(CONTENT_SECURITY_POLICY);
    const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    for (const values of directives.values()) {
      for (const v of values) expect(["'self'", "'none'", 'data:', 'blob:']).toContain(v);
    }
    expect(headers['X-Content-Type-Options']).toEqual(['nosniff']);
  });

  it('lets only plain http(s) links out to the OS browser', () => {
    expect(isExternalLinkAllowed('https://example.com/manual')).toBe(true);
    expect(isExternalLinkAllowed('http://example.com/')).toBe(true);
    expect(isExternalLinkAllowed('https://user:secret@example.com/')).toBe(false);
    expect(isExternalLinkAllowed('file:///etc/passwd')).toBe(false);
    expect(isExternalLinkAllowed('javascript:alert(1)')).toBe(false);
    expect(isExternalLinkAllowed('smb://server/share')).toBe(false);
    expect(isExternalLinkAllowed('not a url')).toBe(false);
  });

  it("treats only the renderer's own index.html and the dev server as app pages", () => {
    expect(isAppPage(indexUrl, pages)).toBe(true);
    expect(isAppPage(`${indexUrl}?library=A#chat`, pages)).toBe(true);
    expect(isAppPage(fileUrl(rendererDir, 'assets', 'index.js'), pages)).toBe(false);
    expect(isAppPage(fileUrl('/home/tech/Downloads/manual.html'), pages)).toBe(false);
    expect(isAppPage('file://fileserver/share/index.html', pages)).toBe(false);
    expect(isAppPage('http://localhost:5173/', pages)).toBe(false);
    expect(isAppPage('http://localhost:5173/x', { ...pages, devServerUrl: 'http://localhost:5173' })).toBe(true);
    expect(isAppPage('https://evil.example/', { ...pages, devServerUrl: 'http://localhost:5173' })).toBe(false);
  });

  it('allows requests only to the renderer folder and in-memory URLs (no network, no other files)', () => {
    expect(isAllowedRequest(fileUrl(rendererDir, 'assets', 'index-1.js'), pages)).toBe(true);
    expect(isAllowedRequest('blob:file:///0d1c-42', pages)).toBe(true);
    expect(isAllowedRequest('data:image/png;base64,AAAA', pages)).toBe(true);
    expect(isAllowedRequest(fileUrl('/etc/passwd'), pages)).toBe(false);
    expect(isAllowedRequest(`${pathToFileURL(rendererDir).href}/../../secret.json`, pages)).toBe(false);
    expect(isAllowedRequest(`${pathToFileURL(rendererDir).href}/..%2F..%2Fsecret.json`, pages)).toBe(false);
    expect(isAllowedRequest(fileUrl(`${rendererDir}-evil`, 'x.js'), pages)).toBe(false);
    expect(isAllowedRequest(pathToFileURL(rendererDir).href, pages)).toBe(false);
    expect(isAllowedRequest('https://cdn.example/lib.js', pages)).toBe(false);
    expect(isAllowedRequest('ws://127.0.0.1:9000/', pages)).toBe(false);
    expect(isAllowedRequest('http://localhost:5173/@vite/client', { ...pages, devServerUrl: 'http://localhost:5173' })).toBe(true);
  });

  it('keeps navigation on the app page and sends web links to the OS browser', () => {
    expect(decideNavigation(indexUrl, pages)).toBe('allow');
    expect(decideNavigation('https://www.radxa.com/products', pages)).toBe('open-external');
    expect(decideNavigation(fileUrl('/tmp/evil.html'), pages)).toBe('deny');
    expect(decideNavigation('javascript:alert(1)', pages)).toBe('deny');
    expect(decideNavigation('manualmate://open', pages)).toBe('deny');
  });
});

describe('IPC sender check', () => {
  const check = makeSenderCheck((url) => isAppPage(url, pages), () => new Set([1]));
  const frame = (url: string, parent: unknown = null) => ({ url, parent }) as never;

  it('accepts the top frame of our own window on the app page', () => {
    expect(check({ sender: { id: 1 } as never, senderFrame: frame(indexUrl) })).toBe(true);
  });

  it('refuses subframes, other webContents, other local files and foreign pages', () => {
    expect(check({ sender: { id: 1 } as never, senderFrame: frame(indexUrl, {}) })).toBe(false);
    expect(check({ sender: { id: 2 } as never, senderFrame: frame(indexUrl) })).toBe(false);
    expect(check({ sender: { id: 1 } as never, senderFrame: frame(fileUrl('/home/tech/Downloads/evil.html')) })).toBe(false);
    expect(check({ sender: { id: 1 } as never, senderFrame: frame('https://evil.example/') })).toBe(false);
    expect(check({ sender: { id: 1 } as never, senderFrame: null as never })).toBe(false);
  });

  it('never reaches a handler for an untrusted sender, and validates input for a trusted one', async () => {
    const calls: unknown[] = [];
    const handlers = new Proxy({}, { get: () => async (input: unknown) => (calls.push(input), { ok: true, value: 'ran' }) }) as Handlers;
    const registered = new Map<string, (event: unknown, input: unknown) => Promise<unknown>>();
    let trusted = false;
    registerIpcHandlers({ handle: (ch: string, fn: never) => void registered.set(ch, fn) }, handlers, () => trusted);
    const create = registered.get('mm:libraries.create')!;
    expect(await create({}, { name: 'X' })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(calls).toEqual([]);
    trusted = true;
    expect(await create({}, { name: '' })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(await create({}, { name: 'X' })).toEqual({ ok: true, value: 'ran' });
    expect(calls).toEqual([{ name: 'X' }]);
  });
});
