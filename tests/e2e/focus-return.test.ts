/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { dropFiles, importTexts, openApp, reloadApp, startUiApp, type UiApp } from './harness';

/**
 * Keyboard users keep their place: closing the source viewer, the chunk inspector or a confirmation
 * dialog with Esc gives focus back to the control that opened it, and a control that goes away (a rename form,
 * a deleted conversation's buttons, an import's Cancel) hands focus on, never to the page's <body>.
 */
describe('focus after Esc, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement;
      return el === null || el === document.body ? 'body' : (el.getAttribute('aria-label') ?? el.className);
    });
  /** The focused element as "tag#id.class: text", for controls named only by their text. */
  const focusedElement = () =>
    page.evaluate(() => {
      const el = document.activeElement;
      if (el === null || el === document.body) return 'body';
      return `${el.tagName.toLowerCase()}#${el.id}.${el.className}: ${(el.textContent ?? '').trim()}`;
    });

  beforeAll(async () => {
    app = await startUiApp();
    await importTexts(app, 'Pumps', { 'rac-225b.md': '# RAC-225B service\n\nThe RAC-225B takes a 5 A slow-blow fuse behind the terminal cover.\n' });
    expect((await app.engine.handlers['libraries.create']({ name: 'Spare' })).ok).toBe(true);
    page = await openApp(app, errors);
    await page.getByRole('button', { name: /^Pumps/ }).click();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('returns focus to the search result that opened the viewer', async () => {
    await page.keyboard.press('Control+k');
    await page.keyboard.type('fuse');
    await page.keyboard.press('Enter');
    const result = page.locator('.result-open').first();
    await result.waitFor();
    await result.focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('source-viewer').waitFor();
    expect(await focused()).toBe('Close source');
    await page.keyboard.press('Escape');
    await page.getByTestId('source-viewer').waitFor({ state: 'detached' });
    expect(await focused()).toBe('result-open');
  });

  it('closes the chunk inspector with Esc and returns focus to the Chunks button that opened it', async () => {
    await page.getByTestId('tab-documents').click();
    await page.getByRole('button', { name: 'Inspect chunks of RAC-225B service' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('chunk-strip').waitFor();
    // A source opened from the inspector lies over it: the first Esc closes the source only.
    await page.getByRole('button', { name: 'Show in document' }).click();
    await page.getByTestId('source-viewer').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('source-viewer').waitFor({ state: 'detached' });
    expect(await page.getByTestId('chunk-inspector').count()).toBe(1);
    await page.keyboard.press('Escape');
    await page.getByTestId('chunk-inspector').waitFor({ state: 'detached' });
    await page.getByTestId('document-table').waitFor();
    await expect.poll(focused).toBe('Inspect chunks of RAC-225B service');
    expect(await page.getByTestId('tab-inspector').count()).toBe(0);
  });

  it('returns focus to the Delete button after Esc in the delete-library dialog', async () => {
    // A library that is not selected: its actions show only while its row has focus.
    await page.getByRole('button', { name: /^Spare/ }).focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Delete Spare');
    await page.keyboard.press('Enter');
    await page.getByTestId('confirm-dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('confirm-dialog').waitFor({ state: 'detached' });
    expect(await focused()).toBe('Delete Spare');
    // The same for the open library's own Delete button.
    await page.getByRole('button', { name: 'Delete Pumps' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('confirm-dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('confirm-dialog').waitFor({ state: 'detached' });
    expect(await focused()).toBe('Delete Pumps');
  });

  it('gives focus to the library after renaming it with Enter, and after Esc', async () => {
    // A row's actions show while it has focus: Tab from the library to its Rename button.
    await page.getByRole('button', { name: /^Spare/ }).focus();
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Rename Spare');
    await page.keyboard.press('Enter');
    expect(await focusedElement()).toMatch(/^input#rename-library/);
    await page.keyboard.press('Control+a');
    await page.keyboard.type('Spares');
    await page.keyboard.press('Enter');
    await expect.poll(focusedElement).toMatch(/^button#\.library-item: Spares\s*0$/);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Rename Spares');
    await page.keyboard.press('Enter');
    expect(await focusedElement()).toMatch(/^input#rename-library/);
    await page.keyboard.press('Escape');
    await expect.poll(focusedElement).toMatch(/^button#\.library-item: Spares\s*0$/);
  });

  it('shows why a new name is refused at the rename field, keeps focus there, and drops it with Esc', async () => {
    await page.getByRole('button', { name: 'Rename Spares' }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('Pumps');
    await page.keyboard.press('Enter');
    const field = page.getByLabel('New name for Spares');
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await field.getAttribute('aria-describedby'))!;
    expect(await page.locator(`#${describedBy}`).textContent()).toMatch(/already exists/);
    // The message stands with the rename, not under the Create form.
    expect(await page.locator('.create-library + .error').count()).toBe(0);
    expect(await focusedElement()).toMatch(/^input#rename-library/);
    await page.keyboard.press('Escape');
    await expect.poll(focusedElement).toMatch(/^button#\.library-item: Spares\s*0$/);
    expect(await page.getByRole('alert').filter({ hasText: 'already exists' }).count()).toBe(0);
  });

  it('puts focus in the question box for a new conversation, and on the next one after a delete', async () => {
    await page.getByTestId('tab-chat').click();
    const ask = async (question: string) => {
      const answers = await page.getByTestId('answer').count();
      await page.getByTestId('question-input').fill(question);
      await page.getByTestId('question-input').press('Enter');
      await page.getByTestId('answer').nth(answers).waitFor();
    };
    await ask('What fuse does the RAC-225B take?');
    await page.getByRole('button', { name: 'New conversation' }).focus();
    await page.keyboard.press('Enter');
    expect(await focusedElement()).toMatch(/^textarea#question/);
    await ask('Where is the RAC-225B fuse?');
    const items = page.getByTestId('conversation-list').locator('.conversation-item');
    await expect.poll(() => items.count()).toBe(2);
    // The newest (open) conversation is listed first: deleting it leaves focus on the other one.
    await page.getByRole('button', { name: 'Delete conversation' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete conversation' }).click();
    await expect.poll(() => items.count()).toBe(1);
    await expect.poll(focusedElement).toMatch(/^button#\.conversation-item: What fuse does the RAC-225B take\?/);
    // The last one gone, the question box takes focus.
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Delete conversation' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete conversation' }).click();
    await expect.poll(() => items.count()).toBe(0);
    await expect.poll(focusedElement).toMatch(/^textarea#question/);
  });

  it('gives focus to the conversation after renaming it with Enter, and after Esc', async () => {
    await page.getByTestId('question-input').fill('What fuse does the RAC-225B take?');
    await page.getByTestId('question-input').press('Enter');
    await page.getByTestId('answer').first().waitFor();
    await page.getByRole('button', { name: 'Rename conversation' }).focus();
    await page.keyboard.press('Enter');
    expect(await focusedElement()).toMatch(/^input#rename-/);
    await page.keyboard.press('Control+a');
    await page.keyboard.type('Fuse');
    await page.keyboard.press('Enter');
    await expect.poll(focusedElement).toMatch(/^button#\.conversation-item: Fuse/);
    // Its actions follow it in the Tab order, as before the rename.
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Rename conversation');
    await page.keyboard.press('Enter');
    expect(await focusedElement()).toMatch(/^input#rename-/);
    await page.keyboard.press('Escape');
    await expect.poll(focusedElement).toMatch(/^button#\.conversation-item: Fuse/);
  });

  it('gives focus to "Retry all" when a running import is cancelled from the keyboard', async () => {
    // Enough files that the import is still running when Cancel is pressed.
    const files = Array.from({ length: 60 }, (_, i) => ({
      name: `bulletin-${i}.md`,
      bytes: new TextEncoder().encode(`# Bulletin ${i}\n\nService bulletin ${i} for the RAC-225B: check the seal on unit batch ${1000 + i}.\n`),
    }));
    await dropFiles(page, files);
    const cancel = page.getByTestId('cancel-import');
    await cancel.focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="import-job"][data-phase="done"]').waitFor();
    await expect.poll(focusedElement).toMatch(/^button#\.btn btn-small: Retry all \(\d+\)$/);
    // Retry all takes its card away: focus goes to the card of the job it started, not to <body>.
    await page.keyboard.press('Enter');
    await expect.poll(focusedElement).toMatch(/^button#\.job-toggle: (Sending|Importing|Imported) /);
    await page.locator('[data-testid="import-job"][data-phase="done"]').waitFor();
    await page.locator('[data-testid="import-job"]').getByRole('button', { name: 'Dismiss' }).click();
  });

  it('after dismissing an import, gives focus to the card now in its place, then to the screen’s tab', async () => {
    await page.getByTestId('tab-chat').click();
    const done = page.locator('[data-testid="import-job"][data-phase="done"]');
    for (const [n, name] of ['notes-a.xyz', 'notes-b.xyz'].entries()) {
      await dropFiles(page, [{ name, bytes: new TextEncoder().encode('not a manual') }]);
      await expect.poll(() => done.count()).toBe(n + 1);
    }
    await done.first().getByRole('button', { name: 'Dismiss' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => done.count()).toBe(1);
    await expect.poll(focusedElement).toMatch(/^button#\.job-toggle: Import into Pumps failed/);
    await done.getByRole('button', { name: 'Dismiss' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('import-panel').waitFor({ state: 'detached' });
    await expect.poll(focusedElement).toMatch(/^button#tab-chat\./);
  });

  it('after removing a document, gives focus to the Remove button of the row now in its place, then to the heading', async () => {
    await importTexts(app, 'Leaflets', {
      'leaflet-a.md': '# Leaflet A\n\nThe RAC-225B filter is rinsed every 200 hours.\n',
      'leaflet-b.md': '# Leaflet B\n\nThe RAC-225B seal is checked every year.\n',
    });
    await reloadApp(page);
    await page.getByRole('button', { name: /^Leaflets/ }).click();
    await page.getByTestId('tab-documents').click();
    const removes = page.getByTestId('document-table').getByRole('button', { name: /^Remove / });
    await expect.poll(() => removes.count()).toBe(2);
    const [first, second] = await removes.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')));
    await removes.first().focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => removes.count()).toBe(1);
    await expect.poll(focused).toBe(second);
    expect(first).not.toBe(second);
    // The sidebar's count reads as "1 document" to a screen reader, not "1 documents".
    await page.getByRole('button', { name: 'Leaflets 1 document', exact: true }).waitFor();
    // The last one gone, the library's heading takes focus.
    await page.keyboard.press('Enter');
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Remove' }).click();
    await page.getByTestId('no-documents').waitFor();
    await expect.poll(focusedElement).toMatch(/^h2#library-heading\.: Leaflets$/);
  });

  it('after deleting the open library, gives focus to the library opened in its place', async () => {
    await page.getByRole('button', { name: 'Delete Leaflets' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete library' }).click();
    await page.getByRole('button', { name: /^Leaflets/ }).waitFor({ state: 'detached' });
    await expect.poll(focusedElement).toMatch(/^button#\.library-item: /);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-current'))).toBe('true');
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
