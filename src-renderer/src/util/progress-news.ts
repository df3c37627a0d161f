/** How often at most a running task's count is said: enough to know it moves, not a word per step. */
export const PROGRESS_SAID_EVERY_MS = 10_000;

/** What was last said of one task: whether it had finished, its count of steps done, when (ms). */
export interface ProgressHeard {
  finished: boolean;
  count: number;
  at: number;
}

/** A task's state as far as its news goes: finished (done, failed or stopped), and how many steps are done. */
export interface ProgressState {
  finished: boolean;
  count: number;
}

/** What is worth saying of a task now: that it started, how far it got, that it finished. */
export type ProgressNews = 'started' | 'progressed' | 'finished';

/**
 * The news a task's `state` makes for a screen reader, or null when there is none: 'started' when
 * it is first seen (or 'finished' if it already has), or runs again after it had finished;
 * 'progressed' when more steps are done than last said and `PROGRESS_SAID_EVERY_MS` has passed;
 * 'finished' once when it finishes. `heard` holds what was said of each task by `key`, updated
 * here. `now` in milliseconds. The caller puts the news in words, in one live region that stays
 * in the page (a region added with its text is not read out).
 */
export function progressNews(heard: Map<string, ProgressHeard>, key: string, state: ProgressState, now: number): ProgressNews | null {
  const before = heard.get(key);
  if (!before || (before.finished && !state.finished)) {
    heard.set(key, { ...state, at: now });
    return state.finished ? 'finished' : 'started';
  }
  if (state.finished && !before.finished) {
    Object.assign(before, { ...state, at: now });
    return 'finished';
  }
  if (!state.finished && state.count > before.count && now - before.at >= PROGRESS_SAID_EVERY_MS) {
    Object.assign(before, { count: state.count, at: now });
    return 'progressed';
  }
  return null;
}
