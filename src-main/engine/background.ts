import type { EngineEvent } from '../contract/api';
import { fail, ok } from '../core/result';
import type { EnrichMode } from '../core/vocabulary';
import type { WriteTurn } from '../index/write-turn';
import type { LibraryIndex } from '../index/library-index';
import type { LibraryIndexes } from '../index/library-indexes';
import { inputsForMarks, libraryChunkingInputs, owesUpgrade, unchunkedRetry } from '../index/llm-upgrade.job';
import { sentence } from '../core/text';
import type { ModelRuntime } from '../models/runtime';
import { embeddingWaitsForNouns, type Library } from '../storage/library.store';
import type { SettingsStore } from './settings';
import { OPENING_WAIT_MS, type WriterLock } from './writer-lock';

/** Why a library with an embedder is not embedded yet (see `startEmbedding`). */
export const NOUNS_FIRST =
  'Embedding waits until every chunk has its signature\'s nouns: LLM enrichment gives them once it has reached every document (choose a chat model in Settings › Models), or rebuild the index.';

/** What a stopped embedding run says: the task, why, and when it goes on. */
export function embeddingStopped(reason: string): string {
  return `Embedding stopped: ${sentence(reason)} It resumes with the next import or the next start of the app.`;
}

/** A few of `ids`, quoted, and how many more ("\"a.md\", \"b.md\", \"c.md\" and 4 more"): how the upgrade's reports name documents. */
function someOf(ids: readonly string[]): string {
  const named = ids.slice(0, 3).map((id) => `"${id}"`).join(', ');
  return ids.length > 3 ? `${named} and ${ids.length - 3} more` : named;
}

/** What the LLM upgrade reports about documents it found it cannot reach (`STORED_TEXT_LOST`), naming a few. */
export function passedByMessage(ids: readonly string[]): string {
  if (ids.length === 1) {
    return `${someOf(ids)} is not enriched with the chat model: its stored text is missing from the library folder or cannot be read. It keeps its rule-based enrichment and stays searchable; import the file again to enrich it.`;
  }
  return `${someOf(ids)} are not enriched with the chat model: their stored text is missing from the library folder or cannot be read. They keep their rule-based enrichment and stay searchable; import the files again to enrich them.`;
}

/** What the LLM upgrade reports about documents it could not chunk anew (`chunkingFailed`), all for one `error`, naming a few. */
export function unchunkedMessage(ids: readonly string[], error: string): string {
  if (ids.length === 1) {
    return `${someOf(ids)} is not enriched with the chat model: chunking it anew failed. ${sentence(error)} It keeps its rule-based enrichment and stays searchable; ${unchunkedRetry(1)}`;
  }
  return `${someOf(ids)} are not enriched with the chat model: chunking them anew failed. ${sentence(error)} They keep their rule-based enrichment and stay searchable; ${unchunkedRetry(ids.length)}`;
}

/** A running job of the engine: its library, how to stop it, and when it ends. */
export interface Job {
  library: string;
  controller: AbortController;
  done: Promise<unknown>;
}

/** What the background jobs share with the engine. */
export interface BackgroundDeps {
  /** The engine's running jobs by id (`index-`, `enrich-`, `embed-` + library id here). */
  jobs: Map<string, Job>;
  /** Libraries that received chunks while their embedding job was running: embed again after it. */
  pendingEmbeds: Set<string>;
  lock: WriterLock;
  indexes: LibraryIndexes;
  settings: SettingsStore;
  models: ModelRuntime;
  emit: (event: EngineEvent) => void;
  log: (message: string) => void;
}

/**
 * The background work a library owes after an import, a rebuild or a settings change, as a chain
 * of jobs: fold new rows into the indexes, then the LLM upgrade (when asked for), then embedding.
 * None of it blocks search; progress arrives as `index.progress` events.
 */
