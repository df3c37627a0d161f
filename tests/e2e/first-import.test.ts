/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { bulletin, openApp, startUiApp, type UiApp } from './harness';

/**
 * A keyboard user's first import: the welcome screen's "Import files" creates the "Manuals"
 * library and the welcome screen gives way to its Documents screen. Focus goes to that screen's
 * own "Import files", not to the page's <body>, which would send the user back to the top.
 */
describe('the first import from the keyboard, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement;
      return el === null || el === document.body ? 'body' : `${el.tagName.toLowerCase()}: ${el.getAttribute('aria-label') ?? el.textContent?.trim()}`;
    });

  beforeAll(async () => {
    app = await startUiApp();
    page = await openApp(app, errors);
    await page.setViewportSize({ width: 800, height: 600 });
    // Playwright takes over the file chooser once a listener is set, asynchronously: set early, a
    // key pressed at once cannot open the real (headless: invisible) dialog instead.
    page.on('filechooser', () => undefined);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('keeps focus on "Import files" when the welcome screen gives way to the new library', async () => {
    await page.getByTestId('first-run').waitFor();
    await page.getByTestId('first-run').getByRole('button', { name: 'Import files' }).focus();
    const chooser = page.waitForEvent('filechooser', { timeout: 10_000 });
    await page.keyboard.press('Enter');
    const { name, bytes } = bulletin(1);
    await (await chooser).setFiles([{ name, mimeType: 'text/markdown', buffer: Buffer.from(bytes) }]);
    await page.locator('[data-testid="import-job"][data-phase="done"]').waitFor();
    expect(await page.getByTestId('first-run').count()).toBe(0);
    await expect.poll(focused).toBe('button: Import files');
    // The button focused is the one on the screen now shown, which imports into the new library.
    expect(await page.evaluate(() => document.activeElement?.closest('.view-header') !== null)).toBe(true);
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
