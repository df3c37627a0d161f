/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Code passed to page.evaluate runs in Chromium: it is type-checked against the DOM.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { EngineEvent } from '../../src-main/contract/api';
import { tempDir } from '../helpers/temp';
import { installationDocx, openApp, serviceManualPdf, shot, startUiApp, type UiApp } from './harness';

/**
 * Chat in Chromium against the real engine with no language model (a fresh install): answers are
 * extracted and labelled so, stream in as `chat.token` events, carry [n] citation chips whose
 * passage shows on hover and which open the source on the cited page with the passage marked.
 */
describe('chat with citations in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  const events: EngineEvent[] = [];
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    app = await startUiApp();
    app.engine.subscribe((e) => events.push(e));
    const src = await tempDir();
    cleanup = src.cleanup;
    await writeFile(path.join(src.dir, 'rac-225b.pdf'), serviceManualPdf());
    await writeFile(path.join(src.dir, 'xr10-install.docx'), await installationDocx());
    const imported = await app.engine.importPaths('Pumps', [path.join(src.dir, 'rac-225b.pdf'), path.join(src.dir, 'xr10-install.docx')]);
    expect(imported.ok && imported.value.summary.imported).toBe(2);
    page = await openApp(app, errors);
    await page.getByTestId('tab-chat').click();
  });

  afterAll(async () => {
    await app?.close();
    await cleanup?.();
  });

  it('explains extracted answers before the first question and offers the library’s models as chips', async () => {
    await page.getByTestId('no-llm-notice').waitFor();
    expect(await page.getByTestId('no-llm-notice').textContent()).toMatch(/No language model is installed/);
    const chips = page.getByTestId('model-chips-chat').getByRole('button');
    const docs = await app.engine.handlers['documents.list']({ library: 'Pumps' });
    const detected = [...new Set(docs.ok ? docs.value.flatMap((d) => d.models) : [])].sort();
    expect(detected).toContain('RAC-225B');
    await expect.poll(() => chips.allTextContents()).toEqual(detected);
  });

  it('streams an extracted answer for the named model, with citation chips', async () => {
    // Watch the transcript: the answer must show up as "answering" before it is final.
    await page.evaluate(() => {
      const w = window as unknown as { __sawStreaming: boolean };
      w.__sawStreaming = false;
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="streaming-answer"]')) w.__sawStreaming = true;
      }).observe(document.body, { subtree: true, childList: true });
    });
    const input = page.getByTestId('question-input');
    await input.fill('What fuse does the RAC-225B take?');
    // Shift+Enter adds a line; Enter sends.
    await input.press('Shift+Enter');
    expect(await input.inputValue()).toBe('What fuse does the RAC-225B take?\n');
    await input.press('Enter');
    const answer = page.getByTestId('answer').first();
    await answer.waitFor();
    expect(await input.inputValue()).toBe('');
    expect(await page.evaluate(() => (window as unknown as { __sawStreaming: boolean }).__sawStreaming)).toBe(true);
    expect(await answer.getAttribute('data-mode')).toBe('extracted');
    expect(await answer.getByTestId('extracted-label').textContent()).toContain('Extracted');
    expect(await answer.getByTestId('resolved-models').textContent()).toContain('RAC-225B');
    expect(await answer.textContent()).toContain('5 A slow-blow fuse');
    const tokens = events.filter((e): e is Extract<EngineEvent, { type: 'chat.token' }> => e.type === 'chat.token');
    expect(tokens.length).toBeGreaterThan(0);
    expect(await answer.getByTestId('citation').count()).toBeGreaterThan(0);
    // The conversation is listed, titled by its first question.
    await page.getByTestId('conversation-list').getByText('What fuse does the RAC-225B take?').waitFor();
  });

  it('shows the cited passage on hover and opens the PDF on the cited page with it highlighted', async () => {
    const chip = page.getByTestId('answer').first().locator('.answer-text').getByTestId('citation').first();
    await chip.hover();
    const card = page.getByTestId('citation-card');
    await card.waitFor();
    expect(await card.textContent()).toMatch(/p\. 2/);
    expect(await card.textContent()).toContain('slow-blow fuse');
    await shot(page, 'chat-citation-hover');
    await chip.click();
    const pdf = page.locator('[data-testid="pdf-page"][data-page="2"]');
    await pdf.waitFor();
    await expect.poll(async () => Number(await pdf.getAttribute('data-highlights'))).toBeGreaterThan(0);
    expect(await page.getByTestId('viewer-page').textContent()).toContain('Page 2 of 3');
    await shot(page, 'chat-citation-pdf');
    await page.getByTestId('source-viewer').getByRole('button', { name: 'Text' }).click();
    const marked = page.getByTestId('source-text').locator('mark.passage');
    await marked.first().waitFor();
    expect((await marked.allTextContents()).join(' ')).toContain('slow-blow fuse');
    await page.getByRole('button', { name: 'Close source' }).click();
  });

  it('hides the passage card on Esc, from focus or hover, without closing anything else', async () => {
    const chip = page.getByTestId('answer').first().locator('.answer-text').getByTestId('citation').first();
    const card = page.getByTestId('citation-card');
    await chip.focus();
    await card.waitFor();
    await page.keyboard.press('Escape');
    await card.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('citation');
    // Shown under the pointer while the viewer is open: the first Esc hides the card, the viewer stays.
    await chip.click();
    await page.getByTestId('source-viewer').waitFor();
    await chip.hover();
    await card.waitFor();
    await page.keyboard.press('Escape');
    await card.waitFor({ state: 'detached' });
    expect(await page.getByTestId('source-viewer').count()).toBe(1);
    await page.keyboard.press('Escape');
    await page.getByTestId('source-viewer').waitFor({ state: 'detached' });
    await page.mouse.move(0, 0);
  });

  it('keeps the model for a follow-up that names none, and says so when a model has no manual', async () => {
    const input = page.getByTestId('question-input');
    await input.fill('How often should the filter be cleaned?');
    await input.press('Enter');
    const second = page.getByTestId('answer').nth(1);
    await second.waitFor();
    expect(await second.getByTestId('resolved-models').textContent()).toContain('RAC-225B');
    expect(await second.textContent()).toContain('200 hours');
    await input.fill('What fuse does the ZX-900 take?');
    await input.press('Enter');
    const third = page.getByTestId('answer').nth(2);
    await third.waitFor();
    expect(await third.getAttribute('data-mode')).toBe('not-found');
    // The question named a model, one this library has no manual for: the answer's first sentence
    // says so, and no model line above it says it named none or one of the library's.
    expect(await third.locator('.answer-text').textContent()).toMatch(/^No manual for ZX-900 in this library/);
    expect(await third.getByTestId('any-model').count()).toBe(0);
    expect(await third.getByTestId('resolved-models').count()).toBe(0);
    // The header names it from the turn's unknownModels.
    expect(await third.getByTestId('unknown-models').textContent()).toBe('No manual for ZX-900');
    await shot(page, 'chat-conversation');
  });

  it('keeps chat and the source viewer usable at 200% zoom', async () => {
    await page.setViewportSize({ width: 640, height: 400 });
    await page.getByTestId('question-input').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await shot(page, 'chat-zoom-200');
    await page.getByTestId('answer').first().locator('.answer-text').getByTestId('citation').first().click();
    await page.locator('[data-testid="pdf-page"][data-page="2"]').waitFor();
    // The viewer covers the window at this size; its close button stays reachable.
    await shot(page, 'viewer-zoom-200');
    await page.getByRole('button', { name: 'Close source' }).click();
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('limits the open conversation to the models chosen with the chips', async () => {
    const chip = page.getByTestId('model-chips-chat').getByRole('button', { name: 'RAC-225B' });
    await chip.click();
    expect(await chip.getAttribute('aria-pressed')).toBe('true');
    const scopeOf = async () => {
      const list = await app.engine.handlers['chat.list']({ library: 'Pumps' });
      const id = list.ok ? list.value[0]?.id : undefined;
      const conv = id ? await app.engine.handlers['chat.get']({ library: 'Pumps', id }) : null;
      return conv?.ok ? (conv.value.scope.models ?? []) : ['error'];
    };
    await expect.poll(scopeOf).toEqual(['RAC-225B']);
    await chip.click();
    expect(await chip.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(scopeOf).toEqual([]);
  });

  it('starts, renames and deletes conversations', async () => {
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByTestId('chat-empty').waitFor();
    await page.getByTestId('conversation-list').getByText('What fuse does the RAC-225B take?').click();
    await expect.poll(() => page.getByTestId('answer').count()).toBe(3);
    await page.getByRole('button', { name: 'Rename conversation' }).click();
    await page.getByLabel('Conversation title').fill('RAC-225B fuse');
    await page.getByLabel('Conversation title').press('Enter');
    await page.getByTestId('conversation-list').getByText('RAC-225B fuse').waitFor();
    await page.getByRole('button', { name: 'Delete conversation' }).click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete conversation' }).click();
    await expect.poll(() => page.getByTestId('conversation-list').locator('li').count()).toBe(0);
  });

  it('logged no page errors and made no request to any host but the bridge', () => {
    expect(errors).toEqual([]);
    expect(app.requests.filter((u) => !u.startsWith(`${app.bridge.origin}/`))).toEqual([]);
  });
});
