import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AppSettings, EngineEvent, Handlers, LibrarySummary, ParsedInput, SyncSummary } from '../contract/api';
import type { Result } from '../core/result';
import { CodedError, fail, ok } from '../core/result';
import type { LibraryIndexes } from '../index/library-indexes';
import { LibraryEnrichment } from '../index/library-enrichment';
import { chunkerFor, openStore, storeOptionsOf } from '../index/open-store';
import { readJson } from '../storage/atomic-file';
import { LIBRARY_DEFAULTS, type Library, type LibraryConfig, type LibraryManager, type SubscriptionState } from '../storage/library.store';
import { tryLock, waitLock } from '../storage/lock-file';
import { currentVersionDir, pointLibraryAt, subscriptionDir } from '../storage/remote/local-copy';
import { parseRemoteLocation, resolveRemoteAccess, type RemoteLocation } from '../storage/remote/location';
import { openS3Store, type ObjectStore } from '../storage/remote/object-store';
import { latestVersion, publishFolder } from '../storage/remote/publish';
import { syncCopy, type SyncOutcome } from '../storage/remote/subscription';
import type { RemoteSettingsStore } from './remote-settings';
import { snapshotLibrary } from './team-snapshot';
import type { SettingsStore } from './settings';
import type { WriterLock } from './writer-lock';

/**
 * Team libraries: publishing a library to object storage, subscribing to one, syncing it, and
 * keeping subscribed libraries read-only. Only these handlers open a connection, and only to the
 * address a user gave: an app with no subscribed library makes no network request.
 */

export interface TeamDeps {
  dataDir: string;
  version: string;
  libraries: LibraryManager;
  lock: WriterLock;
  indexes: LibraryIndexes;
  remote: RemoteSettingsStore;
  settings: SettingsStore;
  emit: (event: EngineEvent) => void;
  log: (message: string) => void;
  /** Stops a library's running jobs whose key matches and waits for them. */
  stopJobs: (lib: Library, keys?: RegExp) => Promise<void>;
  startBackground: (lib: Library) => void;
  summaryOf: (lib: Library) => Promise<LibrarySummary>;
  /** Takes in what another process wrote to a library of this computer (the engine's `followDisk`). */
  followDisk: (lib: Library) => Promise<void>;
  env?: NodeJS.ProcessEnv;
}

/**
 * Contract keys that read a library: a subscribed one is first brought to the version its folder
 * points at, one of this computer to what another process wrote to it. `chat.ask` reads one too,
 * but follows from its own handler (`ChatContext.follow`): a stop sent right after the question
 * must find it registered before this step's awaits, which a wrapper around it would delay.
 */
const READS = [
  'documents.list',
  'documents.chunks',
  'documents.source',
  'documents.original',
  'search.query',
  'search.prepare',
  'chat.list',
  'chat.create',
  'chat.get',
  'chat.export',
] as const;

/** Contract keys that write a library: refused for subscribed ones. */
const WRITES = ['import.start', 'import.upload', 'documents.remove', 'libraries.configure', 'libraries.rebuild', 'libraries.rename'] as const;

/** The refusal a write to a subscribed library gets, saying where local additions go. */
export function readOnlyMessage(lib: Library): string {
  return `"${lib.name}" is subscribed from ${lib.config.subscription?.source ?? 'object storage'} and is read-only on this computer: import your own manuals into a separate library (e.g. "${lib.name} (local)"), or ask its publisher to add them.`;
}

