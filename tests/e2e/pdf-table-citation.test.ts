/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Code passed to page.evaluate runs in Chromium: it is type-checked against the DOM.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { writePdf, type PdfTextRun } from '../fixtures/pdf-writer';
import { importTexts, openApp, shot, startUiApp, type UiApp } from './harness';

const TOP = 720;

/** One table row: each cell its own text run, as datasheet tools write them. */
function row(y: number, cells: [number, string][], bold = false): PdfTextRun[] {
  return cells.map(([x, text]) => ({ x, y, text, size: 10, bold }));
}

/**
 * A datasheet laid out like the vendor's: page 2 ends with "4.2 Operating Condition" and its
 * power table, whose section runs on to page 3 with a second table. Both tables' headers hold
 * "Min. Typ Max. Unit", so the words that end the cited passage (on page 3) also occur on page 2,
 * above the cited rows.
 */
function operatingConditionsPdf(): Uint8Array {
  const power = (y: number, pin: string): PdfTextRun[] => row(y, [[80, pin], [200, '2.1'], [280, '3.3'], [360, '3.63'], [440, 'V']]);
  return writePdf(
    [
      {
        runs: [
          { x: 72, y: TOP, text: 'XB-200 Datasheet', size: 20, bold: true },
          { x: 72, y: TOP - 40, text: 'The XB-200 is a Wi-Fi and Bluetooth module for battery powered sensors.', size: 11 },
          { x: 72, y: TOP - 60, text: 'This datasheet lists its ratings, operating conditions and power consumption.', size: 11 },
        ],
      },
      {
        runs: [
          { x: 72, y: TOP, text: '4 Electrical Specifications', size: 16, bold: true },
          { x: 72, y: TOP - 40, text: '4.1 Absolute Maximum Rating', size: 13, bold: true },
          { x: 72, y: TOP - 65, text: 'Table 4.1: Absolute Maximum Rating', size: 10 },
          ...row(TOP - 90, [[80, 'Pin Name'], [200, 'Min.'], [360, 'Max.'], [440, 'Unit']], true),
          ...row(TOP - 108, [[80, 'VBAT'], [200, '-0.3'], [360, '4.2'], [440, 'V']]),
          ...row(TOP - 126, [[80, 'VIO'], [200, '-0.3'], [360, '3.9'], [440, 'V']]),
          { x: 72, y: TOP - 170, text: '4.2 Operating Condition', size: 13, bold: true },
          { x: 72, y: TOP - 195, text: 'Table 4.2: Recommended Power Operating Range', size: 10 },
          ...row(TOP - 220, [[80, 'Pin Name'], [200, 'Min.'], [280, 'Typ'], [360, 'Max.'], [440, 'Unit']], true),
          ...power(TOP - 238, 'AVDD33_1'),
          ...power(TOP - 256, 'AVDD33_2'),
          ...power(TOP - 274, 'DVDD33_DCDC'),
          { x: 72, y: 40, text: 'XB-200 Datasheet', size: 8 },
        ],
      },
      {
        runs: [
          { x: 72, y: TOP, text: 'Table 4.3: General Operating Conditions', size: 10 },
          ...row(TOP - 25, [[80, 'Item'], [150, 'Description'], [300, 'Min.'], [350, 'Typ'], [400, 'Max.'], [460, 'Unit']], true),
          ...row(TOP - 43, [[80, 'FCPU'], [150, 'CPU clock frequency'], [300, '1'], [350, '160'], [400, '192'], [460, 'MHz']]),
          ...row(TOP - 61, [[80, 'FSYS'], [150, 'System clock frequency'], [300, '1'], [350, '80'], [400, '96'], [460, 'MHz']]),
          { x: 72, y: TOP - 110, text: '4.3 Power Consumption', size: 13, bold: true },
          { x: 72, y: TOP - 135, text: 'In deep sleep the XB-200 draws 4 uA from VBAT with the RTC running.', size: 11 },
          { x: 72, y: 40, text: 'XB-200 Datasheet', size: 8 },
        ],
      },
    ],
    { title: 'XB-200 Datasheet' },
  );
}

/**
 * A citation of a datasheet table row, opened in the PDF viewer in Chromium. The cited chunk is
 * the whole "4.2 Operating Condition" section, which runs from page 2 onto page 3; each page must
 * mark its own part of it, the table rows included, and nothing of the section before it.
 */
