import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../store';
import type { FileProgress, ImportJob } from '../store/ingest.slice';
import { formatPercent, stageLabel } from '../util/format';
import { MAX_DROPPED_FILES } from '../util/files';
import { finishedImportTitle, importCountsLine, leftOutLine } from '../util/import-words';
import { importNews } from '../util/import-news';
import type { ProgressHeard } from '../util/progress-news';
import { restoreFocus } from '../util/focus';
import { NARROW_LAYOUT, useMediaQuery } from '../util/media';
import { failureAdvice, offersRetry } from '../util/messages';
import { Icon } from './Icon';

/**
 * Running and finished imports: overall progress, each file's stage and percent, cancel,
 * failures with their reason, cancelled files as "Cancelled", one "Retry all" for every file the
 * card would retry. A band of its own between the tabs and the screen, never over it: a card of
 * failures stays open for reading, and floating, it lay over search results, answers and the
 * composer and took their clicks. The band is short and scrolls; the screen below gives it the
 * height. `inline` puts it in the Documents screen's own flow instead, between its header and the
 * table.
 */
export function ImportPanel({ inline = false }: { inline?: boolean }) {
  const keys = useStore(useShallow((s) => s.jobs.map((j) => j.key)));
  if (keys.length === 0) return null;
  return (
    <aside className={inline ? 'import-panel import-panel-inline' : 'import-panel'} aria-label="Imports" data-testid="import-panel">
      {keys.map((k) => (
        <JobCard key={k} jobKey={k} />
      ))}
    </aside>
  );
}

/**
 * True when the Documents screen shows the imports in its own flow (`inline`), false when the band
 * under the tabs does. In a narrow window the open source viewer hides the screen, so the band
 * shows them then: an import started with the viewer open is seen at once.
 */
export function useImportsInline(): boolean {
  const narrow = useMediaQuery(NARROW_LAYOUT);
  return useStore((s) => s.view === 'documents' && s.selectedLibrary !== null && !(narrow && s.viewer !== null));
}

/**
 * A retry takes its button away (and with nothing left on it, its whole card), which left focus on
 * <body>: it goes to the headline of the newest card instead, the retry's own job.
 */
function focusNewestJob(from: HTMLElement) {
  const panel = from.closest('[data-testid="import-panel"]');
  requestAnimationFrame(() => restoreFocus(panel?.querySelector('[data-testid="import-job"]:last-of-type .job-toggle') ?? null));
}

function overall(job: ImportJob): number {
  const files = Object.values(job.files);
  if (files.length === 0) return 0;
  const total = Math.max(job.total, files.length);
  return files.reduce((sum, f) => sum + (f.stage === 'ready' || f.stage === 'failed' ? 1 : f.fraction), 0) / total;
}

/** The job's one-line headline; `total` is the number of files known so far. */
function jobTitle(job: ImportJob, total: number): string {
  const s = job.summary?.summary;
  switch (job.phase) {
    case 'uploading':
      return `Sending ${total === 1 ? '1 file' : `${total} files`} to ${job.library}…`;
    case 'cancelling':
      return 'Cancelling…';
    case 'error':
      return `Import into ${job.library} did not start`;
    case 'stopped':
      return `Import into ${job.library} stopped`;
    case 'running': {
      // Counted from the files themselves, so "N of M" moves as each file finishes. A file whose
      // chunks are prepared ("indexing") has finished its own work: the import writes the index
      // once per batch of up to 1000 files, so counting only "ready" kept a 33-file drop at
      // "0 of 33" until the very end while the percentage moved.
      const finished = Object.values(job.files).filter((f) => f.stage === 'indexing' || f.stage === 'ready' || f.stage === 'failed').length;
      return `Importing into ${job.library}: ${finished} of ${total}`;
    }
    case 'done':
      return s ? finishedImportTitle(job.library, s) : `Imported into ${job.library}`;
  }
}

/**
 * The imports' one live region, for screen readers, kept in the page whether or not a card is shown
 * (a region added with its text is not read out): an import started, now and then how many of its
 * files are done, and how it finished (`importNews`). The cards themselves are not live: every row's percent
 * was read out as it moved.
 */
export function ImportStatus() {
  const jobs = useStore((s) => s.jobs);
  const [said, setSaid] = useState('');
  const heard = useRef(new Map<string, ProgressHeard>());
  useEffect(() => {
    const news = importNews(heard.current, jobs, Date.now());
    // The same words again (a second import of as many files) must still change the region.
    if (news !== null) setSaid((was) => (was === news ? `${news}\u00a0` : news));
  }, [jobs]);
  return (
    <p role="status" className="visually-hidden" data-testid="import-status">
      {said}
    </p>
  );
}

/** A running job with more files than this starts folded: its list would fill the band. */
const OPEN_WHILE_RUNNING = 5;

