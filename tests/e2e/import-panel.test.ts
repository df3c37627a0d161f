/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { bulletin, dropFiles, openApp, shot, startUiApp, type UiApp } from './harness';

/**
 * The import panel at 800x600: it never covers the chat's Ask button, a clean import folds to its
 * summary, "N of M" counts files as they finish, and a cancelled batch shows its files as
 * "Cancelled" (not failed) with one "Retry all".
 */
describe('import panel in Chromium at 800x600', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startUiApp();
    const created = await app.engine.handlers['libraries.create']({ name: 'Pumps' });
    expect(created.ok).toBe(true);
    page = await openApp(app, errors);
    await page.setViewportSize({ width: 800, height: 600 });
    await page.getByRole('button', { name: /^Pumps/ }).click();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('folds a clean import and keeps the panel off the Ask button', async () => {
    await dropFiles(page, [bulletin(1), bulletin(2), bulletin(3)]);
    const job = page.locator('[data-testid="import-job"][data-phase="done"]');
    await job.waitFor();
    expect(await job.getByRole('button', { expanded: false }).count()).toBe(1);
    await page.getByTestId('tab-chat').click();
    const panel = await page.getByTestId('import-panel').boundingBox();
    const ask = await page.getByTestId('send').boundingBox();
    const input = await page.getByTestId('question-input').boundingBox();
    expect(panel && ask && input).toBeTruthy();
    for (const box of [ask!, input!]) expect(panel!.y + panel!.height <= box.y || panel!.x + panel!.width <= box.x).toBe(true);
    await shot(page, 'import-panel-800x600');
    await job.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('keeps an open card of failures off the Conversations button and the question box in Chat', async () => {
    await page.getByTestId('tab-chat').click();
    await dropFiles(page, [{ name: 'damaged.pdf', bytes: new TextEncoder().encode('%PDF-1.4\ncut off'), type: 'application/pdf' }]);
    const job = page.locator('[data-testid="import-job"][data-phase="done"]');
    await job.waitFor();
    // Failures keep the card open.
    expect(await job.getByRole('button', { expanded: true }).count()).toBe(1);
    // A dropped file that failed for what it holds is the same bytes again: no Retry, nor "Retry all".
    expect(await job.getByRole('button', { name: /Retry/ }).count()).toBe(0);
    const panel = (await page.getByTestId('import-panel').boundingBox())!;
    const apart = (box: { x: number; y: number; width: number; height: number }) =>
      panel.y + panel.height <= box.y || box.y + box.height <= panel.y || panel.x + panel.width <= box.x || box.x + box.width <= panel.x;
    for (const id of ['conversations-toggle', 'question-input', 'send']) {
      const box = await page.getByTestId(id).boundingBox();
      expect(box, id).toBeTruthy();
      expect(apart(box!), id).toBe(true);
    }
    await shot(page, 'import-panel-failed-chat-800x600');
    await job.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('counts "N of M" up while the files finish, not only when the batch is written', async () => {
    // Every headline the running job shows, in order, recorded in the page as it changes.
    await page.evaluate(() => {
      const w = window as unknown as { __titles: string[] };
      w.__titles = [];
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('[data-testid="import-job"][data-phase="running"] .job-title')) {
          const t = el.textContent ?? '';
          if (w.__titles[w.__titles.length - 1] !== t) w.__titles.push(t);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    // Long bulletins: tiny files could all finish between two renders, and the count would jump
    // from 0 to done.
    const files = Array.from({ length: 24 }, (_, i) => bulletin(200 + i, 150));
    await dropFiles(page, files);
    await expect.poll(async () => {
      const docs = await app.engine.handlers['documents.list']({ library: 'Pumps' });
      return docs.ok ? docs.value.filter((d) => d.status === 'ready').length : -1;
    }, { timeout: 60_000 }).toBe(3 + files.length);
    const counts = (await page.evaluate(() => (window as unknown as { __titles: string[] }).__titles))
      .map((t) => /: (\d+) of (\d+)$/.exec(t))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ n: Number(m[1]), of: Number(m[2]) }));
    expect(counts.length).toBeGreaterThan(2);
    for (const c of counts) expect(c.of).toBe(files.length);
    // It moves while the job runs (not "0 of 24" until the end), and never goes back.
    expect(counts.some((c) => c.n > 0 && c.n < files.length)).toBe(true);
    for (let i = 1; i < counts.length; i++) expect(counts[i]!.n).toBeGreaterThanOrEqual(counts[i - 1]!.n);
    await page.locator('[data-testid="import-job"][data-phase="done"]').last().getByRole('button', { name: 'Dismiss' }).click();
  });

  it('shows cancelled files as Cancelled with one Retry all that imports them', async () => {
    await dropFiles(page, Array.from({ length: 60 }, (_, i) => bulletin(100 + i)));
    const running = page.locator('[data-testid="import-job"]', { hasText: /Sending|Importing/ });
    await running.getByTestId('cancel-import').click();
    const done = page.locator('[data-testid="import-job"][data-phase="done"]').last();
    await done.waitFor();
    if ((await done.getByRole('button', { expanded: false }).count()) > 0) await done.getByRole('button', { expanded: false }).click();
    const cancelled = await done.locator('[data-testid="import-file"][data-cancelled="true"]').count();
    expect(cancelled).toBeGreaterThan(0);
    // Not failures: no "Failed" label, no per-file Retry, one Retry all.
    expect(await done.locator('.status-cancelled').first().textContent()).toBe('Cancelled');
    expect(await done.locator('.status-failed').count()).toBe(0);
    expect(await done.getByRole('button', { name: 'Retry', exact: true }).count()).toBe(0);
    expect(await done.getByTestId('retry-all').count()).toBe(1);
    await shot(page, 'import-cancelled-retry-all');
    await done.getByTestId('retry-all').click();
    // The cancelled card goes (it had nothing left but the files just retried); the new job reports them.
    await expect.poll(() => page.getByText(/^Import into Pumps cancelled$/).count()).toBe(0);
    await expect
      .poll(async () => {
        const docs = await app.engine.handlers['documents.list']({ library: 'Pumps' });
        return docs.ok ? docs.value.filter((d) => d.status === 'ready').length : -1;
      }, { timeout: 60_000 })
      .toBe(87);
    const cards = page.getByTestId('import-job');
    await cards.and(page.locator('[data-phase="done"]')).waitFor();
    expect(await cards.count()).toBe(1);
    expect(await cards.locator('.job-title').textContent()).toBe('Imported into Pumps');
    expect(await page.getByTestId('retry-all').count()).toBe(0);
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
