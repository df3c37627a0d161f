import { createWriteStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { finished, Transform, type Readable, type Writable } from 'node:stream';
import type { Result } from '../core/result';
import { CodedError, fail, ok } from '../core/result';
import { compareNames, isSafeRelativePath } from '../core/import-names';
import { megabytes } from '../ingest/import-limits';

/**
 * Files dropped on a browser page reach the engine as bytes, not paths: the web bridge streams
 * each one to disk under `<data>/uploads/<upload id>/` with its relative name (never holding a
 * whole file in memory), then `import.upload` imports that staged tree and removes it. The
 * browser names only an upload id and relative paths, never a path on this computer.
 */

/** An upload's id: chosen by the page, letters, digits, `-` and `_` only. */
export const UPLOAD_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** Where uploads are staged for a data folder. */
export const uploadsDirOf = (dataDir: string): string => path.join(dataDir, 'uploads');

/** A relative, `/`-separated name that stays inside the folder it is put in (shared with `import.start`'s names). */
export { isSafeRelativePath };

/** Why a second file under a name an upload already holds is refused, in words. */
const nameTaken = (relPath: string) =>
  new CodedError('already-exists', `Another file of this upload is already named "${relPath}": the first is kept, and this one is not taken (each file of a drop needs a name of its own).`);

/**
 * Streams one uploaded file to `<uploads>/<id>/<relPath>`, refusing it with `too-large` as soon as
 * more than `maxBytes` have arrived (the part written is removed). The file appears under its name
 * only when complete, so an interrupted upload is never imported. A name the upload already holds
 * (a file, or a folder of its files) is refused with `already-exists`: put in its place, the
 * second file replaced the first without a word.
 */
export async function stageUploadedFile(uploads: string, uploadId: string, relPath: string, body: Readable, maxBytes: number): Promise<Result<{ bytes: number }>> {
  if (!UPLOAD_ID.test(uploadId)) return fail('invalid-input', 'The upload id is not valid.');
  if (!isSafeRelativePath(relPath)) return fail('unsafe-path', 'File names cannot leave the dropped folder.');
  const staging = path.join(uploads, uploadId);
  const target = path.join(staging, ...relPath.split('/'));
  if (!target.startsWith(staging + path.sep)) return fail('unsafe-path', `The name "${relPath}" could escape the upload folder.`);
  // Refused before a byte is read; `publish` below refuses one that won the race to the name.
  if (await fs.lstat(target).then(() => true, () => false)) return fail('already-exists', nameTaken(relPath).message);
  try {
    await fs.mkdir(path.dirname(target), { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') return fail('already-exists', `"${relPath}" needs a folder where this upload already has a file of that name: it is not taken.`);
    if (code === 'ENOSPC') return fail('unreadable', 'The disk is full: the file could not be staged for import.');
    return fail('unreadable', `The file could not be staged for import (${code ?? (err instanceof Error ? err.message : String(err))}).`);
  }
  const partial = path.join(path.dirname(target), `.upload-${randomBytes(6).toString('hex')}.part`);
  let bytes = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) done(new CodedError('too-large', `The file is too large to import (limit ${megabytes(maxBytes)}).`));
      else done(null, chunk);
    },
  });
  try {
    await copyWithoutDestroying(body, cap, createWriteStream(partial, { flags: 'wx' }));
    await publish(partial, target, relPath);
    return ok({ bytes });
  } catch (err) {
    await fs.rm(partial, { force: true });
    if (err instanceof CodedError) return fail(err.code, err.message);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC') return fail('unreadable', 'The disk is full: the file could not be staged for import.');
    return fail('unreadable', `The upload stopped before the file was complete (${code ?? (err instanceof Error ? err.message : String(err))}).`);
  }
}

/**
 * Gives the complete file `partial` its name `target`, unless the name is taken. A hard link
 * fails on a taken name where a rename would replace it; a disk without hard links (FAT) is
 * looked at first and renamed onto, which two uploads of one name at the same instant could race.
 */
async function publish(partial: string, target: string, relPath: string): Promise<void> {
  try {
    await fs.link(partial, target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw nameTaken(relPath);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw err;
    if (await fs.lstat(target).then(() => true, () => false)) throw nameTaken(relPath);
    await fs.rename(partial, target);
    return;
  }
  await fs.rm(partial, { force: true });
}

/** The staged tree of an upload: its folder and the top-level names to import. */
export async function stagedUpload(uploads: string, uploadId: string): Promise<Result<{ staging: string; tops: string[] }>> {
  if (!UPLOAD_ID.test(uploadId)) return fail('invalid-input', 'The upload id is not valid.');
  const staging = path.join(uploads, uploadId);
  const names = await fs.readdir(staging).catch(() => null);
  // In a known order, not the disk's: of a drop's "manual.md" and the page's "manual (2).md" with
  // the same bytes, the first read is imported and the other reported as its copy, so a name
  // comes before the same name with a mark added, as the import's folder walk reads them.
  const tops = (names ?? [])
    .filter((n) => !n.startsWith('.upload-'))
    .sort(compareNames)
    .map((n) => path.join(staging, n));
  if (tops.length === 0) return fail('not-found', 'Nothing was uploaded under this upload id (the files may not have arrived).');
  return ok({ staging, tops });
}

/**
 * `body -> cap -> out`, like `stream.pipeline` except that on an error `body` is only unpiped, not
 * destroyed: an HTTP request destroyed mid-body takes its socket with it, and the web bridge must
 * still answer "too large" on that socket before closing it.
 */
function copyWithoutDestroying(body: Readable, cap: Transform, out: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const stop = (err: unknown) => {
      if (settled) return;
      settled = true;
      body.unpipe(cap);
      cap.destroy();
      out.destroy();
      // Resolved once the file is closed, so the caller can remove it.
      if (out.closed) reject(err);
      else out.once('close', () => reject(err));
    };
    finished(body, { writable: false }, (err) => err && stop(err));
    cap.once('error', stop);
    out.once('error', stop);
    out.once('close', () => {
      if (settled || !out.writableFinished) return;
      settled = true;
      resolve();
    });
    body.pipe(cap).pipe(out);
  });
}

/** Staged uploads left this long (the page was closed mid-drop, or the drop was cancelled) are removed. */
const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;

/** Removes upload folders nobody has written for a day; best effort, at engine start. */
export async function sweepAbandonedUploads(uploads: string, now = Date.now()): Promise<void> {
  const names = await fs.readdir(uploads).catch(() => [] as string[]);
  for (const name of names) {
    const dir = path.join(uploads, name);
    const st = await fs.stat(dir).catch(() => null);
    if (st && now - st.mtimeMs > ABANDONED_AFTER_MS) await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}
