/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importTexts, openApp, shot, startUiApp, type UiApp } from './harness';

/** The document viewer hides front matter and renders ":::note" admonitions as boxes, as text. */
describe('document viewer in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startUiApp();
    const doc = ['---', 'sidebar_position: 3', 'title: Power supply', '---', '', '# Power supply', '', 'Use a 5V/3A adapter.', '', ':::note', 'Never power it over <b>PoE</b>.', ':::', '', 'Done.'].join('\n');
    await importTexts(app, 'Boards', { 'power.md': doc });
    page = await openApp(app, errors);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('shows no front matter and no ":::" but a labelled note', async () => {
    await page.getByRole('button', { name: /^Open / }).first().click();
    const body = page.getByTestId('source-text');
    await body.waitFor();
    await expect.poll(() => body.textContent()).toContain('Use a 5V/3A adapter.');
    const text = (await body.textContent()) ?? '';
    expect(text).not.toContain('sidebar_position');
    expect(text).not.toContain(':::');
    const note = body.locator('aside.admonition-note');
    expect(await note.locator('.admonition-title').textContent()).toBe('Note');
    // Raw HTML inside stays visible text, never markup.
    expect(await note.textContent()).toContain('<b>PoE</b>');
    expect(await note.locator('b').count()).toBe(0);
    await shot(page, 'viewer-admonition');
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
