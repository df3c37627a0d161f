import { describe, expect, it } from 'vitest';
import { PROGRESS_SAID_EVERY_MS, progressNews, type ProgressHeard } from '../../src-renderer/src/util/progress-news';

const running = (count: number) => ({ finished: false, count });
const finished = (count: number) => ({ finished: true, count });

describe('progressNews', () => {
  it('says a task started, its count at most once per interval, and that it finished, once', () => {
    const heard = new Map<string, ProgressHeard>();
    expect(progressNews(heard, 'Pumps', running(0), 0)).toBe('started');
    expect(progressNews(heard, 'Pumps', running(5), 1000)).toBeNull();
    expect(progressNews(heard, 'Pumps', running(6), PROGRESS_SAID_EVERY_MS)).toBe('progressed');
    expect(progressNews(heard, 'Pumps', running(7), PROGRESS_SAID_EVERY_MS + 1)).toBeNull();
    expect(progressNews(heard, 'Pumps', finished(40), PROGRESS_SAID_EVERY_MS + 2)).toBe('finished');
    expect(progressNews(heard, 'Pumps', finished(40), 3 * PROGRESS_SAID_EVERY_MS)).toBeNull();
  });

  it('says a task that runs again after it finished as a new start, counted from there', () => {
    const heard = new Map<string, ProgressHeard>();
    progressNews(heard, 'Pumps', running(0), 0);
    progressNews(heard, 'Pumps', finished(40), 100);
    expect(progressNews(heard, 'Pumps', running(0), 200)).toBe('started');
    expect(progressNews(heard, 'Pumps', running(3), 300)).toBeNull();
    expect(progressNews(heard, 'Pumps', running(3), 200 + PROGRESS_SAID_EVERY_MS)).toBe('progressed');
  });

  it('says a task first seen finished as finished, and keeps tasks apart by key', () => {
    const heard = new Map<string, ProgressHeard>();
    expect(progressNews(heard, 'Pumps', finished(3), 0)).toBe('finished');
    expect(progressNews(heard, 'Fans', running(0), 0)).toBe('started');
    expect(progressNews(heard, 'Pumps', finished(3), 10)).toBeNull();
  });
});
