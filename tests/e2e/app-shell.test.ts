/// <reference lib="dom" />
// Code passed to page.evaluate runs in Chromium: it is type-checked against the DOM.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { startWebBridge, type WebBridge } from '../../src-main/bridge/web-bridge';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { DocumentEvidence } from '../../src-main/search/document-evidence';
import { launchBrowser, screenshotDir } from './browser';
import { repoRoot, tempDir } from '../helpers/temp';

const rendererDir = path.join(repoRoot, 'out', 'renderer');

describe('app shell in Chromium through the web bridge', () => {
  let engine: Engine;
  let bridge: WebBridge;
  let browser: BrowserContext;
  let cleanup: () => Promise<void>;
  const requests: string[] = [];

  beforeAll(async () => {
    if (!existsSync(path.join(rendererDir, 'index.html'))) {
      throw new Error('The renderer is not built: run "npm run build" first (npm test does it).');
    }
    const tmp = await tempDir();
    cleanup = tmp.cleanup;
    engine = createEngine({ dataDir: tmp.dir, bundledModelsDir: path.join(tmp.dir, 'no-models'), version: '0.0.0-test' });
    bridge = await startWebBridge({ handlers: engine.handlers, subscribe: engine.subscribe, rendererDir });
    browser = await launchBrowser();
    browser.on('request', (req) => requests.push(req.url()));
  });

  afterAll(async () => {
    await browser?.close();
    await bridge?.close();
    await engine?.dispose();
    await cleanup?.();
  });

  it('renders the shell with an empty library list and the offline indicator', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(bridge.url);
    await expect.poll(() => page.url()).toBe(`${bridge.origin}/`);
    await page.getByTestId('no-libraries').waitFor();
    expect(await page.getByTestId('library-list').locator('li').count()).toBe(0);
    expect(await page.getByTestId('offline-indicator').textContent()).toContain('Offline');
    expect(await page.getByTestId('first-run').textContent()).toMatch(/drag manuals/i);
    await mkdir(screenshotDir, { recursive: true });
    await page.screenshot({ path: path.join(screenshotDir, 'app-shell-empty.png') });
    expect(errors).toEqual([]);
  });

  it('creates a library from the sidebar and shows it selected, its search prepared ahead of the first question', async () => {
    // The renderer asks the engine to load what the library's first search needs once it is
    // opened (`search.prepare`): the index of document names is built with no search asked.
    const names = vi.spyOn(DocumentEvidence, 'build');
    const page = await browser.newPage();
    await page.goto(bridge.url);
    await page.getByLabel('New library name').fill('Boards');
    await page.keyboard.press('Enter');
    await page.getByTestId('no-documents').waitFor();
    const item = page.getByTestId('library-list').getByRole('button', { name: /^Boards/ });
    expect(await item.getAttribute('aria-current')).toBe('true');
    await expect.poll(() => names.mock.calls.length).toBe(1);
    names.mockRestore();
    await page.screenshot({ path: path.join(screenshotDir, 'app-shell-library.png') });
  });

  it('shows a visible focus ring while moving through the app with the keyboard', async () => {
    const page = await browser.newPage();
    await page.goto(bridge.url);
    await page.getByTestId('library-list').waitFor();
    const rings: string[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      rings.push(
        await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          if (!el || el === document.body) return 'none';
          // The ring may sit on the element or on the field that wraps it (the search box).
          for (let node: HTMLElement | null = el, depth = 0; node && depth < 2; node = node.parentElement, depth++) {
            const style = getComputedStyle(node);
            if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2) return 'ring';
          }
          return el.tagName;
        }),
      );
    }
    expect(rings.filter((r) => r !== 'ring')).toEqual([]);
    await page.screenshot({ path: path.join(screenshotDir, 'keyboard-focus.png') });
  });

  it('made no request to any host other than the bridge origin', () => {
    expect(requests.length).toBeGreaterThan(0);
    const foreign = requests.filter((u) => !u.startsWith(`${bridge.origin}/`));
    expect(foreign).toEqual([]);
  });
});
