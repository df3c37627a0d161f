/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shot, type UiApp } from './harness';
import { openChat } from './chat-harness';

/**
 * A question back in Chromium against the real engine: a question naming a model no manual is for
 * whose name begins two documented models' ("Bar Z5": the Max 5G and the Mini 5G) is answered
 * with one button per candidate; pressing one (from the keyboard) answers the question for that
 * model, and the composer's model chip becomes that model, replacing the one picked before.
 */
const manual = (name: string, battery: number, extra = ''): string =>
  [`# ${name} User Manual`, '## Charging', `To charge the ${name}, connect it to a USB-C power adapter. ${extra}`, '## Battery', `The ${name} has a ${battery} mAh battery.`].join('\n\n');

describe('question back in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    ({ app, page } = await openChat(errors, 'Devices', {
      'Foo_X1.md': manual('Foo X1', 80, 'The Bar Z5 charger also charges the Foo X1.'),
      'Bar_Z5_Mini_5G.md': manual('Bar Z5 Mini 5G', 40, 'The Bar Z5 Mini 5G is smaller than the Bar Z5.'),
      'Bar_Z5_Max_5G.md': manual('Bar Z5 Max 5G', 90, 'The Bar Z5 Max 5G is larger than the Bar Z5.'),
    }));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('offers the candidates as buttons and answers for the one pressed, with its chip picked', async () => {
    const chips = page.getByTestId('model-chips-chat');
    // Another model's chip is picked first: the answer must not stay scoped to it.
    await chips.getByRole('button', { name: 'Foo X1' }).click();
    await expect.poll(() => chips.textContent()).toContain('Answering for Foo X1');
    const input = page.getByTestId('question-input');
    await input.fill('What battery does the Bar Z5 have?');
    await input.press('Enter');
    const back = page.getByTestId('answer').nth(0);
    await back.waitFor();
    await page.getByTestId('streaming-answer').waitFor({ state: 'detached' });
    expect(await back.getAttribute('data-mode')).toBe('not-found');
    // No model line above the candidates: "no model" there contradicted the "Answer for:" buttons.
    expect(await back.locator('.answer-meta').textContent()).toBe('Not found in this library');
    const choices = back.getByRole('group', { name: 'Which model for Bar Z5' });
    const buttons = choices.getByRole('button');
    expect(await buttons.allTextContents()).toEqual(['Bar Z5 Max 5G', 'Bar Z5 Mini 5G']);
    // Named for what they do: the composer's chips are buttons named by the same models, which only pick a scope.
    expect(await buttons.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).toEqual(['Answer for Bar Z5 Max 5G', 'Answer for Bar Z5 Mini 5G']);
    expect(await page.getByRole('button', { name: 'Bar Z5 Max 5G', exact: true }).count()).toBe(1);
    // A screen reader hears the question back and that buttons follow it.
    await expect.poll(() => page.getByTestId('answer-status').textContent()).toBe(
      'Not found in this library: This library has no manual for Bar Z5. Which model: Bar Z5 Max 5G or Bar Z5 Mini 5G? An “Answer for” button for each model follows the answer.',
    );
    await shot(page, 'question-back-choices');

    // From the keyboard: the candidate is a real button, reached by focus and pressed with Enter.
    await choices.getByRole('button', { name: 'Bar Z5 Max 5G' }).focus();
    await page.keyboard.press('Enter');
    const answer = page.getByTestId('answer').nth(1);
    await answer.waitFor();
    await page.getByTestId('streaming-answer').waitFor({ state: 'detached' });
    const text = (await answer.textContent()) ?? '';
    expect(await answer.getAttribute('data-mode')).toBe('extracted');
    expect(text).toContain('90 mAh');
    expect(text).not.toContain('40 mAh');
    expect(text).not.toContain('80 mAh');
    expect(await answer.getByTestId('resolved-models').textContent()).toContain('Bar Z5 Max 5G');
    // The reply is the model's name, as a user typing it would send; the candidates go with it.
    expect(await page.getByTestId('question').nth(1).textContent()).toBe('Bar Z5 Max 5G');
    expect(await page.getByTestId('model-choices').count()).toBe(0);
    // Focus went on to the question box, not to <body> with the buttons gone.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('question');
    // The composer shows the scope used: the picked candidate only.
    expect(await chips.getByRole('button', { name: 'Bar Z5 Max 5G' }).getAttribute('aria-pressed')).toBe('true');
    expect(await chips.getByRole('button', { name: 'Foo X1' }).getAttribute('aria-pressed')).toBe('false');
    expect(await chips.textContent()).toContain('Answering for Bar Z5 Max 5G:');
    // And the engine holds that scope for the conversation, so the next question uses it too.
    const list = await app.engine.handlers['chat.list']({ library: 'Devices' });
    expect(list.ok).toBe(true);
    const conv = list.ok ? await app.engine.handlers['chat.get']({ library: 'Devices', id: list.value[0]!.id }) : null;
    expect(conv?.ok && conv.value.scope.models).toEqual(['Bar Z5 Max 5G']);
    await shot(page, 'question-back-answered');

    const next = page.getByTestId('question-input');
    await next.fill('How do I charge it?');
    await next.press('Enter');
    const third = page.getByTestId('answer').nth(2);
    await third.waitFor();
    await page.getByTestId('streaming-answer').waitFor({ state: 'detached' });
    expect(await third.getByTestId('resolved-models').textContent()).toContain('Bar Z5 Max 5G');
    expect(errors).toEqual([]);
  });

  it('sends one reply when a candidate is pressed twice in a row', async () => {
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByTestId('chat-empty').waitFor();
    // The chip the first test picked (a candidate) would answer the question for it, not ask back.
    const max = page.getByTestId('model-chips-chat').getByRole('button', { name: 'Bar Z5 Max 5G' });
    if ((await max.getAttribute('aria-pressed')) === 'true') await max.click();
    await expect.poll(() => max.getAttribute('aria-pressed')).toBe('false');
    const input = page.getByTestId('question-input');
    await input.fill('What battery does the Bar Z5 have?');
    await input.press('Enter');
    const choices = page.getByTestId('answer').nth(0).getByRole('group', { name: 'Which model for Bar Z5' });
    await choices.waitFor();
    await choices.getByRole('button', { name: 'Bar Z5 Mini 5G' }).dblclick();
    const answer = page.getByTestId('answer').nth(1);
    await answer.waitFor();
    await page.getByTestId('streaming-answer').waitFor({ state: 'detached' });
    expect(await answer.textContent()).toContain('40 mAh');
    const list = await app.engine.handlers['chat.list']({ library: 'Devices' });
    const newest = list.ok ? [...list.value].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0]! : null;
    await expect.poll(async () => {
      const conv = newest ? await app.engine.handlers['chat.get']({ library: 'Devices', id: newest.id }) : null;
      return conv?.ok ? conv.value.messages.map((m) => m.text.slice(0, 14)) : null;
    }).toEqual(['What battery d', 'This library h', 'Bar Z5 Mini 5G', expect.stringMatching(/^Read as/)]);
    expect(await page.getByTestId('question').count()).toBe(2);
    expect(await page.locator('.error').count()).toBe(0);
    expect(errors).toEqual([]);
  });
  it('says an answer to a question naming no model came from any model’s manual, and nothing more', async () => {
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByTestId('chat-empty').waitFor();
    const chips = page.getByTestId('model-chips-chat');
    // The tests before leave a candidate's chip picked: this question is asked with none.
    if ((await chips.getByRole('button', { name: 'Any model' }).count()) > 0) await chips.getByRole('button', { name: 'Any model' }).click();
    await expect.poll(() => chips.textContent()).toContain('none picked');
    const input = page.getByTestId('question-input');
    await input.fill('What do I connect the USB-C power adapter to?');
    await input.press('Enter');
    const answer = page.getByTestId('answer').nth(0);
    await answer.waitFor();
    await page.getByTestId('streaming-answer').waitFor({ state: 'detached' });
    expect(await answer.getAttribute('data-mode')).toBe('extracted');
    expect(await answer.getByTestId('any-model').textContent()).toBe('From any model’s manual');
    await shot(page, 'question-back-any-model');
    expect(errors).toEqual([]);
  });
  it('puts the chip picked before back and says why when the reply goes to a conversation deleted elsewhere', async () => {
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByTestId('chat-empty').waitFor();
    const chips = page.getByTestId('model-chips-chat');
    await chips.getByRole('button', { name: 'Foo X1' }).click();
    await expect.poll(() => chips.textContent()).toContain('Answering for Foo X1:');
    const input = page.getByTestId('question-input');
    await input.fill('What battery does the Bar Z5 have?');
    await input.press('Enter');
    const choices = page.getByTestId('answer').nth(0).getByRole('group', { name: 'Which model for Bar Z5' });
    await choices.waitFor();
    // Deleted elsewhere (another window, the CLI) while the question back is shown: the engine refuses the reply.
    const list = await app.engine.handlers['chat.list']({ library: 'Devices' });
    const newest = list.ok ? [...list.value].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0]! : null;
    const listed = list.ok ? list.value.length : 0;
    await expect.poll(() => page.getByTestId('conversation-list').locator('.conversation-item').count()).toBe(listed);
    expect((await app.engine.handlers['chat.delete']({ library: 'Devices', id: newest!.id })).ok).toBe(true);
    await choices.getByRole('button', { name: 'Bar Z5 Max 5G' }).focus();
    await page.keyboard.press('Enter');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      'Could not answer for Bar Z5 Max 5G. This conversation was deleted elsewhere (in another window or from the command line). Its question is back in the question box: ask it again to start a new conversation.',
    );
    // The scope picked before the press, not the candidate's.
    await expect.poll(() => chips.textContent()).toContain('Answering for Foo X1:');
    expect(await chips.getByRole('button', { name: 'Foo X1' }).getAttribute('aria-pressed')).toBe('true');
    expect(await chips.getByRole('button', { name: 'Bar Z5 Max 5G' }).getAttribute('aria-pressed')).toBe('false');
    // The engine kept nothing of it: the list and the transcript neither (a reload would show it
    // gone), and the question typed before is not lost with them.
    const left = await app.engine.handlers['chat.list']({ library: 'Devices' });
    expect(left.ok && left.value.length).toBe(listed - 1);
    await expect.poll(() => page.getByTestId('conversation-list').locator('.conversation-item').count()).toBe(listed - 1);
    expect(await page.getByTestId('question').count()).toBe(0);
    expect(await page.getByTestId('streaming-answer').count()).toBe(0);
    expect(await input.inputValue()).toBe('What battery does the Bar Z5 have?');
    await shot(page, 'question-back-reply-failed');
    expect(errors).toEqual([]);
  });
});
