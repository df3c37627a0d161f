import os from 'node:os';
import path from 'node:path';
import type { Result } from '../../core/result';
import { fail, ok } from '../../core/result';
import type { RemoteLocation } from './location';
import { eachLimited, hashFile, manifestFormatVersion, objectKey, parseManifest, versionKey, versionOfKey, versionsPrefix, type LocalFile, type Manifest, type ManifestFile } from './manifest';
import type { ObjectStore } from './object-store';

/** Publishing a library folder (a snapshot of it) to a bucket as a new version, and reading the bucket's versions. */

/** Uploads in flight at once: enough to hide request latency, few enough for a 2-core laptop. */
const PARALLEL_TRANSFERS = 4;

/** The newest version in the bucket after `after` (0: any), or null when there is none. */
export async function latestVersion(store: ObjectStore, location: RemoteLocation, after = 0): Promise<number | null> {
  const keys = await store.list(versionsPrefix(location.prefix), after > 0 ? versionKey(location.prefix, after) : undefined);
  let latest: number | null = null;
  for (const key of keys) {
    const v = versionOfKey(location.prefix, key);
    if (v !== null && v > after && (latest === null || v > latest)) latest = v;
  }
  return latest;
}

/** Largest manifest read (about 2 million files' entries; a manifest is never read whole beyond it). */
const MAX_MANIFEST_BYTES = 512 * 1024 * 1024;

/** A version's manifest from the bucket, checked; 'not-found' when the bucket has no such version. */
export async function readManifest(store: ObjectStore, location: RemoteLocation, version: number): Promise<Result<Manifest>> {
  const bytes = await store.getBytes(versionKey(location.prefix, version), MAX_MANIFEST_BYTES);
  if (!bytes) return fail('not-found', `${location.url} has no version ${version}.`);
  return parseManifest(bytes, version);
}

/** What a publish did. */
export interface PublishOutcome {
  version: number;
  basedOn: number | null;
  files: number;
  uploadedFiles: number;
  uploadedBytes: number;
}

/**
 * Publishes the files of `dir` (a snapshot nobody writes to) as the bucket's next version:
 * 1. the latest version is read, and the files its manifest lists are known to be in the bucket;
 * 2. every other file is uploaded by content (`objects/<sha256>`; one already there from an
 *    earlier, interrupted publish is kept), so nothing a reader may be fetching is overwritten;
 * 3. the manifest is created as version latest+1 with a conditional write. When another publisher
 *    created that version meanwhile, nothing is overwritten and the publish fails with 'busy':
 *    publishing again makes the next version (its uploaded files are found and kept).
 */
export async function publishFolder(options: {
  store: ObjectStore;
  location: RemoteLocation;
  dir: string;
  files: LocalFile[];
  libraryName: string;
  app: string;
  signal?: AbortSignal;
}): Promise<Result<PublishOutcome>> {
  const { store, location, dir, files, signal } = options;
  const basedOn = await latestVersion(store, location);
  const known = new Set<string>();
  if (basedOn !== null) {
    const previous = await readManifest(store, location, basedOn);
    if (!previous.ok) return fail(previous.error.code, `${previous.error.message} Fix or remove it in the bucket before publishing.`);
    for (const f of previous.value.files) known.add(f.sha256);
  }
  const listed: ManifestFile[] = [];
  await eachLimited(files, PARALLEL_TRANSFERS, async (f) => {
    listed.push({ path: f.path, size: f.size, sha256: await hashFile(path.join(dir, ...f.path.split('/'))) });
  });
  listed.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  // One upload per content: a library holds identical files (the same manual under two names).
  const toUpload = new Map<string, ManifestFile>();
  for (const f of listed) if (!known.has(f.sha256)) toUpload.set(f.sha256, f);
  let uploadedFiles = 0;
  let uploadedBytes = 0;
  await eachLimited([...toUpload.values()], PARALLEL_TRANSFERS, async (f) => {
    if (signal?.aborted) throw Object.assign(new Error('Publishing was cancelled.'), { name: 'AbortError' });
    const key = objectKey(location.prefix, f.sha256);
    if ((await store.size(key)) === f.size) return;
    await store.put(key, { file: path.join(dir, ...f.path.split('/')), size: f.size });
    uploadedFiles++;
    uploadedBytes += f.size;
  });
  const version = (basedOn ?? 0) + 1;
  const manifest: Manifest = {
    format: 'manualmate-library',
    formatVersion: manifestFormatVersion(listed),
    version,
    publishedAt: new Date().toISOString(),
    basedOn,
    publisher: { host: os.hostname(), app: options.app },
    library: { name: options.libraryName },
    files: listed,
  };
  const claimed = await store.put(versionKey(location.prefix, version), Buffer.from(`${JSON.stringify(manifest)}\n`), { ifNoneMatch: true });
  if (claimed === 'exists') {
    return fail(
      'busy',
      `Another publisher made version ${version} of ${location.url} while this one was uploading; nothing was overwritten. Publish again to make this library the next version.`,
    );
  }
  return ok({ version, basedOn, files: listed.length, uploadedFiles, uploadedBytes });
}