export function createTeam(deps: TeamDeps) {
  const { dataDir, libraries, indexes, remote, emit, log } = deps;
  const env = deps.env ?? process.env;

  /** A client for `url` with this computer's settings and the AWS variables; nothing connects until a request. */
  async function connect(url: string): Promise<Result<{ location: RemoteLocation; store: ObjectStore }>> {
    const location = parseRemoteLocation(url);
    if (!location.ok) return location;
    const access = resolveRemoteAccess(await remote.get(), env);
    if (!access.ok) return access;
    return ok({ location: location.value, store: await openS3Store(access.value, location.value.bucket) });
  }

  /** Runs `fn` with a connected store and closes it; thrown coded errors become results. */
  async function withStore<T>(url: string, fn: (c: { location: RemoteLocation; store: ObjectStore }) => Promise<Result<T>>): Promise<Result<T>> {
    const c = await connect(url);
    if (!c.ok) return c;
    try {
      return await fn(c.value);
    } catch (err) {
      if (err instanceof CodedError) return fail(err.code, err.message);
      throw err;
    } finally {
      c.value.store.close();
    }
  }

  /** Reads a library folder's config and vocabulary into the open objects. */
  async function loadState(lib: Library, index: Awaited<ReturnType<LibraryIndexes['open']>>): Promise<void> {
    const config = await readJson<LibraryConfig | null>(path.join(lib.dir, 'library.json'), null);
    if (!config) throw new CodedError('corrupt', `The synced copy of "${lib.name}" has no library.json.`);
    lib.config = { ...LIBRARY_DEFAULTS, ...config };
    await lib.reloadIfChangedOnDisk();
    index.adopt(LibraryEnrichment.restore(await readJson<unknown>(path.join(lib.dir, 'enrichment.json'), null)), chunkerFor(lib.config.strategy));
  }

  /**
   * Points a subscribed library at a new version folder while no read runs: reads in flight
   * finish on the old version, reads that arrive meanwhile wait, and then all read the new one.
   * The new version's store is opened before the old one is closed, so a version that cannot be
   * opened is undone and the library keeps reading the one it had. With `repoint` false
   * (following another process's swap) the link is read, never written: writing it back could
   * undo a newer swap of that process.
   */
  async function swapIn(lib: Library, versionDir: string, repoint = true): Promise<void> {
    const run = swapInOnce(lib, versionDir, repoint);
    swapping.set(lib.config.id, run);
    try {
      await run;
    } finally {
      if (swapping.get(lib.config.id) === run) swapping.delete(lib.config.id);
    }
  }

  async function swapInOnce(lib: Library, versionDir: string, repoint: boolean): Promise<void> {
    const index = await indexes.open(lib);
    const previous = await currentVersionDir(dataDir, lib.config.id);
    let failure: unknown = null;
    await index.swapStore(async (current) => {
      try {
        if (repoint) await pointLibraryAt(dataDir, lib.config.id, versionDir);
        await loadState(lib, index);
        const next = await openStore(await lib.storeDir(), storeOptionsOf(lib));
        await current.close();
        return next;
      } catch (err) {
        failure = err;
        if (repoint && previous) await pointLibraryAt(dataDir, lib.config.id, previous).catch(() => undefined);
        await loadState(lib, index).catch((e: unknown) => log(`[team] ${lib.name}: reloading the previous version's settings failed: ${String(e)}`));
        return current;
      }
    });
    if (failure !== null) throw failure;
  }

  function syncSummary(name: string, source: string, o: SyncOutcome): SyncSummary {
    const { fetchedFiles, fetchedBytes, reusedFiles, version, previousVersion, changed } = o;
    return { library: name, source, version, previousVersion, changed, fetchedFiles, fetchedBytes, reusedFiles };
  }

  async function subscribed(name: string): Promise<Result<Library & { config: { subscription: SubscriptionState } }>> {
    const lib = await libraries.require(name);
    if (!lib.ok) return lib;
    if (!lib.value.config.subscription) return fail('unsupported', `"${lib.value.name}" is a library of this computer, not a subscription: publish it with "manualmate publish", or subscribe to a published one.`);
    // Another process may have synced meanwhile: its version, not the one this process loaded,
    // is what a sync starts from and what a look at the bucket is recorded on.
    await follow(lib.value);
    return ok(lib.value as Library & { config: { subscription: SubscriptionState } });
  }

  /** Records a failed look at the bucket on the library, for the UI ("offline since ..."). */
  async function recordCheckError(lib: Library, message: string): Promise<void> {
    const sub = lib.config.subscription;
    if (sub) await lib.saveConfig({ subscription: { ...sub, checkedAt: new Date().toISOString(), checkError: message } });
    emit({ type: 'library.changed', library: lib.name });
  }

  const handlers: Pick<Handlers, 'libraries.publish' | 'libraries.subscribe' | 'libraries.sync' | 'libraries.checkRemote' | 'settings.remote'> = {
    'libraries.publish': async ({ library, to }) => {
      const lib = await libraries.require(library);
      if (!lib.ok) return lib;
      if (lib.value.config.subscription) return fail('unsupported', `${readOnlyMessage(lib.value)} Only its publisher publishes it.`);
      return withStore(to, async ({ location, store }) => {
        const snapshot = await snapshotLibrary(lib.value, dataDir, deps);
        if (!snapshot.ok) return snapshot;
        try {
          const res = await publishFolder({ store, location, dir: snapshot.value.dir, files: snapshot.value.files, libraryName: lib.value.name, app: `ManualMate ${deps.version}` });
          if (!res.ok) return res;
          const { version, files, uploadedFiles, uploadedBytes } = res.value;
          return ok({ library: lib.value.name, destination: location.url, version, files, uploadedFiles, uploadedBytes });
        } finally {
          await snapshot.value.discard();
        }
      });
    },

    'libraries.subscribe': async ({ source, library }) => {
      const name = library.trim();
      if (await libraries.get(name)) return fail('already-exists', `A library named "${name}" already exists on this computer; subscribe under another name.`);
      const id = `lib-${randomBytes(6).toString('hex')}`;
      const res = await withStore(source, ({ location, store }) =>
        syncCopy({
          dataDir,
          id,
          name,
          location,
          store,
          current: null,
          // The name is checked again and the library appears under the data folder's creation lock.
          swap: async (versionDir) => {
            await fs.mkdir(path.join(dataDir, 'libraries'), { recursive: true });
            const created = await waitLock(path.join(dataDir, 'libraries', '.create.lock'), 'library creation', 10_000);
            if (!created.ok) throw new CodedError('busy', 'Another ManualMate process is creating a library; try again in a moment.');
            try {
              if (await libraries.get(name)) throw new CodedError('already-exists', `A library named "${name}" already exists on this computer; subscribe under another name.`);
              await pointLibraryAt(dataDir, id, versionDir);
            } finally {
              await created.release();
            }
          },
        }).then((r) => (r.ok ? ok(syncSummary(name, location.url, r.value)) : r)),
      ).catch(async (err: unknown) => {
        await fs.rm(subscriptionDir(dataDir, id), { recursive: true, force: true });
        throw err;
      });
      if (!res.ok) {
        await fs.rm(subscriptionDir(dataDir, id), { recursive: true, force: true });
        return res;
      }
      emit({ type: 'library.changed', library: name });
      return res;
    },

    'libraries.sync': async ({ library }) => {
      const lib = await subscribed(library);
      if (!lib.ok) return lib;
      const sub = lib.value.config.subscription;
      const res = await withStore(sub.source, async ({ location, store }) => {
        const r = await syncCopy({ dataDir, id: lib.value.config.id, name: lib.value.name, location, store, current: sub, swap: (dir) => swapIn(lib.value, dir) });
        return r.ok ? ok(r.value) : r;
      });
      if (!res.ok) {
        if (res.error.code === 'unavailable') await recordCheckError(lib.value, res.error.message);
        return res;
      }
      if (!res.value.changed) await lib.value.saveConfig({ subscription: res.value.state });
      emit({ type: 'library.changed', library: lib.value.name });
      return ok(syncSummary(lib.value.name, sub.source, res.value));
    },

    'libraries.checkRemote': async ({ library }) => {
      const lib = await subscribed(library);
      if (!lib.ok) return lib;
      const sub = lib.value.config.subscription;
      const res = await withStore(sub.source, async ({ location, store }) => ok(await latestVersion(store, location, sub.version)));
      if (!res.ok) await recordCheckError(lib.value, res.error.message);
      else {
        await lib.value.saveConfig({ subscription: { ...sub, checkedAt: new Date().toISOString(), latestVersion: res.value ?? sub.version, checkError: null } });
        emit({ type: 'library.changed', library: lib.value.name });
      }
      return ok(await deps.summaryOf(lib.value));
    },

    'settings.remote': async (input: ParsedInput<'settings.remote'>): Promise<Result<AppSettings>> => {
      const view = await remote.update(input);
      return ok({ ...(await deps.settings.get()), remote: view });
    },
  };

  const following = new Map<string, Promise<void>>();
  /** Swaps under way in this process, by library id: a read meanwhile waits for them instead of swapping again. */
  const swapping = new Map<string, Promise<void>>();
  /** The version folder a library failed to move to, so reads do not retry it on every call. */
  const unreadable = new Map<string, string>();
  /**
   * Another process (a CLI sync while the app runs) may have pointed a subscribed library at a
   * newer version: the version in its folder's name and the one this process loaded differ. The
   * open config, vocabulary and store then move to it, as after a sync of this process.
   */
  async function follow(lib: Library): Promise<void> {
    const sub = lib.config.subscription;
    if (!sub) return deps.followDisk(lib);
    const own = swapping.get(lib.config.id);
    if (own) return own.catch(() => undefined);
    const target = await currentVersionDir(dataDir, lib.config.id);
    const linked = target === null ? null : Number(/^v(\d+)$/.exec(path.basename(target))?.[1]);
    if (target === null || !linked || linked === sub.version || unreadable.get(lib.config.id) === target) return;
    let running = following.get(lib.config.id);
    if (!running) {
      // A version that cannot be opened leaves the library on the one it reads now; reads go on.
      running = swapIn(lib, target, false)
        .catch((err: unknown) => {
          unreadable.set(lib.config.id, target);
          log(`[team] ${lib.name}: cannot open version ${linked} that another process synced; staying on version ${sub.version}: ${String(err)}`);
        })
        .finally(() => following.delete(lib.config.id));
      following.set(lib.config.id, running);
    }
    await running;
  }

  /**
   * Wraps the handlers: those that write a library refuse a subscribed one in words; those that
   * read one first follow a version another process swapped in, or another process's writes
   * (`follow`).
   */
  function guardWrites(all: Handlers): Handlers {
    const guarded = { ...all };
    for (const key of READS) {
      const inner = all[key] as (input: { library: string }) => Promise<Result<unknown>>;
      (guarded as Record<string, unknown>)[key] = async (input: { library: string }) => {
        const lib = await libraries.get(input.library);
        if (lib) await follow(lib);
        return inner(input);
      };
    }
    const list = all['libraries.list'];
    guarded['libraries.list'] = async (input) => {
      for (const lib of await libraries.list()) await follow(lib);
      return list(input);
    };
    for (const key of WRITES) {
      const inner = all[key] as (input: { library: string }) => Promise<Result<unknown>>;
      (guarded as Record<string, unknown>)[key] = async (input: { library: string }) => {
        const lib = await libraries.get(input.library);
        if (lib?.config.subscription) return fail('unsupported', readOnlyMessage(lib));
        return inner(input);
      };
    }
    return guarded;
  }

  /**
   * Looks for newer versions of every subscribed library (app start). Nothing connects when no
   * library is subscribed; a failed look is recorded on the library and never waits long.
   */
  async function checkAll(): Promise<void> {
    for (const lib of await libraries.list()) {
      if (!lib.config.subscription) continue;
      const res = await handlers['libraries.checkRemote']({ library: lib.name }).catch((err: unknown) => fail('internal', String(err)));
      if (!res.ok) log(`[team] checking ${lib.name} failed: ${res.error.message}`);
    }
  }

  /**
   * Deleting a subscribed library waits for no sync: it takes the sync lock (so no sync writes
   * into the folder being removed) or is refused as busy. Returns the lock's release.
   */
  async function holdForDeletion(lib: Library): Promise<Result<() => Promise<void>>> {
    if (!lib.config.subscription) return ok(async () => undefined);
    const lock = await tryLock(path.join(subscriptionDir(dataDir, lib.config.id), 'sync.lock'), 'deletion');
    if (!lock.ok) return fail('busy', `"${lib.name}" is being synced${lock.owner ? ` (process ${lock.owner.pid})` : ''}; delete it when the sync has finished.`);
    return ok(lock.release);
  }

  /** Deleting a subscribed library also removes its synced versions and conversations (the caller holds `holdForDeletion`). */
  async function forget(lib: Library): Promise<void> {
    if (lib.config.subscription) await fs.rm(subscriptionDir(dataDir, lib.config.id), { recursive: true, force: true });
  }

  return { handlers, guardWrites, follow, checkAll, holdForDeletion, forget };
}
