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
    const specs = ['Bench supply', '', 'Voltage: 5 V', 'Current: 2 A', 'Fuse: T5A 250V'].join('\n');
    await importTexts(app, 'Boards', { 'power.md': doc, 'specs.txt': specs });
    page = await openApp(app, errors);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('shows no front matter and no ":::" but a labelled note', async () => {
    await page.getByRole('button', { name: /^Open Power supply/ }).first().click();
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

  it("shows a plain-text file's lines as lines, not joined into one", async () => {
    await page.getByRole('button', { name: 'Close source' }).click();
    await page.getByRole('button', { name: /^Open Bench supply/ }).first().click();
    const body = page.getByTestId('source-text');
    await expect.poll(() => body.textContent()).toContain('Fuse: T5A 250V');
    // innerText is what the user sees: line breaks as rendered, not as in the DOM's text.
    const shown = await body.locator('p', { hasText: 'Voltage' }).innerText();
    expect(shown.split('\n').map((l) => l.trim())).toEqual(['Voltage: 5 V', 'Current: 2 A', 'Fuse: T5A 250V']);
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
