/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openApp, startUiApp, type UiApp } from './harness';

/**
 * The outcome of a team-library action (settings saved, published, subscribed, synced) is said to a
 * screen reader: focus stays on the button that was pressed, and the message appeared with its
 * text in a region added with it, which is not read out. (Publishing and syncing against a real S3
 * server: team.s3.test.ts.)
 */
describe('team-library outcomes announced, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  /** The team status region's text, or null while there is none. */
  const said = () => page.evaluate(() => document.querySelector('[role="status"][data-testid="team-message"]')?.textContent ?? null);

  beforeAll(async () => {
    app = await startUiApp();
    page = await openApp(app, errors);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('says the outcome in a region that was in the page before it', async () => {
    await page.getByTestId('tab-settings').click();
    const card = page.getByTestId('team-settings');
    await card.waitFor();
    expect(await said()).toBe('');
    await card.getByLabel('Region').fill('eu-west-1');
    await card.getByRole('button', { name: 'Save' }).click();
    await expect.poll(said).toBe('Object-storage settings saved.');
    expect(await page.getByTestId('team-message').isVisible()).toBe(true);
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
