import { describe, expect, it } from 'vitest';
import type { ImportJob } from '../../src-renderer/src/store/ingest.slice';
import { importNews } from '../../src-renderer/src/util/import-news';
import { PROGRESS_SAID_EVERY_MS, type ProgressHeard } from '../../src-renderer/src/util/progress-news';

/** A job of `total` files into Pumps, the first `done` of them ready and the rest parsing. */
function job(total: number, done: number, phase: ImportJob['phase'] = 'running', key = 'k1'): ImportJob {
  const names = Array.from({ length: total }, (_, i) => `bulletin-${i}.md`);
  const files = Object.fromEntries(names.map((file, i) => [file, { file, stage: i < done ? ('ready' as const) : ('parsing' as const), fraction: i < done ? 1 : 0.5 }]));
  const summary = phase === 'done' ? { results: [], summary: { imported: total, already: 0, replaced: 0, failed: 0, cancelled: 0 } } : null;
  return { key, jobId: 'j', library: 'Pumps', phase, files, order: names, done, total, summary, error: null } as ImportJob;
}

describe('importNews', () => {
  it('says a job started, then nothing for each file that finishes within the interval', () => {
    const heard = new Map<string, ProgressHeard>();
    expect(importNews(heard, [job(40, 0)], 0)).toBe('Importing 40 files into Pumps');
    for (let done = 1; done < 20; done++) expect(importNews(heard, [job(40, done)], done * 100)).toBeNull();
  });

  it('says how many files are done once the interval has passed and more are done, then waits again', () => {
    const heard = new Map<string, ProgressHeard>();
    importNews(heard, [job(40, 0)], 0);
    expect(importNews(heard, [job(40, 12)], PROGRESS_SAID_EVERY_MS)).toBe('Pumps: 12 of 40 files done');
    expect(importNews(heard, [job(40, 13)], PROGRESS_SAID_EVERY_MS + 1000)).toBeNull();
    // Nothing moved: nothing to say, however long it took.
    expect(importNews(heard, [job(40, 12)], 5 * PROGRESS_SAID_EVERY_MS)).toBeNull();
    expect(importNews(heard, [job(40, 30)], 2 * PROGRESS_SAID_EVERY_MS + 1000)).toBe('Pumps: 30 of 40 files done');
  });

  it('says how a job finished once, whatever the interval, and forgets a dismissed job', () => {
    const heard = new Map<string, ProgressHeard>();
    importNews(heard, [job(3, 0)], 0);
    expect(importNews(heard, [job(3, 3, 'done')], 10)).toBe('Imported into Pumps: 3 imported.');
    expect(importNews(heard, [job(3, 3, 'done')], 20)).toBeNull();
    expect(importNews(heard, [], 30)).toBeNull();
    expect(heard.size).toBe(0);
    expect(importNews(heard, [job(1, 0, 'error', 'k2')], 40)).toBe('Import into Pumps did not start.');
  });
});
