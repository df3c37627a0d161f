/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importTexts, openApp, startUiApp, type UiApp } from './harness';

/**
 * Keys do what the focused control says: Esc in the header's search box clears the box before
 * it closes the source viewer behind it.
 */
describe('keyboard in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  const focusedId = () => page.evaluate(() => document.activeElement?.id ?? '');

  beforeAll(async () => {
    app = await startUiApp();
    await importTexts(app, 'Pumps', { 'rac-225b.md': '# RAC-225B service\n\nThe RAC-225B takes a 5 A slow-blow fuse behind the terminal cover.\n' });
    page = await openApp(app, errors);
    await page.getByRole('button', { name: /^Pumps/ }).click();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('clears the search box on the first Esc and closes the viewer only on the second', async () => {
    await page.getByTestId('tab-documents').click();
    await page.getByRole('button', { name: 'Open RAC-225B service' }).click();
    const viewer = page.getByTestId('source-viewer');
    await viewer.waitFor();
    await page.keyboard.press('Control+k');
    await page.keyboard.type('fuse');
    await page.keyboard.press('Escape');
    // The box is cleared and keeps focus; the document being read stays open.
    expect(await page.getByTestId('global-search').inputValue()).toBe('');
    expect(await focusedId()).toBe('global-search');
    expect(await viewer.count()).toBe(1);
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
