import { app, BrowserWindow, dialog, ipcMain, session, shell, screen, type WebContents } from 'electron';
import path from 'node:path';
import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Handlers } from '../contract/api';
import { EVENT_CHANNEL } from '../contract/keys';
import { createEngine, type Engine } from '../engine/engine';
import { resolveDataDir } from '../engine/paths';
import { SUPPORTED_EXTENSIONS } from '../core/formats';
import { logUnhandledFailures } from '../engine/process-failures';
import { makeSenderCheck, registerIpcHandlers, registerShellHandlers } from './ipc';
import { filesFromArgv, guardImportStart, PathGrants } from './path-grants';
import { SHELL_CHANNELS } from './shell-channels';
import { runWithin } from './shutdown';
import { decideNavigation, isAllowedRequest, isAppPage, secureWindowOptions, securityHeaders, type AppPages } from './window';
import { readWindowState, writeWindowState } from './window-state';

/**
 * The thin Electron shell: one hardened window, IPC for the contract, the engine in this process
 * (native modules — LanceDB, node-llama-cpp, onnxruntime — load here only, never in a renderer).
 * Everything interesting lives in the engine; this file only wires Electron to it.
 */

/** Longest wait for the engine to dispose models and close LanceDB on quit, in milliseconds. */
const SHUTDOWN_TIMEOUT_MS = 10_000;
/** Renderer crashes reloaded per session before the window is left as is. */
const MAX_RENDERER_RELOADS = 3;
/** Log file size at which it is rotated at start, in bytes. */
const MAX_LOG_BYTES = 5 * 1024 * 1024;

const here = path.dirname(fileURLToPath(import.meta.url));
const pages: AppPages = { rendererDir: path.join(here, '../renderer'), devServerUrl: process.env['ELECTRON_RENDERER_URL'] };
const dataDirFlag = process.argv.find((a) => a.startsWith('--data-dir='))?.slice('--data-dir='.length);

let engine: Engine | undefined;
let mainWindow: BrowserWindow | null = null;
let logFile: string | undefined;
const ownWebContents = new Set<number>();
const grants = new PathGrants();
/** Files the OS handed over while no page listened; taken by the preload's `onOpenFiles`. */
const pendingOpenFiles: string[] = [];
let rendererListensForFiles = false;

// Every renderer sandboxed, whatever options a window is created with.
app.enableSandbox();

/** Logs to stderr and to `<logs>/main.log`, so a packaged app's problems can be reported. */
function log(message: string): void {
  console.error(message);
  if (!logFile) return;
  try {
    appendFileSync(logFile, `${new Date().toISOString()} ${message}\n`);
  } catch {
    // A full or read-only disk must not take the app down with it.
  }
}

function openLog(): void {
  try {
    app.setAppLogsPath();
    const dir = app.getPath('logs');
    mkdirSync(dir, { recursive: true });
    logFile = path.join(dir, 'main.log');
    if ((statSync(logFile, { throwIfNoEntry: false })?.size ?? 0) > MAX_LOG_BYTES) renameSync(logFile, path.join(dir, 'main.old.log'));
  } catch {
    logFile = undefined;
  }
}

const windowStateFile = (): string => path.join(app.getPath('userData'), 'window-state.json');

/** Grants files the OS asked us to open and hands them to the page (now, or when it listens). */
async function openFiles(paths: string[]): Promise<void> {
  if (paths.length === 0) return;
  const { granted, refused } = await grants.grant(paths, 'open-with');
  for (const r of refused) log(`[manualmate] not opening ${r.path}: ${r.reason}`);
  if (granted.length === 0) return;
  if (mainWindow && rendererListensForFiles) mainWindow.webContents.send(SHELL_CHANNELS.openedFiles, granted);
  else pendingOpenFiles.push(...granted);
  if (mainWindow) {
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  }
}

/** Navigation, new windows and webviews for every web contents the app ever creates. */
function hardenWebContents(contents: WebContents): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (decideNavigation(url, pages) === 'open-external') void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.on('will-navigate', (event, url) => {
    const decision = decideNavigation(url, pages);
    if (decision === 'allow') return;
    event.preventDefault();
    if (decision === 'open-external') void shell.openExternal(url);
  });
}

