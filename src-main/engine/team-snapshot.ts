import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import type { LibraryIndexes } from '../index/library-indexes';
import type { Library } from '../storage/library.store';
import { listLibraryFiles, type LocalFile } from '../storage/remote/manifest';
import type { WriterLock } from './writer-lock';

/** Files up to this size are copied into a snapshot, larger ones hard-linked (see `snapshotLibrary`). */
const COPY_MAX_BYTES = 1 << 20;

/** A frozen copy of a library's publishable files, and how to remove it. */
export interface LibrarySnapshot {
  dir: string;
  files: LocalFile[];
  discard(): Promise<void>;
}

/**
 * Freezes a library for publishing: with no writer in this process (the rebuild claim: imports,
 * removals and settings changes wait or are refused) nor in another (the lock file), background
 * work stopped and what an interrupted writer left repaired, its files are linked into `<data>/publishing/<pid>-<random>/`. That takes
 * milliseconds; the upload then reads the snapshot while the library is free again. Large files
 * are hard links: LanceDB data files never change once written, and every other library file is
 * replaced by a rename, which leaves a link's content as it was. Small files (LanceDB's version
 * hint among them) are copied. Background work starts again afterwards, as after a rebuild.
 */
export async function snapshotLibrary(
  lib: Library,
  dataDir: string,
  deps: { lock: WriterLock; indexes: LibraryIndexes; stopJobs: (lib: Library, keys?: RegExp) => Promise<void>; startBackground: (lib: Library) => void },
): Promise<Result<LibrarySnapshot>> {
  const claim = deps.lock.claimRebuild(lib);
  if (!claim.ok) return fail('busy', `"${lib.name}" is being imported into, changed or rebuilt; publish it when that has finished.`);
  const held = await deps.lock.hold(lib, 'publish');
  if (!held.ok) {
    claim.value();
    return held;
  }
  const root = path.join(dataDir, 'publishing');
  const dir = path.join(root, `${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await deps.stopJobs(lib, /^(index|enrich|embed)-/);
    // What is published is the library as it opens: a process killed mid-commit left rows of a
    // document it never listed (its journal.json stays on this computer) and one killed after a
    // rebuild's swap left the new records in index/rebuild-finish.json; a subscriber repairs
    // neither. Opening the index under the lock finishes both, as the next open here would.
    await (await deps.indexes.open(lib)).followDisk({ repairLeft: true });
    await sweepAbandoned(root);
    const files = await listLibraryFiles(lib.dir);
    for (const f of files) {
      const from = path.join(lib.dir, ...f.path.split('/'));
      const to = path.join(dir, ...f.path.split('/'));
      await fs.mkdir(path.dirname(to), { recursive: true });
      if (f.size <= COPY_MAX_BYTES) await fs.copyFile(from, to);
      else await fs.link(from, to).catch(() => fs.copyFile(from, to));
    }
    return ok({ dir, files, discard: () => fs.rm(dir, { recursive: true, force: true }) });
  } catch (err) {
    await fs.rm(dir, { recursive: true, force: true });
    throw err;
  } finally {
    claim.value();
    // Started before the lock file is let go, as after a rebuild: the library owes it.
    deps.startBackground(lib);
    await held.value();
  }
}

/** Removes snapshots of publishes whose process is gone (killed mid-upload). */
async function sweepAbandoned(root: string): Promise<void> {
  for (const entry of await fs.readdir(root).catch(() => [] as string[])) {
    const pid = Number(/^(\d+)-/.exec(entry)?.[1]);
    if (!pid || pid === process.pid) continue;
    let alive = true;
    try {
      process.kill(pid, 0);
    } catch (err) {
      alive = (err as NodeJS.ErrnoException).code === 'EPERM';
    }
    if (!alive) await fs.rm(path.join(root, entry), { recursive: true, force: true });
  }
}
