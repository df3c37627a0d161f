/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Code passed to page.evaluate runs in Chromium: it is type-checked against the DOM.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { dropFiles, HOSTILE_MARKDOWN, installationDocx, openApp, reloadApp, serviceManualPdf, shot, startUiApp, type UiApp } from './harness';

/**
 * The library screens in Chromium against the real engine: create a library, drop manuals and
 * watch them import, see a corrupt file's reason, read a document whose text carries markup,
 * search and land on the cited page, inspect chunks, switch theme, rename and delete.
 */
describe('libraries, import and viewing in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startUiApp();
    page = await openApp(app, errors);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('creates a library from the sidebar and teaches drag-and-drop while it is empty', async () => {
    await page.getByTestId('first-run').waitFor();
    await page.getByLabel('New library name').fill('Pumps');
    await page.getByLabel('New library name').press('Enter');
    await page.getByTestId('no-documents').waitFor();
    expect(await page.getByRole('button', { name: /^Pumps/ }).getAttribute('aria-current')).toBe('true');
    expect(await page.getByTestId('no-documents').textContent()).toMatch(/Drag manuals/);
    await shot(page, 'library-empty');
    // A search here finds nothing because there is nothing yet, not because of the words typed.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('fuse');
    await page.keyboard.press('Enter');
    const none = page.getByTestId('search-view').getByText(/no document ready to search yet/);
    await none.waitFor();
    expect(await page.getByTestId('search-view').textContent()).not.toMatch(/Try other words/);
    await page.getByTestId('global-search').fill('');
    await page.getByTestId('tab-documents').click();
  });

  it('imports a dropped PDF, Markdown and DOCX with per-file progress until all are ready', async () => {
    const files = [
      { name: 'rac-225b.pdf', bytes: serviceManualPdf(), type: 'application/pdf' },
      { name: 'xr10-notes.md', bytes: new TextEncoder().encode(HOSTILE_MARKDOWN), type: 'text/markdown' },
      { name: 'xr10-install.docx', bytes: await installationDocx() },
    ];
    // Record every stage each file shows in the import panel, from the drop to the end.
    await page.evaluate(() => {
      const seen: Record<string, string[]> = {};
      (window as unknown as { __stages: typeof seen }).__stages = seen;
      const record = () => {
        for (const el of document.querySelectorAll<HTMLElement>('[data-testid="import-file"]')) {
          const list = (seen[el.dataset['file']!] ??= []);
          if (list[list.length - 1] !== el.dataset['stage']) list.push(el.dataset['stage']!);
        }
      };
      new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-stage'] });
    });
    await dropFiles(page, files);
    const job = page.getByTestId('import-job').first();
    await page.locator('[data-testid="import-job"][data-phase="done"]').waitFor();
    // A clean import folds to its summary (at once: its files' last step may never be drawn);
    // unfolding it lists every file as ready.
    expect(await job.getByTestId('import-summary').textContent()).toContain('3 imported');
    await job.getByRole('button', { expanded: false }).click();
    expect(await job.locator('[data-testid="import-file"][data-stage="ready"]').count()).toBe(3);
    const stages = await page.evaluate(() => (window as unknown as { __stages: Record<string, string[]> }).__stages);
    expect(Object.keys(stages).sort()).toEqual(['rac-225b.pdf', 'xr10-install.docx', 'xr10-notes.md']);
    for (const seen of Object.values(stages)) {
      expect(seen[0]).toBe('queued');
      expect(seen[seen.length - 1]).toBe('ready');
    }
    // The library list refreshes on its own: every document is ready, with pages and models.
    await expect.poll(() => page.locator('[data-testid="document-table"] tr[data-status="ready"]').count()).toBe(3);
    const pdfRow = page.locator('tr[data-doc="rac-225b.pdf"]');
    expect(await pdfRow.locator('td').nth(3).textContent()).toBe('3');
    expect(await pdfRow.textContent()).toContain('RAC-225B');
    await shot(page, 'import-ready');
    await job.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('shows why a corrupt file failed and what to do instead, with no Retry that could only fail again', async () => {
    await dropFiles(page, [{ name: 'broken.pdf', bytes: new TextEncoder().encode('%PDF-1.4\nthis is not really a pdf') }]);
    const failed = page.locator('[data-testid="import-file"][data-file="broken.pdf"][data-stage="failed"]');
    await failed.waitFor();
    const job = page.locator('[data-testid="import-job"][data-phase="done"]', { has: failed });
    await job.waitFor();
    expect(await failed.getByTestId('failure-reason').textContent()).toMatch(/damaged|not a PDF/i);
    expect(await failed.getByTestId('failure-advice').textContent()).toMatch(/will not help: import a good copy/);
    expect(await failed.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    const row = page.locator('tr[data-doc="broken.pdf"]');
    await row.waitFor();
    expect(await row.getAttribute('data-status')).toBe('failed');
    expect(await row.locator('.reason').textContent()).toMatch(/damaged|not a PDF/i);
    expect(await row.getByTestId('failure-advice').textContent()).toMatch(/will not help: import a good copy/);
    expect(await row.getByRole('button', { name: /^Retry / }).count()).toBe(0);
    // Choosing a good copy is still offered.
    await row.getByRole('button', { name: 'Re-import broken.pdf' }).waitFor();
    await shot(page, 'import-failed');
    await job.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('tells a manual saved under another format’s extension to be renamed, not downloaded again', async () => {
    await dropFiles(page, [{ name: 'wiring.docx', bytes: serviceManualPdf() }]);
    const failed = page.locator('[data-testid="import-file"][data-file="wiring.docx"][data-stage="failed"]');
    await failed.waitFor();
    expect(await failed.getByTestId('failure-reason').textContent()).toContain('Rename it to .pdf and import it again.');
    // The advice under the reason agrees with it: a good copy named .docx would fail the same way.
    const advice = (await failed.getByTestId('failure-advice').textContent()) ?? '';
    expect(advice).toMatch(/will not help: rename it/);
    expect(advice).not.toMatch(/download|good copy/);
    expect(await failed.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    const row = page.locator('tr[data-doc="wiring.docx"]');
    await row.waitFor();
    expect(await row.getByTestId('failure-advice').textContent()).toMatch(/will not help: rename it/);
    await page.locator('[data-testid="import-job"][data-phase="done"]', { has: failed }).getByRole('button', { name: 'Dismiss' }).click();
    // The library goes on as the tests below count it.
    await row.getByRole('button', { name: 'Remove wiring.docx' }).click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Remove' }).click();
    await row.waitFor({ state: 'detached' });
  });

  it('offers Retry for a failure another try may get past (a full disk), and Retry imports the file', async () => {
    // A full disk is real (tests/ingest/*.system.test.ts) but needs root and a tmpfs: the engine's
    // outcome for it arrives here as the engine sends it, through the real event stream.
    await page.route('**/api/import.upload', (route) => route.fulfill({ json: { ok: true, value: { jobId: 'import-diskfull' } } }));
    await dropFiles(page, [{ name: 'seal-notes.md', bytes: new TextEncoder().encode('# Gasket notes\n\nReplace the gasket every year.\n') }]);
    const job = page.locator('[data-testid="import-job"]', { has: page.locator('[data-file="seal-notes.md"]') });
    await job.and(page.locator('[data-phase="running"]')).waitFor();
    await page.unroute('**/api/import.upload');
    const reason = 'Could not store this document in the library: the disk is full (ENOSPC).';
    app.emit({
      type: 'import.done',
      jobId: 'import-diskfull',
      library: 'Pumps',
      summary: { results: [{ file: 'seal-notes.md', status: 'failed', reason, code: 'io-error' }], skipped: [], summary: { imported: 0, already: 0, replaced: 0, failed: 1, cancelled: 0 } },
    });
    const failed = job.locator('[data-file="seal-notes.md"][data-stage="failed"]');
    await failed.waitFor();
    expect(await failed.getByTestId('failure-advice').count()).toBe(0);
    await failed.getByRole('button', { name: 'Retry' }).click();
    await page.locator('tr[data-doc="seal-notes.md"][data-status="ready"]').waitFor();
    while ((await page.getByTestId('import-job').count()) > 0) await page.getByTestId('import-job').first().getByRole('button', { name: 'Dismiss' }).click();
    // Out of the way of the tests below, which count the library's documents.
    expect((await app.engine.handlers['documents.remove']({ library: 'Pumps', id: 'seal-notes.md' })).ok).toBe(true);
    await page.locator('tr[data-doc="seal-notes.md"]').waitFor({ state: 'detached' });
  });

  it('drops <script> and <img onerror> from a document, keeps its words and runs neither', async () => {
    await page.getByRole('button', { name: 'Open XR-10 Release notes' }).click();
    const text = page.getByTestId('source-text');
    await text.waitFor();
    // Spaces as the page shows them: one where the dropped markup leaves two.
    const shown = ((await text.textContent()) ?? '').replace(/\s+/g, ' ');
    expect(shown).toContain('Example markup from the vendor: and end of example.');
    expect(shown).not.toContain('__pwned');
    expect(shown).not.toContain('<');
    expect(await text.locator('script, img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(app.requests.filter((url) => url.endsWith('/x'))).toEqual([]);
    await shot(page, 'viewer-markup-as-text');
    await page.getByRole('button', { name: 'Close source' }).click();
  });

  it('searches with Ctrl+K and opens a result on its PDF page with the passage highlighted', async () => {
    await page.keyboard.press('Control+k');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('global-search');
    await page.keyboard.type('What fuse does the RAC-225B take?');
    await page.keyboard.press('Enter');
    await page.getByTestId('search-view').locator('.result').first().waitFor();
    // Without an embedding model the search is by keywords, and the view says how to get more.
    expect(await page.getByTestId('keyword-search-note').textContent()).toMatch(/Search is by keywords.*embedding model.*meaning-based search/s);
    expect(await page.getByTestId('retriever-choice').count()).toBe(0);
    await page.getByTestId('search-view').locator('.result-open').first().click();
    const pdf = page.locator('[data-testid="pdf-page"][data-page="2"]');
    await pdf.waitFor();
    await expect.poll(async () => Number(await pdf.getAttribute('data-highlights'))).toBeGreaterThan(0);
    expect(await page.getByTestId('viewer-page').textContent()).toContain('Page 2 of 3');
    await shot(page, 'search-pdf-highlight');
    await page.keyboard.press('Escape');
    await page.getByTestId('source-viewer').waitFor({ state: 'detached' });
  });

  it('opens the chunk inspector with signatures, inheritance and a chunk’s details', async () => {
    await page.getByTestId('tab-documents').click();
    await page.getByRole('button', { name: 'Inspect chunks of RAC-225B Service Manual' }).click();
    const strip = page.getByTestId('chunk-strip');
    await strip.waitFor();
    const segments = strip.getByTestId('chunk-segment');
    const n = await segments.count();
    expect(n).toBeGreaterThan(0);
    await segments.nth(n - 1).click();
    const details = page.getByTestId('chunk-details');
    expect(await details.textContent()).toContain(`Chunk ${n - 1}`);
    expect(await page.getByTestId('chunk-signature').textContent()).toContain('RAC-225B');
    // A library without an embedder stores no heuristic nouns, and the inspector says why.
    expect(await page.getByTestId('chunk-signature').textContent()).toContain('nouns: not computed until an embedding model is set');
    expect((await page.getByTestId('chunk-prefix').textContent())?.length).toBeGreaterThan(0);
    expect(await page.getByTestId('inspector-stats').textContent()).toMatch(/\d+ chunks? · \d+ new signatures? · \d+ inherited/);
    // Keyboard: arrows move the selection along the strip.
    await segments.nth(n - 1).press('Home');
    expect(await segments.nth(0).getAttribute('aria-selected')).toBe('true');
    await shot(page, 'chunk-inspector');
  });

  it('keeps keyboard focus in place when the chunk inspector opens and closes', async () => {
    const focused = () => page.evaluate(() => (document.activeElement === document.body ? 'body' : (document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.id ?? '')));
    await page.getByRole('button', { name: 'Close the chunk inspector' }).click();
    const chunks = page.getByRole('button', { name: 'Inspect chunks of RAC-225B Service Manual' });
    await chunks.focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('chunk-strip').waitFor();
    // The button that opened it went with the Documents screen: focus starts at the inspector's heading.
    await expect.poll(focused).toBe('inspector-heading');
    await page.getByRole('button', { name: 'Close the chunk inspector' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('document-table').waitFor();
    await expect.poll(focused).toBe('Inspect chunks of RAC-225B Service Manual');
  });

  it('switches between light and dark themes by hand', async () => {
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const toggle = page.getByTestId('theme-toggle');
    await toggle.click();
    expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe('light');
    const light = await bg();
    await toggle.click();
    expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');
    const dark = await bg();
    expect(dark).not.toBe(light);
    const lum = (rgb: string) => (rgb.match(/\d+/g) ?? []).slice(0, 3).reduce((s, v) => s + Number(v), 0);
    expect(lum(dark)).toBeLessThan(lum(light));
    await page.getByTestId('tab-documents').click();
    await shot(page, 'theme-dark');
    // The choice survives a reload.
    await reloadApp(page);
    await page.getByTestId('document-table').waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');
    await toggle.click();
    expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBeUndefined();
  });

  it('stays usable at 200% zoom (1280x800 seen as 640x400)', async () => {
    await page.setViewportSize({ width: 640, height: 400 });
    await page.getByTestId('document-table').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, 'zoom-200');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('cancels an import: every file ends imported or cancelled, and the library keeps working', async () => {
    const files = Array.from({ length: 120 }, (_, i) => ({
      name: `bulk-${String(i).padStart(3, '0')}.md`,
      bytes: new TextEncoder().encode(`# Bulletin ${i}\n\nService bulletin ${i} for the RAC-225B: check the seal on unit batch ${1000 + i}.\n`),
    }));
    await dropFiles(page, files);
    const job = page.locator('[data-testid="import-job"]', { hasText: /Sending|Importing/ });
    await job.getByTestId('cancel-import').click();
    // While it winds down the rest of the app answers: the filter still filters.
    await page.getByLabel('Filter documents').fill('xr10');
    await expect.poll(() => page.locator('[data-testid="document-table"] tbody tr').count()).toBe(2);
    await page.getByLabel('Filter documents').fill('');
    const done = page.locator('[data-testid="import-job"][data-phase="done"]', { has: page.getByTestId('import-summary') }).last();
    await done.waitFor();
    const summary = (await done.getByTestId('import-summary').textContent()) ?? '';
    const count = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(summary)?.[1] ?? 0);
    expect(count('imported') + count('cancelled')).toBe(120);
    await done.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByRole('button', { name: /^Pumps/ }).waitFor();
    await expect.poll(() => page.locator('[data-testid="document-table"] tbody tr').count()).toBe(4 + count('imported'));
  });

  it('shows the files of an import that did not start as not imported, each with Retry, not as queued', async () => {
    // The engine refuses the job (another import holds the library, a broken bridge): as it would answer.
    await page.route('**/api/import.upload', (route) => route.fulfill({ json: { ok: false, error: { code: 'busy', message: 'Another import is writing this library.' } } }));
    await dropFiles(page, [{ name: 'late.md', bytes: new TextEncoder().encode('# Late\n\nThe RAC-225B gasket.\n') }]);
    const job = page.locator('[data-testid="import-job"][data-phase="error"]', { has: page.locator('[data-file="late.md"]') });
    await job.waitFor();
    await page.unroute('**/api/import.upload');
    expect(await job.locator('.job-title').textContent()).toBe('Import into Pumps did not start');
    const file = job.locator('[data-file="late.md"]');
    expect(await file.getAttribute('data-stage')).toBe('failed');
    expect(await file.getByTestId('failure-reason').textContent()).toBe('Not imported: the import did not start.');
    expect(await file.locator('progress').count()).toBe(0);
    // Retry sends it again, now to an engine that takes it.
    await file.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(async () => {
      const docs = await app.engine.handlers['documents.list']({ library: 'Pumps' });
      return docs.ok && docs.value.find((d) => d.id === 'late.md')?.status;
    }).toBe('ready');
    await page.locator('[data-testid="import-job"][data-phase="done"]').last().getByRole('button', { name: 'Dismiss' }).click();
    await job.getByRole('button', { name: 'Dismiss' }).click();
    const removed = await app.engine.handlers['documents.remove']({ library: 'Pumps', id: 'late.md' });
    expect(removed.ok).toBe(true);
  });

  it('ends an import whose engine job crashed with the engine’s message instead of waiting forever', async () => {
    // Only a bug crashes an import job: the upload is answered at the edge with a job id the engine
    // never ran, and the crash arrives as the engine would send it, through the real event stream.
    await page.route('**/api/import.upload', (route) => route.fulfill({ json: { ok: true, value: { jobId: 'import-crashtest' } } }));
    await dropFiles(page, [{ name: 'crash.md', bytes: new TextEncoder().encode('# Crash\n\nNever imported.\n') }]);
    const job = page.locator('[data-testid="import-job"]', { has: page.locator('[data-file="crash.md"]') });
    await job.and(page.locator('[data-phase="running"]')).waitFor();
    await page.unroute('**/api/import.upload');
    app.emit({ type: 'import.progress', jobId: 'import-crashtest', library: 'Pumps', file: 'crash.md', stage: 'parsing', fraction: 0.3, done: 0, total: 1 });
    await job.locator('[data-file="crash.md"][data-stage="parsing"]').waitFor();
    app.emit({ type: 'import.failed', jobId: 'import-crashtest', library: 'Pumps', message: 'The import stopped unexpectedly: disk vanished.' });
    await job.and(page.locator('[data-phase="stopped"]')).waitFor();
    expect(await job.locator('.job-title').textContent()).toBe('Import into Pumps stopped');
    expect(await job.getByRole('alert').textContent()).toBe('The import stopped unexpectedly: disk vanished. Files already imported are kept.');
    const file = job.locator('[data-file="crash.md"]');
    expect(await file.getAttribute('data-stage')).toBe('failed');
    expect(await file.getByTestId('failure-reason').textContent()).toMatch(/stopped before this file finished/);
    // Finished, so it no longer offers Cancel; the library keeps working.
    expect(await job.getByTestId('cancel-import').count()).toBe(0);
    await shot(page, 'import-crashed');
    await job.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByTestId('document-table').waitFor();
  });

  it('renames a library in place and deletes it only after confirmation', async () => {
    await page.getByRole('button', { name: 'Rename Pumps' }).click();
    await page.getByLabel('New name for Pumps').fill('Pumps 2026');
    await page.getByLabel('New name for Pumps').press('Enter');
    await page.getByRole('button', { name: /^Pumps 2026/ }).waitFor();
    await page.getByRole('button', { name: 'Delete Pumps 2026' }).click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    await shot(page, 'delete-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByTestId('library-list').locator('li').count()).toBe(1);
    await page.getByRole('button', { name: 'Delete Pumps 2026' }).click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete library' }).click();
    await page.getByTestId('no-libraries').waitFor();
    // No library left: focus goes to where the next one is made, not to <body>.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('new-library');
  });

  it('logged no page errors and made no request to any host but the bridge', () => {
    expect(errors).toEqual([]);
    expect(app.requests.length).toBeGreaterThan(0);
    expect(app.requests.filter((u) => !u.startsWith(`${app.bridge.origin}/`))).toEqual([]);
    // Nor did the engine behind it: no library is subscribed, so it opened no connection at all.
    expect(app.engineSockets()).toEqual([]);
  });
});
