import type { ChunkStrategy } from '../core/chunk';
import type { NormalizedDocument } from '../core/document';
import type { ErrorCode } from '../core/result';
import type { ChunkInput } from '../storage/chunk-store';
import type { EnrichmentSettings } from './library-enrichment';

/** Messages between the prepare pool (`prepare-pool.ts`) and its workers (`prepare.worker.ts`). */

/** What every document of one batch is prepared with: the batch's learned vocabulary and the library's settings. */
export interface PrepareState {
  /** Changes whenever the vocabulary or the settings do; a worker restores the state once per version. */
  version: number;
  /** `LibraryEnrichment.snapshot()` after the batch was learned. */
  enrichment: unknown;
  strategy: ChunkStrategy;
  settings: EnrichmentSettings;
}

export type ToWorker = { type: 'state'; state: PrepareState } | { type: 'prepare'; key: number; version: number; doc: NormalizedDocument };

/** A prepared document without the document itself (the pool has it). */
export interface PreparedRows {
  chunks: number;
  models: string[];
  rows: ChunkInput[];
}

/** A failure as it crosses the thread boundary: enough to rebuild the error `stageFailure` reads. */
export interface PrepareError {
  name: string;
  code: ErrorCode | null;
  message: string;
}

export type FromWorker =
  | { type: 'ready' }
  | { type: 'done'; key: number; ok: true; value: PreparedRows }
  | { type: 'done'; key: number; ok: false; error: PrepareError };
