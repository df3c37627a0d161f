import { app, BrowserWindow, ipcMain, session, shell, screen } from 'electron';
import path from 'node:path';
import { promises as fs } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createEngine, type Engine } from '../engine/engine';
import { resolveDataDir } from '../engine/paths';
import { EVENT_CHANNEL } from '../contract/keys';
import { registerIpcHandlers, makeSenderCheck } from './ipc';
import { isAppUrl, isExternalLinkAllowed, secureWindowOptions, securityHeaders } from './window';

/**
 * The thin Electron shell: one hardened window, IPC for the contract, the engine in this process.
 * Everything interesting lives in the engine; this file only wires Electron to it.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const devServerUrl = process.env['ELECTRON_RENDERER_URL'];
const dataDirFlag = process.argv.find((a) => a.startsWith('--data-dir='))?.slice('--data-dir='.length);

let engine: Engine | undefined;
let mainWindow: BrowserWindow | null = null;
const ownWebContents = new Set<number>();

interface WindowState {
  width: number;
  height: number;
  x?: number;
  y?: number;
  maximized?: boolean;
}

function windowStateFile(): string {
  return path.join(app.getPath('userData'), 'window-state.json');
}

async function loadWindowState(): Promise<WindowState | undefined> {
  try {
    const s = JSON.parse(await fs.readFile(windowStateFile(), 'utf8')) as WindowState;
    const visible = screen.getAllDisplays().some((d) => s.x === undefined || s.y === undefined || (s.x >= d.bounds.x - 50 && s.y >= d.bounds.y - 50 && s.x < d.bounds.x + d.bounds.width && s.y < d.bounds.y + d.bounds.height));
    return visible && s.width >= 720 && s.height >= 480 ? s : undefined;
  } catch {
    return undefined;
  }
}

async function saveWindowState(win: BrowserWindow): Promise<void> {
  const b = win.getNormalBounds();
  const state: WindowState = { ...b, maximized: win.isMaximized() };
  await fs.mkdir(path.dirname(windowStateFile()), { recursive: true });
  await fs.writeFile(windowStateFile(), JSON.stringify(state));
}

async function createWindow(): Promise<void> {
  const state = await loadWindowState();
  const win = new BrowserWindow(secureWindowOptions(path.join(here, '../preload/index.cjs'), state));
  mainWindow = win;
  ownWebContents.add(win.webContents.id);
  if (state?.maximized) win.maximize();

  win.webContents.setWindowOpenHandler(({ url }) => {
    if (isExternalLinkAllowed(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, devServerUrl)) event.preventDefault();
  });
  win.webContents.on('will-attach-webview', (event) => event.preventDefault());
  win.once('ready-to-show', () => win.show());
  win.on('close', () => void saveWindowState(win).catch(() => undefined));
  win.on('closed', () => {
    ownWebContents.delete(win.webContents.id);
    mainWindow = null;
  });

  if (devServerUrl) await win.loadURL(devServerUrl);
  else await win.loadFile(path.join(here, '../renderer/index.html'));
}

async function main(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.on('second-instance', () => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
    }
  });

  await app.whenReady();
  const dataDir = resolveDataDir(dataDirFlag ?? process.env['MANUALMATE_DATA_DIR'] ?? app.getPath('userData'));
  engine = createEngine({
    dataDir,
    bundledModelsDir: app.isPackaged ? path.join(process.resourcesPath, 'models') : path.join(app.getAppPath(), 'models'),
    transport: 'electron',
    version: app.getVersion(),
  });

  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, ...securityHeaders() } });
  });
  // No network, ever: anything that is not the app's own page is cancelled.
  session.defaultSession.webRequest.onBeforeRequest((details, callback) => {
    const allowed = details.url.startsWith('file:') || details.url.startsWith('devtools:') || details.url.startsWith('blob:') || details.url.startsWith('data:') || isAppUrl(details.url, devServerUrl);
    callback({ cancel: !allowed });
  });

  registerIpcHandlers(ipcMain, engine.handlers, makeSenderCheck((url) => isAppUrl(url, devServerUrl), () => ownWebContents));
  engine.subscribe((event) => {
    for (const win of BrowserWindow.getAllWindows()) win.webContents.send(EVENT_CHANNEL, event);
  });

  process.on('uncaughtException', (err) => console.error('[manualmate] uncaught:', err));
  process.on('unhandledRejection', (err) => console.error('[manualmate] unhandled rejection:', err));

  await createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) void createWindow();
  });
}

let shuttingDown = false;
app.on('before-quit', (event) => {
  if (shuttingDown || !engine) return;
  // Dispose models and close the index before the process exits; then quit for real.
  event.preventDefault();
  shuttingDown = true;
  void engine.dispose().finally(() => app.quit());
});
app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

void main();
