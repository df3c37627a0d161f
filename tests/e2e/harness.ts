/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Code passed to page.evaluate runs in Chromium: it is type-checked against the DOM.
import { expect } from 'vitest';
import { existsSync } from 'node:fs';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { EngineEvent } from '../../src-main/contract/api';
import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import { startWebBridge, type WebBridge } from '../../src-main/bridge/web-bridge';
import { createEngine, type Engine, type EngineOptions } from '../../src-main/engine/engine';
import { column, wrapText, writePdf } from '../fixtures/pdf-writer';
import { repoRoot, tempDir } from '../helpers/temp';
import { ensureTinyOnnx } from '../models/tiny-onnx';
import { launchBrowser, screenshotDir } from './browser';
import { recordThisProcess } from '../helpers/sockets';

/** The real app for a UI test: engine in a temp data dir, the web bridge serving the built renderer, Chromium. */
export interface UiApp {
  engine: Engine;
  /** The engine's data folder (libraries, and `models/` for models a user adds). */
  dataDir: string;
  bridge: WebBridge;
  browser: BrowserContext;
  /** Every URL the browser requested, for the "nothing leaves 127.0.0.1" check. */
  requests: string[];
  /** Every outgoing connection this process (the engine's) attempted since the app started, as `host:port`. */
  engineSockets: () => string[];
  /**
   * Sends an event to the page through the real bridge as if the engine had emitted it: for
   * outcomes only a bug in the engine produces (an import job that crashes), which no input triggers.
   */
  emit(event: EngineEvent): void;
  close(): Promise<void>;
}

export const rendererDir = path.join(repoRoot, 'out', 'renderer');

export interface UiAppOptions {
  /**
   * Ship the tiny generated ONNX embedder with the app, as the installer ships models. Copied alone
   * into the temp bundled folder: the shared `tests/.models` also holds the tiny GGUF, which would
   * turn this into an install with a chat model.
   */
  bundledEmbedder?: boolean;
  /**
   * Prepares the data folder before the app's engine opens it (e.g. a library written by another
   * engine and then aged), with the options that engine would use.
   */
  beforeStart?: (engineOptions: EngineOptions) => Promise<void>;
  /** The largest file the web bridge takes (its default is 500 MB): a small one makes a file too large cheaply. */
  maxUploadBytes?: number;
}

export async function startUiApp(options: UiAppOptions = {}): Promise<UiApp> {
  if (!existsSync(path.join(rendererDir, 'index.html'))) {
    throw new Error('The renderer is not built: run "npx electron-vite build" first (npm test does it).');
  }
  const tmp = await tempDir();
  // No models unless asked: answers are extractive and search is by keywords, as on a fresh install.
  const bundledModelsDir = path.join(tmp.dir, 'bundled-models');
  await mkdir(bundledModelsDir, { recursive: true });
  if (options.bundledEmbedder) {
    const onnx = await ensureTinyOnnx();
    await cp(onnx, path.join(bundledModelsDir, path.basename(onnx)), { recursive: true });
  }
  const engineOptions: EngineOptions = { dataDir: tmp.dir, bundledModelsDir, version: '0.0.0-test', threads: 1, log: () => undefined };
  await options.beforeStart?.(engineOptions);
  const engineSockets = await recordThisProcess();
  const engine = createEngine(engineOptions);
  const injected = new Set<(event: EngineEvent) => void>();
  const subscribe = (listener: (event: EngineEvent) => void) => {
    injected.add(listener);
    const unsubscribe = engine.subscribe(listener);
    return () => {
      injected.delete(listener);
      unsubscribe();
    };
  };
  const bridge = await startWebBridge({
    handlers: engine.handlers,
    subscribe,
    rendererDir,
    uploadsDir: engine.uploadsDir,
    ...(options.maxUploadBytes ? { maxUploadBytes: options.maxUploadBytes } : {}),
  });
  const browser = await launchBrowser();
  const requests: string[] = [];
  browser.on('request', (req) => requests.push(req.url()));
  await mkdir(screenshotDir, { recursive: true });
  return {
    engine,
    dataDir: tmp.dir,
    bridge,
    browser,
    requests,
    engineSockets,
    emit(event) {
      for (const listener of injected) listener(event);
    },
    async close() {
      await browser.close();
      await bridge.close();
      await engine.dispose();
      await tmp.cleanup();
    },
  };
}

