/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Code passed to page.evaluate runs in Chromium: it is type-checked against the DOM.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importTexts, openApp, shot, startUiApp, type UiApp } from './harness';

/**
 * A service manual whose "Maintenance" section is one long passage: the filter is named in its
 * first list and again near its end, far below, so a chip of the answer's later line must bring
 * that line into view, not the passage's top.
 */
const MANUAL = [
  '# AX-100 Air Handler Service Manual',
  '',
  'This manual covers the AX-100 air handler for workshops and small halls.',
  '',
  '## Maintenance',
  '',
  'Switch the AX-100 off at the isolator before any maintenance and wait two minutes for the fan to stop.',
  '',
  '- **Weekly:** check the condensate drain for blockages and pour in a cup of clean water.',
  '- **Monthly:** wipe the grille with a damp cloth; do not use solvents on the painted panels.',
  '- **Every 200 hours:** clean the air filter with a vacuum cleaner from the dirty side.',
  '',
  'The fan bearings are sealed for life and need no grease. Listen for a grinding noise at start-up: it means a bearing is worn and the motor must be replaced by a service technician.',
  '',
  'The drive belt stretches in its first weeks. Check its tension after the first 50 hours: pressed with a thumb in the middle, it should give about 10 mm. Adjust it with the motor slide bolts and tighten them to 12 Nm.',
  '',
  'The heat exchanger fins bend easily. Straighten bent fins with a fin comb and never with a screwdriver. Rinse the fins from the inside out with low-pressure water once a year, with the power off and the electrical box covered.',
  '',
  'Inspect the flexible duct connections every six months for cracks and loose clamps. A torn connection lets dusty air bypass the unit and shortens the life of every part downstream.',
  '',
  'The control board stores the last ten fault codes. Read them on the display with the MENU and DOWN keys before you clear them, and write them in the service log with the date and the running hours.',
  '',
  'Test the frost thermostat every autumn: hold it in ice water for one minute and the fan must stop within ten seconds. Replace a thermostat that does not trip.',
  '',
  'Replace the air filter cartridge after 2000 hours, or at once when the filter warning light stays on after cleaning.',
  '',
  '## Specifications',
  '',
  '| Item | Value |',
  '| --- | --- |',
  '| Airflow | 1200 m3/h |',
  '| Supply | 230 V 50 Hz |',
].join('\n');

