/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importTexts, openApp, startUiApp, type UiApp } from './harness';

/**
 * The empty chat's example question names a model of the open library (one it can answer for),
 * never a model from somewhere else, and no model at all when the library's manuals name none.
 */
describe('the empty chat’s example in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startUiApp();
    const manual = (model: string) => `# ${model} service manual\n\n## Power\n\nThe ${model} runs on 24 V DC from the supplied adapter.\n`;
    await importTexts(app, 'Workshop', { 'zx-900.md': manual('ZX-900'), 'zx-900-quick.md': manual('ZX-900'), 'kt-40.md': manual('KT-40') });
    await importTexts(app, 'Safety', { 'gloves.md': '# Workshop safety\n\nWear gloves when you handle sharp parts.\n' });
    page = await openApp(app, errors);
  });

  afterAll(async () => {
    await app?.close();
  });

  const example = async (library: string): Promise<string> => {
    await page.getByRole('button', { name: new RegExp(`^${library}`) }).click();
    await page.getByTestId('tab-chat').click();
    const p = page.getByTestId('chat-example');
    await p.waitFor();
    return (await p.textContent()) ?? '';
  };

  it('names the model most of the library’s manuals are about', async () => {
    const text = await example('Workshop');
    expect(text).toContain('“What power supply does the ZX-900 need?”');
    expect(text).not.toContain('RAC-225B');
  });

  it('names no model when the library’s manuals name none', async () => {
    const docs = await app.engine.handlers['documents.list']({ library: 'Safety' });
    expect(docs.ok && docs.value.flatMap((d) => d.models)).toEqual([]);
    const text = await example('Safety');
    expect(text).toMatch(/^Name the model in your question when you can: /);
    expect(text).not.toMatch(/[“”]/);
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
