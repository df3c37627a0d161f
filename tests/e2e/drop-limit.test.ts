/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { dropFiles, openNewLibrary, startUiApp, type UiApp } from './harness';

/**
 * A drop carrying more files than one drop takes (10,000) sends the first 10,000, and its card
 * says how many more were left out and why, from the moment it appears to its end: those files
 * have no row of their own to say it. The drop is cancelled while it sends: what is tested is
 * what the card says, not an import of 10,000 files.
 */
describe('a browser drop of more files than one drop takes, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startUiApp();
    page = await openNewLibrary(app, errors, 'Pumps');
  });

  afterAll(async () => {
    await app?.close();
  });

  it('says on the card how many files were left out and why', async () => {
    const text = new TextEncoder();
    const files = Array.from({ length: 10_002 }, (_, i) => ({ name: `note-${String(i).padStart(5, '0')}.md`, bytes: text.encode(`# Note ${i}\n`) }));
    await dropFiles(page, files);
    // Sending 10,000 files takes seconds: the card is seen while it sends.
    const job = page.locator('[data-testid="import-job"][data-phase="uploading"]');
    await job.waitFor();
    expect(await job.locator('.job-title').textContent()).toBe('Sending 10000 files to Pumps…');
    expect(await job.getByTestId('import-left-out').textContent()).toBe(
      '2 more files were left out: one drop takes at most 10000 files. Drop the rest in smaller parts (a folder at a time) to import them.',
    );
    await page.getByTestId('cancel-import').click();
    const finished = page.locator('[data-testid="import-job"][data-phase="done"]');
    await finished.waitFor({ timeout: 120_000 });
    // Still said once the drop has ended, cancelled or not.
    expect(await finished.getByTestId('import-left-out').textContent()).toMatch(/^2 more files were left out: one drop takes at most 10000 files\./);
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
