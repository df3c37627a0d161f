import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SearchResponse } from '../../src-main/contract/api';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { currentVersionDir, pointLibraryAt } from '../../src-main/storage/remote/local-copy';
import { tryLock } from '../../src-main/storage/lock-file';
import { parseRemoteLocation, resolveRemoteAccess } from '../../src-main/storage/remote/location';
import { listLibraryFiles } from '../../src-main/storage/remote/manifest';
import { openS3Store, type ObjectStore } from '../../src-main/storage/remote/object-store';
import { publishFolder } from '../../src-main/storage/remote/publish';
import { startMoto, type MotoServer } from '../helpers/moto';
import { leavingHost, recordThisProcess } from '../helpers/sockets';
import { tempDir } from '../helpers/temp';

/**
 * Team libraries through the engine's contract, in one process (as the app runs them): settings
 * from the Settings screen instead of the environment, a sync swapped in while searches run, the
 * read-only refusals, conversations that outlive a sync, and two publishers racing for the same
 * version with a real conditional write.
 */

const BUCKET = 'engine-team';
const SOURCE = `s3://${BUCKET}/pumps`;

let moto: MotoServer;
let tmp: { dir: string; cleanup: () => Promise<void> };
let publisher: Engine;
let laptop: Engine;
let sockets: () => string[];

function ok<T>(res: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!res.ok) throw new Error(res.error.message);
  return res.value;
}

