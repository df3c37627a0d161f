/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shot, type UiApp } from './harness';
import { openChat } from './chat-harness';

/**
 * What the user reads when input is refused: the question box stops at the engine's limit and
 * counts down to it, a refused question stays in the box with a sentence in words (no bubble
 * left without an answer), a question not yet sent stays there while another screen is looked at,
 * and no message carries the engine's field names.
 */
describe('refused input in words, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    ({ app, page } = await openChat(errors, 'Pumps', { 'rac-225b.md': '# RAC-225B service\n\nThe RAC-225B takes a 5 A slow-blow fuse.\n' }));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('limits the question box to 2000 characters and shows a counter near the limit', async () => {
    const box = page.getByTestId('question-input');
    expect(await box.getAttribute('maxlength')).toBe('2000');
    await box.fill('What fuse does the RAC-225B take?');
    expect(await page.getByTestId('question-count').count()).toBe(0);
    await box.fill('x'.repeat(1995));
    expect(await page.getByTestId('question-count').textContent()).toBe('1995 / 2000');
    // Typing stops at the limit.
    await box.press('End');
    await page.keyboard.type('abcdefghij');
    expect((await box.inputValue()).length).toBe(2000);
    expect(await page.getByTestId('question-count').textContent()).toBe('2000 / 2000');
    await shot(page, 'composer-limit');
  });

  it('keeps a refused question in the box and says why in words', async () => {
    const box = page.getByTestId('question-input');
    // The box's limit lifted from script, to reach the engine's own check: it refuses the question.
    await box.evaluate((el) => el.removeAttribute('maxlength'));
    const long = `What fuse does the RAC-225B take? ${'x'.repeat(2010)}`;
    await box.fill(long);
    expect(await box.inputValue()).toBe(long);
    await box.press('Enter');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('This question was not sent. It is too long: at most 2000 characters.');
    expect(await box.inputValue()).toBe(long);
    expect(await page.getByTestId('question').count()).toBe(0);
    // The conversation opened for it is gone again: none is listed, in the app or in the engine.
    const listed = await app.engine.api['chat.list']({ library: 'Pumps' });
    expect(listed.ok && listed.value).toEqual([]);
  });

  it('keeps a question not yet sent in the box while the user looks at another screen', async () => {
    const box = page.getByTestId('question-input');
    await box.fill('What fuse does the RAC');
    // A look at the Documents screen for the model's exact name, by keyboard, and back.
    await page.getByTestId('tab-chat').focus();
    await page.keyboard.press('ArrowLeft');
    await page.getByTestId('document-table').waitFor();
    await page.keyboard.press('ArrowRight');
    await box.waitFor();
    expect(await box.inputValue()).toBe('What fuse does the RAC');
    await box.press('End');
    await page.keyboard.type('-225B take?');
    await box.press('Enter');
    await page.getByTestId('answer').waitFor();
    expect(await box.inputValue()).toBe('');
    // Sent, it is not typed again on the way back either.
    await page.getByTestId('tab-documents').click();
    await page.getByTestId('tab-chat').click();
    expect(await box.inputValue()).toBe('');
  });

  it('drops the field name from a refused library name', async () => {
    await page.getByLabel('New library name').fill('a/b');
    await page.getByLabel('New library name').press('Enter');
    const alert = page.getByRole('navigation', { name: 'Libraries' }).getByRole('alert');
    await alert.waitFor();
    const text = (await alert.textContent()) ?? '';
    expect(text).toMatch(/slash/);
    expect(text).not.toMatch(/\(name\)/);
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
