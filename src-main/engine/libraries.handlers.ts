import type { ChunkStrategy, EngineEvent, Handlers, LibrarySummary, ParsedInput } from '../contract/api';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import type { ChatService } from '../chat/chat.service';
import { SEMANTIC_NEEDS_EMBEDDER } from '../chunking/semantic.chunker';
import { readsNouns } from '../index/library-enrichment';
import type { LibraryIndexes } from '../index/library-indexes';
import type { RebuildSummary } from '../index/rebuild';
import type { ModelRuntime } from '../models/runtime';
import type { Library, LibraryManager } from '../storage/library.store';
import type { Job } from './background';
import { loadEmbedder, newLibrarySettings } from './new-library';
import type { createTeam } from './team';
import type { WriterLock } from './writer-lock';

/**
 * The `libraries.*` handlers the engine implements itself: list, create, rename, delete, configure,
 * rebuild and cancel a rebuild (publishing and subscribing are team.ts's). The rebuild job runner
 * stays in engine.ts, which the CLI's `rebuild` shares.
 */

/** What the library handlers share with the engine (`createEngine` makes them). */
export interface LibrariesContext {
  libraries: LibraryManager;
  models: ModelRuntime;
  indexes: LibraryIndexes;
  lock: WriterLock;
  /** The engine's running jobs by id (`rebuild-` + library id for a rebuild). */
  jobs: Map<string, Job>;
  /** The chat services by library id: renaming or deleting a library drops its one. */
  chats: Map<string, ChatService>;
  /**
   * Refuses the library's new questions, stops those under way and waits until none of them works
   * any longer (chat.handlers.ts); resolves with the release that lets its questions in again.
   */
  stopLibraryQuestions: (lib: Library) => Promise<() => void>;
  team: Pick<ReturnType<typeof createTeam>, 'holdForDeletion' | 'forget'>;
  emit: (event: EngineEvent) => void;
  summaryOf: (lib: Library) => Promise<LibrarySummary>;
  /** Stops a library's running jobs (those whose key matches `keys`, else all) and waits for them to end. */
  stopJobs: (lib: Library, keys?: RegExp) => Promise<void>;
  startBackground: (lib: Library) => void;
  /** Runs a rebuild as the library's cancellable job (the caller holds `claimRebuild`). */
  rebuildJob: (lib: Library, opts?: { strategy?: ChunkStrategy; nouns?: boolean }) => { jobId: string; done: Promise<Result<RebuildSummary>> };
}

type LibraryKeys =
  | 'libraries.list'
  | 'libraries.create'
  | 'libraries.rename'
  | 'libraries.delete'
  | 'libraries.configure'
  | 'libraries.rebuild'
  | 'libraries.cancelRebuild';

export function libraryHandlers(ctx: LibrariesContext): Pick<Handlers, LibraryKeys> {
  const { libraries, models, indexes, lock, jobs, chats, stopLibraryQuestions, team, emit, summaryOf, stopJobs, startBackground, rebuildJob } = ctx;

  /** Deletes a library (the caller holds its lock file): its questions and jobs stopped, its index closed, its folder removed. */
  async function deleteLibrary(lib: Library): Promise<void> {
    // A question still waiting at the door leaves at once, and one arriving until the deletion
    // ends is refused there: none reads the index or writes its conversation once the folder
    // goes, nor opens the index again once it was closed.
    const release = await stopLibraryQuestions(lib);
    try {
      await stopJobs(lib);
      await indexes.close(lib);
      chats.delete(lib.config.id);
      await libraries.delete(lib);
    } finally {
      // Once the folder is gone a question finds no library; had the delete failed, the library stays and answers again.
      release();
    }
    emit({ type: 'library.changed', library: lib.name });
  }

  /** `libraries.configure` for a caller holding the library's lock file. */
  async function configure(lib: Library, { strategy, enrich, embedder }: ParsedInput<'libraries.configure'>): Promise<Result<LibrarySummary>> {
    // Chunks stored without their heuristic nouns get them before an embedder reads them (CHOP
    // embeds the signature with every chunk), by a rebuild; unless LLM enrichment has upgraded
    // documents already: a rebuild would throw that work away, so its upgrade writes the nouns
    // and the embedder waits for it (`startEmbedding`).
    const embedderBefore = lib.config.embedder?.id ?? null;
    const newEmbedder = embedder !== undefined && embedder !== null && embedder !== embedderBefore;
    const heuristic = (enrich ?? lib.config.enrich) === 'heuristic';
    // A rebuild (a new strategy, or nouns to fill in) makes the call run alone; so does a new
    // embedder while the library reads no nouns, since a running import may be storing chunks
    // without them (its first commit has not said so yet). Other changes are ordinary writers.
    const alone = strategy || (newEmbedder && (lib.config.nounsOmitted === true || (heuristic && !readsNouns(lib.config))));
    const claim = alone ? lock.claimRebuild(lib) : lock.claimWriter(lib);
    if (!claim.ok) return claim;
    try {
      // Read once the call runs alone: no import commits meanwhile.
      const upgraded = async () => (await lib.documents()).some((d) => d.enrichedWith !== undefined && d.enrichedWith !== 'heuristic');
      const fillNouns = newEmbedder && lib.config.nounsOmitted === true && !strategy && (heuristic || !(await upgraded()));
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
      if (fillNouns) {
        // Before the embedder is saved, so an interrupted call leaves a library without one,
        // never an embedder reading chunks without nouns; and only once the embedder loads.
        const loaded = await loadEmbedder(models, embedder);
        if (!loaded.ok) return loaded;
        const rebuilt = await rebuildJob(lib, { nouns: true }).done;
        if (!rebuilt.ok) {
          startBackground(lib);
          return rebuilt;
        }
      }
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
          // The embedder set above (before the rebuild, which semantic chunking needs) would read
          // the chunks the library keeps, stored without their nouns: it goes with the strategy.
          if (newEmbedder && embedderBefore === null && lib.config.nounsOmitted === true) await index.setEmbedder(null);
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

  return {
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
      const admitted = await lock.admit(lib.value, 'rebuild', 'rebuild');
      if (!admitted.ok) return admitted;
      const job = rebuildJob(lib.value);
      void job.done.finally(async () => {
        admitted.value.claim();
        // Started before the lock file is let go, in the same tick the job left `jobs`: `idle()`
        // must never see a moment with no job while the library still owes background work.
        startBackground(lib.value);
        await admitted.value.hold();
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
  };
}