/**
 * Imports files (file name -> text, or bytes: a generated PDF) into `library` through the app's
 * engine, as a user's files would come, and fails unless every one imports. The source folder goes
 * afterwards: the library keeps its own copies.
 */
export async function importTexts(app: UiApp, library: string, files: Record<string, string | Uint8Array>): Promise<void> {
  const src = await tempDir();
  try {
    const paths = Object.keys(files).map((name) => path.join(src.dir, name));
    await Promise.all(paths.map((file, k) => writeFile(file, Object.values(files)[k]!)));
    const imported = await app.engine.importPaths(library, paths);
    expect(imported.ok && imported.value.summary.imported).toBe(paths.length);
  } finally {
    await src.cleanup();
  }
}

/**
 * Resolves when the page's event stream has connected. Events the bridge sends before that reach
 * no one: a test that emits (or makes the engine emit) right after the page loads would wait for
 * a reaction that never comes. Start waiting before the navigation.
 */
function eventStreamConnected(page: Page): Promise<unknown> {
  return page.waitForResponse((res) => new URL(res.url()).pathname === '/api/events');
}

/** Reloads the page and waits, as `openApp` does, until its event stream is connected. */
export async function reloadApp(page: Page): Promise<void> {
  const connected = eventStreamConnected(page);
  await page.reload();
  await connected;
}

/**
 * Opens the app (the token URL sets the cookie) and fails the test on any page error, and on any
 * engine event the page's client dropped as malformed: the real engine must send none.
 */
export async function openApp(app: UiApp, errors: string[]): Promise<Page> {
  const page = await app.browser.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error' || (msg.type() === 'warning' && msg.text().startsWith('ManualMate dropped an engine event'))) errors.push(msg.text());
  });
  const connected = eventStreamConnected(page);
  await page.goto(app.bridge.url);
  await page.waitForURL(`${app.bridge.origin}/`);
  await connected;
  return page;
}

/** Creates an empty library through the engine, opens the app and selects the library in its sidebar. */
export async function openNewLibrary(app: UiApp, errors: string[], name: string): Promise<Page> {
  expect((await app.engine.handlers['libraries.create']({ name })).ok).toBe(true);
  const page = await openApp(app, errors);
  await page.getByRole('button', { name: new RegExp(`^${name}`) }).click();
  return page;
}

/**
 * True when a click at the element's centre lands on it or inside it, with the element scrolled
 * into its pane at each of `blocks` in turn; else where the click landed instead ("not drawn" for
 * an element with no box). What covers part of the screen (the import band, the source viewer)
 * is found this way, as a user's click would find it.
 */
export const takesClick = (el: Locator, blocks: readonly ScrollLogicalPosition[] = ['nearest']) =>
  el.evaluate((node, blocks) => {
    for (const block of blocks) {
      node.scrollIntoView({ block });
      const r = node.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return 'not drawn';
      const [x, y] = [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)];
      const top = document.elementFromPoint(x, y);
      if (top === null || (top !== node && !node.contains(top))) {
        const what = top ? `<${top.tagName.toLowerCase()} class="${top.className}"> in ${top.closest('[data-testid]')?.getAttribute('data-testid') ?? 'the page'}` : 'nothing';
        return `scrolled to the ${block}, (${x}, ${y}) lands on ${what}`;
      }
    }
    return true;
  }, blocks);

/**
 * Starts recording what a status region says, as a screen reader would hear it: every text the
 * element matching `selector` holds from now on, in order, a repeat of the last one not counted
 * again. False when no such element is in the page. Read them back with `heardSoFar`.
 */
export const recordRegion = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const w = window as unknown as { __heard: string[] };
    w.__heard = [];
    const region = document.querySelector(sel);
    if (!region) return false;
    new MutationObserver(() => {
      const t = (region.textContent ?? '').trim();
      if (t && w.__heard[w.__heard.length - 1] !== t) w.__heard.push(t);
    }).observe(region, { subtree: true, childList: true, characterData: true });
    return true;
  }, selector);

/** Every text the region `recordRegion` watches has held since, in order. */
export const heardSoFar = (page: Page) => page.evaluate(() => (window as unknown as { __heard: string[] }).__heard);

/** How many elements matching `selector` sit inside a live region, where each of their changes would be read out. */
export const inLiveRegion = (page: Page, selector: string) =>
  page.evaluate((sel) => [...document.querySelectorAll(sel)].filter((el) => el.closest('[aria-live], [role="status"], [role="log"], [role="alert"]')).length, selector);

