/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importTexts, openApp, startUiApp, type UiApp } from './harness';

/**
 * A search asked from the header's box keeps focus in the box, so a screen-reader user hears
 * nothing of the results screen behind it unless a live region tells them: "Searching…", then
 * how many passages were found, or that nothing matched. The region stays in the page from one
 * search to the next (a live region added with its text is not announced). What it and the
 * screen show is the latest search's outcome, even when an earlier search answers after it.
 */
describe('search outcome announced, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  const status = () => page.getByTestId('search-view').getByRole('status');
  /** The region's text, or null while there is none (a missing region fails at once, not on a timeout). */
  const said = () => page.evaluate(() => document.querySelector('[data-testid="search-view"] [role="status"]')?.textContent ?? null);

  beforeAll(async () => {
    app = await startUiApp();
    await importTexts(app, 'Pumps', {
      'rac-225b.md': '# RAC-225B service\n\nThe RAC-225B takes a 5 A slow-blow fuse behind the terminal cover.\n',
      'rac-300.md': '# RAC-300 service\n\nThe RAC-300 fuse is a 10 A fast fuse in the junction box.\n',
    });
    await importTexts(app, 'Fans', { 'vx-40.md': '# VX-40 fan\n\nThe VX-40 fan bearing is greased every 2000 hours.\n' });
    page = await openApp(app, errors);
    await page.getByRole('button', { name: /^Pumps/ }).click();
  });

  afterAll(async () => {
    await app?.close();
  });

  const search = async (query: string) => {
    await page.keyboard.press('Control+k');
    await page.keyboard.type(query);
    await page.keyboard.press('Enter');
  };

  it('says how many passages were found while focus stays in the search box', async () => {
    await search('junction box');
    await expect.poll(said).toMatch(/^1 passage found for “junction box”/);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('global-search');
    // The same region is updated by the next search, so its news is read out.
    await status().evaluate((el) => el.setAttribute('data-first', ''));
    await search('fuse');
    await expect.poll(said).toMatch(/^2 passages found for “fuse”/);
    expect(await status().getAttribute('data-first')).toBe('');
  });

  it('says so when nothing matched', async () => {
    await search('impeller');
    await expect.poll(said).toMatch(/^No passage matches “impeller”/);
  });

  it('shows the latest search’s results when an earlier search answers after it', async () => {
    // The first search's answer is held back until the second's has been shown, as a slow
    // retriever (or a busy engine) does when the user searches again or picks another "Search by".
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let first = true;
    await page.route('**/api/search.query', async (route) => {
      if (!first) return route.continue();
      first = false;
      const response = await route.fetch();
      await held;
      await route.fulfill({ response });
    });
    await search('junction box');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('slow-blow');
    await page.keyboard.press('Enter');
    await expect.poll(said).toMatch(/^1 passage found for “slow-blow”/);
    const landed = page.waitForResponse((res) => res.url().endsWith('/api/search.query'));
    release();
    // Given time to land: the held answer is dropped, the screen stays on the latest search.
    await landed;
    await page.waitForTimeout(200);
    expect(await page.locator('#search-heading').textContent()).toBe('Results for “slow-blow”');
    expect(await said()).toMatch(/^1 passage found for “slow-blow”/);
    expect(await page.locator('.result-title').allTextContents()).toEqual(['RAC-225B service']);
    await page.unroute('**/api/search.query');
  });

  it('reaches the results from the search box with Down, moves between them with the arrows and opens one with Enter', async () => {
    const focused = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.closest('.result')?.querySelector('.result-title')?.textContent ?? document.activeElement?.id ?? null);
    await search('fuse');
    await expect.poll(said).toMatch(/^2 passages found for “fuse”\. Down arrow moves to the first result\./);
    const titles = await page.locator('.result-title').allTextContents();
    expect(titles).toHaveLength(2);
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe(titles[0]);
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe(titles[1]);
    // The last stays the last; Up from the first goes back to the box, to change the query.
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe(titles[1]);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await focused()).toBe('global-search');
    // From another screen, Down brings the results back and goes to the first.
    await page.getByTestId('tab-documents').click();
    await page.keyboard.press('Control+k');
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toBe(titles[0]);
    await page.keyboard.press('End');
    expect(await focused()).toBe(titles[1]);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('source-viewer').textContent()).toContain(titles[1]!);
  });

  it('leaves no search running when another library is opened before its answer', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/search.query', async (route) => {
      const response = await route.fetch();
      await held;
      await route.fulfill({ response });
    });
    await search('greased');
    await expect.poll(said).toBe('Searching…');
    await page.getByRole('button', { name: /^Fans/ }).click();
    const landed = page.waitForResponse((res) => res.url().endsWith('/api/search.query'));
    release();
    // Given time to land: the answer was the other library's and is dropped, and nothing is being
    // searched any more (no Search tab left open on "Searching…" for good).
    await landed;
    await page.waitForTimeout(200);
    expect(await page.getByTestId('tab-search').count()).toBe(0);
    await page.unroute('**/api/search.query');
    // Searching the library now open works as ever.
    await search('greased');
    await expect.poll(said).toMatch(/^1 passage found for “greased”/);
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
