/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importTexts, openApp, startUiApp, type UiApp } from './harness';

/**
 * What the library screens change while focus stays in a box is said to a screen reader: how
 * many documents the filter leaves, and that a library was created and opened (focus then goes to
 * the new library's heading, one Tab from its Import buttons, not left in the emptied field).
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

  it('says a new library was created and opened, and takes focus to it, from any screen', async () => {
    await page.getByTestId('tab-chat').click();
    expect(await said('library-status')).toBe('');
    await page.locator('#new-library').fill('Fans');
    await page.locator('#new-library').press('Enter');
    await expect.poll(() => said('library-status')).toBe('Library “Fans” created and opened.');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('library-heading');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Fans');
    expect(await page.getByRole('button', { name: /^Fans/ }).getAttribute('aria-current')).toBe('true');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('import-files');
  });

  it('leaves the library, screen and focus the user turned to while the library was being made', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/libraries.create', async (route) => {
      const response = await route.fetch();
      await held;
      await route.fulfill({ response });
    });
    await page.getByRole('button', { name: /^Pumps/ }).click();
    await page.locator('#new-library').fill('Valves');
    await page.locator('#new-library').press('Enter');
    // Straight on to a search of the library open, before the engine has answered the create.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('fuse');
    await page.keyboard.press('Enter');
    const results = page.getByTestId('search-view').getByText('RAC-225B service');
    await results.first().waitFor();
    const created = page.waitForResponse((res) => res.url().endsWith('/api/libraries.create'));
    release();
    await created;
    await expect.poll(() => said('library-status')).toBe('Library “Valves” created. Open it from the library list.');
    await page.getByRole('button', { name: /^Valves/ }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('global-search');
    expect(await page.getByTestId('global-search').inputValue()).toBe('fuse');
    // Nor the screen nor the library: the search's results stay, in the library they came from.
    expect(await page.evaluate(() => document.querySelector('[role="tab"][aria-selected="true"]')?.id)).toBe('tab-search');
    expect(await page.getByRole('button', { name: /^Pumps/ }).getAttribute('aria-current')).toBe('true');
    expect(await page.getByRole('button', { name: /^Valves/ }).getAttribute('aria-current')).not.toBe('true');
    expect(await results.count()).toBeGreaterThan(0);
    await page.unroute('**/api/libraries.create');
    await page.getByTestId('global-search').fill('');
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
