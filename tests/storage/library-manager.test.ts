import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LibraryManager } from '../../src-main/storage/library.store';
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
});
