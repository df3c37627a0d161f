import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { CodedError } from '../../core/result';
import { readJson, writeJsonAtomic } from '../atomic-file';
import type { LibraryConfig, SubscriptionState } from '../library.store';
import type { RemoteLocation } from './location';
import { eachLimited, hashFile, objectKey, type Manifest } from './manifest';
import type { ObjectStore } from './object-store';

/**
 * The offline copy of a subscribed library on this computer. Each synced version is a complete
 * library folder of its own, and the library's folder in `libraries/` is a symbolic link to the
 * current one, replaced in one rename: a reader opens either the old version or the new one,
 * never a folder half synced.
 *
 *   <data>/libraries/<id>                    -> ../subscriptions/<id>/v<N>   (the library)
 *   <data>/subscriptions/<id>/v<N>/          version N: the published files, library.json made local
 *   <data>/subscriptions/<id>/conversations/ this computer's conversations, shared by every version
 *   <data>/subscriptions/<id>/.staging-*     a version being fetched (discarded if interrupted)
 *   <data>/subscriptions/<id>/sync.lock      one sync at a time, across processes
 */

/** Downloads in flight at once. */
const PARALLEL_TRANSFERS = 4;

export function subscriptionDir(dataDir: string, id: string): string {
  return path.join(dataDir, 'subscriptions', id);
}

export function libraryLink(dataDir: string, id: string): string {
  return path.join(dataDir, 'libraries', id);
}

const versionDirName = (version: number) => `v${version}`;

/** What fetching a version did. */
export interface FetchOutcome {
  fetchedFiles: number;
  fetchedBytes: number;
  reusedFiles: number;
}

/**
 * Builds version `manifest.version` in a staging folder: a file the current copy already has with
 * the same content (same SHA-256, checked again on disk) is linked from it, every other file is
 * downloaded by content and verified (size and SHA-256) before it is kept. Any mismatch throws
 * 'corrupt' and the staging folder is removed. Returns the finished folder's path.
 */
export async function fetchVersion(options: {
  store: ObjectStore;
  location: RemoteLocation;
  manifest: Manifest;
  subsDir: string;
  /** The current version's folder and manifest files, to reuse unchanged files from. */
  current: { dir: string; files: Manifest['files'] } | null;
  signal?: AbortSignal;
}): Promise<{ dir: string; outcome: FetchOutcome }> {
  const { store, location, manifest, subsDir, current } = options;
  const staging = path.join(subsDir, `.staging-${process.pid}-${randomBytes(4).toString('hex')}`);
  await fs.mkdir(staging, { recursive: true });
  const have = new Map<string, string>();
  for (const f of current?.files ?? []) if (!have.has(f.sha256)) have.set(f.sha256, path.join(current!.dir, ...f.path.split('/')));
  const outcome: FetchOutcome = { fetchedFiles: 0, fetchedBytes: 0, reusedFiles: 0 };
  try {
    await eachLimited(manifest.files, PARALLEL_TRANSFERS, async (f) => {
      if (options.signal?.aborted) throw new CodedError('cancelled', 'The sync was cancelled; the library keeps its current version.');
      const target = path.join(staging, ...f.path.split('/'));
      await fs.mkdir(path.dirname(target), { recursive: true });
      const local = have.get(f.sha256);
      if (local && (await reusable(local, f.size, f.sha256))) {
        await fs.link(local, target).catch(() => fs.copyFile(local, target));
        outcome.reusedFiles++;
        return;
      }
      const got = await store.download(objectKey(location.prefix, f.sha256), target, f.size);
      if (got.size !== f.size || got.sha256 !== f.sha256) {
        throw new CodedError(
          'corrupt',
          `${f.path} of version ${manifest.version} in ${location.url} does not match its manifest (${got.size} bytes, expected ${f.size}); the library keeps its current version.`,
        );
      }
      outcome.fetchedFiles++;
      outcome.fetchedBytes += got.size;
    });
  } catch (err) {
    await fs.rm(staging, { recursive: true, force: true });
    throw err;
  }
  return { dir: staging, outcome };
}

