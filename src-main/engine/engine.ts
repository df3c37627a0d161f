import path from 'node:path';
import type { ChunkStrategy, EngineEvent, Handlers, ImportSummary, LibrarySummary } from '../contract/api';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import { ParsePool } from '../ingest/parse-pool';
import type { Library } from '../storage/library.store';
import { LibraryManager, noLibrary } from '../storage/library.store';
import { ModelRuntime } from '../models/runtime';
import { LibraryIndexes } from '../index/library-indexes';
import type { RebuildSummary } from '../index/rebuild';
import { appRoot } from './paths';
import { SettingsStore } from './settings';
import type { ChatService } from '../chat/chat.service';
import { apiOf } from './dispatch';
import { librarySummary, modelSummary } from './presenters';
import { WriterLock } from './writer-lock';
import { sweepAbandonedUploads, uploadsDirOf } from './uploads';
import type { Engine, EngineDoor, EngineOptions, ImportPathsOptions } from './engine.types';
import { createBackgroundJobs, type Job } from './background';
import { RemoteSettingsStore } from './remote-settings';
import { createTeam, readOnlyMessage } from './team';
import { libraryHandlers } from './libraries.handlers';
import { documentHandlers } from './documents.handlers';
import { importHandlers } from './imports.handlers';
import { createChats } from './chat.handlers';
import { settingsHandlers } from './settings.handlers';

/**
 * The engine: plain Node, no Electron. It owns the libraries, the model runtime, running jobs and
 * the event stream, and implements one handler per contract key. The Electron shell, the web
 * bridge, the CLI and the tests all drive this same object.
 *
 * `createEngine` makes the shared state (the open indexes, the jobs, the writer lock, the event
 * listeners, the parse pool, the settings stores) and the functions several areas use (`emit`,
 * `stopJobs`, `summaryOf`, `libraryFor`, the import and rebuild runners), then hands each area a
 * small context and spreads the handlers it returns into one `Handlers` map: libraries
 * (`libraries.handlers.ts`), documents (`documents.handlers.ts`), imports (`imports.handlers.ts`),
 * chat (`chat.handlers.ts`), settings (`settings.handlers.ts`) and team libraries (`team.ts`, which
 * also keeps subscribed libraries read-only). Background jobs (`background.ts`), the writer lock,
 * uploads and presenters live beside it; the few app-wide one-line handlers stay here.
 */

export type { Engine, EngineDoor, EngineOptions };

