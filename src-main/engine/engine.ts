import path from 'node:path';
import { promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type {
  Api,
  ChunkDetail,
  ChunkStrategy,
  DocumentSummary,
  EngineEvent,
  Handlers,
  ImportSummary,
  LibrarySummary,
  ModelSummary,
} from '../contract/api';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import { runImport, type ImportProgress } from '../ingest/import.job';
import type { Library } from '../storage/library.store';
import { LibraryManager } from '../storage/library.store';
import { ModelRuntime } from '../models/runtime';
import { LibraryIndexes } from '../index/library-indexes';
import type { RebuildSummary } from '../index/rebuild';
import { appRoot } from './paths';
import { SettingsStore } from './settings';
import { signaturePrefix } from '../enrich/prefix';
import { chatIndexOf, createChatService, type ChatService } from '../chat/chat.service';
import type { Llm } from '../models/types';
import { pageRange } from '../core/chunk';
import { SEMANTIC_NEEDS_EMBEDDER } from '../chunking/semantic.chunker';
import { apiOf } from './dispatch';

/**
 * The engine: plain Node, no Electron. It owns the libraries, the model runtime, running jobs and
 * the event stream, and implements one handler per contract key. The Electron shell, the web
 * bridge, the CLI and the tests all drive this same object.
 */

export interface EngineOptions {
  dataDir: string;
  /** Folder of models shipped with the app; default `<app root>/models`. */
  bundledModelsDir?: string;
  transport?: 'electron' | 'web';
  version?: string;
  /** Cap for native runtime threads; default: the runtimes' own cap (cpuMathCores). */
  threads?: number;
  /** Largest file an import accepts, in bytes (default 500 MB). */
  maxFileBytes?: number;
  log?: (message: string) => void;
}

export interface Engine {
  readonly handlers: Handlers;
  /** The contract, every call through `dispatch` (zod-checked input): how the doors call the engine. */
  readonly api: Api;
  /** The summary a running or finished rebuild job (`libraries.rebuild`'s job id) ends with. */
  rebuildResult(jobId: string): Promise<Result<RebuildSummary>> | undefined;
  /** The chat service of a library (the CLI's one-off answers use it directly). */
  chat(library: string): Promise<Result<ChatService>>;
  readonly settings: SettingsStore;
  readonly libraries: LibraryManager;
  readonly models: ModelRuntime;
  readonly indexes: LibraryIndexes;
  subscribe(listener: (event: EngineEvent) => void): () => void;
  /** Runs an import to the end; the CLI's entry point (the contract's `import.start` runs it as a job). */
  importPaths(library: string, paths: string[], options?: { signal?: AbortSignal; onProgress?: (p: ImportProgress) => void; jobId?: string }): Promise<Result<ImportSummary>>;
  /** Rebuilds a library's index to the end (the CLI's `reindex`; the contract's `libraries.rebuild` runs it as a job). */
  rebuild(library: string, options?: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void }): Promise<Result<RebuildSummary>>;
  /**
   * Starts the background work that libraries still owe from an earlier run (vectors for chunks
   * imported or rebuilt while no embedding job could finish, e.g. from the CLI or before a quit).
   * The app calls it once at start; one-off CLI commands do not.
   */
  resumeBackground(): Promise<void>;
  /** Waits for running jobs (tests and graceful shutdown). */
  idle(): Promise<void>;
  dispose(): Promise<void>;
}

