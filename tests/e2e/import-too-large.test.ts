/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { bulletin, dropFiles, openNewLibrary, shot, startUiApp, type UiApp } from './harness';

/**
 * A file over the size the app takes, dropped with others, fails alone with its reason in words;
 * the rest of the batch imports (the bridge's limit is set small here: 500 MB files are slow to make).
 */
describe('a dropped file over the size limit, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startUiApp({ maxUploadBytes: 64 * 1024 });
    page = await openNewLibrary(app, errors, 'Pumps');
  });

  afterAll(async () => {
    await app?.close();
  });

  it('fails that file alone, in words, and imports the others', async () => {
    const big = { name: 'scanned-manual.md', bytes: new TextEncoder().encode(`# Scanned manual\n\n${'The RAC-225B pump. '.repeat(6000)}\n`) };
    expect(big.bytes.length).toBeGreaterThan(64 * 1024);
    await dropFiles(page, [bulletin(1), big, bulletin(2)]);
    const job = page.locator('[data-testid="import-job"][data-phase="done"]');
    await job.waitFor({ timeout: 30_000 });
    expect(await job.locator('.job-title').textContent()).toBe('Imported into Pumps; 1 file could not be imported');
    expect(await job.getByTestId('import-summary').textContent()).toBe('2 imported · 1 failed');
    const failed = job.locator('[data-testid="import-file"][data-file="scanned-manual.md"][data-stage="failed"]');
    // The limit in megabytes or kilobytes, never a count of bytes.
    expect(await failed.getByTestId('failure-reason').textContent()).toBe('The file is too large to import (limit 64 KB): it is 111 KB.');
    expect(await failed.getByTestId('failure-advice').textContent()).toContain('split it into smaller files');
    expect(await job.locator('[data-testid="import-file"][data-stage="ready"]').count()).toBe(2);
    const docs = await app.engine.handlers['documents.list']({ library: 'Pumps' });
    expect(docs.ok && docs.value.map((d) => `${d.id}:${d.status}`).sort()).toEqual(['bulletin-001.md:ready', 'bulletin-002.md:ready']);
    await shot(page, 'import-too-large');
  });

  it('ends a drop of only such files with their reasons, not an import that did not start', async () => {
    await page.locator('[data-testid="import-job"][data-phase="done"]').getByRole('button', { name: 'Dismiss' }).click();
    await dropFiles(page, [{ name: 'huge-scan.md', bytes: new Uint8Array(100 * 1024).fill(0x61) }]);
    const job = page.locator('[data-testid="import-job"][data-phase="done"]');
    await job.waitFor({ timeout: 30_000 });
    expect(await job.locator('.job-title').textContent()).toBe('Import into Pumps failed');
    expect(await job.locator('[data-testid="import-file"][data-file="huge-scan.md"] [data-testid="failure-reason"]').textContent()).toMatch(/^The file is too large to import \(limit 64 KB\)/);
  });

  it('logged no page errors', () => {
    // The browser logs the bridge's 413 answer as a failed resource load: that is the refusal itself.
    expect(errors.filter((e) => !/status of 413/.test(e))).toEqual([]);
  });
});
