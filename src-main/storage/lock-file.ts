import { promises as fs, unlinkSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * An exclusive lock between processes: a file created with O_EXCL (`wx`), holding who owns it
 * (pid, the process's start time, host, purpose), as git's `index.lock` and SQLite's hot-journal
 * check do. A lock whose process is gone (killed, crashed, power cut) is stale and is taken over;
 * a live holder's lock is never broken.
 *
 * Hand-written rather than `proper-lockfile` (only an extraneous leftover in node_modules, not a
 * dependency): that library decides staleness by an mtime its holder must refresh on a timer, so a
 * holder whose event loop is blocked longer than the stale interval (a long parse on the main
 * thread) loses its lock to a second writer, and a killed holder still blocks for that interval.
 * Asking the OS whether the pid lives, and whether it is still the same process (its start time
 * on Linux, where pids are reused), has neither problem.
 */

export interface LockOwner {
  pid: number;
  /** Start time of the owning process as the OS records it (Linux `/proc/<pid>/stat` field 22), or null elsewhere. */
  procStart: string | null;
  host: string;
  /** What the owner is doing, in words ("import", "rebuild"...), for the busy message. */
  purpose: string;
  /** When the lock was taken (ISO). */
  since: string;
  /** Distinguishes two locks of one process. */
  nonce: string;
}

export type LockAttempt = { ok: true; release: () => Promise<void> } | { ok: false; owner: LockOwner | null };

/** A lock file that cannot be parsed is given this long to be written before it counts as stale. */
const UNREADABLE_GRACE_MS = 5_000;

/** The start time of a process as the kernel records it, or null where there is no /proc. */
function procStartOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (comm) is in parentheses and may contain spaces: count fields after the last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return rest[19] ?? null;
  } catch {
    return null;
  }
}

const ownStart = procStartOf(process.pid);

/** True unless the owner's process is known to be gone (or its pid now belongs to another process). */
export function ownerAlive(owner: LockOwner): boolean {
  // A lock written on another computer (a shared folder) cannot be checked: treated as live.
  if (owner.host !== os.hostname()) return true;
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (owner.procStart !== null) {
    const now = procStartOf(owner.pid);
    if (now !== null && now !== owner.procStart) return false;
  }
  return true;
}

/** True when the owner is this process (another of its engines or writers holds the lock). */
export function ownedHere(owner: LockOwner): boolean {
  return owner.pid === process.pid && owner.host === os.hostname() && owner.procStart === ownStart;
}

async function readOwner(file: string): Promise<{ raw: string; owner: LockOwner | null; mtimeMs: number } | null> {
  try {
    const [raw, stat] = await Promise.all([fs.readFile(file, 'utf8'), fs.stat(file)]);
    let owner: LockOwner | null = null;
    try {
      const parsed = JSON.parse(raw) as Partial<LockOwner>;
      if (typeof parsed.pid === 'number' && typeof parsed.host === 'string') owner = parsed as LockOwner;
    } catch {
      owner = null;
    }
    return { raw, owner, mtimeMs: stat.mtimeMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function isStale(found: { owner: LockOwner | null; mtimeMs: number }): boolean {
  if (found.owner) return !ownerAlive(found.owner);
  // Created but not yet (or never) written: its writer died between open and write, or is writing now.
  return Date.now() - found.mtimeMs > UNREADABLE_GRACE_MS;
}

/** Locks this process holds, removed on a normal exit even when nobody released them. */
const held = new Map<string, string>();
process.once('exit', () => {
  for (const [file, nonce] of held) {
    try {
      if (readFileSync(file, 'utf8').includes(`"nonce":"${nonce}"`)) unlinkSync(file);
    } catch {
      /* already gone */
    }
  }
});

/**
 * Removes a stale lock. Breakers take a second exclusive file first and check the lock again under
 * it, so two processes that both saw the same stale lock cannot end with one deleting the fresh
 * lock the other has just created.
 */
async function breakStale(file: string, staleRaw: string): Promise<void> {
  const guard = `${file}.break`;
  let handle;
  try {
    handle = await fs.open(guard, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Another breaker is at work; its guard lives for microseconds unless it died holding it.
    const other = await readOwner(guard);
    if (other && isStale(other)) await fs.rm(guard, { force: true });
    return;
  }
  try {
    await handle.writeFile(JSON.stringify(ownerRecord('breaking a stale lock')));
    const again = await readOwner(file);
    if (again && again.raw === staleRaw && isStale(again)) await fs.rm(file, { force: true });
  } finally {
    await handle.close();
    await fs.rm(guard, { force: true });
  }
}

function ownerRecord(purpose: string): LockOwner {
  return { pid: process.pid, procStart: ownStart, host: os.hostname(), purpose, since: new Date().toISOString(), nonce: randomBytes(8).toString('hex') };
}

/**
 * Tries once to take the lock `file` (taking over a stale one). Resolves with a release function,
 * or with the live owner (null when its lock file could not be read yet).
 */
export async function tryLock(file: string, purpose: string): Promise<LockAttempt> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const me = ownerRecord(purpose);
    const body = JSON.stringify(me);
    let handle;
    try {
      handle = await fs.open(file, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const found = await readOwner(file);
      if (!found) continue; // released meanwhile: try again
      if (!isStale(found)) return { ok: false, owner: found.owner };
      await breakStale(file, found.raw);
      continue;
    }
    try {
      await handle.writeFile(body);
      await handle.sync();
    } finally {
      await handle.close();
    }
    held.set(file, me.nonce);
    let released = false;
    return {
      ok: true,
      release: async () => {
        if (released) return;
        released = true;
        held.delete(file);
        // Only our own lock is removed: were it ever taken over, the new owner's stays.
        const now = await readOwner(file).catch(() => null);
        if (now?.owner?.nonce === me.nonce) await fs.rm(file, { force: true });
      },
    };
  }
  const found = await readOwner(file);
  return { ok: false, owner: found?.owner ?? null };
}

/**
 * Like `tryLock`, retrying every `intervalMs` until `timeoutMs` has passed (for short critical
 * sections) or `signal` aborts: then it answers as the last attempt did (not taken, its owner).
 */
export async function waitLock(file: string, purpose: string, timeoutMs: number, intervalMs = 25, signal?: AbortSignal): Promise<LockAttempt> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const got = await tryLock(file, purpose);
    if (got.ok || Date.now() >= until || signal?.aborted) return got;
    await sleep(intervalMs, undefined, signal ? { signal } : {}).catch(() => undefined);
  }
}