function JobCard({ jobKey }: { jobKey: string }) {
  const job = useStore((s) => s.jobs.find((j) => j.key === jobKey));
  const cancelImport = useStore((s) => s.cancelImport);
  const dismissJob = useStore((s) => s.dismissJob);
  const retryFile = useStore((s) => s.retryFile);
  const retryFiles = useStore((s) => s.retryFiles);
  const canRetry = useStore((s) => s.canRetry);
  const retriesFromPath = useStore((s) => s.retriesFromPath);
  const finished = job?.phase === 'done' || job?.phase === 'error' || job?.phase === 'stopped';
  const failedCount = job ? Object.values(job.files).filter((f) => f.stage === 'failed' && !f.cancelled).length : 0;
  const fileCount = job ? Math.max(job.total, job.order.length) : 0;
  const setJobOpen = useStore((s) => s.setJobOpen);
  // Running, a big batch folds to its headline and bar: its list filled the band and shrank the
  // screen below while it ran (the headline counts its failures). A folder's files become known as
  // it runs, so this follows their count until the user unfolds or folds the card themselves.
  // Finished, a clean import folds to its one-line summary so it does not cover the library;
  // failures stay open, whatever was chosen while it ran. The choice lives in the store, so the card
  // is as the user left it after moving between the band and the Documents page.
  const byDefault = finished ? failedCount > 0 || job?.phase === 'error' || job?.phase === 'stopped' : fileCount <= OPEN_WHILE_RUNNING;
  const open = job?.unfolded && job.unfolded.finished === finished ? job.unfolded.open : byDefault;
  // Cancel is disabled while the job stops and then gives way to Dismiss, leaving focus on <body>:
  // once finished, a keyboard user who cancelled lands on "Retry all", else on the summary (a job
  // that stopped without one: on its headline).
  const cancelledHere = useRef(false);
  const retryAll = useRef<HTMLButtonElement>(null);
  const summary = useRef<HTMLParagraphElement>(null);
  const headline = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!finished || !cancelledHere.current) return;
    cancelledHere.current = false;
    const now = document.activeElement;
    if (now === null || now === document.body) (retryAll.current ?? summary.current ?? headline.current)?.focus();
  }, [finished]);
  if (!job) return null;

  const files = job.order.map((f) => job.files[f]!).filter(Boolean);
  const failed = files.filter((f) => f.stage === 'failed' && !f.cancelled);
  /** True when a failed file's row offers Retry (`offersRetry`): a permanent failure of a dropped file is the same bytes again. */
  const retriesOne = (f: FileProgress) =>
    finished && f.stage === 'failed' && !f.cancelled && !f.retried && canRetry(job.library, f.file) && offersRetry(f.code, retriesFromPath(job.library, f.file));
  // "Retry all" sends as one import every file the card would retry: the cancelled ones (no button
  // of their own) and each failure whose row offers Retry. It stood for the cancelled ones alone,
  // so a card of ten unreadable files took ten clicks, each queueing an import of its own.
  const retryable = finished ? files.filter((f) => (f.cancelled && !f.retried && canRetry(job.library, f.file)) || retriesOne(f)) : [];
  // Beside the one row's own Retry it would repeat that button; folded, the card shows no rows.
  const offerRetryAll = retryable.length > 1 || retryable.some((f) => f.cancelled) || (retryable.length === 1 && !open);
  const fraction = finished ? 1 : overall(job);
  const total = Math.max(job.total, files.length);
  const title = jobTitle(job, total);
  const s = job.summary?.summary;

  return (
    // Not a live region: each file's percent was read out as it moved. ImportStatus says the news.
    <section className={`job ${finished ? 'job-finished' : 'job-running'}`} data-testid="import-job" data-phase={job.phase}>
      <header className="job-header">
        <button
          ref={headline}
          type="button"
          className="job-toggle"
          aria-expanded={open}
          onClick={() => setJobOpen(job.key, !open, finished)}
        >
          <span className="job-title">{title}</span>
          {/* Failures as they happen, in the line a folded running card keeps. */}
          {!finished && failed.length > 0 ? <span className="job-failed error">{failed.length} failed</span> : null}
          {!finished ? <span className="job-percent">{formatPercent(fraction)}</span> : null}
          <span className="job-chevron" aria-hidden="true">{open ? '▾' : '▸'}</span>
        </button>
        {finished ? (
          <button
            type="button"
            className="icon-btn"
            aria-label="Dismiss"
            onClick={(e) => {
              // The card goes with the focused button: focus moves to the card now in its place,
              // else to the tab of the screen the panel was over, never to <body>. A narrow window's
              // source viewer hides the tabs: focus goes to the viewer then.
              const card = e.currentTarget.closest('[data-testid="import-job"]');
              const neighbour = (card?.nextElementSibling ?? card?.previousElementSibling)?.querySelector('.job-toggle');
              const shown = (el: Element | null | undefined) => (el && el.getClientRects().length > 0 ? el : null);
              const next =
                neighbour ?? shown(document.querySelector('[role="tab"][aria-selected="true"]')) ?? document.querySelector('[data-testid="source-viewer"] [aria-label="Close source"]');
              dismissJob(job.key);
              requestAnimationFrame(() => restoreFocus(next));
            }}
          >
            <Icon name="close" size={16} />
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-small"
            onClick={() => {
              cancelledHere.current = true;
              void cancelImport(job.key);
            }}
            disabled={job.phase === 'cancelling'}
            data-testid="cancel-import"
          >
            Cancel
          </button>
        )}
      </header>
      {!finished ? <progress className="bar" max={1} value={fraction} aria-label="Overall progress" /> : null}
      {s ? (
        <p ref={summary} className="job-summary small" data-testid="import-summary" tabIndex={-1}>
          {importCountsLine(job.library, s)}
        </p>
      ) : null}
      {job.leftOut ? (
        // Shown whether the card is folded or not: these files were never sent, and no row stands for them.
        <p className="warn small" data-testid="import-left-out">
          {leftOutLine(job.leftOut, MAX_DROPPED_FILES)}
        </p>
      ) : null}
      {job.summary?.skipped?.length ? (
        // Open when nothing else came of the drop: the reasons are all there is to read.
        <details className="job-skipped small" data-testid="import-skipped" open={job.summary.results.length === 0}>
          <summary>{job.summary.skipped.length === 1 ? '1 file skipped' : `${job.summary.skipped.length} files skipped`}</summary>
          <ul>
            {job.summary.skipped.map((k, i) => (
              // Two folders may each hold a ".DS_Store": the name alone is no key.
              <li key={`${i}:${k.file}`}>
                {k.file}: {k.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {offerRetryAll ? (
        <button ref={retryAll} type="button" className="btn btn-small" data-testid="retry-all" onClick={(e) => {
            void retryFiles(job.key, retryable.map((f) => f.file));
            focusNewestJob(e.currentTarget);
          }}
        >
          <Icon name="retry" size={14} /> Retry all ({retryable.length})
        </button>
      ) : null}
      {job.error ? (
        <p className="error small" role="alert">
          {job.error}
        </p>
      ) : null}
      {open ? (
        <ul className="job-files">
          {files.map((f) => {
            const advice = failureAdvice(f.code, retriesFromPath(job.library, f.file));
            const retry = retriesOne(f);
            return (
              <li key={f.file} className={`job-file stage-${f.stage}`} data-testid="import-file" data-file={f.file} data-stage={f.stage} data-cancelled={f.cancelled ? "true" : undefined}>
                <div className="job-file-line">
                  <span className="job-file-name" title={f.shownAs ?? f.file}>
                    {/* A path the user named may be a Windows one. */}
                    {(f.shownAs ?? f.file).split(/[\\/]/).pop()}
                  </span>
                  <span className={`status status-${f.cancelled ? 'cancelled' : f.stage}`}>
                    {f.retried ? 'Retried' : f.cancelled ? 'Cancelled' : stageLabel(f.stage)}
                    {f.stage !== 'failed' && f.stage !== 'ready' ? ` ${formatPercent(f.fraction)}` : ''}
                  </span>
                </div>
                {job.notes?.[f.file] ? (
                  <div className="muted small" data-testid="file-note">
                    {job.notes[f.file]}
                  </div>
                ) : null}
                {f.stage !== 'failed' && f.stage !== 'ready' ? <progress className="bar bar-thin" max={1} value={f.fraction} aria-label={`${f.file} progress`} /> : null}
                {f.stage === 'failed' && !f.cancelled ? (
                  <div className="job-file-failure">
                    <span className="reason" data-testid="failure-reason">
                      {f.reason ?? 'Failed.'}
                    </span>
                    {/* Retry beside the reason, as for any failure; the advice on a line of its own below it. */}
                    {retry ? (
                      <button
                        type="button"
                        className="btn btn-small"
                        onClick={(e) => {
                          void retryFile(job.key, f.file);
                          focusNewestJob(e.currentTarget);
                        }}
                      >
                        <Icon name="retry" size={14} /> Retry
                      </button>
                    ) : null}
                    {advice ? (
                      <span className="advice muted small" data-testid="failure-advice">
                        {advice}
                      </span>
                    ) : null}
                  </div>
                ) : f.reason && !f.cancelled ? (
                  <span className="muted small">{f.reason}</span>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : finished && failed.length > 0 ? (
        <p className="error small">{failed.length === 1 ? '1 file failed' : `${failed.length} files failed`}</p>
      ) : null}
    </section>
  );
}
