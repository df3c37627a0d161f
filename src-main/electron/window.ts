import type { BrowserWindowConstructorOptions } from 'electron';
import { CONTENT_SECURITY_POLICY } from '../core/csp';

/**
 * Security settings of the main window, from Electron's security checklist. A plain function so
 * tests can check them without launching Electron.
 */
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

/** Only http(s) links the user clicks may leave the app, and only to the OS browser. */
export function isExternalLinkAllowed(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/** The app's own pages: the packaged renderer (file://) or the dev server URL given at start. */
export function isAppUrl(url: string, devServerUrl: string | undefined): boolean {
  try {
    const u = new URL(url);
    if (u.protocol === 'file:') return true;
    return devServerUrl !== undefined && u.origin === new URL(devServerUrl).origin;
  } catch {
    return false;
  }
}
