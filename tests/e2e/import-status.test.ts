/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { bulletin, dropFiles, heardSoFar, inLiveRegion, openNewLibrary, recordRegion, startUiApp, type UiApp } from './harness';

/**
 * A screen-reader user who drops manuals hears what matters of the import: that it started, how
 * many files are done now and then, and how it finished; not every file's percent, which the
 * import card read out when the whole card (its file list included) was a live region.
 */
describe('import progress announced, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  /** Every text the import status region has held since `record()`, in order. */
  const heard = () => heardSoFar(page);
  const record = () => recordRegion(page, '[data-testid="import-status"]');
  const jobsInLiveRegion = () => inLiveRegion(page, '[data-testid="import-job"]');

  beforeAll(async () => {
    app = await startUiApp();
    page = await openNewLibrary(app, errors, 'Pumps');
  });

  afterAll(async () => {
    await app?.close();
  });

  it('says an import started and how it finished, and keeps the card out of any live region', async () => {
    // The region is in the page before any import: one added with its text is not read out.
    expect(await record()).toBe(true);
    await dropFiles(page, [bulletin(1), bulletin(2), bulletin(3)]);
    const job = page.locator('[data-testid="import-job"][data-phase="done"]');
    await job.waitFor();
    expect(await jobsInLiveRegion()).toBe(0);
    await expect.poll(heard).toEqual(['Importing 3 files into Pumps', 'Imported into Pumps: 3 imported.']);
    await job.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('says a second import of as many files again, and a failure in its summary', async () => {
    expect(await record()).toBe(true);
    await dropFiles(page, [bulletin(4), bulletin(5), { name: 'damaged.pdf', bytes: new TextEncoder().encode('%PDF-1.4\ncut off'), type: 'application/pdf' }]);
    const job = page.locator('[data-testid="import-job"][data-phase="done"]');
    await job.waitFor();
    expect(await jobsInLiveRegion()).toBe(0);
    await expect.poll(heard).toEqual(['Importing 3 files into Pumps', 'Imported into Pumps; 1 file could not be imported: 2 imported · 1 failed.']);
    await job.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('says a big import’s count now and then, not each file’s progress', async () => {
    expect(await record()).toBe(true);
    const files = Array.from({ length: 24 }, (_, i) => bulletin(200 + i, 150));
    const started = Date.now();
    await dropFiles(page, files);
    await page.locator('[data-testid="import-job"][data-phase="done"]').waitFor({ timeout: 60_000 });
    const seconds = (Date.now() - started) / 1000;
    const said = await heard();
    expect(said[0]).toBe('Importing 24 files into Pumps');
    expect(said[said.length - 1]).toBe('Imported into Pumps: 24 imported.');
    const counts = said.slice(1, -1);
    for (const line of counts) expect(line).toMatch(/^Pumps: \d+ of 24 files done$/);
    // At most one count per 10 s of import.
    expect(counts.length).toBeLessThanOrEqual(Math.floor(seconds / 10));
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
