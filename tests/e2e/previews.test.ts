/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importTexts, openApp, startUiApp, type UiApp } from './harness';

/**
 * Short views of manual text read as text: previews (citation card, cited passage, search
 * results) show no Markdown escapes or list bullets, a citation names its document and not only a
 * section several manuals share, and a conversation's cut-off title is there in full on hover.
 */
describe('previews and labels in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  const question = 'What display does the M5StickC Plus have, and which other parts are on its board next to the screen?';

  beforeAll(async () => {
    app = await startUiApp();
    await importTexts(app, 'Boards', {
      'm5stickc-plus.md': [
        '# M5StickC Plus',
        '',
        // Enough text that the Specification section is a passage of its own, titled by it.
        ...Array.from({ length: 30 }, (_, i) => `Paragraph ${i}: the M5StickC Plus is a compact 48\\*24\\*14 mm ESP32 controller with a grove port; it charges over USB-C.\n`),
        '## Specification',
        '',
        '- 135\\*240 Colorful TFT LCD display',
        '- IR transmitter',
        '- 120 mAh battery',
        '',
      ].join('\n'),
      'k016-sensor.md': ['# K016 soil sensor', '', '## Specification', '', '- 3.3 V to 5 V supply', '- Analog output', ''].join('\n'),
    });
    page = await openApp(app, errors);
    await page.getByRole('button', { name: /^Boards/ }).click();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('shows search snippets without list bullets or backslashes', async () => {
    await page.keyboard.press('Control+k');
    await page.keyboard.type('IR transmitter');
    await page.keyboard.press('Enter');
    const snippet = page.getByTestId('search-view').locator('.result-snippet', { hasText: 'IR transmitter' }).first();
    await snippet.waitFor();
    const text = (await snippet.textContent()) ?? '';
    expect(text).toContain('135*240 Colorful TFT LCD');
    expect(text).not.toContain('\\');
    expect(text).not.toMatch(/(^|\n)\s*- /);
    // The query's words are marked where the snippet says them (as text: no markup of the manual's own).
    expect(await snippet.locator('mark').allTextContents()).toEqual(['transmitter']);
  });

  it('names the document in a citation, and shows its passage as text on hover and in the viewer', async () => {
    await page.getByTestId('tab-chat').click();
    await page.getByTestId('question-input').fill(question);
    await page.getByTestId('question-input').press('Enter');
    const answer = page.getByTestId('answer').first();
    await answer.waitFor();
    const chip = answer.getByTestId('citation').first();
    expect(await chip.getAttribute('aria-label')).toMatch(/^Source \d+: M5StickC Plus · Specification/);
    await chip.hover();
    const card = page.getByTestId('citation-card');
    await card.waitFor();
    expect(await card.locator('.cite-card-where').textContent()).toMatch(/^M5StickC Plus · Specification/);
    // The passage starts with the end of the section before (chunks overlap): its sizes say enough.
    const quote = (await card.locator('.cite-card-quote').textContent()) ?? '';
    expect(quote).toContain('48*24*14 mm');
    expect(quote).not.toContain('\\');
    // An answer line's chip shows that line above the source; a source's chip, its passage.
    await chip.click();
    const cited = page.getByTestId('viewer-quote');
    await cited.waitFor();
    expect(await cited.locator('.muted').textContent()).toBe('Quoted line');
    expect((await cited.locator('.viewer-quote-text').textContent()) ?? '').not.toContain('\\');
    await answer.locator('.sources [data-testid="citation"]').first().click();
    await expect.poll(() => cited.locator('.muted').textContent()).toBe('Cited passage');
    const passage = (await cited.locator('.viewer-quote-text').textContent()) ?? '';
    expect(passage).toContain('48*24*14 mm');
    expect(passage).not.toContain('\\');
    await page.getByRole('button', { name: 'Close source' }).click();
  });

  it('gives a conversation the full title on hover', async () => {
    const list = await app.engine.handlers['chat.list']({ library: 'Boards' });
    const title = list.ok ? list.value[0]!.title : '';
    expect(title.length).toBeGreaterThan(40);
    const shown = page.getByTestId('conversation-list').locator('.conversation-title').first();
    expect(await shown.getAttribute('title')).toBe(title);
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
