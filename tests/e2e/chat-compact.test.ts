/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importTexts, openApp, shot, startUiApp, type UiApp } from './harness';

/**
 * Chat where the panel is too narrow for the conversation list (800x600, or 1280 px with the
 * source viewer open): a "Conversations" button opens the list as a drawer, by keyboard too, so
 * past conversations stay reachable and a new one can be started.
 */
describe('conversations in a narrow chat, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startUiApp();
    await importTexts(app, 'Pumps', { 'rac-225b.md': '# RAC-225B service\n\nThe RAC-225B takes a 5 A slow-blow fuse.\n\n## Filter\n\nClean the RAC-225B filter every 200 hours.\n' });
    for (const [title, question] of [
      ['Fuse question', 'What fuse does the RAC-225B take?'],
      ['Filter question', 'How often is the RAC-225B filter cleaned?'],
    ] as const) {
      const created = await app.engine.handlers['chat.create']({ library: 'Pumps', title });
      expect(created.ok).toBe(true);
      if (created.ok) expect((await app.engine.handlers['chat.ask']({ library: 'Pumps', id: created.value.id, question })).ok).toBe(true);
    }
    page = await openApp(app, errors);
    await page.setViewportSize({ width: 800, height: 600 });
    await page.getByTestId('tab-chat').click();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('opens the hidden list from a Conversations button with the keyboard, and closes it with Esc', async () => {
    const list = page.getByRole('navigation', { name: 'Conversations' });
    const toggle = page.getByTestId('conversations-toggle');
    await toggle.waitFor();
    expect(await list.isVisible()).toBe(false);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.focus();
    await page.keyboard.press('Enter');
    await list.waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('New conversation');
    await shot(page, 'chat-conversations-drawer-800x600');
    // Tab to a past conversation and open it: the drawer closes on the transcript it opened.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/Filter question|Fuse question/);
    const opened = (await page.evaluate(() => document.activeElement?.textContent)) ?? '';
    await page.keyboard.press('Enter');
    await list.waitFor({ state: 'hidden' });
    const question = opened.includes('Filter') ? 'How often is the RAC-225B filter cleaned?' : 'What fuse does the RAC-225B take?';
    expect(await page.getByTestId('question').first().textContent()).toBe(question);
    // Its rename, export and delete are in the drawer; Esc closes it and gives focus back to the button.
    await toggle.click();
    for (const name of ['Rename conversation', 'Export conversation', 'Delete conversation']) expect(await list.getByRole('button', { name }).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('conversations-toggle');
  });

  it('closes the drawer when Tab or Shift+Tab takes focus past it and its button, never leaving it over the question box', async () => {
    const list = page.getByRole('navigation', { name: 'Conversations' });
    const toggle = page.getByTestId('conversations-toggle');
    // In the drawer, or on its button (which stays in view beside it, showing it expanded).
    const inList = () =>
      page.evaluate(() => {
        const el = document.activeElement;
        return (document.getElementById('conversations')?.contains(el) ?? false) || el?.getAttribute('data-testid') === 'conversations-toggle';
      });
    await toggle.focus();
    await page.keyboard.press('Enter');
    await list.waitFor();
    for (let i = 0; i < 12 && (await inList()); i++) await page.keyboard.press('Tab');
    expect(await inList()).toBe(false);
    await list.waitFor({ state: 'hidden' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    // Backwards out of its first button, too.
    await toggle.focus();
    await page.keyboard.press('Enter');
    await list.waitFor();
    await page.keyboard.press('Shift+Tab');
    await list.waitFor({ state: 'hidden' });
  });

  it('offers the same button at 1280 px while the source viewer is open', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const toggle = page.getByTestId('conversations-toggle');
    expect(await toggle.isVisible()).toBe(false);
    expect(await page.getByRole('navigation', { name: 'Conversations' }).isVisible()).toBe(true);
    await page.getByTestId('answer').first().locator('.sources').getByRole('button').first().click();
    await page.getByTestId('source-viewer').waitFor();
    await toggle.waitFor();
    await toggle.click();
    await page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: 'New conversation' }).click();
    await page.getByTestId('chat-empty').waitFor();
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
