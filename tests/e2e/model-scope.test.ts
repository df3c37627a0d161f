/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importTexts, openApp, shot, startUiApp, type UiApp } from './harness';

/**
 * One visible model scope: the chat's model chips sit in the composer and win over the model the
 * conversation remembered; search keeps its own chips; with no model named or picked, values of
 * several models come grouped under each model's name with a question back.
 */
const MANUAL = (model: string, fuse: string) =>
  [`# ${model} service manual`, '', '## Fuse', '', `The ${model} main board takes a ${fuse} fuse on the mains input.`, '', '## Cleaning', '', `Clean the ${model} filter every month with warm water.`].join('\n');
const FAMILY = [
  '# Fuse ratings of the RAC series',
  '',
  '## RAC-225B',
  '',
  '- Mains fuse rating: T5A 250V',
  '',
  '## RAC-226B',
  '',
  '- Mains fuse rating: T10A 250V',
].join('\n');

describe('model scope in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];

  const ask = async (question: string, nth: number): Promise<string> => {
    const input = page.getByTestId('question-input');
    await input.fill(question);
    await input.press('Enter');
    const answer = page.getByTestId('answer').nth(nth);
    await answer.waitFor();
    await expect.poll(() => answer.getAttribute('data-mode'), { timeout: 20_000 }).not.toBeNull();
    await page.getByTestId('streaming-answer').waitFor({ state: 'detached' });
    return (await answer.textContent()) ?? '';
  };

  beforeAll(async () => {
    app = await startUiApp();
    await importTexts(app, 'Units', { 'rac-225b.md': MANUAL('RAC-225B', 'T5A 250V'), 'rac-226b.md': MANUAL('RAC-226B', 'T10A 250V'), 'rac-fuses.md': FAMILY });
    // A second library, listed after Units (which opens first), with models of its own.
    await importTexts(app, 'Workshop', { 'zx-900.md': MANUAL('ZX-900', 'T2A 250V') });
    page = await openApp(app, errors);
    await page.getByTestId('tab-chat').click();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('answers for the picked chip, not the model the conversation remembered, and says so in the composer', async () => {
    const first = await ask('What fuse does the RAC-226B take?', 0);
    expect(first).toContain('T10A 250V');
    // Sibling manuals share titles: each source also names its document file and its model.
    const sources = await page.getByTestId('answer').nth(0).getByTestId('source-doc').allTextContents();
    expect(sources.length).toBeGreaterThan(0);
    expect(sources[0]).toMatch(/rac-226b\.md · model RAC-226B$/);
    const chips = page.getByTestId('model-chips-chat');
    await chips.getByRole('button', { name: 'RAC-225B' }).click();
    await expect.poll(() => chips.textContent()).toContain('Answering for RAC-225B');
    const second = await ask('What fuse does it take?', 1);
    expect(second).toContain('T5A 250V');
    expect(second).not.toContain('T10A');
    expect(second).not.toMatch(/found nothing/i);
    await shot(page, 'scope-chip-over-memory');
  });

  it('keeps the search scope apart from the chat chip', async () => {
    await page.keyboard.press('Control+k');
    await page.getByTestId('global-search').fill('RAC-226B cleaning filter');
    await page.getByTestId('global-search').press('Enter');
    const meta = page.getByTestId('results-meta');
    await meta.waitFor();
    expect(await meta.textContent()).not.toContain('limited to');
    expect(await page.getByTestId('model-chips-search').getByRole('button', { name: 'RAC-225B' }).getAttribute('aria-pressed')).toBe('false');
    await shot(page, 'scope-search-own');
    await page.getByTestId('tab-chat').click();
    expect(await page.getByTestId('model-chips-chat').getByRole('button', { name: 'RAC-225B' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('groups values under each model when no model is named or picked, and says which model a follow-up kept', async () => {
    await page.getByTestId('model-chips-chat').getByRole('button', { name: 'RAC-225B' }).click();
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByTestId('chat-empty').waitFor();
    const grouped = await ask('What is the mains fuse rating?', 0);
    expect(grouped).toMatch(/RAC-225B:[\s\S]*T5A 250V/);
    expect(grouped).toMatch(/RAC-226B:[\s\S]*T10A 250V/);
    expect(grouped).toContain('Which model:');
    // The family page's T10A line is the RAC-226B's: its source names the RAC-226B, whatever the page's own model.
    const answer = page.getByTestId('answer').nth(0);
    const t10 = ((await answer.locator('li', { hasText: 'T10A 250V' }).first().textContent()) ?? '').match(/(\d+)\s*$/)?.[1];
    expect(t10).toBeDefined();
    const source = answer.getByRole('list', { name: 'Sources' }).locator('li').nth(Number(t10) - 1);
    expect(await source.getByTestId('source-doc').textContent()).toMatch(/ · model RAC-226B$/);
    await shot(page, 'scope-grouped-values');
    await ask('What fuse does the RAC-225B take?', 1);
    const kept = await ask('How do I clean the filter?', 2);
    expect(kept).toContain('Kept RAC-225B from the previous question');
    // The badge says the answer is extracted; the engine's label line is not repeated after the note.
    expect(kept).not.toContain('Extracted from the manuals');
  });

  it('drops the search’s model scope when another library opens, whose manuals are not for those models', async () => {
    await page.keyboard.press('Control+k');
    await page.getByTestId('global-search').fill('filter');
    await page.getByTestId('global-search').press('Enter');
    await page.getByTestId('results-meta').waitFor();
    await page.getByTestId('model-chips-search').getByRole('button', { name: 'RAC-225B' }).click();
    await expect.poll(() => page.getByTestId('results-meta').textContent()).toContain('limited to RAC-225B');
    await page.getByRole('button', { name: /^Workshop/ }).click();
    await page.keyboard.press('Control+k');
    await page.getByTestId('global-search').fill('filter');
    await page.getByTestId('global-search').press('Enter');
    const meta = page.getByTestId('results-meta');
    await meta.waitFor();
    expect(await meta.textContent()).not.toContain('RAC-225B');
    expect(await page.locator('.result').count()).toBeGreaterThan(0);
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