describe('a cited PDF table row in the page viewer', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startUiApp();
    await importTexts(app, 'Modules', { 'xb-200.pdf': operatingConditionsPdf() });
    page = await openApp(app, errors);
    await page.getByTestId('tab-chat').click();
    const input = page.getByTestId('question-input');
    await input.fill('What is the operating voltage of the XB-200?');
    await input.press('Enter');
    await page.getByTestId('answer').first().waitFor();
  });

  afterAll(async () => {
    await app?.close();
  });

  /** Opens citation `n` of the answer and returns the text items marked on page `pageNo`. */
  async function marked(n: number, pageNo: number): Promise<string[]> {
    await page.getByTestId('answer').first().locator('.answer-text').locator(`[data-testid="citation"][data-n="${n}"]`).first().click();
    const pdf = page.locator(`[data-testid="pdf-page"][data-page="${pageNo}"]`);
    await pdf.waitFor();
    await expect.poll(async () => Number(await pdf.getAttribute('data-highlights'))).toBeGreaterThan(0);
    return pdf.getByTestId('pdf-highlight').evaluateAll((marks) => marks.map((m) => m.getAttribute('data-text') ?? ''));
  }

  it('marks the cited rows on the page, not only the heading and the header row above them', async () => {
    const answer = page.getByTestId('answer').first();
    expect(await answer.textContent()).toContain('AVDD33_1; Min.: 2.1 V; Typ: 3.3 V; Max.: 3.63 V');
    const texts = await marked(1, 2);
    expect(await page.getByTestId('viewer-page').textContent()).toContain('Page 2 of 3');
    await shot(page, 'pdf-table-row-cited');
    expect(texts).toEqual(expect.arrayContaining(['4.2 Operating Condition', 'Table 4.2: Recommended Power Operating Range', 'Pin Name', 'Unit']));
    // Every cell of the cited rows, each its own text item on the page.
    for (const cell of ['AVDD33_1', 'AVDD33_2', 'DVDD33_DCDC', '2.1', '3.3', '3.63', 'V']) expect(texts).toContain(cell);
    // The section before the passage and the page footer are not part of it.
    expect(texts).not.toContain('4.1 Absolute Maximum Rating');
    expect(texts).not.toContain('-0.3');
    expect(texts).not.toContain('XB-200 Datasheet');
    await page.getByRole('button', { name: 'Close source' }).click();
  });

  it('marks the part of the passage on the next page from its first line', async () => {
    const texts = await marked(2, 3);
    expect(texts).toEqual(expect.arrayContaining(['Table 4.3: General Operating Conditions', 'Item', 'Description', 'FCPU', 'FSYS', '96']));
    expect(texts).not.toContain('XB-200 Datasheet');
    await page.getByRole('button', { name: 'Close source' }).click();
    expect(errors).toEqual([]);
  });

  it('marks the row of the answer line whose chip was clicked more strongly, in view', async () => {
    const chip = page.getByTestId('answer').first().locator('.answer-text [data-testid="citation"][data-n="1"]').nth(1);
    expect(await chip.evaluate((el) => el.parentElement?.textContent)).toContain('Pin Name: AVDD33_2; Min.: 2.1 V');
    await chip.click();
    const pdf = page.locator('[data-testid="pdf-page"][data-page="2"]');
    await expect.poll(async () => Number(await pdf.getAttribute('data-line-marks'))).toBeGreaterThan(0);
    const line = await pdf.locator('.pdf-line').evaluateAll((marks) => marks.map((m) => m.getAttribute('data-text') ?? '').filter((t) => t.trim()));
    expect(line).toEqual(['AVDD33_2', '2.1', '3.3', '3.63', 'V']);
    // The rest of the passage is still marked, as before.
    expect(Number(await pdf.getAttribute('data-highlights'))).toBeGreaterThan(line.length + 5);
    const inView = () =>
      page.getByTestId('source-viewer').evaluate((viewer) => {
        const body = viewer.querySelector('.viewer-body')!.getBoundingClientRect();
        return [...viewer.querySelectorAll('.pdf-line')].every((m) => {
          const r = m.getBoundingClientRect();
          return r.top >= body.top && r.bottom <= body.bottom;
        });
      });
    await expect.poll(inView).toBe(true);
    await shot(page, 'pdf-table-row-line');
    await page.getByRole('button', { name: 'Close source' }).click();
    expect(errors).toEqual([]);
  });
});
