import type { StateCreator } from 'zustand';
import type { DocumentStatus, EngineEvent, ErrorCode, ImportFileResult, ImportSkipped, ImportSummary } from '../../../src-main/contract/api';
import { importSummary } from '../../../src-main/contract/import-summary';
import { api, isUnfollowed, newUploadId, uploadFile } from '../api/client';
import type { PickedFile } from '../util/files';
import { alreadyInLibrary, withNotes } from '../util/import-words';
import { nameCollision } from '../../../src-main/core/import-names';
import type { Store } from './index';

/** One file's progress in an import job; `fraction` is 0..1 for this file. */
export interface FileProgress {
  file: string;
  stage: DocumentStatus;
  fraction: number;
  reason?: string;
  /** The failure's kind, when the engine said it: a permanent one offers no Retry (`failureAdvice`). */
  code?: ErrorCode;
  /** Stopped by the user's cancel: not a failure, shown as "Cancelled" and retried with "Retry all". */
  cancelled?: boolean;
  /** Sent again (Retry, Retry all) as a new job, which reports its outcome: this card stops offering it. */
  retried?: boolean;
  /** The name the row shows when it is not `file`: a copy of another file, imported under no name, goes by the one it came with. */
  shownAs?: string;
}

/**
 * An import as the user sees it. `key` is local and exists from the moment of the drop; `jobId`
 * arrives once the engine has the files (uploads take a while for big folders).
 */
export interface ImportJob {
  key: string;
  jobId: string | null;
  library: string;
  /** `error`: the job never started; `stopped`: the engine's job crashed midway (`import.failed`), or this page could not read its end (`unfollowed`). */
  phase: 'uploading' | 'running' | 'done' | 'cancelling' | 'error' | 'stopped';
  /** Per-file progress by document id, in the order files were first seen. */
  files: Record<string, FileProgress>;
  order: string[];
  /** Files finished and in total, for overall progress. */
  done: number;
  total: number;
  summary: ImportSummary | null;
  /** Files the bridge refused to take (too large, an unsafe name): failed here, counted in the engine's summary when it comes. */
  refused?: ImportFileResult[];
  /** What the user dropped that this page left out (system junk), with the reason: added to the engine's `skipped`. */
  skipped?: ImportSkipped[];
  /** By file: why it is imported under a name other than its own (`PickedFile.note`, or the engine's `note`), kept beside its progress. */
  notes?: Record<string, string>;
  /** Files the drop carried beyond what one drop takes (`MAX_DROPPED_FILES`): not sent, said on the card. */
  leftOut?: number;
  /** Why the job could not start or stopped, in words. */
  error: string | null;
  /**
   * Set when this page stopped the job itself, having failed to read the engine's end of it
   * (`isUnfollowed`): the job as it was then. The engine's readable end, should one still come,
   * starts again from it, so the real result replaces the page's.
   */
  unfollowed?: { phase: ImportJob['phase']; files: Record<string, FileProgress> };
  /**
   * The user's fold or unfold of the job's card, and whether the job had finished then: kept here,
   * not in the card, so the card is as the user left it wherever it is shown (the band, the
   * Documents page); a choice made while the job ran gives way to its finish (see `JobCard`).
   */
  unfolded?: { open: boolean; finished: boolean };
}

export interface IngestSlice {
  jobs: ImportJob[];
  /**
   * Upload files (browser drop or file picker) into `library`; names are paths relative to the drop.
   * `skipped`: what the drop carried that is not sent, shown with the job's own skipped files;
   * `leftOut`: how many files it carried beyond what one drop takes.
   */
  uploadFiles(library: string, files: PickedFile[], skipped?: ImportSkipped[], leftOut?: number): Promise<void>;
  /**
   * Import paths on this computer (Electron: picked or dropped, already granted by the shell).
   * `names`: the document id each path is imported under (a Retry's: the id that failed); by
   * default the engine names them.
   */
  startImport(library: string, paths: string[], names?: string[]): Promise<void>;
  /** Imports one file of a job again from what this session still holds (the dropped file or its path). */
  retryFile(jobKey: string, file: string): Promise<void>;
  /**
   * Imports several files of a job again as one new job ("Retry all"): imports into a library run
   * one after another, so one job per file would queue dozens of small jobs.
   */
  retryFiles(jobKey: string, files: string[]): Promise<void>;
  /** Same, by library and document id; resolves false when nothing is held for it. */
  retryDocument(library: string, file: string): Promise<boolean>;
  /** True when `retryFile` can re-send this file without asking the user for it. */
  canRetry(library: string, file: string): boolean;
  /** True when `retryFile` reads this file again from its path on this computer: what is there now is imported, a replaced file too. */
  retriesFromPath(library: string, file: string): boolean;
  cancelImport(jobKey: string): Promise<void>;
  dismissJob(jobKey: string): void;
  /** The user folds (`open` false) or unfolds a job's card. */
  setJobOpen(jobKey: string, open: boolean, finished: boolean): void;
  handleEngineEvent(event: EngineEvent): void;
}

