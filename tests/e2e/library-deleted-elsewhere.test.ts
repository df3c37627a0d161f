/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importTexts, openApp, shot, startUiApp, type UiApp } from './harness';

/**
 * Two windows on one engine: when one deletes the library the other shows, the other says so in
 * words before it shows another library (it never swaps the library under the user silently).
 */
describe('a library deleted in another window, in Chromium', () => {
  let app: UiApp;
  let a: Page;
  let b: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startUiApp();
    for (const name of ['C1', 'C2']) expect((await app.engine.handlers['libraries.create']({ name })).ok).toBe(true);
    await importTexts(app, 'C2', { 'pump-notes.md': '# RAC-225B notes\n\nThe RAC-225B takes a 5 A fuse.\n' });
    a = await openApp(app, errors);
    b = await openApp(app, errors);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('tells window A that its library went, and window B (which deleted it) nothing', async () => {
    await a.getByRole('button', { name: /^C2/ }).click();
    await a.locator('tr[data-doc="pump-notes.md"]').getByRole('button', { name: /^Open / }).click();
    await a.getByTestId('source-viewer').waitFor();

    await b.getByRole('button', { name: /^C2/ }).click();
    await b.getByRole('button', { name: 'Delete C2' }).click();
    await b.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete library' }).click();

    const notice = a.getByTestId('library-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(/Library “C2” was deleted.*Now showing “C1”/);
    expect(await a.getByRole('button', { name: /^C1/ }).getAttribute('aria-current')).toBe('true');
    await shot(a, 'library-deleted-elsewhere');
    await b.getByRole('button', { name: 'Delete C2' }).waitFor({ state: 'detached' });
    expect(await b.getByTestId('library-notice').count()).toBe(0);

    await notice.getByRole('button', { name: 'Dismiss' }).click();
    expect(await a.getByTestId('library-notice').count()).toBe(0);
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
