/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importTexts, openApp, startUiApp, type UiApp } from './harness';

/**
 * Keys do what the focused control says: Esc in the header's search box clears the box before
 * it closes the source viewer behind it, and the screen tabs follow the WAI-ARIA tabs pattern
 * (one tab stop; Left/Right, Home/End move between tabs and select them), and radio groups the
 * radio group pattern (one tab stop; the arrow keys, Home and End choose).
 */
describe('keyboard in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  const selectedTab = () => page.locator('[role="tab"][aria-selected="true"]').getAttribute('id');
  const focusedId = () => page.evaluate(() => document.activeElement?.id ?? '');

  beforeAll(async () => {
    app = await startUiApp();
    await importTexts(app, 'Pumps', { 'rac-225b.md': '# RAC-225B service\n\nThe RAC-225B takes a 5 A slow-blow fuse behind the terminal cover.\n' });
    page = await openApp(app, errors);
    await page.getByRole('button', { name: /^Pumps/ }).click();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('clears the search box on the first Esc and closes the viewer only on the second', async () => {
    await page.getByTestId('tab-documents').click();
    await page.getByRole('button', { name: 'Open RAC-225B service' }).click();
    const viewer = page.getByTestId('source-viewer');
    await viewer.waitFor();
    await page.keyboard.press('Control+k');
    await page.keyboard.type('fuse');
    await page.keyboard.press('Escape');
    // The box is cleared and keeps focus; the document being read stays open.
    expect(await page.getByTestId('global-search').inputValue()).toBe('');
    expect(await focusedId()).toBe('global-search');
    expect(await viewer.count()).toBe(1);
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
  });

  it('keeps one tab stop on the tabs and moves between them with the arrow keys, Home and End', async () => {
    await page.getByTestId('tab-documents').click();
    const tabs = page.getByRole('tab');
    const ids = await tabs.evaluateAll((els) => els.map((el) => el.id));
    expect(ids).toEqual(['tab-documents', 'tab-chat', 'tab-settings']);
    // Only the selected tab is in the Tab order.
    expect(await tabs.evaluateAll((els) => els.map((el) => (el as HTMLElement).tabIndex))).toEqual([0, -1, -1]);
    await page.getByTestId('tab-documents').focus();
    await page.keyboard.press('ArrowRight');
    expect(await selectedTab()).toBe('tab-chat');
    expect(await focusedId()).toBe('tab-chat');
    expect(await page.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe('tab-chat');
    expect(await page.getByTestId('tab-chat').getAttribute('aria-controls')).toBe(await page.getByRole('tabpanel').getAttribute('id'));
    await page.keyboard.press('End');
    expect(await selectedTab()).toBe('tab-settings');
    expect(await focusedId()).toBe('tab-settings');
    // Right from the last wraps to the first, Left from the first to the last.
    await page.keyboard.press('ArrowRight');
    expect(await focusedId()).toBe('tab-documents');
    await page.keyboard.press('ArrowLeft');
    expect(await focusedId()).toBe('tab-settings');
    await page.keyboard.press('Home');
    expect(await selectedTab()).toBe('tab-documents');
    expect(await focusedId()).toBe('tab-documents');
    expect(await tabs.evaluateAll((els) => els.map((el) => (el as HTMLElement).tabIndex))).toEqual([0, -1, -1]);
    // Tab leaves the tab list for the screen instead of walking through every tab.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).not.toBe('tab');
  });

  it('moves between the choices of a radio group with the arrow keys, one tab stop for the group', async () => {
    await page.getByTestId('tab-settings').click();
    const group = page.getByRole('radiogroup', { name: 'Theme' });
    const radios = group.getByRole('radio');
    const checked = () => group.locator('[aria-checked="true"]').textContent();
    const focusedText = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    expect(await checked()).toBe('Follow system');
    // Only the checked choice is in the Tab order.
    expect(await radios.evaluateAll((els) => els.map((el) => (el as HTMLElement).tabIndex))).toEqual([0, -1, -1]);
    await group.getByRole('radio', { name: 'Follow system' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await checked()).toBe('Light');
    expect(await focusedText()).toBe('Light');
    expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe('light');
    await page.keyboard.press('ArrowDown');
    expect(await checked()).toBe('Dark');
    // Past the last, round to the first; Up and Left go back.
    await page.keyboard.press('ArrowRight');
    expect(await checked()).toBe('Follow system');
    await page.keyboard.press('ArrowLeft');
    expect(await checked()).toBe('Dark');
    await page.keyboard.press('Home');
    expect(await checked()).toBe('Follow system');
    expect(await focusedText()).toBe('Follow system');
    expect(await radios.evaluateAll((els) => els.map((el) => (el as HTMLElement).tabIndex))).toEqual([0, -1, -1]);
    // Shift+Tab leaves the group instead of walking back through its choices.
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).not.toBe('radio');
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
