import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Result } from '../../core/result';
import { fail, ok } from '../../core/result';
import { readJson } from '../atomic-file';
import type { LibraryConfig, SubscriptionState } from '../library.store';
import { tryLock } from '../lock-file';
import {
  currentVersionDir,
  fetchVersion,
  finishVersion,
  pruneVersions,
  readLocalManifest,
  subscriptionDir,
  writeLocalManifest,
  type FetchOutcome,
} from './local-copy';
import type { RemoteLocation } from './location';
import type { ObjectStore } from './object-store';
import { latestVersion, readManifest } from './publish';

/** What a sync (or the first fetch of a subscription) did. */
export interface SyncOutcome extends FetchOutcome {
  version: number;
  previousVersion: number | null;
  /** False when the copy already held the latest version. */
  changed: boolean;
  /** The subscription's state after the sync, as the library records it. */
  state: SubscriptionState;
}

/**
 * Brings the local copy of a subscribed library to the bucket's latest version: new files are
 * fetched and verified into a staging folder, the folder becomes the next version, and `swap`
 * points the library at it (the engine does it while no read runs). One sync per library at a
 * time across processes (`sync.lock`); a second gets 'busy'. With no newer version nothing is
 * fetched. `current` is null for the first fetch of a new subscription.
 */
export async function syncCopy(options: {
  dataDir: string;
  id: string;
  name: string;
  location: RemoteLocation;
  store: ObjectStore;
  current: SubscriptionState | null;
  swap: (versionDir: string, state: SubscriptionState) => Promise<void>;
  signal?: AbortSignal;
}): Promise<Result<SyncOutcome>> {
  const { dataDir, id, location, store } = options;
  const subsDir = subscriptionDir(dataDir, id);
  await fs.mkdir(subsDir, { recursive: true });
  const lock = await tryLock(`${subsDir}/sync.lock`, 'sync');
  if (!lock.ok) return fail('busy', `"${options.name}" is already being synced${lock.owner ? ` (process ${lock.owner.pid})` : ''}; try again when it has finished.`);
  try {
    const current = await linkedState(dataDir, id, options.current);
    const after = current?.version ?? 0;
    const latest = await latestVersion(store, location, after);
    const now = new Date().toISOString();
    if (latest === null) {
      if (!current) return fail('not-found', `Nothing is published at ${location.url} yet: publish a library there first (manualmate publish).`);
      const state: SubscriptionState = { ...current, checkedAt: now, latestVersion: current.version, checkError: null };
      return ok({ version: current.version, previousVersion: current.version, changed: false, fetchedFiles: 0, fetchedBytes: 0, reusedFiles: 0, state });
    }
    const manifest = await readManifest(store, location, latest);
    if (!manifest.ok) return manifest;
    const currentDir = current ? await currentVersionDir(dataDir, id) : null;
    const currentManifest = current ? await readLocalManifest(subsDir, current.version) : null;
    const fetched = await fetchVersion({
      store,
      location,
      manifest: manifest.value,
      subsDir,
      current: currentDir && currentManifest ? { dir: currentDir, files: currentManifest.files } : null,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const state: SubscriptionState = {
      source: location.url,
      version: latest,
      publishedAt: manifest.value.publishedAt,
      syncedAt: now,
      checkedAt: now,
      latestVersion: latest,
      checkError: null,
    };
    const versionDir = await finishVersion(fetched.dir, subsDir, { id, name: options.name, subscription: state }).catch(async (err: unknown) => {
      await fs.rm(fetched.dir, { recursive: true, force: true });
      throw err;
    });
    await writeLocalManifest(subsDir, manifest.value);
    await options.swap(versionDir, state);
    await pruneVersions(subsDir, [versionDir]);
    return ok({ ...fetched.outcome, version: latest, previousVersion: current?.version ?? null, changed: true, state });
  } finally {
    await lock.release();
  }
}

/**
 * The state a sync starts from: the one recorded in the version folder the library's link points
 * at when that is newer than the caller's. A process that loaded version 1 while another process
 * synced version 2 must neither fetch version 2 again nor remove the folder readers are using.
 */
async function linkedState(dataDir: string, id: string, caller: SubscriptionState | null): Promise<SubscriptionState | null> {
  if (!caller) return null;
  const linked = await currentVersionDir(dataDir, id);
  if (!linked) return caller;
  const onDisk = await readJson<Partial<LibraryConfig> | null>(path.join(linked, 'library.json'), null).catch(() => null);
  const state = onDisk?.subscription;
  return state && typeof state.version === 'number' && state.version > caller.version ? state : caller;
}
