import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Writes a file so that readers see either the old or the new content, never a torn one: write a
 * temp file in the same directory, fsync it, rename over the target, then fsync the directory; on
 * any error the temp file goes. `data` may come in parts (a pack of many files), written in one
 * gathered write each time. `durable: false` skips the fsyncs (still atomic against a killed
 * process, not against power loss): for bulk files whose loss is detected and repaired, where
 * per-file fsyncs would dominate import time.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array | readonly Uint8Array[], options: { durable?: boolean } = {}): Promise<void> {
  const durable = options.durable ?? true;
  const dir = path.dirname(file);
  const tmp = path.join(dir, tempName(path.basename(file)));
  try {
    const handle = await openCreating(tmp);
    try {
      if (Array.isArray(data)) await writeParts(handle, data as readonly Uint8Array[], path.basename(file));
      else await handle.writeFile(data as string | Uint8Array);
      if (durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
  if (durable) await syncDir(dir);
}

/**
 * Writes every byte of `parts`: writev may write fewer bytes than asked and still resolve (a disk
 * filling up on the way), so what it left is written again until all is there or the write fails
 * in words (ENOSPC).
 */
async function writeParts(handle: fs.FileHandle, parts: readonly Uint8Array[], name: string): Promise<void> {
  let rest = parts.filter((p) => p.byteLength > 0);
  while (rest.length > 0) {
    let { bytesWritten } = await handle.writev(rest);
    if (bytesWritten === 0) throw Object.assign(new Error(`No space left to write ${name}`), { code: 'ENOSPC' });
    const next: Uint8Array[] = [];
    for (const p of rest) {
      if (bytesWritten >= p.byteLength) bytesWritten -= p.byteLength;
      else {
        next.push(p.subarray(bytesWritten));
        bytesWritten = 0;
      }
    }
    rest = next;
  }
}

/**
 * Opens `file` for writing, making its folder only when it is missing: most writes go to a folder
 * that exists, and a `mkdir` of an existing folder still costs a system call (~0.4 ms of kernel
 * time each on the 2-core test VM while an import writes its originals).
 */
export async function openCreating(file: string): Promise<fs.FileHandle> {
  try {
    return await fs.open(file, 'w');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await fs.mkdir(path.dirname(file), { recursive: true });
    return fs.open(file, 'w');
  }
}

/** Longest file name, in bytes, on the file systems in use (ext4, APFS, NTFS: 255). */
const NAME_MAX_BYTES = 255;

/**
 * The temp name for `base`: `.{base}.{pid}.{random}.tmp`, with `base` shortened (on a character
 * boundary) so the name fits `NAME_MAX_BYTES` even when `base` itself nearly fills it. The pid
 * tells a sweep whether the writer is still running.
 */
export function tempName(base: string): string {
  const suffix = `.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const room = NAME_MAX_BYTES - 1 - Buffer.byteLength(suffix);
  const bytes = Buffer.from(base);
  let end = Math.min(bytes.length, room);
  // A cut inside a multi-byte character moves back to the character's first byte.
  while (end < bytes.length && end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  const kept = bytes.subarray(0, end).toString('utf8');
  return `.${kept}${suffix}`;
}

/** JSON variant of `writeFileAtomic` (pretty-printed, trailing newline). */
export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Reads JSON, returning `fallback` when the file does not exist. Other errors propagate. */
export async function readJson<T>(file: string, fallback: T): Promise<T> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw err;
  }
  return JSON.parse(text) as T;
}

async function syncDir(dir: string): Promise<void> {
  // Directory fsync makes the rename durable on Linux; Windows cannot open directories, which is fine.
  try {
    const h = await fs.open(dir, 'r');
    try {
      await h.sync();
    } finally {
      await h.close();
    }
  } catch {
    /* best effort */
  }
}

/** True while process `pid` runs (a process of another user counts as running). */
function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * True for a temp file of `writeFileAtomic` whose writer is gone (a crash between write and
 * rename): a temp name of a running process, this one included, is a write still under way.
 */
export function isStrayTemp(name: string): boolean {
  if (!name.startsWith('.') || !name.endsWith('.tmp')) return false;
  const pid = /\.(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name)?.[1];
  if (!pid) return true;
  return Number(pid) !== process.pid && !processRuns(Number(pid));
}

/** Removes stray temp files left by a crash between write and rename; `recursive` also looks in sub-folders. */
export async function sweepTempFiles(dir: string, options: { recursive?: boolean } = {}): Promise<void> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true, recursive: options.recursive ?? false });
  } catch {
    return;
  }
  const stray = entries.filter((e) => e.isFile() && isStrayTemp(e.name));
  // `parentPath` (Node 20.12+) names the folder of an entry found by a recursive listing.
  await Promise.all(stray.map((e) => fs.rm(path.join((e as { parentPath?: string }).parentPath ?? e.path ?? dir, e.name), { force: true })));
}
