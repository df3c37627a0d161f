import type { ImportLimits } from '../ingest/import-limits';
import type { Api, EngineEvent, Handlers, ImportProgress, ImportSummary } from '../contract/api';
import type { Result } from '../core/result';
import type { ChatService } from '../chat/chat.service';
import type { LibraryIndexes } from '../index/library-indexes';
import type { RebuildSummary } from '../index/rebuild';
import type { ModelRuntime } from '../models/runtime';
import type { LibraryManager } from '../storage/library.store';
import type { SettingsStore } from './settings';

/** The engine service's options and its interface (`createEngine` in engine.ts builds it). */

/** How `Engine.importPaths` runs and reports an import. */
export interface ImportPathsOptions {
  signal?: AbortSignal;
  onProgress?: (p: ImportProgress) => void;
  jobId?: string;
  names?: readonly string[];
  uploaded?: boolean;
}

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
  /** Bounds of one file's import (parse memory and CPU time, text size); see `ImportLimits`. */
  importLimits?: Partial<ImportLimits>;
  log?: (message: string) => void;
  /**
   * Tests only: awaited by each `chat.ask` once the engine has taken the question in, before it
   * looks up its library, so a test holds a question at the door (a stop, a delete, closing).
   */
  atChatDoor?: (question: { library: string; conversationId: string }) => Promise<void>;
}

export interface Engine {
  readonly handlers: Handlers;
  /** Where the web bridge streams uploaded files for `import.upload` (`<data>/uploads`). */
  readonly uploadsDir: string;
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
  importPaths(
    library: string,
    paths: string[],
    /**
     * `names`: the document id each path is imported under, in order (`import.start`'s, checked at
     * the edge). `uploaded`: the paths are an upload's staging folder, whose files' paths its
     * events do not carry (`ImportProgress.path`).
     */
    options?: ImportPathsOptions,
  ): Promise<Result<ImportSummary>>;
  /** Rebuilds a library's index to the end (the CLI's `reindex`; the contract's `libraries.rebuild` runs it as a job). */
  rebuild(library: string, options?: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void }): Promise<Result<RebuildSummary>>;
  /**
   * Starts the background work that libraries still owe from an earlier run (vectors for chunks
   * imported or rebuilt while no embedding job could finish, e.g. from the CLI or before a quit).
   * It also looks for newer versions of subscribed libraries: the only request the app makes on
   * its own, and none when no library is subscribed. The app calls it once at start; one-off CLI
   * commands do not.
   */
  resumeBackground(): Promise<void>;
  /** Waits for running jobs (tests and graceful shutdown). */
  idle(): Promise<void>;
  /**
   * Stops the engine's jobs and closes its libraries. `finishFolds` (the CLI's exit, whose
   * import's rows are folded into the indexes only then): index folding may still wait, up to
   * `OPENING_WAIT_MS`, for another process's short hold; otherwise (the app's quit) no step waits
   * for another process.
   */
  dispose(options?: { finishFolds?: boolean }): Promise<void>;
}

/**
 * What the CLI and eval hold: the contract (every call through `dispatch`), its events, a rebuild
 * job's summary, and the engine's lifecycle; no direct way to the libraries, models or indexes.
 */
export type EngineDoor = Pick<Engine, 'api' | 'subscribe' | 'rebuildResult' | 'idle' | 'dispose'>;
