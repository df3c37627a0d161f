import { describe, expect, it } from 'vitest';
import { isAppUrl, isExternalLinkAllowed, secureWindowOptions, securityHeaders } from '../../src-main/electron/window';
import { makeSenderCheck, registerIpcHandlers } from '../../src-main/electron/ipc';
import { CONTENT_SECURITY_POLICY } from '../../src-main/core/csp';
import type { Handlers } from '../../src-main/contract/api';

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
      webviewTag: false,
    });
  });

  it('sends a CSP with no remote origins, no eval and no inline scripts', () => {
    const csp = securityHeaders()['Content-Security-Policy']![0]!;
    expect(csp).toBe(CONTENT_SECURITY_POLICY);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-eval|unsafe-inline|https?:|\*/);
    expect(csp).toContain("object-src 'none'");
  });

  it('lets only http(s) links out to the OS browser', () => {
    expect(isExternalLinkAllowed('https://example.com/manual')).toBe(true);
    expect(isExternalLinkAllowed('file:///etc/passwd')).toBe(false);
    expect(isExternalLinkAllowed('javascript:alert(1)')).toBe(false);
    expect(isExternalLinkAllowed('smb://server/share')).toBe(false);
  });

  it('treats only packaged files and the dev server as app pages', () => {
    expect(isAppUrl('file:///opt/ManualMate/resources/app.asar/out/renderer/index.html', undefined)).toBe(true);
    expect(isAppUrl('http://localhost:5173/', undefined)).toBe(false);
    expect(isAppUrl('http://localhost:5173/x', 'http://localhost:5173')).toBe(true);
    expect(isAppUrl('https://evil.example/', 'http://localhost:5173')).toBe(false);
  });
});

describe('IPC sender check', () => {
  const check = makeSenderCheck((url) => url.startsWith('file:'), () => new Set([1]));
  const frame = (url: string, parent: unknown = null) => ({ url, parent }) as never;

  it('accepts the top frame of our own window on an app page', () => {
    expect(check({ sender: { id: 1 } as never, senderFrame: frame('file:///app/index.html') })).toBe(true);
  });

  it('refuses subframes, other webContents and foreign pages', () => {
    expect(check({ sender: { id: 1 } as never, senderFrame: frame('file:///app/index.html', {}) })).toBe(false);
    expect(check({ sender: { id: 2 } as never, senderFrame: frame('file:///app/index.html') })).toBe(false);
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
