/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Code passed to page.evaluate runs in Chromium: it is type-checked against the DOM.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { tempDir } from '../helpers/temp';
import { openApp, startUiApp, type UiApp } from './harness';

/**
 * An extracted answer in Chromium shows each quoted line as the manual wrote it: characters that
 * are Markdown elsewhere ("45*20*12mm", "**", "_x_") stay characters, never emphasis.
 */
describe('extracted answers show quotes as written', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    app = await startUiApp();
    const src = await tempDir();
    cleanup = src.cleanup;
    const manual = [
      '# TC-80 Timer Camera',
      '',
      'The TC-80 is a timer camera for time-lapse photography.',
      '',
      '## Specification',
      '',
      '- Product Size: 45*20*12mm',
      '- Package Size: 60*60*15mm',
      '- Lens: 66.5° wide angle, mode _auto_ by default',
      '',
    ].join('\n');
    await writeFile(path.join(src.dir, 'tc-80.txt'), manual);
    const imported = await app.engine.importPaths('Cams', [path.join(src.dir, 'tc-80.txt')]);
    expect(imported.ok && imported.value.summary.imported).toBe(1);
    page = await openApp(app, errors);
    await page.getByTestId('tab-chat').click();
  });

  afterAll(async () => {
    await app?.close();
    await cleanup?.();
  });

  it('quotes a size with asterisks as its characters, not as emphasis', async () => {
    const input = page.getByTestId('question-input');
    await input.fill('What is the TC-80 product size and package size?');
    await input.press('Enter');
    const answer = page.getByTestId('answer').first();
    await answer.waitFor();
    expect(await answer.getAttribute('data-mode')).toBe('extracted');
    const text = (await answer.locator('.answer-text').textContent()) ?? '';
    expect(text).toContain('45*20*12mm');
    expect(text).toContain('60*60*15mm');
    expect(await answer.locator('.answer-text em').count()).toBe(0);
    // The citation chips still work inside the literal text.
    expect(await answer.getByTestId('citation').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });
});
