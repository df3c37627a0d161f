/// <reference lib="dom" />
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shot, type UiApp } from './harness';
import { answerDone, askInNewConversation, holdCalls, openChat } from './chat-harness';

/**
 * A question whose conversation is deleted while it is on its way to be answered, in Chromium
 * against the real engine: it is not lost with the conversation, it goes back in the question box
 * (before anything typed meanwhile), and when both would not fit in the box (2000 characters) the
 * box is left as typed and the question is kept whole above it, to ask again, to put in the box
 * once there is room, or to dismiss.
 */
const DELETED_HERE = 'The conversation was deleted before this question was answered, so the question was not answered. Ask it again to start a new conversation.';
const DELETED_ELSEWHERE =
  'This conversation was deleted elsewhere (in another window or from the command line), so the question was not answered. Ask it again to start a new conversation.';
const FIRST = 'What fuse does the RAC-225B take?';
const QUESTION = 'How do I reach the fuse?';

describe('a question whose conversation is deleted before its answer, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  /** Lets the held question go on to the engine. */
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

  const items = () => page.getByTestId('conversation-list').locator('.conversation-item');
  const box = () => page.getByTestId('question-input');

  /**
   * Sends QUESTION from the box and holds it on its way to the engine, so the page shows it under
   * way (the answer pending) while the test acts; `release` lets it go on as sent.
   */
  async function sendHeld(): Promise<void> {
    const asked = await holdCalls(page, '**/api/chat.ask');
    release = asked.release;
    await box().fill(QUESTION);
    await box().press('Enter');
    await asked.arrived;
    await page.getByTestId('streaming-answer').waitFor();
    expect(await page.getByTestId('question').last().textContent()).toBe(QUESTION);
    expect(await box().inputValue()).toBe('');
  }

  async function done(): Promise<void> {
    await page.unroute('**/api/chat.ask');
    expect(errors).toEqual([]);
  }

  // The question is held on its way to the engine, so the engine gets it after the delete and
  // answers `not-found`: the delete here that a stop returned before it is done is covered in
  // tests/renderer/ask-failed.test.ts (no test in Chromium can time an answer's first word).
  it('deleted here while the question is on its way: the engine answers not-found, the question goes back in the box, and the alert says why', async () => {
    const id = await askInNewConversation(app, page, FIRST);
    const before = await items().count();
    await sendHeld();
    await page.getByRole('button', { name: 'Delete conversation' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete conversation' }).click();
    await expect.poll(() => items().count()).toBe(before - 1);
    release();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(DELETED_HERE);
    expect(await box().inputValue()).toBe(QUESTION);
    expect(await page.getByTestId('question').count()).toBe(0);
    const listed = await app.engine.handlers['chat.list']({ library: 'Pumps' });
    expect(listed.ok && listed.value.map((c) => c.id)).not.toContain(id);
    await shot(page, 'chat-deleted-while-answering');

    // Asked again, as the alert says: a new conversation answers it.
    await box().press('Enter');
    await answerDone(page);
    expect(await page.getByTestId('question').allTextContents()).toEqual([QUESTION]);
    expect(await page.getByRole('alert').count()).toBe(0);
    await done();
  });

  it('kept above the box when it would not fit with what was typed meanwhile; put in the box once there is room', async () => {
    const id = await askInNewConversation(app, page, FIRST);
    await sendHeld();
    // Another window deletes the conversation meanwhile, and the user types a long note.
    expect((await app.engine.handlers['chat.delete']({ library: 'Pumps', id })).ok).toBe(true);
    const typed = 'The spare fuse sits under the cover. '.repeat(60).slice(0, 1990);
    await box().fill(typed);
    release();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(`${DELETED_ELSEWHERE} It is kept above the question box: with what you typed since, it would not fit in it (at most 2000 characters).`);
    // The box is as typed, within its limit; the question is whole above it.
    expect(await box().inputValue()).toBe(typed);
    expect(await page.getByTestId('question-count').textContent()).toBe('1990 / 2000');
    expect(await page.getByTestId('question-count').getAttribute('class')).not.toContain('error');
    const kept = page.getByTestId('unsent-question');
    expect(await kept.count()).toBe(1);
    expect(await kept.getByTestId('unsent-text').textContent()).toBe(QUESTION);
    const put = kept.getByRole('button', { name: 'Put in the box' });
    expect(await put.isDisabled()).toBe(true);
    // 24 + 2 + 1990 characters: 16 to free.
    expect(await kept.getByTestId('unsent-hint').textContent()).toBe('To put it in the box, free 16 characters there (at most 2000 together).');
    await shot(page, 'chat-question-kept-above-box');

    const shorter = typed.slice(0, 2000 - QUESTION.length - 2);
    await box().fill(shorter);
    expect(await put.isEnabled()).toBe(true);
    await put.click();
    expect(await box().inputValue()).toBe(`${QUESTION}\n\n${shorter}`);
    expect(await page.getByTestId('question-count').textContent()).toBe('2000 / 2000');
    expect(await page.getByTestId('unsent-questions').count()).toBe(0);
    // Its button went: focus goes to the question box, not to <body>.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('question');
    await done();
  });

  it('kept above the box, asked again from there: answered in a new conversation, the box left as typed', async () => {
    const id = await askInNewConversation(app, page, FIRST);
    await sendHeld();
    expect((await app.engine.handlers['chat.delete']({ library: 'Pumps', id })).ok).toBe(true);
    const typed = 'Check the cover screws too. '.repeat(80).slice(0, 1990);
    await box().fill(typed);
    release();
    await page.getByRole('alert').waitFor();
    await page.unroute('**/api/chat.ask');
    await page.getByTestId('unsent-question').getByRole('button', { name: 'Ask again' }).click();
    await answerDone(page);
    expect(await page.getByTestId('question').allTextContents()).toEqual([QUESTION]);
    expect(await page.getByTestId('answer').count()).toBe(1);
    expect(await page.getByTestId('unsent-questions').count()).toBe(0);
    expect(await box().inputValue()).toBe(typed);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
