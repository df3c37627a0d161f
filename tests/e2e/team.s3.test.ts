import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startMoto, type MotoServer } from '../helpers/moto';
import { leavingHost } from '../helpers/sockets';
import { tempDir } from '../helpers/temp';
import { openApp, shot, startUiApp, type UiApp } from './harness';

/**
 * Settings › Team libraries in Chromium against a real S3 server (moto on 127.0.0.1): saving the
 * storage settings, publishing the selected library, subscribing to it, the read-only library
 * view and chunk inspector, "a newer version is available" and syncing it.
 */
describe('team libraries in the UI', { timeout: 120_000 }, () => {
  let moto: MotoServer;
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  let src: { dir: string; cleanup: () => Promise<void> };
  const manual = (amps: number) => `# RAC-225B service manual\n\n## Fuses\n\nThe RAC-225B takes a ${amps} A slow-blow fuse on the control board.\n`;

  beforeAll(async () => {
    moto = await startMoto();
    await moto.createBucket('ui-team');
    app = await startUiApp();
    src = await tempDir();
    await writeFile(path.join(src.dir, 'rac-225b.md'), manual(10));
    expect((await app.engine.importPaths('Pumps', [path.join(src.dir, 'rac-225b.md')])).ok).toBe(true);
    page = await openApp(app, errors);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await moto?.stop();
    await src?.cleanup();
  });

  it('saves the storage settings without ever showing the secret again', async () => {
    await page.getByTestId('tab-settings').click();
    const card = page.getByTestId('team-settings');
    await card.waitFor();
    await card.getByLabel('Endpoint').fill(moto.endpoint);
    await card.getByLabel('Region').fill('us-east-1');
    await card.getByLabel('Access key').fill('testing');
    await card.getByLabel('Secret key').fill('testing');
    await card.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('team-message').getByText('settings saved').waitFor();
    expect(await card.getByLabel('Secret key').inputValue()).toBe('');
    expect(await card.getByLabel('Secret key').getAttribute('placeholder')).toContain('Stored');
  });

  it('publishes the selected library and subscribes to it as a read-only library', async () => {
    const card = page.getByTestId('team-settings');
    await card.getByLabel('Publish “Pumps” to').fill('s3://ui-team/pumps');
    await card.getByRole('button', { name: 'Publish' }).click();
    // The message region stays in the page, emptied while an action runs: its text is waited for.
    await expect.poll(() => page.getByTestId('team-message').textContent(), { timeout: 60_000 }).toMatch(/Published “Pumps” as version 1 of s3:\/\/ui-team\/pumps/);
    await card.getByLabel('Address').fill('s3://ui-team/pumps');
    await card.getByLabel('Name on this computer').fill('Team pumps');
    await card.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByTestId('subscription-card').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('subscription-version').textContent()).toMatch(/^Version 1, published .+; synced .+\.$/);
    expect(await page.getByTestId('offline-card').textContent()).toContain('connects only to your team’s object storage');
    // The header no longer claims "Offline" once the app connects to the team's storage.
    expect(await page.getByTestId('offline-indicator').textContent()).toContain('Local + team storage');
    expect(await page.getByTestId('offline-indicator').getAttribute('title')).toContain('object storage');
    await shot(page, 'team-subscribed');
    await page.getByTestId('tab-documents').click();
    expect(await page.getByTestId('subscription-status').textContent()).toContain('Team library, read-only: version 1 of s3://ui-team/pumps');
    expect(await page.getByTestId('import-files').count()).toBe(0);
  });

  it('does not tell a subscriber to set an embedding model for nouns their read-only copy cannot compute', async () => {
    // Subscribed just now, the team copy is open on the Documents screen.
    await page.getByRole('button', { name: 'Inspect chunks of RAC-225B service manual' }).click();
    const segments = page.getByTestId('chunk-strip').getByTestId('chunk-segment');
    await segments.first().click();
    const signature = page.getByTestId('chunk-signature');
    expect(await signature.textContent()).toContain('nouns: not computed in this library');
    expect(await signature.textContent()).not.toContain('embedding model');
    await shot(page, 'team-chunk-inspector');
    // The publisher's own library, where setting a model is the user's to do, still says how.
    await page.getByRole('button', { name: 'Close the chunk inspector' }).click();
    await page.getByRole('button', { name: /^Pumps/ }).click();
    await page.getByRole('button', { name: 'Inspect chunks of RAC-225B service manual' }).click();
    await segments.first().click();
    expect(await signature.textContent()).toContain('nouns: not computed until an embedding model is set');
    await page.getByRole('button', { name: 'Close the chunk inspector' }).click();
    await page.getByRole('button', { name: /^Team pumps/ }).click();
  });

  it('says when a newer version is published and syncs it', async () => {
    await writeFile(path.join(src.dir, 'rac-225b.md'), manual(12));
    expect((await app.engine.importPaths('Pumps', [path.join(src.dir, 'rac-225b.md')])).ok).toBe(true);
    await app.engine.idle();
    const published = await app.engine.api['libraries.publish']({ library: 'Pumps', to: 's3://ui-team/pumps' });
    expect(published.ok && published.value.version).toBe(2);
    await page.getByTestId('tab-settings').click();
    await page.getByRole('button', { name: 'Look for a newer version' }).click();
    expect(await page.getByTestId('newer-version').textContent()).toBe('A newer version (2) is available.');
    await shot(page, 'team-newer-version');
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.getByTestId('newer-version').waitFor({ state: 'detached' });
    expect(await page.getByTestId('subscription-version').textContent()).toMatch(/^Version 2,/);
    await expect.poll(() => page.getByTestId('team-message').textContent()).toMatch(/now holds version 2/);
    const hit = await app.engine.api['search.query']({ library: 'Team pumps', query: 'RAC-225B fuse', topK: 1 });
    expect(hit.ok && hit.value.results[0]!.text).toContain('12 A');
  });

  it('forgets the stored key pair, after which the AWS_* variables apply again', async () => {
    await page.getByTestId('tab-settings').click();
    const card = page.getByTestId('team-settings');
    await card.getByRole('button', { name: 'Forget the stored keys' }).click();
    await page.getByTestId('team-message').getByText('stored keys were removed').waitFor();
    expect(await card.getByLabel('Secret key').getAttribute('placeholder')).toBe('');
    expect(await card.getByLabel('Access key').inputValue()).toBe('');
    expect(await card.getByRole('button', { name: 'Forget the stored keys' }).count()).toBe(0);
    const settings = await app.engine.api['settings.get']({});
    expect(settings.ok && settings.value.remote).toMatchObject({ accessKeyId: null, endpoint: moto.endpoint, secretSet: false });
    // The engine (in this process) now takes the keys from its environment; moto accepts any.
    const saved = { id: process.env['AWS_ACCESS_KEY_ID'], secret: process.env['AWS_SECRET_ACCESS_KEY'] };
    const look = async () => {
      const lib = await app.engine.api['libraries.checkRemote']({ library: 'Team pumps' });
      return lib.ok ? lib.value.subscription?.checkError : 'refused';
    };
    try {
      delete process.env['AWS_ACCESS_KEY_ID'];
      delete process.env['AWS_SECRET_ACCESS_KEY'];
      expect(await look()).toMatch(/No object-storage credentials/);
      process.env['AWS_ACCESS_KEY_ID'] = 'from-env';
      process.env['AWS_SECRET_ACCESS_KEY'] = 'from-env';
      expect(await look()).toBeNull();
    } finally {
      for (const [k, v] of [['AWS_ACCESS_KEY_ID', saved.id], ['AWS_SECRET_ACCESS_KEY', saved.secret]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it('made no request but to the bridge (browser) and the S3 server (engine)', () => {
    expect(errors).toEqual([]);
    expect(app.requests.filter((u) => !u.startsWith(`${app.bridge.origin}/`))).toEqual([]);
    expect(app.engineSockets().length).toBeGreaterThan(0);
    expect(leavingHost(app.engineSockets())).toEqual([]);
  });
});
