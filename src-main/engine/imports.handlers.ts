import { promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { EngineEvent, Handlers } from '../contract/api';
import type { Result } from '../core/result';
import { ok } from '../core/result';
import type { Library } from '../storage/library.store';
import type { Job } from './background';
import type { Engine } from './engine.types';
import { stagedUpload } from './uploads';
import type { WriterLock } from './writer-lock';

/**
 * The `import.*` handlers: an import of paths or of a staged upload started as a background job
 * (progress and the summary arrive as events), and a running one cancelled. The import itself
 * (`importPaths`, the CLI's entry point too) stays in engine.ts.
 */

/** What the import handlers share with the engine (`createEngine` makes them). */
export interface ImportsContext {
  lock: WriterLock;
  /** The engine's running jobs by id (`import-` + a random id here). */
  jobs: Map<string, Job>;
  /** Where the web bridge stages uploads (`uploads.ts`). */
  uploadsDir: string;
  /** The library of that name, created if `create` and missing. */
  libraryFor: (name: string, create: boolean) => Promise<Result<Library>>;
  importPaths: Engine['importPaths'];
  emit: (event: EngineEvent) => void;
  log: (message: string) => void;
}

export function importHandlers(ctx: ImportsContext): Pick<Handlers, 'import.start' | 'import.upload' | 'import.cancel'> {
  const { lock, jobs, uploadsDir, libraryFor, importPaths, emit, log } = ctx;

  /**
   * What an import job holds from the moment it is asked for: a place among the writers (no
   * rebuild starts while it waits in the queue) and the library's lock file (a second process is
   * told "library busy" at once, not when the job's turn comes).
   */
  async function admitImport(lib: Library): Promise<Result<() => Promise<void>>> {
    const admitted = await lock.admit(lib, 'writer', 'import');
    if (!admitted.ok) return admitted;
    return ok(async () => {
      admitted.value.claim();
      await admitted.value.hold();
    });
  }

  /** Runs an import in the background as a job; progress and the summary arrive as events. */
  function startImportJob(lib: Library, paths: string[], cleanup: () => Promise<void>, how: { names?: readonly string[]; uploaded?: boolean } = {}): string {
    const jobId = `import-${randomBytes(6).toString('hex')}`;
    const controller = new AbortController();
    const done = importPaths(lib.name, paths, { signal: controller.signal, jobId, ...how })
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

  return {
    'import.start': async ({ library, paths, names }) => {
      const lib = await libraryFor(library, true);
      if (!lib.ok) return lib;
      // Said now, not as a job that fails at once: a rebuild here, another process's import.
      const admitted = await admitImport(lib.value);
      if (!admitted.ok) return admitted;
      return ok({ jobId: startImportJob(lib.value, paths, admitted.value, names ? { names } : {}) });
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
        jobId: startImportJob(
          lib.value,
          tops,
          async () => {
            await admitted.value();
            await removeStaging();
          },
          { uploaded: true },
        ),
      });
    },

    'import.cancel': async ({ jobId }) => {
      const job = jobs.get(jobId);
      if (!job) return ok({ cancelled: false });
      job.controller.abort();
      await job.done;
      return ok({ cancelled: true });
    },
  };
}
