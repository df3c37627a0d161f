/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importTexts, inLiveRegion, openApp, startUiApp, type UiApp } from './harness';

/**
 * A technician reading an answer who looks something up in another library comes back to the
 * conversation they left, as a browser tab would keep it, not to an empty chat; one who had
 * started a new conversation there comes back to the empty question box.
 */
describe('the open conversation across a library switch, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  const openTitle = () => page.evaluate(() => document.querySelector('.conversation-item[aria-current="true"] .conversation-title')?.textContent ?? null);
  const choose = async (library: RegExp) => {
    await page.getByRole('button', { name: library }).focus();
    await page.keyboard.press('Enter');
  };
  const ask = async (question: string) => {
    const answers = await page.getByTestId('answer').count();
    await page.getByTestId('question-input').fill(question);
    await page.getByTestId('question-input').press('Enter');
    await page.getByTestId('answer').nth(answers).waitFor();
  };

  beforeAll(async () => {
    app = await startUiApp();
    await importTexts(app, 'Pumps', { 'rac-225b.md': '# RAC-225B service\n\nThe RAC-225B takes a 5 A slow-blow fuse behind the terminal cover.\n' });
    await importTexts(app, 'Fans', { 'vx-40.md': '# VX-40 fan\n\nThe VX-40 fan bearing is greased every 2000 hours.\n' });
    page = await openApp(app, errors);
    await choose(/^Pumps/);
    await page.getByTestId('tab-chat').click();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('reopens the conversation that was open when the user comes back to its library', async () => {
    await ask('What fuse does the RAC-225B take?');
    await ask('Where is the RAC-225B fuse?');
    await page.getByRole('button', { name: 'New conversation' }).click();
    await ask('How is the RAC-225B serviced?');
    // The older conversation is the one being read when the user leaves.
    await page.getByRole('button', { name: /^What fuse does the RAC-225B take\?/ }).click();
    await expect.poll(() => page.getByTestId('answer').count()).toBe(2);
    await choose(/^Fans/);
    await expect.poll(() => page.getByTestId('chat-empty').count()).toBe(1);
    await ask('When is the VX-40 bearing greased?');
    await choose(/^Pumps/);
    await expect.poll(openTitle).toBe('What fuse does the RAC-225B take?');
    await expect.poll(() => page.getByTestId('answer').count()).toBe(2);
    expect(await page.getByTestId('answer').first().textContent()).toMatch(/5 A slow-blow fuse/);
    // The other library's conversation is kept for it in the same way.
    await choose(/^Fans/);
    await expect.poll(openTitle).toBe('When is the VX-40 bearing greased?');
  });

  it('comes back to an empty question box where a new conversation had been started', async () => {
    await page.getByRole('button', { name: 'New conversation' }).click();
    await choose(/^Pumps/);
    await expect.poll(openTitle).toBe('What fuse does the RAC-225B take?');
    await choose(/^Fans/);
    await page.getByTestId('conversation-list').locator('.conversation-item').first().waitFor();
    // Given time to (wrongly) reopen one: the list has loaded, nothing is open.
    await page.waitForTimeout(300);
    expect(await openTitle()).toBeNull();
    expect(await page.getByTestId('chat-empty').count()).toBe(1);
  });

  it('reads out a new answer only, never a conversation opened or reopened', async () => {
    // No answer nor question sits in a live region: opening a conversation read all of it aloud.
    const turnsInLiveRegion = () => inLiveRegion(page, '[data-testid="answer"], [data-testid="question"]');
    const said = () => page.evaluate(() => document.querySelector('[data-testid="answer-status"]')?.textContent ?? null);
    await choose(/^Pumps/);
    await expect.poll(openTitle).toBe('What fuse does the RAC-225B take?');
    await expect.poll(() => page.getByTestId('answer').count()).toBe(2);
    expect(await turnsInLiveRegion()).toBe(0);
    expect(await said()).toBe('');
    await page.getByRole('button', { name: /^How is the RAC-225B serviced\?/ }).click();
    await expect.poll(openTitle).toBe('How is the RAC-225B serviced?');
    expect(await turnsInLiveRegion()).toBe(0);
    expect(await said()).toBe('');
    // A question asked here: the status says the answer once it is written, as text.
    await ask('Which fuse is behind the terminal cover?');
    await expect.poll(said).toMatch(/^Extracted from your manuals: .*5 A slow-blow fuse/s);
    // Its citation markers said as sources, not as "left bracket one right bracket".
    expect(await said()).toMatch(/\(source 1\)/);
    expect(await said()).not.toMatch(/\[\d+\]/);
    expect(await turnsInLiveRegion()).toBe(0);
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
