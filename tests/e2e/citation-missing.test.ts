/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { createConversationStore } from '../../src-main/chat/conversation.store';
import { importTexts, openApp, shot, startUiApp, type UiApp } from './harness';

/**
 * A written answer whose "[n]" names no source it came with: a language model may number a passage
 * it was never given, and the engine keeps the marker in the text but makes no citation of it
 * (`llm.answerer`). There is no chip for it; a screen reader must hear that the source is missing,
 * not "left bracket 4 right bracket". No chat model runs here: the answer is stored as the chat
 * service stores one, beside a real extracted answer whose citation it reuses.
 */
describe('a citation marker with no source, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startUiApp();
    await importTexts(app, 'Pumps', { 'rac-225b.md': '# RAC-225B Pump\n\n## Fuses\n\nThe RAC-225B takes a 5 A slow-blow fuse in the terminal box.\n' });
    const created = await app.engine.handlers['chat.create']({ library: 'Pumps', title: 'Fuse question' });
    if (!created.ok) throw new Error(created.error.message);
    const id = created.value.id;
    expect((await app.engine.handlers['chat.ask']({ library: 'Pumps', id, question: 'What fuse does the RAC-225B take?' })).ok).toBe(true);
    // The extracted answer is written after `chat.ask` answers: its citation is a real one to reuse.
    const cited = await vi.waitFor(async () => {
      const got = await app.engine.handlers['chat.get']({ library: 'Pumps', id });
      const citation = got.ok ? got.value.messages.find((m) => m.role === 'assistant')?.citations?.[0] : undefined;
      if (!citation) throw new Error('no answer yet');
      return citation;
    }, { timeout: 30_000 });
    const [libraryDir] = await readdir(path.join(app.dataDir, 'libraries'));
    const store = createConversationStore(path.join(app.dataDir, 'libraries', libraryDir!));
    const at = new Date().toISOString();
    const appended = await store.append(id, [
      { id: 'q2', role: 'user', text: 'And its rating?', createdAt: at },
      { id: 'a2', role: 'assistant', text: 'The RAC-225B takes a 5 A slow-blow fuse [1] rated for 250 V [4].', createdAt: at, mode: 'generated', citations: [{ ...cited, n: 1 }], resolvedModels: ['RAC-225B'] },
    ]);
    expect(appended.ok).toBe(true);
    page = await openApp(app, errors);
    await page.getByTestId('tab-chat').click();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('says the marker as a missing source, and shows it as the answer wrote it', async () => {
    const list = page.getByTestId('conversation-list');
    if ((await page.getByTestId('answer').count()) === 0) await list.getByRole('button', { name: /Fuse question/ }).click();
    const answer = page.locator('[data-testid="answer"][data-mode="generated"]');
    await answer.waitFor();
    const missing = answer.locator('.cite-missing');
    expect(await missing.count()).toBe(1);
    expect(await missing.evaluate((el) => (el as HTMLElement).innerText)).toMatch(/^\[4\]/);
    // What assistive technology gets: the found source as a chip, the other in words.
    const spoken = await answer.locator('.answer-text').ariaSnapshot();
    expect(spoken).toContain('button "Source 1: ');
    expect(spoken).toContain('(source 4 not found)');
    expect(spoken).not.toContain('[4]');
    await shot(page, 'citation-missing');
    expect(errors).toEqual([]);
  });
});