/**
 * What each imported file came from, kept outside the store: File objects and paths are only
 * needed again for "retry", and must not make every store update copy them.
 */
const sources = new Map<string, { kind: 'file'; file: File; note?: string; given?: string } | { kind: 'path'; path: string }>();
const sourceKey = (library: string, file: string) => `${library}\u0000${file}`;
const sourceOf = (library: string, file: string) => {
  const src = sources.get(sourceKey(library, file));
  return src?.kind === 'file' ? src : undefined;
};
/** Events can overtake the reply that names their job (SSE vs HTTP): hold them until it arrives. */
const early = new Map<string, EngineEvent[]>();
let nextKey = 1;

/** Files sent at once: the web bridge takes a few uploads at a time (it answers "busy" beyond). */
const UPLOAD_CONCURRENCY = 4;

/** Refusals that are about the one file (its size, its name, a name another file of the upload took): the rest of the batch is still sent. */
const FILE_REFUSALS: readonly ErrorCode[] = ['too-large', 'unsafe-path', 'already-exists'];

/**
 * Streams every file to the bridge under one upload id, a few at a time. A file the bridge refuses
 * for itself is `refused` (one file never stops a batch); any other refusal stops the sending
 * (`failure`, the first one's words), as does `cancelled()` turning true.
 */
async function uploadAll(uploadId: string, files: PickedFile[], cancelled: () => boolean): Promise<{ failure: string | null; refused: ImportFileResult[] }> {
  let i = 0;
  let failure: string | null = null;
  const refused: ImportFileResult[] = [];
  const worker = async () => {
    while (i < files.length && failure === null && !cancelled()) {
      const f = files[i++]!;
      const res = await uploadFile(uploadId, f.path, f.file);
      if (res.ok) continue;
      if (FILE_REFUSALS.includes(res.error.code)) refused.push({ file: f.path, status: 'failed', reason: res.error.message, code: res.error.code });
      else failure ??= `"${f.path}" could not be uploaded: ${res.error.message}`;
    }
  };
  await Promise.all(Array.from({ length: Math.min(UPLOAD_CONCURRENCY, files.length) }, worker));
  return { failure, refused };
}

/** A refused file as the card shows a failure. */
const refusedProgress = (r: ImportFileResult): FileProgress => ({ file: r.file, stage: 'failed', fraction: 1, reason: r.reason ?? 'Failed.', ...(r.code ? { code: r.code } : {}) });

