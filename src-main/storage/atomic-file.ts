import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Writes a file so that readers see either the old or the new content, never a torn one: write a
 * temp file in the same directory, fsync it, rename over the target, then fsync the directory.
 * `durable: false` skips the fsyncs (still atomic against a killed process, not against power
 * loss): for bulk files whose loss is detected and repaired, where per-file fsyncs would dominate
 * import time.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array, options: { durable?: boolean } = {}): Promise<void> {
  const durable = options.durable ?? true;
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await fs.open(tmp, 'w');
  try {
    await handle.writeFile(data);
    if (durable) await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
  if (durable) await syncDir(dir);
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

/** Removes stray temp files left by a crash between write and rename. */
export async function sweepTempFiles(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return;
  }
  await Promise.all(names.filter((n) => n.startsWith('.') && n.endsWith('.tmp')).map((n) => fs.rm(path.join(dir, n), { force: true })));
}
