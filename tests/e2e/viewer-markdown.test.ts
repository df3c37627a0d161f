/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importTexts, openApp, shot, startUiApp, type UiApp } from './harness';

/**
 * The document viewer hides front matter, renders ":::note" admonitions and docsify's "?>" / "!>"
 * callouts as boxes, and shows a page's raw HTML as its words only: never as markup, never as tags.
 */
describe('document viewer in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startUiApp();
    const doc = ['---', 'sidebar_position: 3', 'title: Power supply', '---', '', '# Power supply', '', 'Use a 5V/3A adapter.', '', ':::note', 'Never power it over <b>PoE</b>.', ':::', '', 'Done.'].join('\n');
    const specs = ['Bench supply', '', 'Voltage: 5 V', 'Current: 2 A', 'Fuse: T5A 250V'].join('\n');
    const docsify = [
      '# K016 soil sensor',
      '',
      '<div class="badge badge-pill badge-primary product_sku_tag">SKU:K016-C</div>',
      '<div class="product_pic"><img src="assets/img/x.webp"></div>',
      '',
      'Measures soil moisture.',
      '',
      '<div class="note">Warning: disconnect power.</div>',
      '',
      '?> Tip: keep spares',
      '',
      '!> Never submerge the board.',
      '',
      'Vendor markup: <img src=x onerror="window.__pwned = 1"> and <script>window.__pwned = 2</script> end.',
      '',
      '<script>window.__pwned = 3</script>',
      '',
      'Press <kbd>Reset</kbd> twice.',
      '',
    ].join('\n');
    // Long texts without a blank line: a log exported line by line, and a file that is one line.
    const log = Array.from({ length: 12_000 }, (_, i) => `Entry ${i}: pump P-${i % 40} pressure ${(i % 9) + 1}.5 bar, valve V-${i % 17} checked`).join('\n');
    const oneLine = Array.from({ length: 12_000 }, (_, i) => `reading ${i} of the flow meter at ${(i % 9) + 1}.5 bar;`).join(' ');
    await importTexts(app, 'Boards', { 'power.md': doc, 'specs.txt': specs, 'k016.md': docsify, 'pump-log.txt': `Pump log\n\n${log}\n`, 'flow-readings.txt': `Flow readings\n\n${oneLine}\n` });
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
    // Raw HTML inside shows as its words: no tags, no markup.
    expect(await note.textContent()).toContain('Never power it over PoE.');
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

  it("shows a docsify page's HTML as its words and its callouts as boxes, running and fetching nothing", async () => {
    await page.getByRole('button', { name: 'Close source' }).click();
    await page.getByRole('button', { name: /^Open K016 soil sensor/ }).first().click();
    const body = page.getByTestId('source-text');
    await expect.poll(() => body.textContent()).toContain('Measures soil moisture.');
    // Words from neighbouring text nodes: spaces as the page shows them, one.
    const text = ((await body.textContent()) ?? '').replace(/\s+/g, ' ');
    for (const words of ['SKU:K016-C', 'Warning: disconnect power.', 'Vendor markup: and end.', 'Press Reset twice.']) expect(text).toContain(words);
    for (const markup of ['<', '>', 'class=', 'x.webp', '__pwned', '?>', '!>']) expect(text).not.toContain(markup);
    expect(await body.locator('img, script, div.note, kbd').count()).toBe(0);
    expect(await body.locator('aside.admonition-tip').textContent()).toBe('Tip: keep spares');
    const important = body.locator('aside.admonition-warning');
    expect(await important.locator('.admonition-title').textContent()).toBe('Important');
    expect(await important.textContent()).toContain('Never submerge the board.');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(app.requests.filter((url) => url.includes('x.webp') || url.endsWith('/x'))).toEqual([]);
    await shot(page, 'viewer-docsify-html');
  });

  it.each([
    ['a log of single lines', /^Open Pump log/, 'Entry 0: pump P-0'],
    ['one long line', /^Open Flow readings/, 'reading 0 of the flow meter'],
  ])('shows %s around the page asked for, not the whole text at once', async (_name, open, first) => {
    if (await page.getByTestId('source-viewer').count()) await page.getByRole('button', { name: 'Close source' }).click();
    await page.getByRole('button', { name: open }).first().click();
    const body = page.getByTestId('source-text');
    await expect.poll(() => body.textContent()).toContain(first);
    // Each text is over 500,000 characters: drawn whole it froze the window for a 30 MB file.
    // Without a blank line to cut at, the window is cut at a line break or a space instead.
    const shown = (await body.textContent()) ?? '';
    expect(shown.length).toBeLessThan(100_000);
    const later = body.getByRole('button', { name: 'Show later text' });
    expect(await later.count()).toBe(1);
    await later.click();
    await expect.poll(async () => ((await body.textContent()) ?? '').length).toBeGreaterThan(shown.length);
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
