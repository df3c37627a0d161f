import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Result } from '../../core/result';
import { fail, ok } from '../../core/result';
import { isPackName, ORIGINALS_DIR, PACK_DIR } from '../text-pack';

/**
 * A published version of a library: the list of its files, each with its size and SHA-256. Files
 * live in the bucket once, by content (`objects/<sha256>`), so a version that changes one manual
 * uploads, and a subscriber downloads, only the files that changed. The bucket:
 *
 *   <prefix>/objects/<aa>/<sha256>     immutable file contents, shared by every version
 *   <prefix>/versions/<0000000007>.json the manifest of version 7, created only if absent
 *                                      (`If-None-Match: *`): the one conditional write that
 *                                      makes a version, so two publishers cannot both make 7
 *
 * The latest version is the highest manifest: a manifest is written only after all its files are
 * in the bucket, so every listed version is complete.
 */

export const MANIFEST_FORMAT = 'manualmate-library';

/** One file of a published library, by its path relative to the library folder (POSIX separators). */
export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  /** 2 when the library holds packed texts or originals (see `manifestFormatVersion`), else 1. */
  formatVersion: 1 | 2;
  version: number;
  publishedAt: string;
  /** The version the publisher saw as latest when it started (null: the first). */
  basedOn: number | null;
  publisher: { host: string; app: string };
  library: { name: string };
  files: ManifestFile[];
}

/**
 * The manifest's format version for these files: 2 when any is a pack of texts or originals
 * (`normalized/pack-*`, `originals/pack-*`), which ManualMate before packs would misread (it shows
 * a whole pack as one document's original and cannot find a packed text); such a subscriber
 * refuses a format version it does not know in words instead. 1 otherwise, so a library without
 * packs stays readable by every version.
 */
export function manifestFormatVersion(files: readonly { path: string }[]): 1 | 2 {
  return files.some((f) => {
    const [folder, name, ...deeper] = f.path.split('/');
    return deeper.length === 0 && (folder === PACK_DIR || folder === ORIGINALS_DIR) && name !== undefined && isPackName(name);
  })
    ? 2
    : 1;
}

/** The files a published library must have to open as a library. */
const REQUIRED_FILES = ['library.json', 'documents.json'];

/** A path from a manifest is used to write files here: relative, POSIX, no `.`/`..` parts, no hidden names. */
const safePath = z
  .string()
  .min(1)
  .max(1024)
  .refine((p) => !p.startsWith('/') && !/[\\\0]/.test(p) && p.split('/').every((part) => part !== '' && part !== '.' && part !== '..' && !part.startsWith('.')), {
    message: 'unsafe path',
  });

const manifestSchema = z
  .object({
    format: z.literal(MANIFEST_FORMAT),
    formatVersion: z.union([z.literal(1), z.literal(2)]),
    version: z.number().int().min(1),
    publishedAt: z.string().max(64),
    basedOn: z.number().int().min(1).nullable(),
    publisher: z.object({ host: z.string().max(256), app: z.string().max(64) }),
    library: z.object({ name: z.string().max(200) }),
    files: z.array(z.object({ path: safePath, size: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) })).max(2_000_000),
  })
  .strict();

/** Parses a manifest fetched from a bucket (untrusted bytes); `expected` is the version its key names. */
export function parseManifest(bytes: Buffer, expected: number): Result<Manifest> {
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch {
    return fail('corrupt', `The manifest of version ${expected} is not JSON.`);
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail('corrupt', `The manifest of version ${expected} is not a ManualMate library (${issue?.path.join('.') || 'value'}: ${issue?.message ?? 'invalid'}).`);
  }
  const m = parsed.data as Manifest;
  if (m.version !== expected) return fail('corrupt', `The manifest stored as version ${expected} says it is version ${m.version}.`);
  const paths = new Set<string>();
  for (const f of m.files) {
    // A path that is also a folder of another path (`a` and `a/b`) could not be written.
    if (paths.has(f.path)) return fail('corrupt', `The manifest of version ${expected} lists ${f.path} twice.`);
    paths.add(f.path);
  }
  for (const f of m.files) {
    const parts = f.path.split('/');
    for (let i = 1; i < parts.length; i++) if (paths.has(parts.slice(0, i).join('/'))) return fail('corrupt', `The manifest of version ${expected} lists ${f.path} inside a file.`);
    // What is never published is never fetched either: a synced conversations/ would collide with
    // this computer's, a journal.json would be replayed against the synced index.
    if (LOCAL_ONLY.has(parts[0]!)) return fail('corrupt', `The manifest of version ${expected} lists ${f.path}, which belongs to one computer and is never published.`);
  }
  for (const req of REQUIRED_FILES) if (!paths.has(req)) return fail('corrupt', `The manifest of version ${expected} has no ${req}.`);
  return ok(m);
}

/** Key of a version's manifest; zero-padded so the bucket lists versions in order. */
export function versionKey(prefix: string, version: number): string {
  return joinKey(prefix, 'versions', `${String(version).padStart(10, '0')}.json`);
}

/** The folder (key prefix) of all version manifests. */
export function versionsPrefix(prefix: string): string {
  return joinKey(prefix, 'versions/');
}

/** The version number a manifest key names, or null for any other key. */
export function versionOfKey(prefix: string, key: string): number | null {
  const m = /^(\d{10})\.json$/.exec(key.slice(versionsPrefix(prefix).length));
  return key.startsWith(versionsPrefix(prefix)) && m ? Number(m[1]) : null;
}

/** Key of a file's content. */
export function objectKey(prefix: string, sha256: string): string {
  return joinKey(prefix, 'objects', sha256.slice(0, 2), sha256);
}

function joinKey(prefix: string, ...parts: string[]): string {
  return [prefix, ...parts].filter((p) => p !== '').join('/');
}

/**
 * What of a library folder is published: everything but what belongs to this computer or to a
 * write under way: the writer's lock file, the import journal, conversations, a rebuild's
 * side folders, and hidden or temp files.
 */
const LOCAL_ONLY = new Set(['write.lock', 'write.lock.break', 'journal.json', 'conversations', 'index.next', 'index.old']);

/** A file of a library folder: its path relative to the folder (POSIX) and size. */
export interface LocalFile {
  path: string;
  size: number;
}

/** The publishable files of a library folder, sorted by path (regular files only; links are not followed). */
export async function listLibraryFiles(dir: string): Promise<LocalFile[]> {
  const out: LocalFile[] = [];
  const walk = async (rel: string[]) => {
    const entries = await fs.readdir(path.join(dir, ...rel), { withFileTypes: true });
    for (const e of entries) {
      if (e.name.startsWith('.') || e.name.endsWith('.tmp')) continue;
      if (rel.length === 0 && LOCAL_ONLY.has(e.name)) continue;
      if (e.isDirectory()) await walk([...rel, e.name]);
      else if (e.isFile()) {
        const st = await fs.stat(path.join(dir, ...rel, e.name));
        out.push({ path: [...rel, e.name].join('/'), size: st.size });
      }
    }
  };
  await walk([]);
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** SHA-256 of a file, hex. */
export async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Runs `fn` over `items`, at most `limit` at a time; the first failure stops handing out new items and is rethrown. */
export async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed: unknown = null;
  const worker = async () => {
    while (failed === null && next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (err) {
        failed ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failed !== null) throw failed;
}