export const shot = (page: Page, name: string) => page.screenshot({ path: path.join(screenshotDir, `${name}.png`) });

export interface DropFile {
  name: string;
  bytes: Uint8Array;
  type?: string;
}

/**
 * Service bulletin `i` as a dropped Markdown file, named `bulletin-NNN.md` so that names sort in
 * number order. `steps` sections of one instruction each make it longer: a file that takes long
 * enough to import is seen running (and the page renders between two files) on a loaded machine.
 */
export function bulletin(i: number, steps = 1): DropFile {
  const body = Array.from(
    { length: steps },
    (_, k) => `## Step ${k + 1}\n\nService bulletin ${i} for the RAC-225B: check the seal on unit batch ${1000 + i}, then torque bolt ${k + 1} to ${10 + (k % 7)} Nm.\n`,
  ).join('\n');
  return { name: `bulletin-${String(i).padStart(3, '0')}.md`, bytes: new TextEncoder().encode(`# Bulletin ${i}\n\n${body}`) };
}

/**
 * Drops files on the window the way a user does: a DataTransfer built in the page, then
 * dragenter, dragover and drop dispatched on the main area (ENVIRONMENT.md).
 */
export async function dropFiles(page: Page, files: DropFile[], target = 'main'): Promise<void> {
  const payload = files.map((f) => ({ name: f.name, type: f.type ?? '', base64: Buffer.from(f.bytes).toString('base64') }));
  const dt = await page.evaluateHandle((items) => {
    const transfer = new DataTransfer();
    for (const f of items) {
      const bin = atob(f.base64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      transfer.items.add(new File([bytes], f.name, { type: f.type }));
    }
    return transfer;
  }, payload);
  await page.dispatchEvent(target, 'dragenter', { dataTransfer: dt });
  await page.dispatchEvent(target, 'dragover', { dataTransfer: dt });
  await page.dispatchEvent(target, 'drop', { dataTransfer: dt });
  await dt.dispose();
}

const PAGE_TOP = 720;

/** A three-page service manual: the fuse rating is on page 2 only, maintenance on page 3. */
export function serviceManualPdf(): Uint8Array {
  const p1 = wrapText('This manual covers installation and service of the RAC-225B circulation pump. Read the safety notes before opening the housing.', 460);
  const p2 = wrapText(
    'The RAC-225B control board is protected by a 5 A slow-blow fuse rated at 250 V, located behind the terminal cover. Replace the fuse only with the same type and rating.',
    460,
  );
  const p3 = wrapText('Clean the RAC-225B mesh filter every 200 hours of operation. Remove the filter cover and rinse the mesh under running water.', 460);
  return writePdf(
    [
      { runs: [{ x: 72, y: PAGE_TOP, text: 'RAC-225B Service Manual', size: 20, bold: true }, ...column(p1, 72, PAGE_TOP - 40, 11, 15)] },
      { runs: [{ x: 72, y: PAGE_TOP, text: 'Electrical protection', size: 15, bold: true }, ...column(p2, 72, PAGE_TOP - 30, 11, 15)] },
      { runs: [{ x: 72, y: PAGE_TOP, text: 'Maintenance', size: 15, bold: true }, ...column(p3, 72, PAGE_TOP - 30, 11, 15)] },
    ],
    { title: 'RAC-225B Service Manual' },
  );
}

/** Markdown whose text carries markup that must stay text: a script and an image with onerror. */
export const HOSTILE_MARKDOWN = [
  '# XR-10 Release notes',
  '',
  'The XR-10 firmware 2.1 changes the display. Example markup from the vendor: <script>window.__pwned = 1</script> and <img src=x onerror="window.__pwned = 2"> end of example.',
  '',
  '<script>window.__pwned = 3</script>',
  '',
  '## Display',
  '',
  'The XR-10 display shows the bracket torque in Nm.',
  '',
].join('\n');

/** A Word document for the XR-10 bracket. */
export async function installationDocx(): Promise<Uint8Array> {
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'XR-10 Installation Guide', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('Mount the XR-10 wall bracket with four M6 bolts tightened to 9 Nm.'),
          new Paragraph({ text: 'Wiring', heading: HeadingLevel.HEADING_2 }),
          new Paragraph('Connect the XR-10 supply cable to terminal block X1 before closing the cover.'),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}