describe('a citation chip marks its answer line in the source viewer', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startUiApp();
    await importTexts(app, 'Halls', { 'ax-100.md': MANUAL });
    page = await openApp(app, errors);
    await page.getByTestId('tab-chat').click();
    const input = page.getByTestId('question-input');
    await input.fill('How often do I clean or replace the air filter of the AX-100?');
    await input.press('Enter');
    await page.getByTestId('answer').first().waitFor();
  });

  afterAll(async () => {
    await app?.close();
  });

  /** The answer line a chip stands after, as shown (the chip's own number left out). */
  const lineOf = (chip: ReturnType<Page['locator']>) => chip.evaluate((el) => (el.parentElement?.textContent ?? '').replace(el.textContent ?? '', '').replace(/\s+/g, ' ').trim());

  /** Words of a text, for comparing a line with the marked Markdown it was quoted from. */
  const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

  /** The marked line's text, and whether each of its marks lies inside the viewer's visible area. */
  async function markedLine(): Promise<{ text: string; inView: boolean; passageTopInView: boolean }> {
    return page.getByTestId('source-viewer').evaluate((viewer) => {
      const body = viewer.querySelector('.viewer-body')!.getBoundingClientRect();
      const marks = [...viewer.querySelectorAll('.passage-line')];
      const inside = (el: Element) => {
        const r = el.getBoundingClientRect();
        return r.height > 0 && r.top >= body.top && r.bottom <= body.bottom;
      };
      const first = viewer.querySelector('.passage');
      return { text: marks.map((m) => m.textContent).join(''), inView: marks.length > 0 && marks.every(inside), passageTopInView: first !== null && inside(first) };
    });
  }

  it('marks a later line of the answer inside the passage and scrolls it, not the passage’s top, into view', async () => {
    const chips = page.getByTestId('answer').first().locator('.answer-text [data-testid="citation"]');
    expect(await chips.count()).toBeGreaterThanOrEqual(3);
    // Every line cites the same passage: only the line tells them apart.
    expect(new Set(await chips.evaluateAll((els) => els.map((e) => e.getAttribute('data-n'))))).toEqual(new Set(['1']));
    const chip = chips.nth(2);
    const line = await lineOf(chip);
    expect(line).toContain('Test the frost thermostat every autumn');
    await chip.click();
    await page.getByTestId('source-text').locator('.passage-line').first().waitFor();
    await expect.poll(async () => (await markedLine()).inView).toBe(true);
    const shown = await markedLine();
    expect(words(shown.text)).toEqual(words(line));
    // The passage starts a long way above the line: its top is scrolled out of view.
    expect(shown.passageTopInView).toBe(false);
    expect(await page.getByTestId('source-text').locator('mark.passage').count()).toBeGreaterThan(await page.locator('.passage-line').count());
    // The box above the source shows the line too, not the passage's opening.
    const box = page.getByTestId('viewer-quote');
    expect(await box.locator('.muted').textContent()).toBe('Quoted line');
    expect(words((await box.locator('.viewer-quote-text').textContent()) ?? '')).toEqual(words(line));
    await shot(page, 'citation-line-marked');
  });

  it('marks a table row the answer read with its header, opened from the keyboard', async () => {
    const chip = page.getByTestId('answer').first().locator('.answer-text [data-testid="citation"]').nth(3);
    const line = await lineOf(chip);
    expect(line).toBe('Supply: 230 V 50 Hz');
    await chip.focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await markedLine()).text).toBe('Supply230 V 50 Hz');
    await expect.poll(async () => (await markedLine()).inView).toBe(true);
  });

  it('marks the other line when another chip of the same passage is clicked with the viewer open', async () => {
    const chip = page.getByTestId('answer').first().locator('.answer-text [data-testid="citation"]').nth(1);
    const line = await lineOf(chip);
    expect(line).toContain('clean the air filter with a vacuum cleaner');
    await chip.click();
    await expect.poll(async () => words((await markedLine()).text)).toEqual(words(line));
    await expect.poll(async () => (await markedLine()).inView).toBe(true);
  });

  it('shows each chip’s passage card whole inside the window, whatever the window’s height', async () => {
    const chips = page.getByTestId('answer').first().locator('[data-testid="citation"]');
    const card = page.getByTestId('citation-card');
    const cut: string[] = [];
    for (const height of [420, 520, 640, 800]) {
      await page.setViewportSize({ width: 1280, height });
      for (let k = 0; k < (await chips.count()); k++) {
        const chip = chips.nth(k);
        await chip.scrollIntoViewIfNeeded();
        await chip.hover();
        await card.waitFor();
        const box = (await card.boundingBox())!;
        if (box.y < 0 || box.y + box.height > height) cut.push(`chip ${k} at ${height}px: ${Math.round(box.y)}..${Math.round(box.y + box.height)}`);
        await page.mouse.move(0, 0);
        await card.waitFor({ state: 'detached' });
      }
    }
    expect(cut).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('keeps the whole-passage highlight for a chip of the sources list', async () => {
    await page.getByTestId('answer').first().locator('.sources [data-testid="citation"]').first().click();
    await expect.poll(() => page.locator('.passage-line').count()).toBe(0);
    expect(await page.getByTestId('source-text').locator('mark.passage').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('viewer-quote').locator('.muted').textContent()).toBe('Cited passage');
    await page.getByRole('button', { name: 'Close source' }).click();
    expect(errors).toEqual([]);
  });
});
