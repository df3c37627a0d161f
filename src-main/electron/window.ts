import type { BrowserWindowConstructorOptions } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTENT_SECURITY_POLICY } from '../core/csp';

/**
 * Security settings and URL rules of the main window, from Electron's security checklist. Plain
 * functions so tests check them without launching Electron.
 */

/** Where the app's own pages come from: the built renderer folder, or the dev server in development. */
export interface AppPages {
  /** Absolute folder holding the built renderer (`out/renderer`, inside app.asar when packaged). */
  rendererDir: string;
  /** Origin of the electron-vite dev server, when running `electron-vite dev`. */
  devServerUrl?: string | undefined;
}

export function secureWindowOptions(preloadPath: string, bounds?: { width: number; height: number; x?: number; y?: number }): BrowserWindowConstructorOptions {
  return {
    width: bounds?.width ?? 1280,
    height: bounds?.height ?? 800,
    ...(bounds?.x !== undefined ? { x: bounds.x } : {}),
    ...(bounds?.y !== undefined ? { y: bounds.y } : {}),
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'ManualMate',
    backgroundColor: '#1e1f22',
    webPreferences: {
      preload: preloadPath,
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
      enableWebSQL: false,
      spellcheck: false,
    },
  };
}

/** Response headers added to every page the window loads. */
export function securityHeaders(): Record<string, string[]> {
  return {
    'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
    'X-Content-Type-Options': ['nosniff'],
    'Referrer-Policy': ['no-referrer'],
  };
}

/** Only plain http(s) links (no embedded credentials) may leave the app, and only to the OS browser. */
export function isExternalLinkAllowed(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.username === '' && u.password === '';
  } catch {
    return false;
  }
}

/** The local path of a file: URL (query and hash ignored); null for encoded separators or hosts. */
function filePathOf(url: URL): string | null {
  if (url.host !== '') return null;
  try {
    return fileURLToPath(url);
  } catch {
    return null;
  }
}

function isDevServer(u: URL, pages: AppPages): boolean {
  if (!pages.devServerUrl) return false;
  try {
    return u.origin === new URL(pages.devServerUrl).origin;
  } catch {
    return false;
  }
}

/**
 * The app's own top-level page: the built renderer's `index.html` (query and hash ignored) or the
 * dev server. Any other file — a manual, a downloaded HTML page — is not an app page.
 */
export function isAppPage(url: string, pages: AppPages): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol === 'file:') {
    const file = filePathOf(u);
    return file !== null && path.relative(path.join(pages.rendererDir, 'index.html'), file) === '';
  }
  return isDevServer(u, pages);
}

/**
 * Requests the window may make (no network, ever): files inside the renderer folder, the dev
 * server, and in-memory `blob:`/`data:` URLs; everything else is cancelled.
 */
export function isAllowedRequest(url: string, pages: AppPages): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol === 'blob:' || u.protocol === 'data:' || u.protocol === 'devtools:') return true;
  if (u.protocol === 'file:') {
    const file = filePathOf(u);
    if (file === null) return false;
    const rel = path.relative(pages.rendererDir, file);
    return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
  }
  return isDevServer(u, pages);
}

/** What to do when the page tries to navigate or open a window. */
export type NavigationDecision = 'allow' | 'open-external' | 'deny';

/**
 * Navigation in the window: the app's own page may (re)load; http(s) links go to the OS browser
 * instead; anything else (file:, javascript:, custom schemes) is refused.
 */
export function decideNavigation(url: string, pages: AppPages): NavigationDecision {
  if (isAppPage(url, pages)) return 'allow';
  return isExternalLinkAllowed(url) ? 'open-external' : 'deny';
}
