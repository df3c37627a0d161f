/// <reference lib="dom" />
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { reloadApp, shot, type UiApp } from './harness';
import { answerDone, holdCalls, newestConversation, openChat } from './chat-harness';

/**
 * The wait between sending a question and the first sign of its answer, in Chromium against the real
 * engine: with no conversation open one is created first (`chat.create`, held here so the page is
 * seen in that wait). Meanwhile "Ask again" on a kept question says why it does nothing, a question
 * sent from the box stays there with a line saying why, and a stop gives the question up: it is back
 * in the box, and no conversation is left behind for it.
 */
const FIRST = 'What fuse does the RAC-225B take?';
const KEPT = 'How do I reach the fuse?';
const NEXT = 'Where is the spare fuse?';
const ASK_AGAIN_BUSY = 'Another question is on its way: ask this one again once it is answered (or stopped).';
const HELD = 'The previous question is still on its way, so this one stays in the box: ask it once that answer is done, or stop it (Esc).';

describe('a question on its way before its answer shows, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  /** Lets the held `chat.create` go on to the engine. */
  let release: () => void = () => undefined;

  beforeAll(async () => {
    ({ app, page } = await openChat(errors));
  });

  beforeEach(() => {
    errors.length = 0;
  });

  afterAll(async () => {
    release();
    await app?.close();
  });

  const box = () => page.getByTestId('question-input');
  const items = () => page.getByTestId('conversation-list').locator('.conversation-item');
  const engineIds = async (): Promise<string[]> => {
    const listed = await app.engine.handlers['chat.list']({ library: 'Pumps' });
    return listed.ok ? listed.value.map((c) => c.id) : [];
  };

  /** Sends `question` in a new conversation, its `chat.create` held until `release`. */
  async function sendHeld(question: string): Promise<void> {
    const created = await holdCalls(page, '**/api/chat.create');
    release = created.release;
    await page.getByRole('button', { name: 'New conversation' }).click();
    await box().fill(question);
    await box().press('Enter');
    await created.arrived;
  }

  /**
   * A question not answered, kept above the box: its conversation (the open one) is deleted by
   * another window while it is on its way, and the user types meanwhile more than fits with it.
   */
  async function keepOne(): Promise<void> {
    const id = await newestConversation(app);
    const asked = await holdCalls(page, '**/api/chat.ask');
    await box().fill(KEPT);
    await box().press('Enter');
    await asked.arrived;
    expect((await app.engine.handlers['chat.delete']({ library: 'Pumps', id })).ok).toBe(true);
    await box().fill('x'.repeat(1990));
    asked.release();
    await page.getByRole('alert').waitFor();
    await page.unroute('**/api/chat.ask');
    await box().fill('');
    expect(await page.getByTestId('unsent-text').allTextContents()).toEqual([KEPT]);
  }

  it('shows "Ask again" unavailable with its reason while a question is on its way, reachable by Tab; it asks once the answer is in', async () => {
    // A first answer in a new conversation, then a question kept above the box.
    await sendHeld(FIRST);
    release();
    await answerDone(page);
    await page.unroute('**/api/chat.create');
    await keepOne();

    await sendHeld(FIRST);
    const again = page.getByRole('button', { name: 'Ask again' });
    expect(await again.getAttribute('aria-disabled')).toBe('true');
    expect(await again.getAttribute('title')).toBe(ASK_AGAIN_BUSY);
    // Still reachable by Tab, and a press sends nothing.
    await again.focus();
    await page.keyboard.press('Enter');
    expect(await page.getByTestId('unsent-text').allTextContents()).toEqual([KEPT]);
    await shot(page, 'chat-ask-again-on-its-way');

    release();
    await answerDone(page);
    await page.unroute('**/api/chat.create');
    expect(await again.getAttribute('aria-disabled')).toBeNull();
    expect(await again.getAttribute('title')).toBeNull();
    await again.click();
    await expect.poll(() => page.getByTestId('answer').count()).toBe(2);
    await page.getByTestId('streaming-answer').waitFor({ state: 'detached' });
    expect(await page.getByTestId('question').allTextContents()).toEqual([FIRST, KEPT]);
    expect(await page.getByTestId('unsent-questions').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('keeps a question sent from the box while another is on its way there, says why, and sends it once the answer is in', async () => {
    await sendHeld(FIRST);
    await box().fill(NEXT);
    await box().press('Enter');
    expect(await box().inputValue()).toBe(NEXT);
    const note = page.getByTestId('composer-note');
    expect(await note.textContent()).toBe(HELD);
    expect(await note.getAttribute('role')).toBe('status');
    await shot(page, 'chat-question-held-in-box');

    release();
    await answerDone(page);
    await page.unroute('**/api/chat.create');
    expect(await page.getByTestId('question').allTextContents()).toEqual([FIRST]);
    expect(await box().inputValue()).toBe(NEXT);
    expect(await note.textContent()).toBe('');
    await box().press('Enter');
    await expect.poll(() => page.getByTestId('answer').count()).toBe(2);
    await page.getByTestId('streaming-answer').waitFor({ state: 'detached' });
    expect(await page.getByTestId('question').allTextContents()).toEqual([FIRST, NEXT]);
    expect(errors).toEqual([]);
  });

  it('gives up a question stopped (Esc) before its answer began: back in the box, no conversation left for it, and a line says so', async () => {
    const before = await engineIds();
    const listed = await items().count();
    await sendHeld(NEXT);
    // The Stop button shows from the send, and Esc stops as it does once the answer streams.
    expect(await page.getByTestId('stop').count()).toBe(1);
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('stop').isDisabled()).toBe(true);
    release();
    const note = page.getByTestId('composer-note');
    await expect.poll(() => note.textContent()).toBe('Stopped before the answer began: the question is back in the question box.');
    await page.unroute('**/api/chat.create');
    expect(await box().inputValue()).toBe(NEXT);
    expect(await page.getByTestId('question').count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await engineIds()).toEqual(before);
    expect(await items().count()).toBe(listed);
    // The Ask button is back: sent again, it is answered.
    await box().press('Enter');
    await answerDone(page);
    expect(await page.getByTestId('question').allTextContents()).toEqual([NEXT]);
    expect(await note.textContent()).toBe('');
    expect(errors).toEqual([]);
  });

  it('shows an empty answer marked stopped, in a conversation stored by an older version, as stopped with its question', async () => {
    // What versions before the engine returned `cancelled` for an answer stopped before the model's
    // first word stored then (the current engine never writes such a turn): the question and an
    // empty answer marked stopped, written here into the conversation's own file.
    const created = await app.engine.handlers['chat.create']({ library: 'Pumps' });
    if (!created.ok) throw new Error(created.error.message);
    const id = created.value.id;
    const file = (await readdir(app.dataDir, { recursive: true })).find((f) => f.endsWith(`${id}.json`));
    if (!file) throw new Error('conversation file not found');
    const where = path.join(app.dataDir, file);
    const stored = JSON.parse(await readFile(where, 'utf8')) as { title: string; messages: unknown[] };
    const at = new Date().toISOString();
    stored.title = KEPT;
    stored.messages = [
      { id: 'q1', role: 'user', text: KEPT, createdAt: at },
      { id: 'a1', role: 'assistant', text: '', createdAt: at, mode: 'generated', citations: [], resolvedModels: [], stopped: true },
    ];
    await writeFile(where, JSON.stringify(stored));
    // Read again as on any start.
    await reloadApp(page);
    await page.getByTestId('tab-chat').click();
    await items().filter({ hasText: KEPT }).click();
    const answer = page.getByTestId('answer');
    await answer.waitFor();
    expect(await page.getByTestId('question').allTextContents()).toEqual([KEPT]);
    expect(await answer.getByTestId('stopped-empty').textContent()).toBe('Stopped before any answer was written.');
    expect(await answer.locator('.badge-warn').textContent()).toBe('Stopped');
    expect(errors).toEqual([]);
  });
});
