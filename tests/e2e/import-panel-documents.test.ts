/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { bulletin, dropFiles, openApp, shot, startUiApp, type UiApp } from './harness';

/**
 * The import panel on the Documents screen: it never covers the screen's Import and Folder
 * buttons or its filter box (failed imports keep their card open), and while the first files of
 * an empty library import, the screen says so instead of 'No document matches “”'.
 */
describe('import panel on the Documents screen, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startUiApp();
    expect((await app.engine.handlers['libraries.create']({ name: 'Pumps' })).ok).toBe(true);
    page = await openApp(app, errors);
    await page.setViewportSize({ width: 800, height: 600 });
    await page.getByRole('button', { name: /^Pumps/ }).click();
    await page.getByTestId('no-documents').waitFor();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('says the empty library is importing its first files, never that nothing matches', async () => {
    // Every text the Documents screen shows while the first drop imports, recorded as it changes.
    await page.evaluate(() => {
      const w = window as unknown as { __texts: string[] };
      w.__texts = [];
      new MutationObserver(() => {
        const t = document.querySelector('.library-view')?.textContent ?? '';
        if (w.__texts[w.__texts.length - 1] !== t) w.__texts.push(t);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await dropFiles(page, Array.from({ length: 12 }, (_, i) => bulletin(i)));
    await page.locator('[data-testid="import-job"][data-phase="done"]').waitFor({ timeout: 60_000 });
    const texts = await page.evaluate(() => (window as unknown as { __texts: string[] }).__texts);
    expect(texts.some((t) => t.includes('This library is empty until its first manuals are imported'))).toBe(true);
    expect(texts.filter((t) => t.includes('No document matches'))).toEqual([]);
    await page.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('keeps an open card of failed imports off the Import and Folder buttons and the filter box', async () => {
    const damaged = Array.from({ length: 4 }, (_, i) => ({ name: `damaged-${i}.pdf`, bytes: new TextEncoder().encode(`%PDF-1.4\ncut off ${i}`), type: 'application/pdf' }));
    await dropFiles(page, damaged);
    const card = page.locator('[data-testid="import-job"][data-phase="done"]');
    await card.waitFor();
    expect(await card.getByRole('button', { expanded: true }).count()).toBe(1);
    // Shown as "Import" and "Folder", read out as what they import.
    expect(await page.getByTestId('import-files').getAttribute('aria-label')).toBe('Import files');
    const controls: Locator[] = [page.getByTestId('import-files'), page.getByRole('button', { name: 'Import folder', exact: true }), page.getByLabel('Filter documents')];
    for (const size of [
      { width: 800, height: 600 },
      { width: 1280, height: 800 },
    ]) {
      await page.setViewportSize(size);
      for (const control of controls) {
        // What a click at the control's centre lands on is the control itself.
        const hit = await control.evaluate((el) => {
          const r = el.getBoundingClientRect();
          const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
          return top !== null && (top === el || el.contains(top));
        });
        expect(hit).toBe(true);
      }
    }
    await shot(page, 'import-panel-documents-failed');
    await page.getByLabel('Filter documents').fill('damaged');
    await expect.poll(() => page.locator('tr[data-doc]').count()).toBe(4);
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
