/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importTexts, openApp, startUiApp, type UiApp } from './harness';

/**
 * What the Documents screen changes while focus stays in a box is said to a screen reader: how
 * many documents the filter leaves.
 */
describe('the library screen’s news announced, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  /** A status region's text, or null while there is none (a missing region fails at once, not on a timeout). */
  const said = (testId: string) => page.evaluate((id) => document.querySelector(`[role="status"][data-testid="${id}"]`)?.textContent ?? null, testId);

  beforeAll(async () => {
    app = await startUiApp();
    await importTexts(app, 'Pumps', {
      'rac-225b.md': '# RAC-225B service\n\nThe RAC-225B takes a 5 A slow-blow fuse behind the terminal cover.\n',
      'rac-300.md': '# RAC-300 service\n\nThe RAC-300 fuse is a 10 A fast fuse in the junction box.\n',
      'vx-40.md': '# VX-40 fan\n\nThe VX-40 fan bearing is greased every 2000 hours.\n',
    });
    page = await openApp(app, errors);
    await page.getByRole('button', { name: /^Pumps/ }).click();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('says how many documents the filter leaves, out of how many', async () => {
    const filter = page.getByRole('searchbox', { name: 'Filter documents' });
    expect(await said('filter-status')).toBe('');
    await filter.click();
    await page.keyboard.type('rac');
    await expect.poll(() => said('filter-status')).toBe('2 of 3 documents');
    await page.keyboard.type('-3');
    await expect.poll(() => said('filter-status')).toBe('1 of 3 documents');
    await page.keyboard.type('x');
    await expect.poll(() => said('filter-status')).toBe('0 of 3 documents');
    await filter.fill('');
    await expect.poll(() => said('filter-status')).toBe('');
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
