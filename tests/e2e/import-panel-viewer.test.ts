/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { bulletin, dropFiles, importTexts, openApp, shot, startUiApp, takesClick, type UiApp } from './harness';

/**
 * In a narrow window (800x600) the source viewer takes the whole main area: an import started while
 * it is open (a drop, the Import button) must still be seen as it starts, runs and fails, not only
 * once the viewer is closed. Its band sits above the viewer, the viewer keeps its Close button and
 * keyboard focus, and Esc still closes it and gives focus back to what opened it.
 */
describe('an import started while the source viewer is open in a narrow window, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  const manual = (model: string) => [`# ${model} Service Manual`, '', '## Fuses', '', `The ${model} control board takes a 5 A slow-blow fuse behind the terminal cover.`, ''].join('\n');
  // Bulletins long enough that the job is seen running even on a loaded machine.
  const LONG = 120;
  const damaged = { name: 'damaged.pdf', bytes: new TextEncoder().encode('%PDF-1.4\ncut off'), type: 'application/pdf' };
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.className ?? 'body');


  beforeAll(async () => {
    app = await startUiApp();
    await importTexts(app, 'Pumps', { 'rac-225b.md': manual('RAC-225B'), 'rac-300c.md': manual('RAC-300C') });
    page = await openApp(app, errors);
    await page.setViewportSize({ width: 800, height: 600 });
    await page.getByRole('button', { name: /^Pumps/ }).click();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('shows a dropped import above the viewer while it runs and when it fails, and leaves the viewer usable', async () => {
    await page.getByTestId('global-search').fill('slow-blow fuse');
    await page.getByTestId('global-search').press('Enter');
    const result = page.locator('.result-open').first();
    await result.click();
    await page.getByTestId('source-viewer').waitFor();
    expect(await focused()).toBe('Close source');

    await dropFiles(page, [bulletin(1, LONG), bulletin(2, LONG), bulletin(3, LONG), damaged]);
    const card = page.getByTestId('import-job');
    await card.waitFor();
    // Seen as it starts: its headline is drawn and on top, not under the viewer.
    await expect.poll(() => takesClick(card.locator('.job-toggle'))).toBe(true);
    await shot(page, 'import-above-viewer-running-800x600');
    const done = page.locator('[data-testid="import-job"][data-phase="done"]');
    await done.waitFor({ timeout: 60_000 });
    expect(await takesClick(done.locator('.job-toggle'))).toBe(true);
    expect(await takesClick(done.getByTestId('failure-reason'))).toBe(true);
    await shot(page, 'import-above-viewer-failed-800x600');

    // The viewer is still open, whole and usable: its Close button takes a click, and the drop did not take its focus.
    const viewer = page.getByTestId('source-viewer');
    expect(await viewer.count()).toBe(1);
    expect(await takesClick(page.getByRole('button', { name: 'Close source' }))).toBe(true);
    expect(await takesClick(viewer.locator('.viewer-body'))).toBe(true);
    expect(await focused()).toBe('Close source');
    // Esc closes it and focus goes back to the result; the card stays to be read.
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    expect(await focused()).toBe('result-open');
    expect(await takesClick(done.getByTestId('failure-reason'))).toBe(true);
    await done.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('shows an import started from the Documents screen while a document is open', async () => {
    await page.getByTestId('tab-documents').click();
    await page.getByRole('button', { name: /^Open RAC-225B/ }).click();
    await page.getByTestId('source-viewer').waitFor();
    await dropFiles(page, [{ ...damaged, name: 'damaged-2.pdf' }]);
    const done = page.locator('[data-testid="import-job"][data-phase="done"]');
    await done.waitFor({ timeout: 60_000 });
    expect(await takesClick(done.getByTestId('failure-reason'))).toBe(true);
    expect(await takesClick(page.getByRole('button', { name: 'Close source' }))).toBe(true);
    await page.getByRole('button', { name: 'Close source' }).click();
    expect(await takesClick(done.getByTestId('failure-reason'))).toBe(true);
  });

  it('gives focus to the viewer when the last card goes with Dismiss while the viewer hides the tabs', async () => {
    await page.getByTestId('source-viewer').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByTestId('import-panel').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /^Open RAC-225B/ }).click();
    await page.getByTestId('source-viewer').waitFor();
    await dropFiles(page, [{ ...damaged, name: 'damaged-3.pdf' }]);
    const done = page.locator('[data-testid="import-job"][data-phase="done"]');
    await done.waitFor({ timeout: 60_000 });
    await done.getByRole('button', { name: 'Dismiss' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('import-panel').waitFor({ state: 'detached' });
    // The selected tab it went to before is hidden under the viewer here: never <body>.
    await expect.poll(focused).toBe('Close source');
    await page.keyboard.press('Escape');
    await page.getByTestId('source-viewer').waitFor({ state: 'detached' });
  });

  it('shows the results of a search asked for with Ctrl+K while the viewer covers the screen', async () => {
    await page.getByTestId('tab-search').click();
    await page.getByTestId('global-search').fill('slow-blow fuse');
    await page.getByTestId('global-search').press('Enter');
    await page.locator('.result-open').first().click();
    await page.getByTestId('source-viewer').waitFor();
    await page.keyboard.press('Control+k');
    await page.keyboard.type('RAC-300C fuse');
    await page.keyboard.press('Enter');
    // The viewer gives way to the results it covered; the box keeps focus for the next question.
    await page.getByTestId('source-viewer').waitFor({ state: 'detached' });
    const first = page.locator('.result-open').first();
    await first.waitFor();
    expect(await takesClick(first)).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('global-search');
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
