import path from 'node:path';
import { promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type {
  ChunkStrategy,
  EngineEvent,
  Handlers,
  ImportSummary,
  LibrarySummary,
  ParsedInput,
} from '../contract/api';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import type { ImportProgress } from '../ingest/import.job';
import { DEFAULT_MAX_FILE_BYTES, megabytes, sizeOver } from '../ingest/import-limits';
import { ParsePool } from '../ingest/parse-pool';
import type { Library } from '../storage/library.store';
import { LibraryManager } from '../storage/library.store';
import { ModelRuntime } from '../models/runtime';
import { LibraryIndexes } from '../index/library-indexes';
import type { RebuildSummary } from '../index/rebuild';
import { appRoot } from './paths';
import { SettingsStore } from './settings';
import { chatIndexOf, createChatService, type ChatService } from '../chat/chat.service';
import type { Llm } from '../models/types';
import { SEMANTIC_NEEDS_EMBEDDER } from '../chunking/semantic.chunker';
import { apiOf } from './dispatch';
import { chunkDetail, documentSummary, librarySummary, mimeOf, modelSummary, pageStarts } from './presenters';
import { WriterLock } from './writer-lock';
import { stagedUpload, sweepAbandonedUploads, uploadsDirOf } from './uploads';
import type { Engine, EngineDoor, EngineOptions } from './engine.types';
import { createBackgroundJobs, type Job } from './background';
import { newLibrarySettings } from './new-library';
import { RemoteSettingsStore } from './remote-settings';
import { createTeam, readOnlyMessage } from './team';

// Largest original the viewer is sent: what an import accepts by default (it is sent whole, as base64).
const MAX_ORIGINAL_BYTES = DEFAULT_MAX_FILE_BYTES;

/**
 * The engine: plain Node, no Electron. It owns the libraries, the model runtime, running jobs and
 * the event stream, and implements one handler per contract key. The Electron shell, the web
 * bridge, the CLI and the tests all drive this same object.
 *
 * Longer than 500 lines for now: it holds one handler per contract key over shared state (the
 * open indexes, jobs, the writer lock and the event listeners); the job runner, the writer lock,
 * uploads and presenters already live beside it, and the handlers split by area (libraries,
 * documents, chat, settings) is the next step, not done in the same change as the lock work.
 */

export type { Engine, EngineDoor, EngineOptions };

export function createEngine(options: EngineOptions): Engine {
  const log = options.log ?? ((m: string) => console.error(m));
  const libraries = new LibraryManager(options.dataDir);
  const models = new ModelRuntime(
    { bundled: options.bundledModelsDir ?? path.join(appRoot(), 'models'), data: path.join(options.dataDir, 'models') },
    options.threads !== undefined ? { threads: options.threads } : {},
  );
  const indexes = new LibraryIndexes(models);
  const settings = new SettingsStore(options.dataDir);
  const remote = new RemoteSettingsStore(options.dataDir);
  const uploadsDir = uploadsDirOf(options.dataDir);
  void sweepAbandonedUploads(uploadsDir);
  const listeners = new Set<(event: EngineEvent) => void>();
  const jobs = new Map<string, Job>();
  /** Libraries that received chunks while their embedding job was running: embed again after it. */
  const pendingEmbeds = new Set<string>();
  // Another process may have written the library while this one did not hold its lock file.
  const lock = new WriterLock((lib) => lib.reloadIfChangedOnDisk());
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

  async function libraryFor(name: string, create: boolean): Promise<Result<Library>> {
    const found = await libraries.get(name);
    if (found) return ok(found);
    if (!create) return fail('not-found', `There is no library named "${name}".`);
    const created = await libraries.create(name);
    if (created.ok || created.error.code !== 'already-exists') return created;
    // Created by another process between the two looks.
    const now = await libraries.get(name);
    return now ? ok(now) : created;
  }

  async function importPaths(
    name: string,
    paths: string[],
    opts: { signal?: AbortSignal; onProgress?: (p: ImportProgress) => void; jobId?: string } = {},
  ): Promise<Result<ImportSummary>> {
    // The first parse worker starts (~0.5 s of loading parsers, on another core) while the
    // library, its lock and its index open; an idle worker stops by itself if nothing comes.
    parsePool.warm(1);
    const lib = await libraryFor(name, true);
    if (!lib.ok) return lib;
    if (lib.value.config.subscription) return fail('unsupported', readOnlyMessage(lib.value));
    const claim = lock.claimWriter(lib.value);
    if (!claim.ok) return claim;
    try {
      const held = await lock.hold(lib.value, 'import');
      if (!held.ok) return held;
      try {
        // Imports into one library run one at a time, in the order they were started.
        const endTurn = await lock.importTurn(lib.value);
        try {
          return await runImportInto(lib.value, paths, opts);
        } finally {
          endTurn();
        }
      } finally {
        await held.value();
      }
    } finally {
      claim.value();
    }
  }

  /**
   * What an import job holds from the moment it is asked for: a place among the writers (no
   * rebuild starts while it waits in the queue) and the library's lock file (a second process is
   * told "library busy" at once, not when the job's turn comes).
   */
  async function admitImport(lib: Library): Promise<Result<() => Promise<void>>> {
    const claim = lock.claimWriter(lib);
    if (!claim.ok) return claim;
    const held = await lock.hold(lib, 'import');
    if (!held.ok) {
      claim.value();
      return held;
    }
    return ok(async () => {
      claim.value();
      await held.value();
    });
  }

  async function runImportInto(
    lib: Library,
    paths: string[],
    opts: { signal?: AbortSignal; onProgress?: (p: ImportProgress) => void; jobId?: string },
  ): Promise<Result<ImportSummary>> {
    const index = await indexes.open(lib);
    const jobId = opts.jobId ?? 'cli';
    // Loaded on the first import: the parsers (PDF, DOCX, HTML) are not needed to search or chat.
    const { runImport } = await import('../ingest/import.job');
    const summary = await runImport({
      library: lib,
      paths,
      indexer: index,
      ...(options.maxFileBytes !== undefined ? { maxFileBytes: options.maxFileBytes } : {}),
      ...(options.importLimits ? { limits: options.importLimits } : {}),
      pool: parsePool,
      ...(opts.signal ? { signal: opts.signal } : {}),
      onProgress: (p) => {
        opts.onProgress?.(p);
        emit({ type: 'import.progress', jobId, library: lib.name, ...p });
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
    opts: { signal: AbortSignal; strategy?: ChunkStrategy; onProgress?: (done: number, total: number) => void },
  ): Promise<Result<RebuildSummary>> {
    const report = (done: number, total: number, error?: string) => {
      opts.onProgress?.(done, total);
      emit({ type: 'index.progress', library: lib.name, task: 'rebuilding', done, total, ...(error ? { error } : {}) });
    };
    try {
      await stopJobs(lib, /^(index|enrich|embed)-/);
      const index = await indexes.open(lib);
      const res = await index.rebuild(opts.signal, report, opts.strategy ? { strategy: opts.strategy } : {});
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
  function rebuildJob(lib: Library, opts: { strategy?: ChunkStrategy; onProgress?: (done: number, total: number) => void; signal?: AbortSignal } = {}) {
    const jobId = `rebuild-${lib.config.id}`;
    const controller = new AbortController();
    if (opts.signal?.aborted) controller.abort();
    else opts.signal?.addEventListener('abort', () => controller.abort(), { once: true });
    const done = runRebuild(lib, { ...opts, signal: controller.signal }).finally(() => jobs.delete(jobId));
    jobs.set(jobId, { library: lib.config.id, controller, done });
    rebuildResults.set(jobId, done);
    return { jobId, done };
  }

  const { startBackground, startEnrichment, startEmbedding } = createBackgroundJobs({ jobs, pendingEmbeds, lock, indexes, settings, models, emit, log });

  const chats = new Map<string, ChatService>();
  const team = createTeam({ dataDir: options.dataDir, version: options.version ?? '0.0.0', libraries, lock, indexes, remote, settings, emit, log, stopJobs, startBackground, summaryOf });

  /** The chat model chosen in settings, loaded on first use; null answers extractively. */
  async function chatLlm(): Promise<Llm | null> {
    const { chatModel } = await settings.get();
    if (!chatModel) return null;
    const known = (await models.list()).some((m) => m.id === chatModel);
    return known ? models.llm(chatModel) : null;
  }

  /** One chat service per library (conversations live in its folder). */
  async function chatFor(library: string): Promise<Result<ChatService>> {
    const lib = await libraries.require(library);
    if (!lib.ok) return lib;
    let chat = chats.get(lib.value.config.id);
    if (!chat) {
      const index = await indexes.open(lib.value);
      chat = createChatService({ libraryDir: lib.value.dir, libraryName: lib.value.name, index: chatIndexOf(index), getLlm: chatLlm, emit });
      chats.set(lib.value.config.id, chat);
    }
    return ok(chat);
  }

  /** A handler that runs on the library's chat service. */
  function withChat<I extends { library: string }, O>(run: (chat: ChatService, input: I) => Promise<Result<O>>): (input: I) => Promise<Result<O>> {
    return async (input) => {
      const chat = await chatFor(input.library);
      return chat.ok ? run(chat.value, input) : chat;
    };
  }

  /** Runs an import in the background as a job; progress and the summary arrive as events. */
  function startImportJob(lib: Library, paths: string[], cleanup: () => Promise<void>): string {
    const jobId = `import-${randomBytes(6).toString('hex')}`;
    const controller = new AbortController();
    const done = importPaths(lib.name, paths, { signal: controller.signal, jobId })
      .then((res) => {
        if (res.ok) emit({ type: 'import.done', jobId, library: lib.name, summary: res.value });
        else emit({ type: 'import.failed', jobId, library: lib.name, message: res.error.message });
      })
      .catch((err: unknown) => {
        log(`[engine] import ${jobId} crashed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        emit({ type: 'import.failed', jobId, library: lib.name, message: `The import stopped unexpectedly: ${err instanceof Error ? err.message : String(err)}` });
      })
      .finally(async () => {
        jobs.delete(jobId);
        await cleanup().catch(() => undefined);
      });
    jobs.set(jobId, { library: lib.config.id, controller, done });
    return jobId;
  }

  async function readyDocument(library: string, id: string) {
    const lib = await libraries.require(library);
    if (!lib.ok) return lib;
    const rec = await lib.value.document(id);
    if (!rec) return fail<never>('not-found', `There is no document "${id}" in ${lib.value.name}.`);
    return ok({ lib: lib.value, rec });
  }

  /** Deletes a library (the caller holds its lock file): its jobs stopped, its index closed, its folder removed. */
  async function deleteLibrary(lib: Library): Promise<void> {
    await stopJobs(lib);
    await indexes.close(lib);
    chats.delete(lib.config.id);
    await libraries.delete(lib);
    emit({ type: 'library.changed', library: lib.name });
  }

  /** `libraries.configure` for a caller holding the library's lock file. */
  async function configure(lib: Library, { strategy, enrich, embedder }: ParsedInput<'libraries.configure'>): Promise<Result<LibrarySummary>> {
    // A new strategy means a rebuild, so the call runs alone; other changes are ordinary writers.
    const claim = strategy ? lock.claimRebuild(lib) : lock.claimWriter(lib);
    if (!claim.ok) return claim;
    try {
      // Semantic chunking embeds every sentence: refused up front without an embedder, rather
      // than failing every document of the library.
      const nextEmbedder = embedder === undefined ? (lib.config.embedder?.id ?? null) : embedder;
      if ((strategy ?? lib.config.strategy) === 'semantic' && nextEmbedder === null) {
        return fail(
          'unavailable',
          strategy === 'semantic' ? SEMANTIC_NEEDS_EMBEDDER : 'This library uses semantic chunking, which needs its embedding model: choose another chunking first.',
        );
      }
      if (enrich) await lib.saveConfig({ enrich });
      const index = await indexes.open(lib);
      if (embedder !== undefined && embedder !== (lib.config.embedder?.id ?? null)) {
        await stopJobs(lib, /^embed-/);
        const set = await index.setEmbedder(embedder);
        if (!set.ok) return set;
      }
      if (strategy) {
        // Chunks of the old strategy are replaced by a rebuild (cancellable like any other),
        // awaited so the summary returned describes the library as it now is. The strategy is
        // saved only with the new index: a failed or cancelled rebuild keeps both as they were.
        const rebuilt = await rebuildJob(lib, { strategy }).done;
        if (!rebuilt.ok) {
          startBackground(lib);
          return rebuilt;
        }
      }
    } finally {
      claim.value();
    }
    startBackground(lib);
    emit({ type: 'library.changed', library: lib.name });
    return ok(await summaryOf(lib));
  }

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

    'libraries.list': async () => ok(await Promise.all((await libraries.list()).map(summaryOf))),

    'libraries.create': async (input) => {
      const settings = await newLibrarySettings(input, models);
      if (!settings.ok) return settings;
      const lib = await libraries.create(input.name, settings.value);
      if (!lib.ok) return lib;
      emit({ type: 'library.changed', library: lib.value.name });
      return ok(await summaryOf(lib.value));
    },

    'libraries.rename': async ({ library, name }) => {
      const lib = await libraries.require(library);
      if (!lib.ok) return lib;
      const renamed = await libraries.rename(lib.value, name);
      if (!renamed.ok) return renamed;
      // Chat events carry the library name: start a fresh service under the new one.
      chats.delete(lib.value.config.id);
      emit({ type: 'library.changed', library: renamed.value.name });
      return ok(await summaryOf(renamed.value));
    },

    'libraries.delete': async ({ library }) => {
      const lib = await libraries.require(library);
      if (!lib.ok) return lib;
      const held = await lock.hold(lib.value, 'deletion');
      if (!held.ok) return held;
      try {
        const syncing = await team.holdForDeletion(lib.value);
        if (!syncing.ok) return syncing;
        try {
          await deleteLibrary(lib.value);
          await team.forget(lib.value);
        } finally {
          await syncing.value();
        }
      } finally {
        await held.value();
      }
      return ok({ deleted: lib.value.name });
    },

    'libraries.configure': async (input) => {
      const lib = await libraries.require(input.library);
      if (!lib.ok) return lib;
      const held = await lock.hold(lib.value, input.strategy ? 'rebuild' : 'settings change');
      if (!held.ok) return held;
      try {
        return await configure(lib.value, input);
      } finally {
        await held.value();
      }
    },

    'libraries.rebuild': async ({ library }) => {
      const lib = await libraries.require(library);
      if (!lib.ok) return lib;
      const claim = lock.claimRebuild(lib.value);
      if (!claim.ok) return claim;
      const held = await lock.hold(lib.value, 'rebuild');
      if (!held.ok) {
        claim.value();
        return held;
      }
      const job = rebuildJob(lib.value);
      void job.done.finally(async () => {
        claim.value();
        // Started before the lock file is let go, in the same tick the job left `jobs`: `idle()`
        // must never see a moment with no job while the library still owes background work.
        startBackground(lib.value);
        await held.value();
      });
      return ok({ jobId: job.jobId });
    },

    'libraries.cancelRebuild': async ({ library }) => {
      const lib = await libraries.require(library);
      if (!lib.ok) return lib;
      const job = jobs.get(`rebuild-${lib.value.config.id}`);
      if (!job) return ok({ cancelled: false });
      job.controller.abort();
      await job.done;
      return ok({ cancelled: true });
    },

    'documents.list': async ({ library }) => {
      const lib = await libraries.require(library);
      if (!lib.ok) return lib;
      return ok((await lib.value.documents()).map(documentSummary));
    },

    'documents.remove': async ({ library, id }) => {
      const lib = await libraries.require(library);
      if (!lib.ok) return lib;
      const claim = lock.claimWriter(lib.value);
      if (!claim.ok) return claim;
      const held = await lock.hold(lib.value, 'removal');
      if (!held.ok) {
        claim.value();
        return held;
      }
      try {
        const rec = await lib.value.document(id);
        if (!rec) return fail('not-found', `There is no document "${id}" in ${lib.value.name}.`);
        const index = await indexes.open(lib.value);
        await index.remove([id]);
        await lib.value.removeDocuments([id]);
      } finally {
        claim.value();
        await held.value();
      }
      emit({ type: 'library.changed', library: lib.value.name });
      return ok({ removed: id });
    },

    'import.start': async ({ library, paths }) => {
      const lib = await libraryFor(library, true);
      if (!lib.ok) return lib;
      // Said now, not as a job that fails at once: a rebuild here, another process's import.
      const admitted = await admitImport(lib.value);
      if (!admitted.ok) return admitted;
      return ok({ jobId: startImportJob(lib.value, paths, admitted.value) });
    },

    'import.upload': async ({ library, uploadId }) => {
      const staged = await stagedUpload(uploadsDir, uploadId);
      if (!staged.ok) return staged;
      const { staging, tops } = staged.value;
      const removeStaging = () => fs.rm(staging, { recursive: true, force: true });
      const lib = await libraryFor(library, true);
      if (!lib.ok) {
        await removeStaging();
        return lib;
      }
      const admitted = await admitImport(lib.value);
      if (!admitted.ok) {
        await removeStaging();
        return admitted;
      }
      return ok({
        jobId: startImportJob(lib.value, tops, async () => {
          await admitted.value();
          await removeStaging();
        }),
      });
    },

    'import.cancel': async ({ jobId }) => {
      const job = jobs.get(jobId);
      if (!job) return ok({ cancelled: false });
      job.controller.abort();
      await job.done;
      return ok({ cancelled: true });
    },

    'documents.chunks': async ({ library, id }) => {
      const found = await readyDocument(library, id);
      if (!found.ok) return found;
      const index = await indexes.open(found.value.lib);
      return ok((await index.listChunks(id)).map(chunkDetail));
    },

    'documents.source': async ({ library, id }) => {
      const found = await readyDocument(library, id);
      if (!found.ok) return found;
      const { lib, rec } = found.value;
      const doc = await lib.loadNormalized(rec);
      if (!doc) return fail('not-found', `The text of "${id}" is not available; import the file again.`);
      return ok({ id: doc.id, title: doc.title, format: doc.format, text: doc.text, pageCount: doc.pageCount, pageStarts: pageStarts(doc) });
    },

    'documents.original': async ({ library, id }) => {
      const found = await readyDocument(library, id);
      if (!found.ok) return found;
      const { lib, rec } = found.value;
      if (!rec.original) return fail('not-found', `The original file of "${id}" is not stored.`);
      const file = lib.originalPath(rec);
      if (!file) return fail('corrupt', `The record of "${id}" names its original outside the library folder; it is not opened.`);
      const size = await lib.originalSize(rec);
      if (size === null) return fail('not-found', `The original file of "${id}" is missing from the library folder.`);
      if (size > MAX_ORIGINAL_BYTES) return fail('too-large', `The original file of "${id}" is ${sizeOver(size, MAX_ORIGINAL_BYTES)}, more than the viewer opens (${megabytes(MAX_ORIGINAL_BYTES)}).`);
      const bytes = await lib.readOriginal(rec);
      if (!bytes) return fail('not-found', `The original file of "${id}" is missing from the library folder.`);
      return ok({ fileName: path.posix.basename(rec.id), mime: mimeOf(rec.format), base64: bytes.toString('base64') });
    },

    'chat.list': withChat((chat) => chat.list()),
    'chat.create': withChat((chat, { title, scope }) => chat.create({ ...(title ? { title } : {}), ...(scope ? { scope } : {}) })),
    'chat.get': withChat((chat, { id }) => chat.get(id)),
    'chat.rename': withChat((chat, { id, title }) => chat.rename(id, title)),
    'chat.scope': withChat((chat, { id, scope }) => chat.setScope(id, scope)),
    'chat.delete': withChat((chat, { id }) => chat.delete(id)),
    'chat.ask': withChat((chat, { id, question }) => chat.ask(id, question)),
    'chat.stop': withChat((chat, { id }) => chat.stop(id)),
    'chat.export': withChat((chat, { id }) => chat.exportMarkdown(id)),

    'settings.get': async () => ok({ ...(await settings.get()), remote: await remote.view() }),

    'settings.update': async ({ chatModel }) => {
      if (chatModel !== null) {
        const found = (await models.list()).find((m) => m.id === chatModel);
        if (!found || found.format !== 'gguf') return fail('not-found', `There is no GGUF chat model named "${chatModel}" in the models folders.`);
      }
      const next = await settings.update({ chatModel });
      if (chatModel !== null) for (const lib of await libraries.list()) if (lib.config.enrich !== 'heuristic') startEnrichment(lib);
      return ok(next);
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
    chat: chatFor,
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
      const claim = lock.claimRebuild(lib.value);
      if (!claim.ok) return claim;
      const held = await lock.hold(lib.value, 'rebuild');
      if (!held.ok) {
        claim.value();
        return held;
      }
      try {
        return await rebuildJob(lib.value, opts).done;
      } finally {
        claim.value();
        startBackground(lib.value);
        await held.value();
      }
    },
    async resumeBackground() {
      for (const lib of await libraries.list()) {
        if (!lib.config.embedder || lib.config.subscription || lock.rebuilding(lib)) continue;
        const index = await indexes.open(lib);
        if ((await index.pendingEmbeddings()) > 0) startEmbedding(lib);
      }
      // The only network request the app makes on its own, and only for subscribed libraries.
      void team.checkAll().catch((err: unknown) => log(`[engine] checking subscribed libraries failed: ${String(err)}`));
    },
    async idle() {
      // A finishing job may start the next stage (index -> enrich -> embed): wait until none is left.
      while (jobs.size > 0) await Promise.all([...jobs.values()].map((j) => j.done.catch(() => undefined)));
    },
    async dispose() {
      // Index folding is short and keeps the next open fast: let it finish; stop everything else.
      await Promise.all([...jobs.entries()].filter(([id]) => id.startsWith('index-')).map(([, j]) => j.done.catch(() => undefined)));
      for (const job of jobs.values()) job.controller.abort();
      await Promise.all([...jobs.values()].map((j) => j.done.catch(() => undefined)));
      await indexes.closeAll();
      await parsePool.close();
      await models.dispose();
      listeners.clear();
    },
  };
}
