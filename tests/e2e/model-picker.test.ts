/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importTexts, openApp, shot, startUiApp, type UiApp } from './harness';

/**
 * A library of many sibling manuals (the product's premise: thirty near-identical models): the
 * composer offers the models in one list instead of a wall of chips, keeps its height at 800x600,
 * lets the keyboard browse the list without picking, and a model chosen from it scopes the answer
 * like a chip.
 */
const MODELS = Array.from({ length: 14 }, (_, i) => `PV-${310 + i}`);
const MANUAL = (model: string, k: number) =>
  [`# ${model} service manual`, '', '## Fuse', '', `The ${model} inverter takes a T${k + 2}A 250V fuse on the DC input.`].join('\n');

describe('model picker for a library of many siblings', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startUiApp();
    await importTexts(app, 'Inverters', Object.fromEntries(MODELS.map((m, k) => [`${m.toLowerCase()}.md`, MANUAL(m, k)])));
    page = await openApp(app, errors);
    await page.setViewportSize({ width: 800, height: 600 });
    await page.getByTestId('tab-chat').click();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('lists the models in one picker, not a chip each, and keeps the composer low', async () => {
    const scope = page.getByTestId('model-chips-chat');
    await page.getByTestId('model-picker-chat').waitFor();
    expect(await scope.getByRole('button', { name: /^PV-/ }).count()).toBe(0);
    const options = await page.getByTestId('model-picker-chat').locator('option').allTextContents();
    expect(options.slice(1)).toEqual(MODELS);
    const box = await scope.boundingBox();
    expect(box!.height).toBeLessThan(40);
  });

  it('answers for the model picked from the list, which then shows as a chip to drop', async () => {
    const scope = page.getByTestId('model-chips-chat');
    // Browsing the list with the keyboard picks nothing until the choice is confirmed.
    const picker = page.getByTestId('model-picker-chat');
    await picker.focus();
    for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowDown');
    expect(await scope.textContent()).toContain('none picked');
    expect(await picker.inputValue()).toBe('PV-312');
    await page.keyboard.press('Enter');
    await expect.poll(() => scope.textContent()).toContain('Answering for PV-312');
    await scope.getByRole('button', { name: 'PV-312' }).click();
    await expect.poll(() => scope.textContent()).toContain('none picked');
    // With the mouse: choose, then confirm.
    await picker.selectOption('PV-317');
    expect(await scope.textContent()).toContain('none picked');
    await scope.getByRole('button', { name: 'Answer for it' }).click();
    await expect.poll(() => scope.textContent()).toContain('Answering for PV-317');
    expect(await page.getByTestId('model-picker-chat').locator('option', { hasText: 'PV-317' }).count()).toBe(0);
    const input = page.getByTestId('question-input');
    await input.fill('Which fuse does the DC input take?');
    await input.press('Enter');
    const answer = page.getByTestId('answer').nth(0);
    await expect.poll(() => answer.getAttribute('data-mode'), { timeout: 20_000 }).not.toBeNull();
    await page.getByTestId('streaming-answer').waitFor({ state: 'detached' });
    const text = (await answer.textContent()) ?? '';
    expect(text).toContain('T9A 250V');
    expect(text).not.toMatch(/T(?:[2-8]|1\d)A 250V/);
    await shot(page, 'scope-picker-many-models');
    await scope.getByRole('button', { name: 'PV-317' }).click();
    await expect.poll(() => scope.textContent()).toContain('none picked');
    expect(await scope.getByRole('button', { name: /^PV-/ }).count()).toBe(0);
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
