import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runCli } from '../../src-main/cli/main';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { capture } from '../helpers/capture';
import { recordThisProcess } from '../helpers/sockets';
import { tempDir } from '../helpers/temp';

/**
 * Team libraries without any object storage: what must hold on a laptop that subscribed to
 * nothing. The app makes no connection at all; the team calls fail in words before connecting;
 * the secret key stays in the data folder, owner-only, and never reaches the UI.
 * (Publishing and syncing against a real S3 server: tests/team/*.s3.test.ts.)
 */

let tmp: { dir: string; cleanup: () => Promise<void> };
let engine: Engine;
let sockets: () => string[];

beforeAll(async () => {
  // Credentials in the test's environment would let a call go out to AWS: none here.
  for (const key of Object.keys(process.env)) if (key.startsWith('AWS_')) delete process.env[key];
  sockets = await recordThisProcess();
  tmp = await tempDir();
  engine = createEngine({ dataDir: tmp.dir, threads: 1, log: () => undefined });
});

afterAll(async () => {
  await engine?.dispose();
  await tmp?.cleanup();
});

describe('team libraries on a laptop that subscribed to nothing', () => {
  it('imports, searches, answers and starts up without opening a single connection', async () => {
    const manual = path.join(tmp.dir, 'rac-225b.md');
    await writeFile(manual, '# RAC-225B service manual\n\n## Fuses\n\nThe RAC-225B takes a 10 A slow-blow fuse.\n');
    expect((await engine.importPaths('Pumps', [manual])).ok).toBe(true);
    await engine.resumeBackground();
    const found = await engine.api['search.query']({ library: 'Pumps', query: 'fuse', topK: 1 });
    expect(found.ok && found.value.results.length).toBe(1);
    const chat = await engine.api['chat.create']({ library: 'Pumps' });
    if (!chat.ok) throw new Error(chat.error.message);
    expect((await engine.api['chat.ask']({ library: 'Pumps', id: chat.value.id, question: 'Which fuse?' })).ok).toBe(true);
    const listed = await engine.api['libraries.list']({});
    expect(listed.ok && listed.value[0]!.subscription).toBeUndefined();
    await engine.idle();
    expect(sockets()).toEqual([]);
  });

  it('refuses team calls that cannot work, in words and before connecting', async () => {
    expect(await engine.api['libraries.sync']({ library: 'Pumps' })).toMatchObject({ ok: false, error: { code: 'unsupported', message: expect.stringContaining('not a subscription') } });
    expect(await engine.api['libraries.publish']({ library: 'Pumps', to: 'https://bucket/x' })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(await engine.api['libraries.publish']({ library: 'Pumps', to: 's3://UPPER/x' })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(await engine.api['libraries.publish']({ library: 'Pumps', to: 's3://team-manuals/pumps' })).toMatchObject({
      ok: false,
      error: { code: 'unavailable', message: expect.stringContaining('No object-storage credentials') },
    });
    expect(await engine.api['libraries.publish']({ library: 'Nope', to: 's3://team-manuals/pumps' })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await engine.api['libraries.subscribe']({ source: 's3://team-manuals/pumps', library: 'Pumps' })).toMatchObject({ ok: false, error: { code: 'already-exists' } });
    expect(sockets()).toEqual([]);
  });

  it('keeps the secret key owner-only in the data folder and never returns it', async () => {
    const saved = await engine.api['settings.remote']({ endpoint: 'http://127.0.0.1:9000', region: '', accessKeyId: 'AKIA-TEAM', secretAccessKey: 'very-secret' });
    expect(saved).toMatchObject({ ok: true, value: { chatModel: null, remote: { endpoint: 'http://127.0.0.1:9000', region: null, accessKeyId: 'AKIA-TEAM', secretSet: true } } });
    expect(JSON.stringify(saved)).not.toContain('very-secret');
    expect((await stat(path.join(tmp.dir, 'remote.json'))).mode & 0o777).toBe(0o600);
    // Left out, the secret is kept; null clears it.
    await engine.api['settings.remote']({ endpoint: null, region: null, accessKeyId: 'AKIA-TEAM' });
    expect(await engine.api['settings.get']({})).toMatchObject({ ok: true, value: { remote: { endpoint: null, secretSet: true } } });
    await engine.api['settings.remote']({ endpoint: null, region: null, accessKeyId: null, secretAccessKey: null });
    expect(await engine.api['settings.get']({})).toMatchObject({ ok: true, value: { remote: { accessKeyId: null, secretSet: false } } });
    expect(await engine.api['settings.remote']({ endpoint: 'ftp://x', region: null, accessKeyId: null })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });
});

describe('manualmate publish / subscribe / sync usage', () => {
  it('lists the team commands in --help and exits 2 on missing arguments', async () => {
    const help = capture();
    expect(await runCli(['--help'], help.io)).toBe(0);
    for (const cmd of ['publish', 'subscribe', 'sync']) expect(help.out()).toMatch(new RegExp(`^  ${cmd}\\b`, 'm'));
    expect(help.out()).toContain('AWS_ACCESS_KEY_ID');
    const noTo = capture();
    expect(await runCli(['publish', '--library', 'Pumps', '--data-dir', tmp.dir], noTo.io)).toBe(2);
    expect(noTo.err()).toContain('--to s3://bucket/prefix');
    const noAddress = capture();
    expect(await runCli(['subscribe', '--library', 'Team', '--data-dir', tmp.dir], noAddress.io)).toBe(2);
    expect(noAddress.err()).toContain('s3://bucket/prefix');
    const badAddress = capture();
    expect(await runCli(['subscribe', 'http://x/y', '--library', 'Team', '--data-dir', tmp.dir], badAddress.io)).toBe(2);
    const noLibrary = capture();
    expect(await runCli(['sync', '--data-dir', tmp.dir], noLibrary.io)).toBe(2);
  });
});
