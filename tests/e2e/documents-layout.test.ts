/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importTexts, openApp, shot, startUiApp, type UiApp } from './harness';

/**
 * At the default window size (1280x800) every document row's buttons are in view: long titles and
 * long model names wrap in their columns instead of pushing Open/Remove behind a horizontal scroll.
 */
describe('documents table at the default window size, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startUiApp();
    const board = (name: string) => `# ${name} Evaluation Board Reference Manual and Hardware User Guide\n\nThe ${name} Evaluation Board takes 5 V over USB.\n`;
    await importTexts(app, 'Boards', {
      'QX32H417-Evaluation-Board-Reference-Manual-and-Hardware-User-Guide.md': board('QX32H417'),
      'QX32M030-Evaluation-Board-Reference-Manual-and-Hardware-User-Guide.md': board('QX32M030'),
    });
    page = await openApp(app, errors);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('shows every row\'s Open and Remove buttons without scrolling sideways', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const remove = page.getByRole('button', { name: /^Remove QX32H417/ });
    await remove.waitFor();
    const wrap = page.locator('.table-wrap');
    const [client, scroll] = await wrap.evaluate((el) => [el.clientWidth, el.scrollWidth]);
    expect(scroll).toBeLessThanOrEqual(client);
    const box = await wrap.boundingBox();
    for (const name of [/^Open QX32H417/, /^Remove QX32H417/, /^Remove QX32M030/]) {
      const button = await page.getByRole('button', { name }).boundingBox();
      expect(button!.x + button!.width, String(name)).toBeLessThanOrEqual(box!.x + box!.width);
    }
    await shot(page, 'documents-1280');
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
