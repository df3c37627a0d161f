/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { reloadApp, shot, type UiApp } from './harness';
import { answerDone, askInNewConversation, holdCalls, openChat } from './chat-harness';

/**
 * A question sent from the composer to a conversation deleted elsewhere (another window, the
 * command line), in Chromium against the real engine: the engine keeps nothing of it, so the
 * question leaves the transcript and goes back in the question box (before anything typed there
 * meanwhile), the conversation leaves the Conversations list, the alert says what happened, and
 * asking again starts a new conversation. What the page shows is what a reload shows.
 */
const DELETED = 'This conversation was deleted elsewhere (in another window or from the command line), so the question was not answered. Ask it again to start a new conversation.';

describe('a question sent to a conversation deleted elsewhere, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    ({ app, page } = await openChat(errors));
  });

  afterAll(async () => {
    await app?.close();
  });

  /** Asks in a new conversation, waits for its answer, then deletes it in the engine: another window's doing. */
  async function answeredThenDeleted(): Promise<void> {
    const id = await askInNewConversation(app, page, 'What fuse does the RAC-225B take?');
    expect((await app.engine.handlers['chat.delete']({ library: 'Pumps', id })).ok).toBe(true);
  }

  it('drops the conversation, puts the question back in the box and says why; asked again, it starts a new one', async () => {
    await answeredThenDeleted();
    const box = page.getByTestId('question-input');
    await box.fill('How do I reach the fuse?');
    await box.press('Enter');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(DELETED);
    expect(await box.inputValue()).toBe('How do I reach the fuse?');
    // The list and the transcript say what the engine holds: nothing.
    await expect.poll(() => page.getByTestId('conversation-list').locator('.conversation-item').count()).toBe(0);
    expect(await page.getByTestId('question').count()).toBe(0);
    await page.getByTestId('chat-empty').waitFor();
    await shot(page, 'chat-send-deleted-elsewhere');

    await box.press('Enter');
    await answerDone(page);
    expect(await page.getByTestId('question').allTextContents()).toEqual(['How do I reach the fuse?']);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await box.inputValue()).toBe('');
    await expect.poll(() => page.getByTestId('conversation-list').locator('.conversation-item').count()).toBe(1);
    // A reload shows the same.
    await reloadApp(page);
    await page.getByTestId('tab-chat').click();
    await expect.poll(() => page.getByTestId('conversation-list').locator('.conversation-item').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('keeps what was typed in the box while the question was under way, after the question', async () => {
    // The page's question held on its way to the engine, so the user can type meanwhile; then
    // it goes on to the real engine as sent.
    await answeredThenDeleted();
    const asked = await holdCalls(page, '**/api/chat.ask');
    const box = page.getByTestId('question-input');
    await box.fill('How do I reach the fuse?');
    await box.press('Enter');
    await asked.arrived;
    expect(await box.inputValue()).toBe('');
    expect(await page.getByTestId('question').nth(1).textContent()).toBe('How do I reach the fuse?');
    await box.pressSequentially('And the spare');
    asked.release();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(`${DELETED} It is back in the question box, before what you typed since.`);
    expect(await box.inputValue()).toBe('How do I reach the fuse?\n\nAnd the spare');
    // The caret stays after what was being typed.
    expect(await box.evaluate((el: HTMLTextAreaElement) => el.selectionStart === el.value.length)).toBe(true);
    await expect.poll(() => page.getByTestId('conversation-list').locator('.conversation-item').count()).toBe(1);
    expect(await page.getByTestId('question').count()).toBe(0);
    await page.unroute('**/api/chat.ask');
    expect(errors).toEqual([]);
  });

  it('drops a conversation deleted elsewhere from the list when it is picked there', async () => {
    const items = page.getByTestId('conversation-list').locator('.conversation-item');
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByTestId('chat-empty').waitFor();
    const list = await app.engine.handlers['chat.list']({ library: 'Pumps' });
    expect(list.ok && list.value).toHaveLength(1);
    await expect.poll(() => items.count()).toBe(1);
    expect(list.ok && (await app.engine.handlers['chat.delete']({ library: 'Pumps', id: list.value[0]!.id })).ok).toBe(true);
    await items.first().click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('This conversation was deleted elsewhere (in another window or from the command line).');
    await expect.poll(() => items.count()).toBe(0);
    // Its button went with it: focus goes to the question box, not to <body>.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('question');
    expect(errors).toEqual([]);
  });
});