export function createEngine(options: EngineOptions): Engine {
  const log = options.log ?? ((m: string) => console.error(m));
  const libraries = new LibraryManager(options.dataDir);
  const models = new ModelRuntime(
    { bundled: options.bundledModelsDir ?? path.join(appRoot(), 'models'), data: path.join(options.dataDir, 'models') },
    options.threads !== undefined ? { threads: options.threads } : {},
  );
  /** Set by `resumeBackground` (the app; a CLI command never calls it): from then on, each library opened resumes the work it owes. */
  let resuming = false;
  const indexes = new LibraryIndexes(models, (lib, index) => {
    if (resuming) void resumeOwed(lib, index).catch((err: unknown) => log(`[engine] resuming the background work of ${lib.name} failed: ${String(err)}`));
  });
  const settings = new SettingsStore(options.dataDir);
  const remote = new RemoteSettingsStore(options.dataDir);
  const uploadsDir = uploadsDirOf(options.dataDir);
  void sweepAbandonedUploads(uploadsDir);
  const listeners = new Set<(event: EngineEvent) => void>();
  const jobs = new Map<string, Job>();
  /** Libraries that received chunks while their embedding job was running: embed again after it. */
  const pendingEmbeds = new Set<string>();
  // Another process may have written the library while this one did not hold its lock file: an
  // index opened before then takes that in (its table would not delete the other's rows, and its
  // vocabulary would be saved over the other's), and a commit that process was killed in is
  // repaired now, through the reopened table, as opening the index would. The turn of this
  // engine's next journaled write would repair it too (`JournalTurns`), but through the table
  // opened before, which does not see (nor delete) the killed process's rows: they stayed,
  // searchable under a document no longer listed. The repair takes its turn among the index's
  // journaled writes (`followDisk`), so a write of this engine under way is never taken for it.
  const lock = new WriterLock(async (lib) => {
    const index = await indexes.opened(lib)?.catch(() => null);
    if (!index) await lib.reloadIfChangedOnDisk();
    else if (await index.followDisk({ repairLeft: true })) startBackground(lib);
  });
  /** Parse workers shared by every import, so back-to-back imports do not each load the parsers again. */
  const parsePool = new ParsePool(options.importLimits ? { limits: options.importLimits } : {});
  /** The last rebuild job of each library (ids are per library), for callers that wait for it. */
  const rebuildResults = new Map<string, Promise<Result<RebuildSummary>>>();

  /** Stops a library's running jobs (those whose key matches `keys`, else all) and waits for them to end. */
  async function stopJobs(lib: Library, keys?: RegExp): Promise<void> {
    const running = [...jobs].filter(([key, job]) => job.library === lib.config.id && (!keys || keys.test(key))).map(([, job]) => job);
    for (const job of running) job.controller.abort();
    await Promise.all(running.map((job) => job.done));
  }

  const emit = (event: EngineEvent) => {
    for (const l of listeners) {
      try {
        l(event);
      } catch (err) {
        log(`[engine] event listener failed: ${String(err)}`);
      }
    }
  };

  const summaryOf = (lib: Library): Promise<LibrarySummary> => librarySummary(lib, lock.rebuilding(lib));

  /**
   * Before a read of a library of this computer: what another process (the CLI) wrote to it since
   * this engine last read it is taken in (records, settings, the open index and its vocabulary;
   * `LibraryIndex.followDisk`), and the background work owed to what it wrote is started. Not while this engine writes the library: no other process writes
   * it meanwhile (the lock file), and its writers use the open store. Background jobs use the store
   * only in their write turns (`index/write-turn.ts`), which hold the lock file: between them (a
   * model or an embedder at work, or a CLI import the job waits for) the app follows that import.
   */
  async function followDisk(lib: Library): Promise<void> {
    if (lock.writing(lib)) return;
    const index = await indexes.opened(lib)?.catch(() => null);
    if (!index) await lib.reloadIfChangedOnDisk();
    // The background work the other process's documents are owed (folding, LLM upgrade,
    // embedding): a CLI stops its own when it exits, and this app's running jobs listed their work
    // before those documents came.
    else if (await index.followDisk()) startBackground(lib);
  }

  async function libraryFor(name: string, create: boolean): Promise<Result<Library>> {
    const found = await libraries.get(name);
    if (found) return ok(found);
    if (!create) return noLibrary(name);
    const created = await libraries.create(name);
    if (created.ok || created.error.code !== 'already-exists') return created;
    // Created by another process between the two looks.
    const now = await libraries.get(name);
    return now ? ok(now) : created;
  }

  async function importPaths(
    name: string,
    paths: string[],
    opts: ImportPathsOptions = {},
  ): Promise<Result<ImportSummary>> {
    // The first parse worker starts (~0.5 s of loading parsers, on another core) while the
    // library, its lock and its index open; an idle worker stops by itself if nothing comes.
    parsePool.warm(1);
    const lib = await libraryFor(name, true);
    if (!lib.ok) return lib;
    if (lib.value.config.subscription) return fail('unsupported', readOnlyMessage(lib.value));
    const admitted = await lock.admit(lib.value, 'writer', 'import');
    if (!admitted.ok) return admitted;
    try {
      // Imports into one library run one at a time, in the order they were started.
      const endTurn = await lock.importTurn(lib.value);
      try {
        return await runImportInto(lib.value, paths, opts);
      } finally {
        endTurn();
      }
    } finally {
      await admitted.value.hold();
      admitted.value.claim();
    }
  }

  async function runImportInto(
    lib: Library,
    paths: string[],
    opts: ImportPathsOptions,
  ): Promise<Result<ImportSummary>> {
    const index = await indexes.open(lib);
    const jobId = opts.jobId ?? 'cli';
    // Loaded on the first import: the parsers (PDF, DOCX, HTML) are not needed to search or chat.
    const { runImport } = await import('../ingest/import.job');
    const summary = await runImport({
      library: lib,
      paths,
      ...(opts.names ? { names: opts.names } : {}),
      indexer: index,
      ...(options.maxFileBytes !== undefined ? { maxFileBytes: options.maxFileBytes } : {}),
      ...(options.importLimits ? { limits: options.importLimits } : {}),
      pool: parsePool,
      ...(opts.signal ? { signal: opts.signal } : {}),
      onProgress: (p) => {
        opts.onProgress?.(p);
        // An upload's files are read from the bridge's staging folder: no path the page should learn.
        const { path: _staged, ...unstaged } = p;
        emit({ type: 'import.progress', jobId, library: lib.name, ...(opts.uploaded ? unstaged : p) });
      },
    });
    emit({ type: 'library.changed', library: lib.name });
    startBackground(lib);
    return ok(summary);
  }

  /**
   * Rebuilds a library's index (`LibraryIndex.rebuild`) for a caller holding `claimRebuild`,
   * reporting progress as `index.progress` events. Background work on the old index (folding, LLM
   * enrichment, embedding) is stopped first: it would write into the index being replaced. The
   * caller starts it again afterwards.
   */
  async function runRebuild(
    lib: Library,
    opts: { signal: AbortSignal; strategy?: ChunkStrategy; nouns?: boolean; onProgress?: (done: number, total: number) => void },
  ): Promise<Result<RebuildSummary>> {
    const report = (done: number, total: number, error?: string) => {
      opts.onProgress?.(done, total);
      emit({ type: 'index.progress', library: lib.name, task: 'rebuilding', done, total, ...(error ? { error } : {}) });
    };
    try {
      await stopJobs(lib, /^(index|enrich|embed)-/);
      const index = await indexes.open(lib);
      const res = await index.rebuild(opts.signal, report, { ...(opts.strategy ? { strategy: opts.strategy } : {}), ...(opts.nouns ? { nouns: true } : {}) });
      if (!res.ok) report(0, 0, res.error.message);
      return res;
    } catch (err) {
      const message = `The rebuild stopped: ${err instanceof Error ? err.message : String(err)}. The library keeps its previous index.`;
      log(`[engine] rebuilding ${lib.name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      report(0, 0, message);
      return fail('internal', message);
    } finally {
      emit({ type: 'library.changed', library: lib.name });
    }
  }

  /**
   * Runs a rebuild as the library's cancellable job `rebuild-<id>` (the caller holds
   * `claimRebuild` and releases it when `done` settles).
   */
  function rebuildJob(lib: Library, opts: { strategy?: ChunkStrategy; nouns?: boolean; onProgress?: (done: number, total: number) => void; signal?: AbortSignal } = {}) {
    const jobId = `rebuild-${lib.config.id}`;
    const controller = new AbortController();
    if (opts.signal?.aborted) controller.abort();
    else opts.signal?.addEventListener('abort', () => controller.abort(), { once: true });
    const done = runRebuild(lib, { ...opts, signal: controller.signal }).finally(() => jobs.delete(jobId));
    jobs.set(jobId, { library: lib.config.id, controller, done });
    rebuildResults.set(jobId, done);
    return { jobId, done };
  }

  const { startBackground, startEnrichment, resumeOwed, awaitsUpgrade } = createBackgroundJobs({ jobs, pendingEmbeds, lock, indexes, settings, models, emit, log });

  /** The chat services by library id, made on first use (chat.handlers.ts); renaming or deleting a library drops its one. */
  const chats = new Map<string, ChatService>();
  const team = createTeam({ dataDir: options.dataDir, version: options.version ?? '0.0.0', libraries, lock, indexes, remote, settings, emit, log, stopJobs, startBackground, summaryOf, followDisk });
  const chat = createChats({ libraries, indexes, settings, models, chats, emit, follow: team.follow, log, ...(options.atChatDoor ? { atDoor: options.atChatDoor } : {}) });

  // Subscribed libraries are read-only: the handlers that write a library refuse them (team.ts).
  const handlers: Handlers = team.guardWrites({
    ...team.handlers,
    'app.info': async () =>
      ok({
        name: 'ManualMate',
        version: options.version ?? '0.0.0',
        dataDir: options.dataDir,
        offline: true as const,
        transport: options.transport ?? 'web',
      }),

    'models.list': async () => ok((await models.list()).map(modelSummary)),

    ...libraryHandlers({ libraries, models, indexes, lock, jobs, chats, stopLibraryQuestions: chat.stopLibraryQuestions, team, emit, summaryOf, stopJobs, startBackground, rebuildJob }),
    ...documentHandlers({ libraries, indexes, models, lock, emit }),
    ...importHandlers({ lock, jobs, uploadsDir, libraryFor, importPaths, emit, log }),
    ...chat.handlers,
    ...settingsHandlers({ settings, remote, models, libraries, startEnrichment }),

    'search.prepare': async ({ library }) => {
      const lib = await libraries.require(library);
      if (!lib.ok) return lib;
      await (await indexes.open(lib.value)).prepareSearch();
      return ok({ prepared: true as const });
    },

    'search.query': async ({ library, query, topK, retriever, models: modelFilter, docIds, stages }) => {
      const lib = await libraries.require(library);
      if (!lib.ok) return lib;
      const index = await indexes.open(lib.value);
      return index.search(query, { topK, retriever, ...(modelFilter ? { models: modelFilter } : {}), ...(docIds ? { docIds } : {}), ...(stages ? { stages } : {}) });
    },
  });

  return {
    handlers,
    uploadsDir,
    api: apiOf(handlers, log),
    rebuildResult: (jobId) => rebuildResults.get(jobId),
    chat: chat.chatFor,
    settings,
    libraries,
    models,
    indexes,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    importPaths,
    async rebuild(library, opts = {}) {
      const lib = await libraries.require(library);
      if (!lib.ok) return lib;
      if (lib.value.config.subscription) return fail('unsupported', readOnlyMessage(lib.value));
      const admitted = await lock.admit(lib.value, 'rebuild', 'rebuild');
      if (!admitted.ok) return admitted;
      try {
        return await rebuildJob(lib.value, opts).done;
      } finally {
        admitted.value.claim();
        startBackground(lib.value);
        await admitted.value.hold();
      }
    },
    async resumeBackground() {
      resuming = true;
      // Libraries that may owe work are opened now (an LLM library only when a document awaits
      // its upgrade); the others resume theirs when they are opened (the user turns to one).
      for (const lib of await libraries.list()) {
        if (lib.config.subscription || lock.rebuilding(lib)) continue;
        // Looked up once: resuming the library's work asks the same (`awaitsUpgrade`).
        const mayOwe = lib.config.embedder !== null || (await awaitsUpgrade(lib));
        if (!mayOwe) continue;
        await resumeOwed(lib, await indexes.open(lib));
      }
      // The only network request the app makes on its own, and only for subscribed libraries.
      void team.checkAll().catch((err: unknown) => log(`[engine] checking subscribed libraries failed: ${String(err)}`));
    },
    async idle() {
      // A finishing job may start the next stage (index -> enrich -> embed): wait until none is left.
      while (jobs.size > 0) await Promise.all([...jobs.values()].map((j) => j.done.catch(() => undefined)));
    },
    async dispose(options = {}) {
      // Questions stop first and new ones are refused: one at the door leaves at once, one being
      // answered stops; all are waited for below, before the jobs are stopped and the indexes they
      // read are closed.
      const questions = chat.close();
      // An index opened from now on (by a door step still under way) starts none of the work its library owes.
      resuming = false;
      const folds = () => Promise.all([...jobs.entries()].filter(([id]) => id.startsWith('index-')).map(([, j]) => j.done.catch(() => undefined)));
      // Index folding is short and keeps the next open fast: it finishes; everything else stops.
      // The CLI's exit folds what it imported, even behind another process's short hold.
      if (options.finishFolds) await folds();
      // Then no step waits any longer for another process holding a library: quitting beside a CLI
      // import (or a short hold of another app) would wait up to `OPENING_WAIT_MS` per step. A
      // step that has its turn still writes; one that had none does not run.
      lock.close();
      // No question works any longer when the jobs are stopped and the indexes closed: a door step
      // still under way may open an index (which, resuming being off, starts no work).
      await questions;
      await folds();
      for (const job of jobs.values()) job.controller.abort();
      await Promise.all([...jobs.values()].map((j) => j.done.catch(() => undefined)));
      await indexes.closeAll();
      await parsePool.close();
      await models.dispose();
      listeners.clear();
    },
  };
}
