/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importTexts, openApp, shot, startUiApp, type UiApp } from './harness';

/**
 * What a narrow window must not lose: the sidebar's document counts at 800x600, the chunk
 * inspector's Key column, shown whole at 1400px instead of cut at the table's edge, and the
 * Settings tab when Search and Chunks tabs are open at 800x600.
 */
describe('sidebar counts and inspector columns fit, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startUiApp();
    // Sections long enough to be chunks of their own, each keyed by its heading path
    // ("structural-design/housing-ribs-…"), as a real design guide's are.
    const para = (part: number, i: number) => `Rib ${i} of housing part ${part} is 4 mm ABS and carries the RAC-225B pump's load to the base plate through two M4 bosses.\n`;
    const sections = Array.from({ length: 3 }, (_, k) =>
      [`## Structural design`, '', `### Housing ribs and base plate mounting, part ${k + 1}`, '', ...Array.from({ length: 18 }, (_, i) => para(k + 1, i))].join('\n'),
    );
    await importTexts(app, 'Pumps', { 'rac-225b-design.md': ['# RAC-225B Design Guide', '', ...sections].join('\n') });
    expect((await app.engine.handlers['libraries.create']({ name: 'Spare parts' })).ok).toBe(true);
    page = await openApp(app, errors);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('shows each library’s document count at 800x600', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    await page.getByRole('button', { name: /^Pumps/ }).click();
    const sidebar = (await page.getByTestId('library-list').boundingBox())!;
    for (const [library, count] of [
      ['Pumps', '1'],
      ['Spare parts', '0'],
    ] as const) {
      const badge = page.getByRole('button', { name: new RegExp(`^${library}`) }).locator('.library-count');
      const box = await badge.boundingBox();
      expect(box, library).not.toBeNull();
      expect(await badge.textContent()).toBe(count);
      expect(box!.x + box!.width, library).toBeLessThanOrEqual(sidebar.x + sidebar.width);
    }
    await shot(page, 'sidebar-counts-800x600');
  });

  it('shows the chunk inspector’s Key column whole at 1400px wide', async () => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.getByRole('button', { name: 'Inspect chunks of RAC-225B Design Guide' }).click();
    const wrap = page.locator('.chunk-list-wrap');
    await wrap.locator('tbody tr').first().waitFor();
    expect(await wrap.locator('tbody td:last-child').allTextContents()).toContainEqual(expect.stringMatching(/^structural-design/));
    const [client, scroll] = await wrap.evaluate((el) => [el.clientWidth, el.scrollWidth]);
    expect(scroll).toBeLessThanOrEqual(client);
    const clipped = await wrap.locator('tbody td:last-child').evaluateAll((cells) => cells.filter((td) => td.scrollWidth > td.clientWidth).map((td) => td.textContent));
    expect(clipped).toEqual([]);
    await shot(page, 'inspector-1400');
  });

  it('keeps every tab in sight at 800x600 with Search and a document’s Chunks open', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    await page.keyboard.press('Control+k');
    await page.keyboard.type('housing ribs');
    await page.keyboard.press('Enter');
    await page.getByTestId('search-view').locator('.result').first().waitFor();
    await page.getByTestId('tab-documents').click();
    await page.getByRole('button', { name: 'Inspect chunks of RAC-225B Design Guide' }).click();
    await page.getByTestId('tab-inspector').waitFor();
    const list = page.getByRole('tablist');
    const [client, scroll] = await list.evaluate((el) => [el.clientWidth, el.scrollWidth]);
    expect(scroll).toBeLessThanOrEqual(client);
    const box = (await list.boundingBox())!;
    for (const id of ['documents', 'chat', 'search', 'inspector', 'settings']) {
      const tab = (await page.getByTestId(`tab-${id}`).boundingBox())!;
      expect(tab.x + tab.width, id).toBeLessThanOrEqual(box.x + box.width);
    }
    // The inspector's tab gave up width, and names its document in full on hover.
    expect(await page.getByTestId('tab-inspector').getAttribute('title')).toBe('Chunks: RAC-225B Design Guide');
    await shot(page, 'tabs-800x600');
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
