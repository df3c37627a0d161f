/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importTexts, openApp, startUiApp, type UiApp } from './harness';

/**
 * A manual's own footnote reference inside a quoted line ("a 5 A fuse [2] in the terminal box"):
 * an extracted answer ends each quoted line with its one citation marker, so the "[2]" is the
 * manual's text, shown and said as written. Made a chip, it was "source 2 not found" with one
 * source, and opened the wrong source with two.
 */
describe('a footnote reference quoted in an extracted answer, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startUiApp();
    await importTexts(app, 'Pumps', {
      'p9.md': '# P-9 pump\n\n## Fuses\n\nThe P-9 pump takes a 5 A slow-blow fuse [2] in the terminal box.\n\n## Notes\n\n[2] Use only fuses rated 250 V.\n',
      'p7.md': '# P-7 pump\n\n## Fuses\n\nThe P-7 pump takes a 3 A fuse behind the cover.\n',
    });
    page = await openApp(app, errors);
    await page.getByRole('button', { name: /^Pumps/ }).click();
    await page.getByTestId('tab-chat').click();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('keeps the reference as the manual’s text and cites the passage once, at the line’s end', async () => {
    await page.getByTestId('question-input').fill('What fuse does the P-9 pump take?');
    await page.getByTestId('question-input').press('Enter');
    const answer = page.locator('[data-testid="answer"][data-mode="extracted"]');
    await answer.waitFor();
    const line = answer.locator('.answer-text li', { hasText: 'slow-blow fuse' }).first();
    await line.waitFor();
    expect(await line.innerText()).toMatch(/slow-blow fuse \[2\] in the terminal box\./);
    // One chip on the line, for the source the answer has; no marker said to be missing.
    expect(await line.locator('cite, .cite-missing, button[aria-label^="Source"]').count()).toBe(1);
    expect(await answer.locator('.cite-missing').count()).toBe(0);
    const spoken = await line.ariaSnapshot();
    expect(spoken).toMatch(/button "Source 1: /);
    expect(spoken).not.toMatch(/Source 2|source 2 not found/);
    await expect.poll(() => page.evaluate(() => document.querySelector('[data-testid="answer-status"]')?.textContent ?? '')).toMatch(/fuse \[2\] in the terminal box\. \(source 1\)/);
    expect(errors).toEqual([]);
  });
});