export function createEngine(options: EngineOptions): Engine {
  const log = options.log ?? ((m: string) => console.error(m));
  const libraries = new LibraryManager(options.dataDir);
  const models = new ModelRuntime(
    { bundled: options.bundledModelsDir ?? path.join(appRoot(), 'models'), data: path.join(options.dataDir, 'models') },
    options.threads !== undefined ? { threads: options.threads } : {},
  );
  const indexes = new LibraryIndexes(models);
  const settings = new SettingsStore(options.dataDir);
  const listeners = new Set<(event: EngineEvent) => void>();
  const jobs = new Map<string, { library: string; controller: AbortController; done: Promise<unknown> }>();
  /** Libraries that received chunks while their embedding job was running: embed again after it. */
  const pendingEmbeds = new Set<string>();
  /**
   * Who writes each library's index. Imports, removals and settings changes may overlap one another
   * (counted in `writers`); a rebuild replaces the whole index, so it runs alone: it starts only
   * when no writer runs and refuses new writers while it runs. Each check and its claim happen in
   * the same tick (no await between), so two callers can never both get in.
   */
  const writers = new Map<string, number>();
  /** The last rebuild job of each library (ids are per library), for callers that wait for it. */
  const rebuildResults = new Map<string, Promise<Result<RebuildSummary>>>();
  const rebuilding = new Set<string>();
  const busyRebuilding = (lib: Library) =>
    fail<never>('busy', `"${lib.name}" is rebuilding its index. Search works meanwhile; try again when the rebuild has finished.`);

  /** Claims a place among the library's writers; the returned function releases it (once). */
  function claimWriter(lib: Library): Result<() => void> {
    const id = lib.config.id;
    if (rebuilding.has(id)) return busyRebuilding(lib);
    writers.set(id, (writers.get(id) ?? 0) + 1);
    let released = false;
    return ok(() => {
      if (released) return;
      released = true;
      const left = (writers.get(id) ?? 1) - 1;
      if (left > 0) writers.set(id, left);
      else writers.delete(id);
    });
  }

  /** Claims the library for a rebuild, alone; the returned function releases it. */
  function claimRebuild(lib: Library): Result<() => void> {
    const id = lib.config.id;
    if (rebuilding.has(id)) return busyRebuilding(lib);
    if ((writers.get(id) ?? 0) > 0) {
      return fail('busy', `"${lib.name}" is importing, removing or reconfiguring documents. Rebuild its index when that has finished.`);
    }
    rebuilding.add(id);
    return ok(() => rebuilding.delete(id));
  }

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

  async function librarySummary(lib: Library): Promise<LibrarySummary> {
    const docs = await lib.documents();
    return {
      name: lib.name,
      documents: docs.length,
      chunks: docs.reduce((n, d) => n + (d.status === 'ready' ? d.chunks : 0), 0),
      strategy: lib.config.strategy,
      enrich: lib.config.enrich,
      embedder: lib.config.embedder?.id ?? null,
      createdAt: lib.config.createdAt,
      // An empty library has nothing built by older code.
      indexOutdated: lib.indexOutdated && docs.some((d) => d.status === 'ready'),
      rebuilding: rebuilding.has(lib.config.id),
    };
  }

  async function libraryFor(name: string, create: boolean): Promise<Result<Library>> {
    const found = await libraries.get(name);
    if (found) return ok(found);
    if (!create) return fail('not-found', `There is no library named "${name}".`);
    return libraries.create(name);
  }

  async function importPaths(
    name: string,
    paths: string[],
    opts: { signal?: AbortSignal; onProgress?: (p: ImportProgress) => void; jobId?: string } = {},
  ): Promise<Result<ImportSummary>> {
    const lib = await libraryFor(name, true);
    if (!lib.ok) return lib;
    const claim = claimWriter(lib.value);
    if (!claim.ok) return claim;
    try {
      return await runImportInto(lib.value, paths, opts);
    } finally {
      claim.value();
    }
  }

  async function runImportInto(
    lib: Library,
    paths: string[],
    opts: { signal?: AbortSignal; onProgress?: (p: ImportProgress) => void; jobId?: string },
  ): Promise<Result<ImportSummary>> {
    const index = await indexes.open(lib);
    const jobId = opts.jobId ?? 'cli';
    const summary = await runImport({
      library: lib,
      paths,
      indexer: index,
      ...(options.maxFileBytes !== undefined ? { maxFileBytes: options.maxFileBytes } : {}),
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

  /**
   * Work after an import, none of which blocks search: fold the new rows into the indexes, then
   * LLM enrichment when the library asks for it and a chat model is set, then embedding.
   */
  function startBackground(lib: Library): void {
    const jobId = `index-${lib.config.id}`;
    const previous = jobs.get(jobId)?.done ?? Promise.resolve();
    const controller = new AbortController();
    const done = previous
      .then(async () => (await indexes.open(lib)).optimizeIndexes())
      .catch((err: unknown) => log(`[engine] indexing ${lib.name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`))
      .finally(() => {
        if (jobs.get(jobId)?.done === done) jobs.delete(jobId);
        if (lib.config.enrich !== 'heuristic') startEnrichment(lib);
        else startEmbedding(lib);
      });
    jobs.set(jobId, { library: lib.config.id, controller, done });
  }

  /**
   * Upgrades the library's chunks with LLM enrichment in the background (resumable, cancellable);
   * the upgraded chunks are embedded afterwards. Without a chat model it reports why and stops.
   */
  function startEnrichment(lib: Library): void {
    const mode = lib.config.enrich;
    // A rebuild starts the background work again once its new index is in place.
    if (mode === 'heuristic' || rebuilding.has(lib.config.id)) return;
    const jobId = `enrich-${lib.config.id}`;
    if (jobs.has(jobId)) return;
    const report = (done: number, total: number, error?: string) =>
      emit({ type: 'index.progress', library: lib.name, task: 'enriching', done, total, ...(error ? { error } : {}) });
    const controller = new AbortController();
    const done = (async () => {
      const { chatModel } = await settings.get();
      if (!chatModel) {
        report(0, 0, `"${mode}" enrichment needs a chat model; choose one in Settings › Models. Chunks keep their heuristic enrichment meanwhile.`);
        return;
      }
      const llm = await models.llm(chatModel);
      const index = await indexes.open(lib);
      const res = await index.upgradeEnrichment(mode, llm, controller.signal, (d, total) => report(d, total));
      if (!res.ok && res.error.code !== 'cancelled') report(0, 0, res.error.message);
      emit({ type: 'library.changed', library: lib.name });
    })()
      .catch((err: unknown) => report(0, 0, `Enrichment stopped: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        jobs.delete(jobId);
        if (!controller.signal.aborted) startEmbedding(lib);
      });
    jobs.set(jobId, { library: lib.config.id, controller, done });
  }

  /**
   * Embeds the library's new chunks in the background (when it has an embedder), one job per
   * library at a time; progress arrives as `index.progress` events and search keeps working.
   */
  function startEmbedding(lib: Library): void {
    if (!lib.config.embedder || rebuilding.has(lib.config.id)) return;
    const jobId = `embed-${lib.config.id}`;
    if (jobs.has(jobId)) {
      pendingEmbeds.add(lib.config.id);
      return;
    }
    const controller = new AbortController();
    const done = (async () => {
      const index = await indexes.open(lib);
      const res = await index.embedPending(controller.signal, (d, total) =>
        emit({ type: 'index.progress', library: lib.name, task: 'embedding', done: d, total }),
      );
      if (!res.ok && res.error.code !== 'cancelled') {
        emit({ type: 'index.progress', library: lib.name, task: 'embedding', done: 0, total: 0, error: res.error.message });
      }
    })()
      .catch((err: unknown) => log(`[engine] embedding ${lib.name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`))
      .finally(() => {
        jobs.delete(jobId);
        if (pendingEmbeds.delete(lib.config.id) && !controller.signal.aborted) startEmbedding(lib);
      });
    jobs.set(jobId, { library: lib.config.id, controller, done });
  }

  const chats = new Map<string, ChatService>();

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

  /** Runs an import in the background as a job; progress and the summary arrive as events. */
  function startImportJob(lib: Library, paths: string[], cleanup?: () => Promise<void>): string {
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
        await cleanup?.().catch(() => undefined);
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

  const handlers: Handlers = {
    'app.info': async () =>
      ok({
        name: 'ManualMate',
        version: options.version ?? '0.0.0',
        dataDir: options.dataDir,
        offline: true as const,
        transport: options.transport ?? 'web',
      }),

    'models.list': async () => {
      const list = await models.list();
      return ok(
        list.map(
          (m): ModelSummary => ({
            id: m.id,
            format: m.format,
            kinds: m.kinds,
            sizeBytes: m.sizeBytes,
            source: m.source,
            state: m.state,
            ...(m.reason ? { reason: m.reason } : {}),
          }),
        ),
      );
    },

    'libraries.list': async () => ok(await Promise.all((await libraries.list()).map(librarySummary))),

    'libraries.create': async ({ name }) => {
      const lib = await libraries.create(name);
      if (!lib.ok) return lib;
      emit({ type: 'library.changed', library: lib.value.name });
      return ok(await librarySummary(lib.value));
    },

    'libraries.rename': async ({ library, name }) => {
      const lib = await libraries.require(library);
      if (!lib.ok) return lib;
      const renamed = await libraries.rename(lib.value, name);
      if (!renamed.ok) return renamed;
      // Chat events carry the library name: start a fresh service under the new one.
      chats.delete(lib.value.config.id);
      emit({ type: 'library.changed', library: renamed.value.name });
      return ok(await librarySummary(renamed.value));
    },

    'libraries.delete': async ({ library }) => {
      const lib = await libraries.require(library);
      if (!lib.ok) return lib;
      await stopJobs(lib.value);
      await indexes.close(lib.value);
      chats.delete(lib.value.config.id);
      await libraries.delete(lib.value);
      emit({ type: 'library.changed', library: lib.value.name });
      return ok({ deleted: lib.value.name });
    },

    'libraries.configure': async ({ library, strategy, enrich, embedder }) => {
      const lib = await libraries.require(library);
      if (!lib.ok) return lib;
      // A new strategy means a rebuild, so the call runs alone; other changes are ordinary writers.
      const claim = strategy ? claimRebuild(lib.value) : claimWriter(lib.value);
      if (!claim.ok) return claim;
      try {
        // Semantic chunking embeds every sentence: refused up front without an embedder, rather
        // than failing every document of the library.
        const nextEmbedder = embedder === undefined ? (lib.value.config.embedder?.id ?? null) : embedder;
        if ((strategy ?? lib.value.config.strategy) === 'semantic' && nextEmbedder === null) {
          return fail(
            'unavailable',
            strategy === 'semantic' ? SEMANTIC_NEEDS_EMBEDDER : 'This library uses semantic chunking, which needs its embedding model: choose another chunking first.',
          );
        }
        if (enrich) await lib.value.saveConfig({ enrich });
        const index = await indexes.open(lib.value);
        if (embedder !== undefined && embedder !== (lib.value.config.embedder?.id ?? null)) {
          await stopJobs(lib.value, /^embed-/);
          const set = await index.setEmbedder(embedder);
          if (!set.ok) return set;
        }
        if (strategy) {
          // Chunks of the old strategy are replaced by a rebuild (cancellable like any other),
          // awaited so the summary returned describes the library as it now is. The strategy is
          // saved only with the new index: a failed or cancelled rebuild keeps both as they were.
          const rebuilt = await rebuildJob(lib.value, { strategy }).done;
          if (!rebuilt.ok) {
            startBackground(lib.value);
            return rebuilt;
          }
        }
      } finally {
        claim.value();
      }
      startBackground(lib.value);
      emit({ type: 'library.changed', library: lib.value.name });
      return ok(await librarySummary(lib.value));
    },

    'libraries.rebuild': async ({ library }) => {
      const lib = await libraries.require(library);
      if (!lib.ok) return lib;
      const claim = claimRebuild(lib.value);
      if (!claim.ok) return claim;
      const job = rebuildJob(lib.value);
      void job.done.finally(() => {
        claim.value();
        startBackground(lib.value);
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
      const docs = await lib.value.documents();
      return ok(
        docs.map(
          (d): DocumentSummary => ({
            id: d.id,
            title: d.title,
            format: d.format,
            status: d.status,
            ...(d.reason ? { reason: d.reason } : {}),
            sizeBytes: d.sizeBytes,
            pageCount: d.pageCount,
            chunks: d.chunks,
            models: d.models,
            importedAt: d.importedAt,
          }),
        ),
      );
    },

    'documents.remove': async ({ library, id }) => {
      const lib = await libraries.require(library);
      if (!lib.ok) return lib;
      const claim = claimWriter(lib.value);
      if (!claim.ok) return claim;
      try {
        const rec = await lib.value.document(id);
        if (!rec) return fail('not-found', `There is no document "${id}" in ${lib.value.name}.`);
        const index = await indexes.open(lib.value);
        await index.remove([id]);
        await lib.value.removeDocuments([id]);
      } finally {
        claim.value();
      }
      emit({ type: 'library.changed', library: lib.value.name });
      return ok({ removed: id });
    },

    'import.start': async ({ library, paths }) => {
      const lib = await libraryFor(library, true);
      if (!lib.ok) return lib;
      // Said now, not as a job that fails at once (the import itself also refuses, for the CLI).
      if (rebuilding.has(lib.value.config.id)) return busyRebuilding(lib.value);
      return ok({ jobId: startImportJob(lib.value, paths) });
    },

    'import.upload': async ({ library, files }) => {
      const lib = await libraryFor(library, true);
      if (!lib.ok) return lib;
      if (rebuilding.has(lib.value.config.id)) return busyRebuilding(lib.value);
      // Dropped files reach a browser page as bytes, not paths: stage them under the data folder
      // with their relative names, import the staged tree, then remove it.
      const staging = path.join(options.dataDir, 'uploads', `upload-${randomBytes(6).toString('hex')}`);
      const tops = new Set<string>();
      for (const f of files) {
        const target = path.join(staging, ...f.path.split('/'));
        if (!target.startsWith(staging + path.sep)) return fail('unsafe-path', `The name "${f.path}" could escape the upload folder.`);
        await fs.mkdir(path.dirname(target), { recursive: true });
        await fs.writeFile(target, Buffer.from(f.base64, 'base64'));
        tops.add(path.join(staging, f.path.split('/')[0]!));
      }
      return ok({ jobId: startImportJob(lib.value, [...tops], () => fs.rm(staging, { recursive: true, force: true })) });
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
      const rows = await index.listChunks(id);
      return ok(
        rows.map((r): ChunkDetail => {
          const prefix = signaturePrefix({ category: r.category, nouns: r.nouns, model: r.model });
          return {
            id: r.id,
            ordinal: r.ordinal,
            text: r.text,
            indexedText: r.indexedText,
            prefix,
            headingPath: r.headingPath,
            pages: pageRange(r.pageStart, r.pageEnd),
            start: r.start,
            end: r.end,
            signature: { category: r.category, nouns: r.nouns, model: r.model },
            signatureSource: r.signatureSource,
            continuous: r.continuous,
            sectionType: r.sectionType,
            key: r.key,
            keywords: r.keywords,
            entities: r.entities,
            members: r.members,
          };
        }),
      );
    },

    'documents.source': async ({ library, id }) => {
      const found = await readyDocument(library, id);
      if (!found.ok) return found;
      const { lib, rec } = found.value;
      const doc = await lib.loadNormalized(rec);
      if (!doc) return fail('not-found', `The text of "${id}" is not available; import the file again.`);
      const pageStarts: number[] = [];
      if (doc.pageCount) {
        for (let p = 1; p <= doc.pageCount; p++) {
          const first = doc.blocks.find((b) => b.page !== null && b.page >= p);
          pageStarts.push(first && first.page === p ? first.start : (pageStarts[p - 2] ?? 0));
        }
      }
      return ok({ id: doc.id, title: doc.title, format: doc.format, text: doc.text, pageCount: doc.pageCount, pageStarts });
    },

    'documents.original': async ({ library, id }) => {
      const found = await readyDocument(library, id);
      if (!found.ok) return found;
      const { lib, rec } = found.value;
      if (!rec.original) return fail('not-found', `The original file of "${id}" is not stored.`);
      const bytes = await fs.readFile(path.join(lib.dir, rec.original)).catch(() => null);
      if (!bytes) return fail('not-found', `The original file of "${id}" is missing from the library folder.`);
      const mime: Record<string, string> = { pdf: 'application/pdf', docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', html: 'text/html', markdown: 'text/markdown', txt: 'text/plain' };
      return ok({ fileName: path.posix.basename(rec.id), mime: mime[rec.format ?? 'txt'] ?? 'application/octet-stream', base64: bytes.toString('base64') });
    },

    'chat.list': async ({ library }) => {
      const chat = await chatFor(library);
      return chat.ok ? chat.value.list() : chat;
    },
    'chat.create': async ({ library, title, scope }) => {
      const chat = await chatFor(library);
      return chat.ok ? chat.value.create({ ...(title ? { title } : {}), ...(scope ? { scope } : {}) }) : chat;
    },
    'chat.get': async ({ library, id }) => {
      const chat = await chatFor(library);
      return chat.ok ? chat.value.get(id) : chat;
    },
    'chat.rename': async ({ library, id, title }) => {
      const chat = await chatFor(library);
      return chat.ok ? chat.value.rename(id, title) : chat;
    },
    'chat.scope': async ({ library, id, scope }) => {
      const chat = await chatFor(library);
      return chat.ok ? chat.value.setScope(id, scope) : chat;
    },
    'chat.delete': async ({ library, id }) => {
      const chat = await chatFor(library);
      return chat.ok ? chat.value.delete(id) : chat;
    },
    'chat.ask': async ({ library, id, question }) => {
      const chat = await chatFor(library);
      return chat.ok ? chat.value.ask(id, question) : chat;
    },
    'chat.stop': async ({ library, id }) => {
      const chat = await chatFor(library);
      return chat.ok ? chat.value.stop(id) : chat;
    },
    'chat.export': async ({ library, id }) => {
      const chat = await chatFor(library);
      return chat.ok ? chat.value.exportMarkdown(id) : chat;
    },

    'settings.get': async () => ok(await settings.get()),

    'settings.update': async ({ chatModel }) => {
      if (chatModel !== null) {
        const found = (await models.list()).find((m) => m.id === chatModel);
        if (!found || found.format !== 'gguf') return fail('not-found', `There is no GGUF chat model named "${chatModel}" in the models folders.`);
      }
      const next = await settings.update({ chatModel });
      if (chatModel !== null) for (const lib of await libraries.list()) if (lib.config.enrich !== 'heuristic') startEnrichment(lib);
      return ok(next);
    },

    'search.query': async ({ library, query, topK, retriever, models: modelFilter, docIds }) => {
      const lib = await libraries.require(library);
      if (!lib.ok) return lib;
      const index = await indexes.open(lib.value);
      return index.search(query, { topK, retriever, ...(modelFilter ? { models: modelFilter } : {}), ...(docIds ? { docIds } : {}) });
    },
  };

  return {
    handlers,
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
      const claim = claimRebuild(lib.value);
      if (!claim.ok) return claim;
      try {
        return await rebuildJob(lib.value, opts).done;
      } finally {
        claim.value();
        startBackground(lib.value);
      }
    },
    async resumeBackground() {
      for (const lib of await libraries.list()) {
        if (!lib.config.embedder || rebuilding.has(lib.config.id)) continue;
        const index = await indexes.open(lib);
        if ((await index.pendingEmbeddings()) > 0) startEmbedding(lib);
      }
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
      await models.dispose();
      listeners.clear();
    },
  };
}
