/// <reference lib="dom" />
// Code passed to page.evaluate and addInitScript runs in Chromium: it is type-checked against the DOM.
import type { Page } from 'playwright-core';
import type { EngineEvent, Handlers } from '../../src-main/contract/api';
import { CONTRACT_KEYS, ipcChannel } from '../../src-main/contract/keys';
import { SUPPORTED_EXTENSIONS } from '../../src-main/core/formats';
import { registerIpcHandlers, registerShellHandlers } from '../../src-main/electron/ipc';
import { guardImportStart, PathGrants } from '../../src-main/electron/path-grants';
import { SHELL_CHANNELS } from '../../src-main/electron/shell-channels';
import type { UiApp } from './harness';

/**
 * The desktop app's renderer in Chromium, where no Electron binary can be had: the page gets the
 * `window.manualmate` the preload builds (one function per contract key, the event subscription,
 * the file dialog), and each call reaches the Electron main process's own handlers
 * (`registerIpcHandlers`, `registerShellHandlers`: `dispatch`'s zod checks, `import.start` behind
 * the path grants). What stands in for Electron is the IPC transport and the OS dialog, whose
 * answer the test sets (`choose`). Imports of paths on this computer, which a browser page never
 * makes, are tested this way.
 */
export interface DesktopPage {
  page: Page;
  /** The answer the next "Import files" / "Import folder" dialog gives: these paths, chosen by the user. */
  choose(paths: string[]): void;
}

type Handler = (event: unknown, input?: unknown) => Promise<unknown>;

export async function openDesktopApp(app: UiApp, errors: string[]): Promise<DesktopPage> {
  const grants = new PathGrants();
  const channels = new Map<string, Handler>();
  const ipcMain = { handle: (channel: string, fn: never) => void channels.set(channel, fn) };
  const handlers: Handlers = { ...app.engine.handlers, 'import.start': guardImportStart(app.engine.handlers['import.start'], grants) };
  // The page is the app's own window: every sender is trusted, as Electron's check finds it.
  registerIpcHandlers(ipcMain, handlers, () => true);
  let chosen: string[] = [];
  registerShellHandlers(ipcMain, {
    grants,
    isTrustedSender: () => true,
    extensions: SUPPORTED_EXTENSIONS,
    showOpenDialog: async () => {
      const filePaths = chosen;
      chosen = [];
      return { canceled: filePaths.length === 0, filePaths };
    },
  });

  const page = await app.browser.newPage();
  await page.exposeBinding('__manualmateInvoke', (_source, channel: string, input: unknown) => {
    const handler = channels.get(channel);
    return handler ? handler({}, input) : { ok: false, error: { code: 'not-found', message: `No handler for ${channel}.` } };
  });
  await page.addInitScript(
    ({ keys, shell }) => {
      const invoke = (window as unknown as { __manualmateInvoke: (channel: string, input: unknown) => Promise<unknown> }).__manualmateInvoke;
      const listeners = new Set<(event: unknown) => void>();
      (window as unknown as { __manualmateEvent: (event: unknown) => void }).__manualmateEvent = (event) => {
        for (const l of listeners) l(event);
      };
      const api = Object.fromEntries(keys.map(([key, channel]) => [key, (input: unknown) => invoke(channel, input ?? {})]));
      (window as unknown as { manualmate: unknown }).manualmate = {
        api,
        onEvent(listener: (event: unknown) => void) {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
        pickFiles: (options?: { folders?: boolean; one?: boolean }) => invoke(shell.pickPaths, { folders: options?.folders === true, one: options?.one === true }),
      };
    },
    { keys: CONTRACT_KEYS.map((k) => [k, ipcChannel(k)] as const), shell: { pickPaths: SHELL_CHANNELS.pickPaths } },
  );
  // Events reach the page in the order the engine sent them, as `webContents.send` delivers them.
  let delivered = Promise.resolve();
  const unsubscribe = app.engine.subscribe((event: EngineEvent) => {
    delivered = delivered.then(() => page.evaluate((e) => (window as unknown as { __manualmateEvent?: (event: unknown) => void }).__manualmateEvent?.(e), event)).catch(() => undefined);
  });
  page.on('close', unsubscribe);
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  // The bridge serves the renderer's files (no token needed); with `window.manualmate` there, the
  // page calls no API of the bridge's.
  await page.goto(`${app.bridge.origin}/`);
  return { page, choose: (paths) => void (chosen = paths) };
}
