/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { bulletin, dropFiles, importTexts, openApp, shot, startUiApp, type UiApp } from './harness';

/**
 * A big import (dozens of files) must not take the band's whole height with its file list while it
 * runs: its card starts folded to its headline and progress bar, so the chat below keeps its
 * room and its composer its height. A file that fails is still seen without unfolding, the
 * chevron's button unfolds the list from the keyboard, and once finished the card opens on its
 * failures as before. A card stays as the user folded it wherever it is shown.
 */
describe('a big import while it runs, in Chromium at 800x600', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  // Bulletins long enough that the job is seen running, and failing, on a loaded machine.
  const LONG = 200;
  const damaged = { name: 'aa-damaged.pdf', bytes: new TextEncoder().encode('%PDF-1.4\ncut off'), type: 'application/pdf' };
  const height = (selector: string) => page.locator(selector).evaluate((el) => el.getBoundingClientRect().height);
  const composerHeight = () => height('.composer');

  beforeAll(async () => {
    app = await startUiApp();
    await importTexts(app, 'Pumps', { 'rac-225b.md': '# RAC-225B service\n\nThe RAC-225B takes a 5 A slow-blow fuse behind the terminal cover.\n' });
    page = await openApp(app, errors);
    await page.setViewportSize({ width: 800, height: 600 });
    await page.getByRole('button', { name: /^Pumps/ }).click();
    await page.getByTestId('tab-chat').click();
    await page.getByTestId('question-input').waitFor();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('keeps a running card of 40 files folded, small and showing its failure, and the composer its height', async () => {
    const composerBefore = await composerHeight();
    const screenBefore = await height('.screen');
    await dropFiles(page, [damaged, ...Array.from({ length: 40 }, (_, i) => bulletin(i, LONG))]);
    // Folded from the start; unfolded from the keyboard, the list is there; folded again, gone.
    const toggle = page.locator('[data-testid="import-job"] .job-toggle');
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByTestId('import-file').count()).toBe(0);
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await page.getByTestId('import-file').count()).toBeGreaterThan(1);
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    const running = page.locator('[data-testid="import-job"][data-phase="running"]');
    // The damaged file fails while the others still import: the folded card's headline says so.
    const failures = running.locator('.job-toggle').getByText('1 failed', { exact: true });
    await expect.poll(() => failures.count(), { timeout: 30_000 }).toBe(1);
    await shot(page, 'import-running-folded-800x600');
    expect(await running.locator('.job-toggle').getAttribute('aria-expanded')).toBe('false');
    expect(await running.getByTestId('import-file').count()).toBe(0);
    expect(await failures.isVisible()).toBe(true);
    // A headline and a bar, about 100 px of the 600: the open list filled the band's whole 150 (25vh).
    // Band and screen in one look: the card may finish (and open) between two, on a loaded machine.
    const [band, screen] = await page.evaluate(() => ['[data-testid="import-panel"]', '.screen'].map((q) => document.querySelector(q)!.getBoundingClientRect().height));
    expect(band).toBeLessThan(110);
    expect(await page.getByTestId('import-panel').evaluate((el) => el.scrollHeight <= el.clientHeight)).toBe(true);
    expect(await composerHeight()).toBe(composerBefore);
    expect(screen).toBeGreaterThanOrEqual(screenBefore - band! - 1);

    // Finished with a failure: open, its reason readable, as before.
    const done = page.locator('[data-testid="import-job"][data-phase="done"]');
    await done.waitFor({ timeout: 120_000 });
    expect(await done.locator('.job-toggle').getAttribute('aria-expanded')).toBe('true');
    await done.getByTestId('failure-reason').scrollIntoViewIfNeeded();
    expect(await done.getByTestId('failure-reason').isVisible()).toBe(true);
    expect(await composerHeight()).toBe(composerBefore);
    await done.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('keeps a running card of a few files open, its files in sight', async () => {
    await dropFiles(page, [bulletin(101, LONG), bulletin(102, LONG), bulletin(103, LONG)]);
    const card = page.getByTestId('import-job');
    await card.waitFor();
    expect(await card.locator('.job-toggle').getAttribute('aria-expanded')).toBe('true');
    await page.locator('[data-testid="import-job"][data-phase="done"]').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('keeps a card as the user folded it when it moves between the band and the Documents page', async () => {
    await dropFiles(page, [{ ...damaged, name: 'ab-damaged.pdf' }]);
    const done = page.locator('[data-testid="import-job"][data-phase="done"]');
    await done.waitFor({ timeout: 60_000 });
    const toggle = () => page.locator('[data-testid="import-job"] .job-toggle');
    // Finished with a failure: open; the user folds it.
    expect(await toggle().getAttribute('aria-expanded')).toBe('true');
    await toggle().click();
    expect(await toggle().getAttribute('aria-expanded')).toBe('false');
    // The Documents page shows the card in its own flow, a new element: still folded, and back in the band too.
    await page.getByTestId('tab-documents').click();
    await page.locator('.import-panel-inline [data-testid="import-job"]').waitFor();
    expect(await toggle().getAttribute('aria-expanded')).toBe('false');
    await page.getByTestId('tab-chat').click();
    await page.getByTestId('question-input').waitFor();
    expect(await toggle().getAttribute('aria-expanded')).toBe('false');
    await page.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
