/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importTexts, openApp, startUiApp, type UiApp } from './harness';

/**
 * Keyboard users keep their place: closing the source viewer or a confirmation dialog with Esc
 * gives focus back to the control that opened it, never to the page's <body>.
 */
describe('focus after Esc, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement;
      return el === null || el === document.body ? 'body' : (el.getAttribute('aria-label') ?? el.className);
    });

  beforeAll(async () => {
    app = await startUiApp();
    await importTexts(app, 'Pumps', { 'rac-225b.md': '# RAC-225B service\n\nThe RAC-225B takes a 5 A slow-blow fuse behind the terminal cover.\n' });
    expect((await app.engine.handlers['libraries.create']({ name: 'Spare' })).ok).toBe(true);
    page = await openApp(app, errors);
    await page.getByRole('button', { name: /^Pumps/ }).click();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('returns focus to the search result that opened the viewer', async () => {
    await page.keyboard.press('Control+k');
    await page.keyboard.type('fuse');
    await page.keyboard.press('Enter');
    const result = page.locator('.result-open').first();
    await result.waitFor();
    await result.focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('source-viewer').waitFor();
    expect(await focused()).toBe('Close source');
    await page.keyboard.press('Escape');
    await page.getByTestId('source-viewer').waitFor({ state: 'detached' });
    expect(await focused()).toBe('result-open');
  });

  it('returns focus to the Delete button after Esc in the delete-library dialog', async () => {
    // A library that is not selected: its actions show only while its row has focus.
    await page.getByRole('button', { name: /^Spare/ }).focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Delete Spare');
    await page.keyboard.press('Enter');
    await page.getByTestId('confirm-dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('confirm-dialog').waitFor({ state: 'detached' });
    expect(await focused()).toBe('Delete Spare');
    // The same for the open library's own Delete button.
    await page.getByRole('button', { name: 'Delete Pumps' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('confirm-dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('confirm-dialog').waitFor({ state: 'detached' });
    expect(await focused()).toBe('Delete Pumps');
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
