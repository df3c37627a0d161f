import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { existsSync, promises as fsPromises } from 'node:fs';
import { mkdir, readdir, rename, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LibraryManager } from '../../src-main/storage/library.store';
import { tryLock } from '../../src-main/storage/lock-file';
import { runNode } from '../helpers/run-node';
import { tempDir } from '../helpers/temp';

let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  tmp = await tempDir('manualmate-libs-');
});
afterEach(async () => tmp.cleanup());

describe('the folder of libraries', () => {
  it('gives every caller the one instance of a library, however many ask at once', async () => {
    const made = await new LibraryManager(tmp.dir).create('Pumps');
    if (!made.ok) throw new Error(made.error.message);
    // A fresh manager, as at the app's start: several lists race to open the folder.
    const manager = new LibraryManager(tmp.dir);
    const lists = await Promise.all(Array.from({ length: 5 }, () => manager.list()));
    const instances = new Set(lists.map((l) => l[0]));
    expect(instances.size).toBe(1);
    // So a config saved through one caller's instance is what every later list shows.
    await lists[0]![0]!.saveConfig({ indexVersion: 99 });
    expect((await manager.get('Pumps'))?.config.indexVersion).toBe(99);
  });

  it('removes a library folder whose deletion was killed part-way, and leaves one a running deletion has aside', async () => {
    const manager = new LibraryManager(tmp.dir);
    for (const name of ['Pumps', 'Fans', 'Valves']) if (!(await manager.create(name)).ok) throw new Error(name);
    const [fans, pumps] = await manager.list();
    await mkdir(path.join(pumps!.dir, 'originals'), { recursive: true });
    await writeFile(path.join(pumps!.dir, 'originals', 'manual.pdf'), 'bytes');
    // A kill during the removal leaves what the rename put aside, with the name the deleting process gave it.
    const ofRunning = await deleteStopped(manager, fans!.dir, process.pid);
    const ofKilled = await deleteStopped(manager, pumps!.dir, await endedPid());
    expect(existsSync(ofKilled)).toBe(true);
    expect((await new LibraryManager(tmp.dir).list()).map((l) => l.name)).toEqual(['Valves']);
    expect(existsSync(ofKilled), 'the folder of the killed deletion').toBe(false);
    expect(existsSync(ofRunning), 'the folder of a deletion under way').toBe(true);
  });
});

describe('folders put aside by versions before pids were in their names', () => {
  it('removes those untouched for minutes whose lock no live process holds, and keeps the rest', async () => {
    const manager = new LibraryManager(tmp.dir);
    if (!(await manager.create('Valves')).ok) throw new Error('Valves');
    const root = path.join(tmp.dir, 'libraries');
    const aside = async (name: string, minutesAgo: number) => {
      const dir = path.join(root, name);
      await mkdir(path.join(dir, 'originals'), { recursive: true });
      await writeFile(path.join(dir, 'originals', 'manual.pdf'), 'bytes');
      await writeFile(path.join(dir, 'library.json'), '{}');
      const at = new Date(Date.now() - minutesAgo * 60_000);
      await utimes(dir, at, at);
      return dir;
    };
    // Named as those versions named them: `.{id}.deleting-{random}` and `.{id}.creating`.
    const killedDeletion = await aside('.lib-aaaaaaaaaaaa.deleting-0a1b2c', 60);
    const killedCreation = await aside('.lib-bbbbbbbbbbbb.creating', 60);
    const creationUnderWay = await aside('.lib-cccccccccccc.creating', 0);
    const locked = await aside('.lib-dddddddddddd.deleting-3d4e5f', 60);
    const lock = await tryLock(path.join(locked, 'write.lock'), 'deletion');
    if (!lock.ok) throw new Error('lock');
    await utimes(locked, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    try {
      expect((await new LibraryManager(tmp.dir).list()).map((l) => l.name)).toEqual(['Valves']);
      expect(existsSync(killedDeletion), 'the folder of a deletion killed an hour ago').toBe(false);
      expect(existsSync(killedCreation), 'the folder of a creation killed an hour ago').toBe(false);
      expect(existsSync(creationUnderWay), 'the folder of a creation written to just now').toBe(true);
      expect(existsSync(locked), 'a folder whose lock file a live process holds').toBe(true);
    } finally {
      await lock.release();
    }
  });
});

/** The pid of a process that has ended. */
async function endedPid(): Promise<number> {
  const run = await runNode(['-e', 'process.stdout.write(String(process.pid))']);
  return Number(run.stdout);
}

/**
 * What `LibraryManager.delete` leaves when its process stops between the rename and the removal:
 * the folder renamed aside under the name it gives, with `pid` as the deleting process's.
 */
async function deleteStopped(manager: LibraryManager, dir: string, pid: number): Promise<string> {
  const root = path.dirname(dir);
  const before = new Set(await readdir(root));
  const lib = (await manager.list()).find((l) => l.dir === dir)!;
  const rm = vi.spyOn(fsPromises, 'rm').mockRejectedValueOnce(new Error('killed'));
  await manager.delete(lib).catch(() => undefined);
  rm.mockRestore();
  const aside = (await readdir(root)).find((e) => !before.has(e))!;
  const trash = path.join(root, aside.replace(`.${process.pid}.`, `.${pid}.`));
  await rename(path.join(root, aside), trash);
  return trash;
}