export function createBackgroundJobs(deps: BackgroundDeps) {
  const { jobs, pendingEmbeds, lock, indexes, settings, models, emit, log } = deps;
  /** Libraries asked for an LLM upgrade while theirs was running (it listed its documents when it started): upgrade again after it. */
  const pendingEnrichments = new Set<string>();
  /** Per library id, the mode this engine has said "needs a chat model" for (see `startEnrichment`). */
  const toldNoChatModel = new Map<string, EnrichMode>();
  /**
   * Per job id (`enrich-` or `embed-` + library id), the model this engine could not load for it
   * (deleted from the models folder, or a file that does not load) and the models folders as they
   * were then (`modelFolders`): said once, and not tried again until either changes.
   */
  const unloadable = new Map<string, { model: string; folders: string }>();
  /** What the models folders hold, as a key: a model put back, added, removed or replaced changes it. */
  const modelFolders = async () => JSON.stringify((await models.list()).map((m) => [m.path, m.format, m.sizeBytes]));
  /** Whether `model` could not be loaded for `jobId` and the models folders have not changed since (see `unloadable`). */
  const stillUnloadable = async (jobId: string, model: string) => {
    const failed = unloadable.get(jobId);
    if (failed?.model === model && failed.folders === (await modelFolders())) return true;
    unloadable.delete(jobId);
    return false;
  };
  const rememberUnloadable = async (jobId: string, model: string) => {
    unloadable.set(jobId, { model, folders: await modelFolders() });
  };
  /**
   * Libraries this engine has said `NOUNS_FIRST` for: a state, not a failure, so it is said once
   * per library and session (every import said it again), and again only after it ended and came back.
   */
  const toldNounsFirst = new Set<string>();
  /** What chunking `lib`'s documents anew depends on now (`chunkingInputs`): its embedder as the models folders hold it. */
  const chunkingInputsOf = (lib: Library) => libraryChunkingInputs(lib.config, models);
  /**
   * Per library, `awaitsUpgrade`'s last answer, with the records' version, the mode and the
   * chunking inputs it holds for (null: no mark kept them, so they were not looked up).
   */
  const owedLooks = new WeakMap<Library, { version: number; mode: EnrichMode; inputs: string | null; owed: boolean }>();

/**
 * Whether a document of `lib` awaits the LLM upgrade to its mode (`owesUpgrade`). Looked up once
 * while its records and mode stay as they are: at the app's start the decision to open the library,
 * the resumption of its work and the chat model's check each listed and looked over every record.
 */
async function awaitsUpgrade(lib: Library): Promise<boolean> {
  const mode = lib.config.enrich;
  if (mode === 'heuristic') return false;
  // Read before the records: a write meanwhile leaves the answer older than the records, looked up again.
  const version = lib.documentsVersion;
  const known = owedLooks.get(lib);
  if (known?.version === version && known.mode === mode && (known.inputs === null || known.inputs === (await chunkingInputsOf(lib)))) return known.owed;
  const records = await lib.documents();
  const inputs = await inputsForMarks(records, () => chunkingInputsOf(lib));
  const owed = records.some((d) => owesUpgrade(d, mode, inputs));
  owedLooks.set(lib, { version, mode, inputs, owed });
  return owed;
}

/**
 * A job's write turns on `lib` (`index/write-turn.ts`): each step holds the library's lock file,
 * as the CLI's writes do, so neither writes over the other (the LLM upgrade wrote the document
 * list it had cached, dropping a document a CLI import had added meanwhile). `maxWaitMs`: how long
 * a step waits for another process's writing to end before it gives up with `busy`.
 */
function turnOf(lib: Library, signal: AbortSignal, maxWaitMs = Infinity): WriteTurn {
  return async (work) => {
    const release = await lock.holdWhenFree(lib, signal, maxWaitMs);
    if (!release) {
      return signal.aborted || lock.closing
        ? fail('cancelled', 'The background work was stopped; it resumes with the next import or the next start of the app.')
        : fail('busy', `Another process is writing "${lib.name}"; the background work resumes with the next import.`);
    }
    try {
      return ok(await work());
    } finally {
      await release();
    }
  };
}

/**
 * Work after an import, none of which blocks search: fold the new rows into the indexes (a
 * full-text search before then waits for that fold, which it would otherwise run itself: see
 * `LanceChunkStore.#foldWrites`), then LLM enrichment when the library asks for it and a chat
 * model is set, then embedding.
 */
function startBackground(lib: Library): void {
  // A subscribed library is read-only: its publisher did this work.
  if (lib.config.subscription) return;
  const jobId = `index-${lib.config.id}`;
  const previous = jobs.get(jobId)?.done ?? Promise.resolve();
  const controller = new AbortController();
  const done = previous
    .then(async () => {
      const index = await indexes.open(lib);
      // Not waited for long: the new rows are searchable unfolded (the writer in the other process
      // folds its own, and the next import here folds). A CLI's exit waits for its folding
      // (`dispose({ finishFolds: true })`); the app's quit does not wait for another process.
      const folded = await turnOf(lib, controller.signal, OPENING_WAIT_MS)(() => index.optimizeIndexes());
      // Said in the log: a fold that never had its turn leaves the rows unfolded until the next import here.
      if (!folded.ok && (folded.error.code === 'busy' || lock.closing)) {
        const why = folded.error.code === 'busy' ? folded.error.message : 'the engine closed while another process held the library.';
        log(`[engine] the new rows of ${lib.name} are left unfolded: ${why}`);
      }
    })
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
 * the upgraded chunks are embedded afterwards. Without a chat model it says why (once per library
 * and session) and stops; so it does when the chosen model cannot be loaded, and tries it again
 * only once the models folders or the setting change.
 */
function startEnrichment(lib: Library): void {
  const mode = lib.config.enrich;
  // A rebuild starts the background work again once its new index is in place.
  if (mode === 'heuristic' || lib.config.subscription || lock.rebuilding(lib)) return;
  const jobId = `enrich-${lib.config.id}`;
  if (jobs.has(jobId)) {
    pendingEnrichments.add(lib.config.id);
    return;
  }
  const report = (done: number, total: number, error?: string) =>
    emit({ type: 'index.progress', library: lib.name, task: 'enriching', done, total, ...(error ? { error } : {}) });
  const controller = new AbortController();
  const done = (async () => {
    const { chatModel } = await settings.get();
    if (!chatModel) {
      // Said once per library and session, and only when a document awaits the upgrade: every
      // start, opening of the library and import said it again. Settings, where the chat model is
      // chosen, shows it for as long as it holds (from the library's mode and the app's settings).
      if (toldNoChatModel.get(lib.config.id) === mode || !(await awaitsUpgrade(lib))) return;
      toldNoChatModel.set(lib.config.id, mode);
      report(0, 0, `"${mode}" enrichment needs a chat model; choose one in Settings › Models. Chunks keep their heuristic enrichment meanwhile.`);
      return;
    }
    // Chosen: should it be unset again, that is said again.
    toldNoChatModel.delete(lib.config.id);
    // A model that could not be loaded fails the same way until the models folders or the setting
    // change: every start, opening of the library and import tried it again and said so again.
    if (await stillUnloadable(jobId, chatModel)) return;
    let loadFailed = false;
    // The model is loaded for the first document the run can read: none when nothing it can reach is owed.
    const llm = () =>
      models.llm(chatModel).catch((err: unknown) => {
        loadFailed = true;
        throw err;
      });
    const index = await indexes.open(lib);
    let res;
    try {
      res = await index.upgradeEnrichment(mode, llm, controller.signal, (d, total) => report(d, total), () => chunkingInputsOf(lib), turnOf(lib, controller.signal));
    } catch (err) {
      if (!loadFailed) throw err;
      await rememberUnloadable(jobId, chatModel);
      report(0, 0, `Enrichment stopped: ${sentence(err instanceof Error ? err.message : String(err))} It is tried again once the models folder or the chosen chat model changes.`);
      return;
    }
    if (!res.ok && res.error.code !== 'cancelled') report(0, 0, res.error.message);
    // Said once, by the run that found them; each document keeps why (`upgradeFailed`).
    if (res.ok && res.value.passedBy.length > 0) report(0, 0, passedByMessage(res.value.passedBy));
    if (res.ok) {
      const byError = new Map<string, string[]>();
      for (const { id, error } of res.value.unchunked) byError.set(error, [...(byError.get(error) ?? []), id]);
      for (const [error, ids] of byError) report(0, 0, unchunkedMessage(ids, error));
    }
    emit({ type: 'library.changed', library: lib.name });
  })()
    .catch((err: unknown) => report(0, 0, `Enrichment stopped: ${err instanceof Error ? err.message : String(err)}`))
    .finally(() => {
      jobs.delete(jobId);
      // Documents imported meanwhile (here or by another process) are upgraded before embedding.
      const again = pendingEnrichments.delete(lib.config.id);
      if (controller.signal.aborted) return;
      if (again) startEnrichment(lib);
      else startEmbedding(lib);
    });
  jobs.set(jobId, { library: lib.config.id, controller, done });
}

/**
 * Embeds the library's new chunks in the background (when it has an embedder), one job per
 * library at a time; progress arrives as `index.progress` events and search keeps working. An
 * embedder that cannot be loaded is said once, and tried again only once the models folders or the
 * library's embedder change.
 */
function startEmbedding(lib: Library): void {
  if (!lib.config.embedder || lib.config.subscription || lock.rebuilding(lib)) return;
  // An LLM upgrade that has not reached every document yet (`libraries.configure` rebuilds a
  // heuristic library with its nouns before it sets an embedder).
  if (embeddingWaitsForNouns(lib.config)) {
    if (toldNounsFirst.has(lib.config.id)) return;
    toldNounsFirst.add(lib.config.id);
    emit({ type: 'index.progress', library: lib.name, task: 'embedding', done: 0, total: 0, error: NOUNS_FIRST });
    return;
  }
  // Ended: should the library wait for nouns again, that is said again.
  toldNounsFirst.delete(lib.config.id);
  const jobId = `embed-${lib.config.id}`;
  if (jobs.has(jobId)) {
    pendingEmbeds.add(lib.config.id);
    return;
  }
  const controller = new AbortController();
  const embedder = lib.config.embedder.id;
  const done = (async () => {
    // An embedder that could not be loaded fails the same way until the models folders or the
    // library's embedder change: every start, opening of the library and import said so again.
    if (await stillUnloadable(jobId, embedder)) return;
    const index = await indexes.open(lib);
    const res = await index.embedPending(
      controller.signal,
      (d, total) => emit({ type: 'index.progress', library: lib.name, task: 'embedding', done: d, total }),
      turnOf(lib, controller.signal),
    );
    if (!res.ok && res.error.code === 'model-missing') {
      await rememberUnloadable(jobId, embedder);
      const error = `${sentence(res.error.message)} It is tried again once the models folder or the library's embedding model changes.`;
      emit({ type: 'index.progress', library: lib.name, task: 'embedding', done: 0, total: 0, error });
    } else if (!res.ok && res.error.code !== 'cancelled') {
      emit({ type: 'index.progress', library: lib.name, task: 'embedding', done: 0, total: 0, error: embeddingStopped(res.error.message) });
    }
  })()
    .catch((err: unknown) => {
      // The embedder failed while it embedded (its runtime out of memory, a damaged model file):
      // said, or the status line stays at its last count for good.
      log(`[engine] embedding ${lib.name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      emit({ type: 'index.progress', library: lib.name, task: 'embedding', done: 0, total: 0, error: embeddingStopped(err instanceof Error ? err.message : String(err)) });
    })
    .finally(() => {
      jobs.delete(jobId);
      if (pendingEmbeds.delete(lib.config.id) && !controller.signal.aborted) startEmbedding(lib);
    });
  jobs.set(jobId, { library: lib.config.id, controller, done });
}

/** Per open index, `resumeOwed`'s look at its owed work: once per open (a second caller waits for the first's). */
const resumed = new WeakMap<LibraryIndex, Promise<void>>();

/**
 * Starts the background work a library owes from before this engine opened it, once per open
 * index: documents another process imported while the app was closed or did not have the library
 * open (a CLI stops its own upgrade and embedding when it exits), or a job the app's last run
 * stopped. The LLM upgrade comes first (embedding follows it, so upgraded chunks are embedded
 * once), else embedding. Starts nothing when nothing is owed. Resolves once the jobs are started.
 */
function resumeOwed(lib: Library, index: LibraryIndex): Promise<void> {
  if (lib.config.subscription || lock.rebuilding(lib)) return Promise.resolve();
  let looked = resumed.get(index);
  if (!looked) {
    looked = (async () => {
      if (await awaitsUpgrade(lib)) startEnrichment(lib);
      else if ((await index.pendingEmbeddings()) > 0) startEmbedding(lib);
    })();
    resumed.set(index, looked);
  }
  return looked;
}

  return { startBackground, startEnrichment, startEmbedding, resumeOwed, awaitsUpgrade };
}