export const createIngestSlice: StateCreator<Store, [], [], IngestSlice> = (set, get) => {
  const patchJob = (key: string, patch: (job: ImportJob) => ImportJob) =>
    set((s) => ({ jobs: s.jobs.map((j) => (j.key === key ? patch(j) : j)) }));

  const addJob = (library: string, seed: { path: string; note?: string }[], skipped: ImportSkipped[] = [], leftOut = 0): string => {
    const key = `job-${nextKey++}`;
    const seedFiles = seed.map((f) => f.path);
    const files: Record<string, FileProgress> = {};
    for (const f of seedFiles) files[f] = { file: f, stage: 'queued', fraction: 0 };
    const notes = Object.fromEntries(seed.filter((f) => f.note).map((f) => [f.path, f.note!]));
    const job: ImportJob = {
      key,
      jobId: null,
      library,
      phase: 'uploading',
      files,
      order: [...seedFiles],
      done: 0,
      total: seedFiles.length,
      summary: null,
      error: null,
      ...(skipped.length > 0 ? { skipped } : {}),
      ...(Object.keys(notes).length > 0 ? { notes } : {}),
      ...(leftOut > 0 ? { leftOut } : {}),
    };
    set((s) => ({ jobs: [...s.jobs, job] }));
    return key;
  };

  const started = (key: string, jobId: string) => {
    patchJob(key, (j) => ({ ...j, jobId, phase: j.phase === 'cancelling' ? 'cancelling' : 'running' }));
    const held = early.get(jobId);
    early.delete(jobId);
    for (const e of held ?? []) get().handleEngineEvent(e);
  };

  /**
   * The job never reached the engine: its files will not be imported, and say so (with Retry)
   * instead of staying "Queued 0%" under the error.
   */
  const failedToStart = (key: string, message: string) =>
    patchJob(key, (j) => {
      const files = { ...j.files };
      for (const f of j.order) {
        const prev = files[f];
        if (prev && prev.stage !== 'failed') files[f] = { ...prev, stage: 'failed', reason: 'Not imported: the import did not start.' };
      }
      return { ...j, phase: 'error', error: message, files };
    });

  /**
   * Marks files as sent again. A finished card left with nothing to act on or read (every file
   * imported or retried, no error) goes: the new job's card reports those files, and a cancelled
   * card kept after "Retry all" only repeated them as "Retried".
   */
  const markRetried = (key: string, retried: string[]) =>
    set((s) => ({
      jobs: s.jobs.flatMap((j) => {
        if (j.key !== key) return [j];
        const files = { ...j.files };
        for (const f of retried) if (files[f]) files[f] = { ...files[f], retried: true };
        const settled = j.phase === 'done' && j.error === null && j.order.every((f) => !files[f] || files[f].stage === 'ready' || files[f].retried);
        return settled ? [] : [{ ...j, files }];
      }),
    }));

  return {
    jobs: [],

    async uploadFiles(library, files, skipped = [], leftOut = 0) {
      if (files.length === 0 && skipped.length === 0) return;
      for (const f of files) sources.set(sourceKey(library, f.path), { kind: 'file', file: f.file, ...(f.note ? { note: f.note } : {}), ...(f.given ? { given: f.given } : {}) });
      const key = addJob(library, files, skipped, leftOut);
      // Only junk was dropped: the card says so, with the reasons, instead of nothing happening.
      if (files.length === 0) return patchJob(key, (j) => ({ ...j, phase: 'done', summary: importSummary([], skipped) }));
      const uploadId = newUploadId();
      const isCancelling = () => get().jobs.find((j) => j.key === key)?.phase === 'cancelling';
      const { failure, refused } = await uploadAll(uploadId, files, isCancelling);
      if (failure !== null && !isCancelling()) return failedToStart(key, failure);
      if (refused.length > 0) {
        patchJob(key, (j) => {
          const files = { ...j.files };
          for (const r of refused) files[r.file] = refusedProgress(r);
          return { ...j, files, refused };
        });
      }
      if (refused.length === files.length && !isCancelling()) {
        // Nothing reached the engine: the card ends here, with every file's reason.
        return patchJob(key, (j) => ({ ...j, phase: 'done', done: refused.length, summary: importSummary(refused, skipped) }));
      }
      if (isCancelling()) {
        // Cancelled while the files were being read: nothing reached the engine, every file is cancelled.
        return patchJob(key, (j) => {
          const files: Record<string, FileProgress> = {};
          const refusedNow = new Map(refused.map((r) => [r.file, r]));
          for (const f of j.order) files[f] = refusedNow.has(f) ? refusedProgress(refusedNow.get(f)!) : { file: f, stage: 'failed', fraction: 0, reason: 'Cancelled.', cancelled: true };
          const results: ImportFileResult[] = j.order.map((file) => refusedNow.get(file) ?? { file, status: 'cancelled' as const });
          return { ...j, phase: 'done', files, done: results.length, summary: importSummary(results, skipped) };
        });
      }
      const res = await api['import.upload']({ library, uploadId });
      if (!res.ok) return failedToStart(key, res.error.message);
      started(key, res.value.jobId);
      if (get().jobs.find((j) => j.key === key)?.phase === 'cancelling') await api['import.cancel']({ jobId: res.value.jobId });
    },

    async startImport(library, paths, names) {
      if (paths.length === 0) return;
      // Each file's path comes with its first progress (`handleEngineEvent`), under the id the
      // engine gave it: a Retry imports that path under that id again.
      const key = addJob(library, []);
      const res = await api['import.start']({ library, paths, ...(names ? { names } : {}) });
      if (!res.ok) return failedToStart(key, res.error.message);
      started(key, res.value.jobId);
    },

    canRetry(library, file) {
      return sources.has(sourceKey(library, file));
    },

    retriesFromPath(library, file) {
      return sources.get(sourceKey(library, file))?.kind === 'path';
    },

    async retryFile(jobKey, file) {
      const job = get().jobs.find((j) => j.key === jobKey);
      if (!job) return;
      if (get().canRetry(job.library, file)) markRetried(jobKey, [file]);
      await get().retryDocument(job.library, file);
    },

    async retryFiles(jobKey, files) {
      const job = get().jobs.find((j) => j.key === jobKey);
      if (!job) return;
      const dropped: PickedFile[] = [];
      const paths: { path: string; name: string }[] = [];
      for (const file of files) {
        const src = sources.get(sourceKey(job.library, file));
        if (src?.kind === 'file') dropped.push({ path: file, file: src.file, ...(src.note ? { note: src.note } : {}), ...(src.given ? { given: src.given } : {}) });
        else if (src?.kind === 'path') paths.push({ path: src.path, name: file });
      }
      markRetried(jobKey, files.filter((f) => get().canRetry(job.library, f)));
      // Paths go as one import, each under the id it failed under (`names`), as `retryDocument`
      // sends one. Ids `import.start` refuses together (two that differ in letter case only, which
      // one folder on a case-sensitive disk can hold) go one import each, as before.
      const imports = nameCollision(paths.map((p) => p.name)) === null ? [paths] : paths.map((p) => [p]);
      await Promise.all([
        dropped.length > 0 ? get().uploadFiles(job.library, dropped) : undefined,
        ...imports.map((some) => get().startImport(job.library, some.map((p) => p.path), some.map((p) => p.name))),
      ]);
    },

    async retryDocument(library, file) {
      const exact = sources.get(sourceKey(library, file));
      if (exact?.kind === 'file') {
        await get().uploadFiles(library, [{ path: file, file: exact.file, ...(exact.note ? { note: exact.note } : {}), ...(exact.given ? { given: exact.given } : {}) }]);
        return true;
      }
      if (exact?.kind === 'path') {
        // Under the id it failed under: by its path alone, a renamed "manual (2).md" would
        // replace the first "manual.md", and "docs/sub/x.md" would become a new "x.md".
        await get().startImport(library, [exact.path], [file]);
        return true;
      }
      return false;
    },

    async cancelImport(jobKey) {
      const job = get().jobs.find((j) => j.key === jobKey);
      if (!job) return;
      patchJob(jobKey, (j) => ({ ...j, phase: 'cancelling' }));
      if (job.jobId) await api['import.cancel']({ jobId: job.jobId });
    },

    dismissJob(jobKey) {
      set((s) => ({ jobs: s.jobs.filter((j) => j.key !== jobKey) }));
    },

    setJobOpen(jobKey, open, finished) {
      set((s) => ({ jobs: s.jobs.map((j) => (j.key === jobKey ? { ...j, unfolded: { open, finished } } : j)) }));
    },

    handleEngineEvent(event) {
      if (event.type === 'import.progress' || event.type === 'import.done' || event.type === 'import.failed') {
        // Where the engine reads the file from (an import of paths): what its Retry imports again,
        // even when the event comes after its job's end.
        if (event.type === 'import.progress' && typeof event.path === 'string') sources.set(sourceKey(event.library, event.file), { kind: 'path', path: event.path });
        const job = get().jobs.find((j) => j.jobId === event.jobId);
        if (!job) {
          const held = early.get(event.jobId) ?? [];
          if (held.length < 50_000) held.push(event);
          early.set(event.jobId, held);
          return;
        }
        // An ended job's card is its end's: a late event of it (events cross on their way, and an
        // end this page made itself can precede the engine's) must not turn it back to running.
        if (job.phase === 'stopped' || job.phase === 'done') {
          if (job.phase === 'stopped' && job.unfollowed && event.type !== 'import.progress' && !isUnfollowed(event)) {
            // The engine's own end, readable, of a job this page stopped following: its result
            // (a summary, or why the job failed) replaces the page's "not followed" on the card.
            const before = job.unfollowed;
            patchJob(job.key, (j) => ({ ...j, phase: before.phase, files: before.files, error: null, unfollowed: undefined }));
          } else {
            // What it imported shows in the lists, as after any end.
            if (event.type === 'import.done') {
              if (job.library === get().selectedLibrary) void get().loadDocuments();
              void get().loadLibraries();
            }
            return;
          }
        }
        if (event.type === 'import.failed') {
          // This page's own end of a job whose end it could not read: its files may well be imported.
          const unfollowed = isUnfollowed(event);
          const reason = unfollowed
            ? "Not followed here: the library's document list shows whether it was imported."
            : 'Not imported: the import stopped before this file finished.';
          patchJob(job.key, (j) => {
            // Files that were still on their way will not finish: say so instead of leaving them spinning.
            const files = { ...j.files };
            for (const f of j.order) {
              const prev = files[f];
              if (prev && prev.stage !== 'ready' && prev.stage !== 'failed') files[f] = { ...prev, stage: 'failed', reason };
            }
            return {
              ...j,
              phase: 'stopped',
              files,
              error: unfollowed ? event.message : `${event.message} Files already imported are kept.`,
              ...(unfollowed ? { unfollowed: { phase: j.phase, files: j.files } } : {}),
            };
          });
          // The job's own library: this page's end may not know it (the event's was unreadable).
          if (job.library === get().selectedLibrary) void get().loadDocuments();
          void get().loadLibraries();
        } else if (event.type === 'import.progress') {
          patchJob(job.key, (j) => ({
            ...j,
            done: event.done,
            total: Math.max(event.total, j.total),
            order: j.files[event.file] ? j.order : [...j.order, event.file],
            files: { ...j.files, [event.file]: { file: event.file, stage: event.stage, fraction: event.fraction, ...(event.reason ? { reason: event.reason } : {}) } },
            ...(event.note ? { notes: withNotes(j.notes, [event]) } : {}),
          }));
          // A file that just became ready is searchable: refresh the list the user is looking at.
          if ((event.stage === 'ready' || event.stage === 'failed') && event.library === get().selectedLibrary) get().scheduleDocumentsRefresh();
        } else {
          patchJob(job.key, (j) => {
            // Files still queued when a job was cancelled never get a final event.
            const files = { ...j.files };
            // The engine never saw the files the bridge refused nor the junk this page left out: they are counted here.
            const refused = j.refused ?? [];
            const skipped = j.skipped ?? [];
            const summary =
              refused.length === 0 && skipped.length === 0 ? event.summary : importSummary([...refused, ...event.summary.results], [...skipped, ...event.summary.skipped]);
            for (const r of event.summary.results) {
              const prev = files[r.file];
              // A copy this page renamed goes by the name it came with, as the engine reports one it renamed.
              const given = r.sameAs === undefined ? undefined : sourceOf(j.library, r.file)?.given;
              if (r.status === 'cancelled') files[r.file] = { file: r.file, stage: 'failed', fraction: prev?.fraction ?? 0, reason: 'Cancelled.', cancelled: true };
              else if (r.status === 'failed') files[r.file] = { file: r.file, stage: 'failed', fraction: 1, reason: r.reason ?? prev?.reason ?? 'Failed.', ...(r.code ? { code: r.code } : {}) };
              else files[r.file] = { file: r.file, stage: 'ready', fraction: 1, ...(r.status === 'already' ? { reason: alreadyInLibrary(j.library, r.sameAs) } : {}), ...(given ? { shownAs: given } : {}) };
            }
            // A copy the engine renamed is reported under the name the user gave it: the row its
            // progress had under the name it would have had ("manual (2).md") stands for nothing.
            const reported = new Set([...event.summary.results.map((r) => r.file), ...refused.map((r) => r.file)]);
            const stale = new Set(j.order.filter((f) => j.notes?.[f] !== undefined && !reported.has(f)));
            for (const f of stale) delete files[f];
            const order = [...j.order.filter((f) => !stale.has(f)), ...event.summary.results.map((r) => r.file).filter((f) => !j.files[f])];
            // A file found to be a copy of another (`sameAs`) was imported under no name: the note on its renaming goes.
            const copies = event.summary.results.filter((r) => r.sameAs !== undefined).map((r) => r.file);
            const gone = (f: string) => copies.includes(f) || stale.has(f);
            const notes = withNotes(j.notes && (copies.length > 0 || stale.size > 0) ? Object.fromEntries(Object.entries(j.notes).filter(([f]) => !gone(f))) : j.notes, event.summary.results);
            return { ...j, phase: 'done', summary, files, order, done: summary.results.length, total: summary.results.length, ...(notes ? { notes } : {}) };
          });
          if (event.library === get().selectedLibrary) void get().loadDocuments();
          void get().loadLibraries();
        }
      } else if (event.type === 'library.changed') {
        if (event.library === get().selectedLibrary) get().scheduleDocumentsRefresh();
        void get().loadLibraries();
      } else if (event.type === 'index.progress') {
        get().handleIndexProgress(event);
      } else if (event.type === 'chat.token' || event.type === 'chat.done') {
        get().handleChatEvent(event);
      }
    },
  };
};
