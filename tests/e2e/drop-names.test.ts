/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { dropFiles, openNewLibrary, startUiApp, type UiApp } from './harness';

/**
 * What a browser drop does with the names of the files the user dropped themselves (its top level):
 * a name starting with "." is imported like any other, system junk is left out with the card
 * saying why, and two files of one name are both imported, the second under a name of its own that
 * its row explains. Nothing dropped goes without a word.
 */
describe('names in a browser drop, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  const text = (s: string) => new TextEncoder().encode(s);
  const documentIds = async () => {
    const docs = await app.engine.handlers['documents.list']({ library: 'Pumps' });
    if (!docs.ok) throw new Error(docs.error.message);
    return docs.value.map((d) => d.id).sort();
  };
  const finished = () => page.locator('[data-testid="import-job"][data-phase="done"]');

  beforeAll(async () => {
    app = await startUiApp();
    page = await openNewLibrary(app, errors, 'Pumps');
  });

  afterAll(async () => {
    await app?.close();
  });

  it('imports a file whose name starts with "." when it is dropped by itself', async () => {
    await dropFiles(page, [{ name: '.pump-notes.md', bytes: text('# Pump notes\n\nThe RAC-225B seal is checked every year.\n') }]);
    await finished().waitFor();
    expect(await finished().getByTestId('import-summary').textContent()).toBe('1 imported');
    expect(await documentIds()).toEqual(['.pump-notes.md']);
    await finished().getByRole('button', { name: 'Dismiss' }).click();
  });

  it('leaves out dropped macOS and Windows junk and says why, in words', async () => {
    await dropFiles(page, [
      { name: '._rac-225b.pdf', bytes: new Uint8Array([0, 5, 22, 7, 0, 2, 0, 0]) },
      { name: '.DS_Store', bytes: new Uint8Array([0, 0, 0, 1, 66, 117, 100, 49]) },
    ]);
    await finished().waitFor();
    expect(await finished().locator('.job-title').textContent()).toBe('Nothing imported into Pumps');
    const skipped = finished().getByTestId('import-skipped');
    expect(await skipped.locator('summary').textContent()).toBe('2 files skipped');
    // Open at once: they are all this drop was about.
    expect(await skipped.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    const lines = await skipped.locator('li').allTextContents();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\._rac-225b\.pdf: .*macOS.*rac-225b\.pdf.*not a manual/);
    expect(lines[1]).toMatch(/^\.DS_Store: .*macOS.*not a manual/);
    expect(await documentIds()).toEqual(['.pump-notes.md']);
    await finished().getByRole('button', { name: 'Dismiss' }).click();
  });

  it('imports two different files of one name, the second under a name of its own that its row explains', async () => {
    await dropFiles(page, [
      { name: 'manual.md', bytes: text('# RAC-225B manual\n\nThe RAC-225B takes a 5 A slow-blow fuse.\n') },
      { name: 'manual.md', bytes: text('# XR-10 manual\n\nMount the XR-10 bracket with four M6 bolts.\n') },
    ]);
    await finished().waitFor();
    expect(await finished().getByTestId('import-summary').textContent()).toBe('2 imported');
    expect(await documentIds()).toEqual(['.pump-notes.md', 'manual (2).md', 'manual.md']);
    await finished().getByRole('button', { expanded: false }).click();
    const rows = finished().getByTestId('import-file');
    expect(await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-file')))).toEqual(['manual.md', 'manual (2).md']);
    expect(await rows.nth(0).getByTestId('file-note').count()).toBe(0);
    expect(await rows.nth(1).getByTestId('file-note').textContent()).toBe('Imported as "manual (2).md": another file named "manual.md" is in this drop.');
    // Each name holds its own file's text.
    const second = await app.engine.handlers['documents.source']({ library: 'Pumps', id: 'manual (2).md' });
    expect(second.ok && JSON.stringify(second.value)).toContain('XR-10');
  });

  it('says a copy of a listed manual under another name is already there, and lists it once', async () => {
    await finished().getByRole('button', { name: 'Dismiss' }).click();
    await dropFiles(page, [{ name: 'manual copy.md', bytes: text('# RAC-225B manual\n\nThe RAC-225B takes a 5 A slow-blow fuse.\n') }]);
    await finished().waitFor();
    expect(await finished().getByTestId('import-summary').textContent()).toBe('1 already in Pumps');
    await finished().getByRole('button', { expanded: false }).click();
    const row = finished().getByTestId('import-file');
    expect(await row.textContent()).toContain('Already in Pumps as "manual.md" (the same file), so not imported twice.');
    expect(await documentIds()).toEqual(['.pump-notes.md', 'manual (2).md', 'manual.md']);
    await finished().getByRole('button', { name: 'Dismiss' }).click();
  });

  it('shows the second of two identical files of one name under the name it came with, as a copy, with no renaming note', async () => {
    const guide = text('# P-200 guide\n\nPrime the P-200 before first use.\n');
    await dropFiles(page, [
      { name: 'guide.md', bytes: guide },
      { name: 'guide.md', bytes: guide },
    ]);
    await finished().waitFor();
    expect(await finished().getByTestId('import-summary').textContent()).toBe('1 imported · 1 already in Pumps');
    await finished().getByRole('button', { expanded: false }).click();
    const rows = finished().getByTestId('import-file');
    expect(await rows.locator('.job-file-name').allTextContents()).toEqual(['guide.md', 'guide.md']);
    // "guide (2).md" is a name the user never gave: it is neither shown nor explained.
    expect(await finished().textContent()).not.toContain('guide (2).md');
    expect(await rows.nth(1).textContent()).toContain('Already in Pumps as "guide.md" (the same file), so not imported twice.');
    expect(await finished().getByTestId('file-note').count()).toBe(0);
    expect(await documentIds()).toEqual(['.pump-notes.md', 'guide.md', 'manual (2).md', 'manual.md']);
    await finished().getByRole('button', { name: 'Dismiss' }).click();
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