/** True when a local file still has the content the manifest names (sizes first: cheap). */
async function reusable(file: string, size: number, sha256: string): Promise<boolean> {
  const st = await fs.stat(file).catch(() => null);
  if (!st?.isFile() || st.size !== size) return false;
  return (await hashFile(file).catch(() => null)) === sha256;
}

/**
 * Turns a fetched staging folder into version N of the local copy: library.json gets this
 * computer's id and name and the subscription's state, the conversations folder is linked in,
 * and the folder takes its final name. Returns the version folder.
 */
export async function finishVersion(staging: string, subsDir: string, local: { id: string; name: string; subscription: SubscriptionState }): Promise<string> {
  const published = await readJson<Partial<LibraryConfig> | null>(path.join(staging, 'library.json'), null).catch(() => null);
  if (!published || typeof published !== 'object') throw new CodedError('corrupt', 'The published library.json cannot be read.');
  const config = { ...published, id: local.id, name: local.name, subscription: local.subscription };
  await writeJsonAtomic(path.join(staging, 'library.json'), config);
  await fs.mkdir(path.join(subsDir, 'conversations'), { recursive: true });
  await fs.symlink(process.platform === 'win32' ? path.join(subsDir, 'conversations') : path.join('..', 'conversations'), path.join(staging, 'conversations'), 'junction');
  const final = path.join(subsDir, versionDirName(local.subscription.version));
  await fs.rm(final, { recursive: true, force: true });
  await fs.rename(staging, final);
  return final;
}

/**
 * Points the library's folder at `versionDir` in one step: a new link is made beside it and
 * renamed over the old one (rename(2) replaces a link atomically). Windows cannot rename over a
 * junction, so there the old one is removed first (a moment without the library, never a mixed one).
 */
export async function pointLibraryAt(dataDir: string, id: string, versionDir: string): Promise<void> {
  const link = libraryLink(dataDir, id);
  await fs.mkdir(path.dirname(link), { recursive: true });
  const tmp = path.join(path.dirname(link), `.${id}.link-${randomBytes(4).toString('hex')}`);
  const target = process.platform === 'win32' ? versionDir : path.relative(path.dirname(link), versionDir);
  await fs.symlink(target, tmp, 'junction');
  try {
    if (process.platform === 'win32') await fs.rm(link, { force: true });
    await fs.rename(tmp, link);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

/** The version folder the library's link points at now, or null when it is not a link. */
export async function currentVersionDir(dataDir: string, id: string): Promise<string | null> {
  const link = libraryLink(dataDir, id);
  const target = await fs.readlink(link).catch(() => null);
  return target === null ? null : path.resolve(path.dirname(link), target);
}

/**
 * Removes what older syncs left: versions before the previous one (the previous stays for a
 * reader in another process that opened it just before the swap) and staging folders of syncs
 * that stopped. The caller holds the sync lock.
 */
export async function pruneVersions(subsDir: string, keep: string[]): Promise<void> {
  const entries = await fs.readdir(subsDir).catch(() => [] as string[]);
  const versions = entries.filter((e) => /^v\d+$/.test(e)).sort((a, b) => Number(b.slice(1)) - Number(a.slice(1)));
  const kept = new Set(keep.map((k) => path.basename(k)));
  // The newest version that is not current is the previous one.
  const previous = versions.find((v) => !kept.has(v));
  if (previous) kept.add(previous);
  for (const e of entries) {
    const version = /^(v\d+)(\.manifest\.json)?$/.exec(e)?.[1];
    if ((version && !kept.has(version)) || e.startsWith('.staging-')) await fs.rm(path.join(subsDir, e), { recursive: true, force: true });
  }
}

/** The manifest a version folder was built from (kept beside it), or null. */
export async function readLocalManifest(subsDir: string, version: number): Promise<Manifest | null> {
  return readJson<Manifest | null>(path.join(subsDir, `${versionDirName(version)}.manifest.json`), null).catch(() => null);
}

export async function writeLocalManifest(subsDir: string, manifest: Manifest): Promise<void> {
  await writeJsonAtomic(path.join(subsDir, `${versionDirName(manifest.version)}.manifest.json`), manifest);
}
