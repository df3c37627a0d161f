/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { importTexts, openApp, shot, startUiApp, type UiApp } from './harness';

/**
 * Titles with no space in them (file names turned titles, part numbers joined by underscores)
 * wrap inside the screen in a small window instead of running off its edge, where the middle
 * of the name was cut away: in the Documents list and in search results, at 800x600 and 1280x800.
 */
describe('long unbroken names in small windows, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  const long = 'Service_bulletin_for_the_RAC-225B_circulation_pump_controller_board_revision_C_with_firmware_2.14.7_and_later_units';

  /** Parts of `el`'s text drawn past the right edge of the screen panel (nothing when all of it shows). */
  const cutOff = (el: Locator) =>
    el.evaluate((node) => {
      const panel = document.getElementById('screen-panel')!.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(node);
      return Array.from(range.getClientRects())
        .filter((r) => r.width > 0 && r.right > panel.right + 1)
        .map((r) => `${Math.round(r.right)} > ${Math.round(panel.right)}`);
    });

  beforeAll(async () => {
    app = await startUiApp();
    await importTexts(app, 'Pumps', {
      [`${long}.md`]: `# ${long}\n\nThe RAC-225B takes a 5 A slow-blow fuse behind the terminal cover.\n`,
      'rac-300.md': '# RAC-300 service\n\nThe RAC-300 fuse is a 10 A fast fuse in the junction box.\n',
    });
    page = await openApp(app, errors);
    await page.getByRole('button', { name: /^Pumps/ }).click();
  });

  afterAll(async () => {
    await app?.close();
  });

  for (const [width, height] of [
    [800, 600],
    [1280, 800],
  ] as const) {
    it(`shows the whole title in the Documents list and in search results at ${width}x${height}`, async () => {
      await page.setViewportSize({ width, height });
      await page.getByTestId('tab-documents').click();
      const title = page.getByTestId('document-table').locator('.doc-title', { hasText: long });
      await title.waitFor();
      expect(await cutOff(title)).toEqual([]);
      // The file name under it may end in an ellipsis, but ends inside the screen.
      const file = page.getByTestId('document-table').locator('.doc-id', { hasText: long });
      const box = (await file.boundingBox())!;
      const panel = (await page.locator('#screen-panel').boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width);
      await shot(page, `long-names-documents-${width}`);

      await page.keyboard.press('Control+k');
      await page.keyboard.type('fuse');
      await page.keyboard.press('Enter');
      const result = page.locator('.result-title', { hasText: long });
      await result.waitFor();
      expect(await cutOff(result)).toEqual([]);
      expect(await cutOff(page.locator('.result-open', { hasText: long }).locator('.muted'))).toEqual([]);
      await shot(page, `long-names-search-${width}`);
    });
  }

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
