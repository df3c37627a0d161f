/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { writePdf } from '../fixtures/pdf-writer';
import { dropFiles, openNewLibrary, serviceManualPdf, shot, startUiApp, type UiApp } from './harness';

/**
 * A document row's "Re-import a newer version" always asks for the new file (it never sends the
 * file dropped earlier again, which the engine reports as already in the library), a file dropped again
 * is reported as already in the library, apart from files that failed, and a damaged file's row
 * offers no Retry (sending the same bytes again fails again) but says what to do instead.
 */
describe('re-importing a document in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  const newerManual = writePdf([{ runs: [{ x: 72, y: 720, text: 'RAC-225B Service Manual, revision B: the fuse is now 6.3 A.', size: 12 }] }], { title: 'RAC-225B Service Manual' });
  const damaged = { name: 'damaged.pdf', bytes: new TextEncoder().encode('%PDF-1.4\nthis file was cut off in transfer'), type: 'application/pdf' };
  const finishedJobs = () => page.locator('[data-testid="import-job"][data-phase="done"]');

  beforeAll(async () => {
    app = await startUiApp();
    page = await openNewLibrary(app, errors, 'Pumps');
  });

  afterAll(async () => {
    await app?.close();
  });

  it('asks for the newer file instead of sending the dropped one again', async () => {
    await dropFiles(page, [{ name: 'rac-225b.pdf', bytes: serviceManualPdf(), type: 'application/pdf' }]);
    await finishedJobs().waitFor();
    await finishedJobs().getByRole('button', { name: 'Dismiss' }).click();
    const row = page.locator('tr[data-doc="rac-225b.pdf"][data-status="ready"]');
    await row.waitFor();
    const [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 10_000 }), row.getByRole('button', { name: /^Re-import / }).click()]);
    await chooser.setFiles({ name: 'rac-225b-rev-b.pdf', mimeType: 'application/pdf', buffer: Buffer.from(newerManual) });
    await finishedJobs().waitFor();
    expect(await finishedJobs().getByTestId('import-summary').textContent()).toBe('1 replaced');
    const source = await app.engine.handlers['documents.source']({ library: 'Pumps', id: 'rac-225b.pdf' });
    expect(source.ok && source.value.text).toMatch(/revision B/);
    await finishedJobs().getByRole('button', { name: 'Dismiss' }).click();
  });

  it('says which files were already in the library apart from those that failed, not that the import failed', async () => {
    // The library holds rac-225b.pdf as the newer manual (the test before): the same bytes again are already in it.
    const cut = (i: number) => ({ name: `cut-${i}.pdf`, bytes: new TextEncoder().encode(`%PDF-1.4\ncut off ${i}`), type: 'application/pdf' });
    await dropFiles(page, [{ name: 'rac-225b.pdf', bytes: newerManual, type: 'application/pdf' }, cut(1), cut(2)]);
    await finishedJobs().waitFor();
    expect(await finishedJobs().locator('.job-title').textContent()).toBe('2 files could not be imported; 1 was already in Pumps');
    // The counts and the file's own line say it as the headline does.
    expect(await finishedJobs().getByTestId('import-summary').textContent()).toBe('1 already in Pumps · 2 failed');
    expect(await finishedJobs().locator('[data-testid="import-file"][data-file="rac-225b.pdf"]').textContent()).toContain('Already in Pumps.');
    await finishedJobs().getByRole('button', { name: 'Dismiss' }).click();
    await dropFiles(page, [{ name: 'rac-225b.pdf', bytes: newerManual, type: 'application/pdf' }]);
    await finishedJobs().waitFor();
    expect(await finishedJobs().locator('.job-title').textContent()).toBe('Nothing new: 1 file was already in Pumps');
    await finishedJobs().getByRole('button', { name: 'Dismiss' }).click();
  });

  it('offers no Retry on the row of a damaged file, says what to do instead, and still asks for a file on re-import', async () => {
    await dropFiles(page, [damaged]);
    await finishedJobs().waitFor();
    await finishedJobs().getByRole('button', { name: 'Dismiss' }).click();
    const row = page.locator('tr[data-doc="damaged.pdf"][data-status="failed"]');
    await row.waitFor();
    await shot(page, 'document-row-failed-advice');
    // The same bytes fail the same way: no Retry, a sentence saying what helps instead.
    expect(await row.getByRole('button', { name: /^Retry / }).count()).toBe(0);
    expect(await row.getByTestId('failure-advice').textContent()).toMatch(/will not help: import a good copy/);
    // Re-import asks for a (repaired) file; choosing none sends nothing.
    const [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 10_000 }), row.getByRole('button', { name: /^Re-import / }).click()]);
    await chooser.setFiles([]);
    expect(await page.getByTestId('import-job').count()).toBe(0);
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
