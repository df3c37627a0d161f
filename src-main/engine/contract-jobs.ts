import type { Api, EngineEvent, ImportProgress, ImportSummary } from '../contract/api';
import type { Result } from '../core/result';
import type { RebuildSummary } from '../index/rebuild';

/**
 * Long work driven through the contract, to the end: what the app does with a job id and its
 * events, for callers that wait (the CLI, eval). Everything goes through `dispatch` (`Api`).
 */

/** What the helpers need: the contract, the event stream and a rebuild job's summary. */
export interface ContractDriver {
  readonly api: Api;
  subscribe(listener: (event: EngineEvent) => void): () => void;
  /** The summary a rebuild job ends with (the contract's events carry only its progress). */
  rebuildResult(jobId: string): Promise<Result<RebuildSummary>> | undefined;
}

/** Starts an import (`import.start`) and waits for its summary; aborting `signal` cancels it. */
export async function importAndWait(
  driver: ContractDriver,
  library: string,
  paths: string[],
  /** `names`: the document id each path is imported under (`import.start`'s). */
  options: { signal?: AbortSignal; onProgress?: (p: ImportProgress) => void; names?: string[] } = {},
): Promise<Result<ImportSummary>> {
  let jobId: string | null = null;
  const early: EngineEvent[] = [];
  let settle!: (result: Result<ImportSummary>) => void;
  const finished = new Promise<Result<ImportSummary>>((resolve) => (settle = resolve));
  const handle = (e: EngineEvent) => {
    if (!('jobId' in e) || e.jobId !== jobId) return;
    if (e.type === 'import.progress') {
      const { type: _type, jobId: _jobId, library: _library, ...progress } = e;
      options.onProgress?.(progress);
    } else if (e.type === 'import.done') settle({ ok: true, value: e.summary });
    else if (e.type === 'import.failed') settle({ ok: false, error: { code: 'internal', message: e.message } });
  };
  const unsubscribe = driver.subscribe((e) => (jobId === null ? early.push(e) : handle(e)));
  const onAbort = () => {
    if (jobId !== null) void driver.api['import.cancel']({ jobId });
  };
  try {
    const started = await driver.api['import.start']({ library, paths, ...(options.names ? { names: options.names } : {}) });
    if (!started.ok) return started;
    jobId = started.value.jobId;
    for (const e of early.splice(0)) handle(e);
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    return await finished;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    unsubscribe();
  }
}

/** Starts a rebuild (`libraries.rebuild`) and waits for its summary; aborting `signal` cancels it. */
export async function rebuildAndWait(
  driver: ContractDriver,
  library: string,
  options: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
): Promise<Result<RebuildSummary>> {
  const unsubscribe = driver.subscribe((e) => {
    if (e.type === 'index.progress' && e.task === 'rebuilding' && !e.error) options.onProgress?.(e.done, e.total);
  });
  const onAbort = () => void driver.api['libraries.cancelRebuild']({ library });
  try {
    const started = await driver.api['libraries.rebuild']({ library });
    if (!started.ok) return started;
    const result = driver.rebuildResult(started.value.jobId);
    if (!result) return { ok: false, error: { code: 'internal', message: 'The rebuild job ended before it could be followed.' } };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    return await result;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    unsubscribe();
  }
}
