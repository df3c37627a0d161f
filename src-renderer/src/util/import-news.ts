import type { ImportJob } from '../store/ingest.slice';
import { countOf } from './format';
import { finishedImportTitle, importCountsLine } from './import-words';
import { progressNews, type ProgressHeard } from './progress-news';

/** Files of a job that have done their own work, counted as the card's headline counts them. */
function filesDone(job: ImportJob): number {
  return Object.values(job.files).filter((f) => f.stage === 'indexing' || f.stage === 'ready' || f.stage === 'failed').length;
}

function finishedWords(job: ImportJob): string {
  const s = job.summary?.summary;
  if (job.phase === 'error') return `Import into ${job.library} did not start.`;
  if (job.phase === 'stopped') return `Import into ${job.library} stopped.`;
  return s ? `${finishedImportTitle(job.library, s)}: ${importCountsLine(job.library, s)}.` : `Imported into ${job.library}.`;
}

/**
 * The news of the imports for a screen reader, or null when there is none: a job that started
 * ("Importing 3 files into Pumps"), how many files of a running job are done ("Pumps: 12 of 40
 * files done") when more are than last said and `PROGRESS_SAID_EVERY_MS` has passed, how a job
 * finished (its headline and counts). `heard` is what was said of each job by key, updated here;
 * jobs no longer listed (dismissed) are forgotten. `now` in milliseconds.
 */
export function importNews(heard: Map<string, ProgressHeard>, jobs: readonly ImportJob[], now: number): string | null {
  let news: string | null = null;
  for (const job of jobs) {
    const total = Math.max(job.total, job.order.length);
    const finished = job.phase === 'done' || job.phase === 'error' || job.phase === 'stopped';
    const count = filesDone(job);
    const kind = progressNews(heard, job.key, { finished, count }, now);
    if (kind === 'started') news = total > 0 ? `Importing ${countOf(total, 'file')} into ${job.library}` : `Importing into ${job.library}`;
    else if (kind === 'finished') news = finishedWords(job);
    else if (kind === 'progressed') news = `${job.library}: ${count} of ${countOf(total, 'file')} done`;
  }
  for (const key of heard.keys()) if (!jobs.some((j) => j.key === key)) heard.delete(key);
  return news;
}