async function createWindow(): Promise<void> {
  const state = readWindowState(windowStateFile(), screen.getAllDisplays().map((d) => d.workArea));
  const win = new BrowserWindow(secureWindowOptions(path.join(here, '../preload/index.cjs'), state));
  mainWindow = win;
  const contentsId = win.webContents.id;
  ownWebContents.add(contentsId);
  if (state?.maximized) win.maximize();

  let reloads = 0;
  win.webContents.on('did-start-navigation', (details) => {
    if (details.isMainFrame && !details.isSameDocument) rendererListensForFiles = false;
  });
  win.webContents.on('render-process-gone', (_event, details) => {
    log(`[manualmate] the window's renderer process ended: ${details.reason} (exit code ${details.exitCode})`);
    rendererListensForFiles = false;
    if (details.reason !== 'clean-exit' && reloads < MAX_RENDERER_RELOADS && !win.isDestroyed()) {
      reloads += 1;
      win.webContents.reload();
    }
  });
  win.once('ready-to-show', () => win.show());
  win.on('close', () => {
    try {
      writeWindowState(windowStateFile(), { ...win.getNormalBounds(), maximized: win.isMaximized() });
    } catch (err) {
      log(`[manualmate] could not save the window position: ${String(err)}`);
    }
  });
  win.on('closed', () => {
    ownWebContents.delete(contentsId);
    mainWindow = null;
    rendererListensForFiles = false;
  });

  if (pages.devServerUrl) await win.loadURL(pages.devServerUrl);
  else await win.loadFile(path.join(pages.rendererDir, 'index.html'));
}

async function main(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.on('second-instance', (_event, argv, workingDirectory) => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
    }
    void openFiles(filesFromArgv(argv, { cwd: workingDirectory, isPackaged: app.isPackaged, extensions: SUPPORTED_EXTENSIONS }));
  });

  await app.whenReady();
  openLog();
  logUnhandledFailures(log);
  app.on('child-process-gone', (_event, details) => log(`[manualmate] ${details.type} process ended: ${details.reason}`));

  const dataDir = resolveDataDir(dataDirFlag ?? process.env['MANUALMATE_DATA_DIR'] ?? app.getPath('userData'));
  engine = createEngine({
    dataDir,
    bundledModelsDir: app.isPackaged ? path.join(process.resourcesPath, 'models') : path.join(app.getAppPath(), 'models'),
    transport: 'electron',
    version: app.getVersion(),
    log,
  });
  void engine.resumeBackground().catch((err: unknown) => log(`[manualmate] resuming background work failed: ${err instanceof Error ? err.message : String(err)}`));

  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.setDevicePermissionHandler(() => false);
  ses.on('will-download', (event) => event.preventDefault());
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, ...securityHeaders() } });
  });
  // No network, ever, and no file outside the renderer's own folder.
  ses.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !isAllowedRequest(details.url, pages) }));

  const isTrustedSender = makeSenderCheck((url) => isAppPage(url, pages), () => ownWebContents);
  // Paths reach the engine only if the user chose, dropped or opened them (see path-grants.ts).
  const handlers: Handlers = { ...engine.handlers, 'import.start': guardImportStart(engine.handlers['import.start'], grants) };
  registerIpcHandlers(ipcMain, handlers, isTrustedSender);
  registerShellHandlers(ipcMain, {
    grants,
    isTrustedSender,
    extensions: SUPPORTED_EXTENSIONS,
    showOpenDialog: (event, options) => {
      const parent = BrowserWindow.fromWebContents(event.sender);
      return parent ? dialog.showOpenDialog(parent, options) : dialog.showOpenDialog(options);
    },
    takeOpenedFiles: () => {
      rendererListensForFiles = true;
      return pendingOpenFiles.splice(0);
    },
  });
  engine.subscribe((event) => {
    for (const win of BrowserWindow.getAllWindows()) win.webContents.send(EVENT_CHANNEL, event);
  });

  await createWindow();
  await openFiles(filesFromArgv(process.argv, { cwd: process.cwd(), isPackaged: app.isPackaged, extensions: SUPPORTED_EXTENSIONS }));
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) void createWindow();
  });
}

app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));
// macOS delivers "Open with" files as events, possibly before the app is ready.
app.on('open-file', (event, file) => {
  event.preventDefault();
  if (app.isReady()) void openFiles([file]);
  else void app.whenReady().then(() => openFiles([file]));
});

let quitState: 'running' | 'disposing' | 'done' = 'running';
app.on('before-quit', (event) => {
  if (quitState === 'done' || !engine) return;
  // Dispose models and close the index before the process exits, but never wait forever.
  event.preventDefault();
  if (quitState === 'disposing') return;
  quitState = 'disposing';
  const running = engine;
  void runWithin(() => running.dispose(), SHUTDOWN_TIMEOUT_MS, log).then(() => {
    quitState = 'done';
    app.quit();
  });
});
app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());

void main().catch((err: unknown) => {
  log(`[manualmate] could not start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  app.exit(1);
});