async function manual(name: string, text: string): Promise<string> {
  const file = path.join(tmp.dir, 'manuals', name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

const fuse = (amps: number) => `# RAC-225B service manual\n\n## Fuses\n\nThe RAC-225B takes a ${amps} A slow-blow fuse on the control board.\n`;

async function useMoto(engine: Engine) {
  ok(await engine.api['settings.remote']({ endpoint: moto.endpoint, region: 'us-east-1', accessKeyId: 'testing', secretAccessKey: 'testing' }));
}

beforeAll(async () => {
  sockets = await recordThisProcess();
  moto = await startMoto();
  await moto.createBucket(BUCKET);
  tmp = await tempDir('manualmate-engine-team-');
  publisher = createEngine({ dataDir: path.join(tmp.dir, 'publisher'), threads: 1, log: () => undefined });
  laptop = createEngine({ dataDir: path.join(tmp.dir, 'laptop'), threads: 1, log: () => undefined });
  await useMoto(publisher);
  await useMoto(laptop);
}, 120_000);

afterAll(async () => {
  await publisher?.dispose();
  await laptop?.dispose();
  await moto?.stop();
  await tmp?.cleanup();
});

describe('team libraries through the engine', { timeout: 120_000 }, () => {
  it('keeps the secret key out of what the UI reads, and out of the library', async () => {
    const settings = ok(await laptop.api['settings.get']({}));
    expect(settings.remote).toEqual({ endpoint: moto.endpoint, region: 'us-east-1', accessKeyId: 'testing', secretSet: true });
    expect(JSON.stringify(settings)).not.toContain('"secretAccessKey"');
  });

  it('publishes, subscribes, and tells the laptop when a newer version is there', async () => {
    ok(await publisher.importPaths('Pumps', [await manual('rac-225b.md', fuse(10)), await manual('p40.md', '# P-40 pump\n\n## Seals\n\nReplace the P-40 seal every 2000 hours.\n')]));
    expect(ok(await publisher.api['libraries.publish']({ library: 'Pumps', to: SOURCE })).version).toBe(1);
    const s = ok(await laptop.api['libraries.subscribe']({ source: SOURCE, library: 'Team pumps' }));
    expect(s).toMatchObject({ version: 1, changed: true, previousVersion: null });
    const [summary] = ok(await laptop.api['libraries.list']({}));
    expect(summary!.subscription).toMatchObject({ source: SOURCE, version: 1, newerAvailable: false, checkError: null });

    ok(await publisher.importPaths('Pumps', [await manual('rac-225b.md', fuse(12))]));
    await publisher.idle();
    expect(ok(await publisher.api['libraries.publish']({ library: 'Pumps', to: SOURCE })).version).toBe(2);
    const checked = ok(await laptop.api['libraries.checkRemote']({ library: 'Team pumps' }));
    expect(checked.subscription).toMatchObject({ version: 1, latestVersion: 2, newerAvailable: true });
  });

  it('refuses every write to the subscribed library in words, and keeps conversations across a sync', async () => {
    const lib = 'Team pumps';
    const refusals = await Promise.all([
      laptop.api['documents.remove']({ library: lib, id: 'manuals/p40.md' }),
      laptop.api['libraries.configure']({ library: lib, enrich: 'llm' }),
      laptop.api['libraries.rename']({ library: lib, name: 'Mine' }),
      laptop.api['libraries.rebuild']({ library: lib }),
      laptop.api['import.start']({ library: lib, paths: [path.join(tmp.dir, 'manuals')] }),
    ]);
    for (const r of refusals) expect(r).toMatchObject({ ok: false, error: { code: 'unsupported', message: expect.stringContaining('read-only') } });
    const publish = await laptop.api['libraries.publish']({ library: lib, to: SOURCE });
    expect(publish).toMatchObject({ ok: false, error: { code: 'unsupported' } });
    const conversation = ok(await laptop.api['chat.create']({ library: lib, title: 'Fuses on site' }));
    ok(await laptop.api['chat.ask']({ library: lib, id: conversation.id, question: 'What fuse does the RAC-225B take?' }));
    (globalThis as { __conversation?: string }).__conversation = conversation.id;
  });

  it('swaps the new version in while searches run: each sees one whole version, then the new one', async () => {
    const lib = 'Team pumps';
    const ask = async () => ok(await laptop.api['search.query']({ library: lib, query: 'What fuse does the RAC-225B take?', topK: 1 })) as SearchResponse;
    expect((await ask()).results[0]!.text).toContain('10 A');
    let syncing = true;
    const seen: string[] = [];
    const reader = (async () => {
      while (syncing) {
        const text = (await ask()).results[0]!.text;
        seen.push(/(\d+) A slow-blow/.exec(text)?.[1] ?? text);
      }
    })();
    const synced = await laptop.api['libraries.sync']({ library: lib }).finally(() => (syncing = false));
    await reader;
    expect(ok(synced)).toMatchObject({ version: 2, previousVersion: 1, changed: true });
    expect(seen.length).toBeGreaterThan(0);
    // Every read answered from a whole version: the old one, then (once swapped) the new one.
    expect(seen.every((a) => a === '10' || a === '12')).toBe(true);
    expect(seen.slice(seen.indexOf('12')).every((a) => a === '12')).toBe(true);
    expect((await ask()).results[0]!.text).toContain('12 A');
    const [summary] = ok(await laptop.api['libraries.list']({}));
    expect(summary!.subscription).toMatchObject({ version: 2, newerAvailable: false });
    const id = (globalThis as { __conversation?: string }).__conversation!;
    expect(ok(await laptop.api['chat.list']({ library: lib })).map((c) => c.id)).toContain(id);
  });

  it('follows a version another process synced', async () => {
    ok(await publisher.importPaths('Pumps', [await manual('rac-225b.md', fuse(14))]));
    await publisher.idle();
    expect(ok(await publisher.api['libraries.publish']({ library: 'Pumps', to: SOURCE })).version).toBe(3);
    // A CLI run on the laptop while the app is open: another engine over the same data folder.
    const other = createEngine({ dataDir: path.join(tmp.dir, 'laptop'), threads: 1, log: () => undefined });
    try {
      expect(ok(await other.api['libraries.sync']({ library: 'Team pumps' })).version).toBe(3);
    } finally {
      await other.dispose();
    }
    const hit = ok(await laptop.api['search.query']({ library: 'Team pumps', query: 'What fuse does the RAC-225B take?', topK: 1 }));
    expect(hit.results[0]!.text).toContain('14 A');
    expect(ok(await laptop.api['libraries.list']({}))[0]!.subscription).toMatchObject({ version: 3 });
  });

  it('syncs from the version another process synced: nothing fetched twice, the folder in use never removed', async () => {
    ok(await publisher.importPaths('Pumps', [await manual('rac-225b.md', fuse(16))]));
    await publisher.idle();
    const published = ok(await publisher.api['libraries.publish']({ library: 'Pumps', to: SOURCE })).version;
    const subscriptions = path.join(tmp.dir, 'laptop', 'subscriptions');
    const [id] = await readdir(subscriptions);
    const other = createEngine({ dataDir: path.join(tmp.dir, 'laptop'), threads: 1, log: () => undefined });
    try {
      expect(ok(await other.api['libraries.sync']({ library: 'Team pumps' })).version).toBe(published);
    } finally {
      await other.dispose();
    }
    const live = path.join(subscriptions, id!, `v${published}`);
    const before = (await stat(live)).ino;
    // This engine loaded the version before; its "Sync now" starts from the one on disk.
    const res = ok(await laptop.api['libraries.sync']({ library: 'Team pumps' }));
    expect(res).toMatchObject({ version: published, changed: false, fetchedFiles: 0 });
    expect((await stat(live)).ino).toBe(before);
    const hit = ok(await laptop.api['search.query']({ library: 'Team pumps', query: 'What fuse does the RAC-225B take?', topK: 1 }));
    expect(hit.results[0]!.text).toContain('16 A');
  });

  it('keeps reading its version when another process points the library at a folder that cannot be opened', async () => {
    const subscriptions = path.join(tmp.dir, 'laptop', 'subscriptions');
    const [id] = await readdir(subscriptions);
    const current = await currentVersionDir(path.join(tmp.dir, 'laptop'), id!);
    const broken = path.join(subscriptions, id!, 'v999');
    await mkdir(broken, { recursive: true });
    await writeFile(path.join(broken, 'library.json'), '{ not json');
    await pointLibraryAt(path.join(tmp.dir, 'laptop'), id!, broken);
    try {
      for (let i = 0; i < 2; i++) {
        const hit = ok(await laptop.api['search.query']({ library: 'Team pumps', query: 'What fuse does the RAC-225B take?', topK: 1 }));
        expect(hit.results[0]!.text).toContain('16 A');
      }
    } finally {
      await pointLibraryAt(path.join(tmp.dir, 'laptop'), id!, current!);
      await rm(broken, { recursive: true, force: true });
    }
  });

  it('lets exactly one of two publishers racing for the same version make it; the other makes the next one', async () => {
    const access = resolveRemoteAccess({ endpoint: moto.endpoint, accessKeyId: 'testing', secretAccessKey: 'testing' }, {});
    const location = parseRemoteLocation(`s3://${BUCKET}/race`);
    if (!access.ok || !location.ok) throw new Error('bad test settings');
    // Both publishers hold the version they are about to make until the other has reached it
    // too, so their conditional writes of the same manifest really race.
    let arrived = 0;
    let release!: () => void;
    const bothThere = new Promise<void>((r) => (release = r));
    const racing = (store: ObjectStore): ObjectStore => ({
      ...store,
      put: async (key, body, options) => {
        if (options?.ifNoneMatch) {
          if (++arrived === 2) release();
          await bothThere;
        }
        return store.put(key, body, options);
      },
    });
    const dirs = [path.join(tmp.dir, 'race-a'), path.join(tmp.dir, 'race-b')];
    for (const [i, dir] of dirs.entries()) {
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, 'library.json'), JSON.stringify({ name: `race ${i}` }));
      await writeFile(path.join(dir, 'documents.json'), JSON.stringify({ version: 1, documents: [] }));
    }
    const stores = [await openS3Store(access.value, location.value.bucket), await openS3Store(access.value, location.value.bucket)];
    try {
      const results = await Promise.all(
        dirs.map(async (dir, i) => publishFolder({ store: racing(stores[i]!), location: location.value, dir, files: await listLibraryFiles(dir), libraryName: `race ${i}`, app: 'test' })),
      );
      const won = results.filter((r) => r.ok);
      const lost = results.filter((r) => !r.ok);
      expect(won.map((r) => r.ok && r.value.version)).toEqual([1]);
      expect(lost).toEqual([{ ok: false, error: { code: 'busy', message: expect.stringContaining('nothing was overwritten') } }]);
      // Published again, the loser makes version 2 without uploading its files a second time.
      const loser = results.findIndex((r) => !r.ok);
      const again = await publishFolder({ store: stores[loser]!, location: location.value, dir: dirs[loser]!, files: await listLibraryFiles(dirs[loser]!), libraryName: 'again', app: 'test' });
      expect(again).toMatchObject({ ok: true, value: { version: 2, basedOn: 1, uploadedFiles: 0 } });
    } finally {
      for (const s of stores) s.close();
    }
  });

  it('connects only to the configured server on 127.0.0.1, and only for the subscribed library', async () => {
    const before = sockets().length;
    const quiet = createEngine({ dataDir: path.join(tmp.dir, 'quiet'), threads: 1, log: () => undefined });
    try {
      ok(await quiet.importPaths('Local', [await manual('rac-225b.md', fuse(10))]));
      await quiet.resumeBackground();
      ok(await quiet.api['search.query']({ library: 'Local', query: 'fuse', topK: 1 }));
      await quiet.idle();
    } finally {
      await quiet.dispose();
    }
    expect(sockets().slice(before)).toEqual([]);
    await laptop.resumeBackground();
    // The start-up look at the bucket runs in the background; it records when it is done.
    const deadline = Date.now() + 20_000;
    while (sockets().length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(sockets().length).toBeGreaterThan(before);
    expect(leavingHost(sockets())).toEqual([]);
    expect(new Set(sockets())).toEqual(new Set([`127.0.0.1:${moto.port}`]));
  });

  it('refuses to delete a subscribed library while a sync of it runs, in words', async () => {
    const subscriptions = path.join(tmp.dir, 'laptop', 'subscriptions');
    const [id] = await readdir(subscriptions);
    const syncing = await tryLock(path.join(subscriptions, id!, 'sync.lock'), 'sync');
    if (!syncing.ok) throw new Error('the test could not take the sync lock');
    try {
      const res = await laptop.api['libraries.delete']({ library: 'Team pumps' });
      expect(res).toMatchObject({ ok: false, error: { code: 'busy', message: expect.stringContaining('being synced') } });
      expect(await readdir(subscriptions)).toEqual([id]);
    } finally {
      await syncing.release();
    }
  });

  it('removes the synced copies and conversations with the subscribed library', async () => {
    const subscriptions = path.join(tmp.dir, 'laptop', 'subscriptions');
    expect(await readdir(subscriptions)).toHaveLength(1);
    ok(await laptop.api['libraries.delete']({ library: 'Team pumps' }));
    expect(await readdir(subscriptions)).toEqual([]);
    expect(ok(await laptop.api['libraries.list']({}))).toEqual([]);
  });
});
