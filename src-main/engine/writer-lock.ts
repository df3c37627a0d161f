import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import { LIBRARY_LOCK_FILE, OPENING_LOCK_PURPOSE, type Library } from '../storage/library.store';
import { tryLock, waitLock, type LockOwner } from '../storage/lock-file';

export { LIBRARY_LOCK_FILE };

/**
 * How long a writer waits for a process that is only opening the library (its hold lasts while
 * it sweeps stray temp files) or writing one step of a background job (`SHORT_HOLDS`) before it
 * reports the library busy: two CLI imports started together met each other's opening and one
 * was refused with "another opening is running".
 */
export const OPENING_WAIT_MS = 10_000;

/** What a background job's write step (`holdWhenFree`) writes in the lock file. */
export const BACKGROUND_WRITE_PURPOSE = 'background update';

/**
 * Holds of moments, which a writer of another process waits out (up to `OPENING_WAIT_MS`) rather
 * than refusing: an opening's sweep, a background job's write step. A CLI import started while the
 * app upgraded a library's enrichment was refused whenever it met one of the job's writes.
 */
const SHORT_HOLDS: readonly string[] = [OPENING_LOCK_PURPOSE, BACKGROUND_WRITE_PURPOSE];

/** How often a background job waiting for its write turn asks again while another process writes the library. */
const BACKGROUND_RETRY_MS = 250;

/** The message a second writer gets, in words (CLI stderr, the app's error DTO). */
export function libraryBusyMessage(lib: Library, owner: LockOwner | null): string {
  const what = owner?.purpose ?? 'import';
  const who = owner ? ` (process ${owner.pid}${owner.host ? ` on ${owner.host}` : ''}, since ${owner.since})` : '';
  if (what === BACKGROUND_WRITE_PURPOSE) return `library busy: the app is updating "${lib.name}"${who}. Try again in a moment.`;
  return `library busy: another ${what} is running in "${lib.name}"${who}. Try again when it has finished.`;
}

/**
 * Who writes each library's index.
 *
 * Between processes (two CLI imports, the app and a CLI): a library is written by one process at a
 * time, the one holding the lock file `<library>/write.lock` (see `storage/lock-file.ts`). Every
 * foreground writer of this engine holds it (`hold`, counted: the file is taken by the first and
 * removed by the last); a second process gets `busy` with "library busy: another import is running".
 *
 * Inside this process: imports into one library run one after another, in the order they were
 * started (`importTurn`); removals and settings changes may overlap them (counted as writers); a
 * rebuild replaces the whole index, so it runs alone: it starts only when no writer runs and
 * refuses new writers while it runs. Each check and its claim happen in the same tick (no await
 * between), so two callers can never both get in. A background job's write step (`holdWhenFree`)
 * waits until none of these runs.
 */
export class WriterLock {
  private readonly writers = new Map<string, number>();
  private readonly rebuilding_ = new Set<string>();
  /** Per library: how many holds this engine has, and the file lock's release (or its acquisition under way). */
  private readonly holds = new Map<string, { count: number; file: Promise<Result<() => Promise<void>>> }>();
  /** Per library: the end of the import queue. */
  private readonly importTail = new Map<string, Promise<void>>();
  /** Per library: the lock file being removed by the last hold, which a new first hold waits for. */
  private readonly releasing = new Map<string, Promise<void>>();

  /** Aborted by `close`: from then on no hold waits for another process. */
  private readonly closed = new AbortController();

  constructor(private readonly onFreshHold: (lib: Library) => Promise<void> = async () => undefined) {}

  /**
   * The engine is closing (the app quits): a hold that waits for another process to let go of the
   * library (`OPENING_WAIT_MS` for its short holds, a background step's turn for as long as it is
   * let) stops waiting, now and from now on, and fails as it would have had the wait run out. A
   * background step that has its turn writes on (the engine's close waits for it); one that has
   * none does not run. Holds that need no waiting (the lock file is free) are taken as before: a
   * CLI's fold of what it imported still runs as it exits.
   */
  close(): void {
    this.closed.abort();
  }

  /** Whether `close` was called: a background step that got no turn since was cut short by it, not refused. */
  get closing(): boolean {
    return this.closed.signal.aborted;
  }

  /** Whether the library is rebuilding its index now. */
  rebuilding(lib: Library): boolean {
    return this.rebuilding_.has(lib.config.id);
  }

  /** Whether this engine writes the library now: it holds its lock file, or a writer or a rebuild has claimed it. */
  writing(lib: Library): boolean {
    const id = lib.config.id;
    return this.holds.has(id) || this.writers.has(id) || this.rebuilding_.has(id);
  }

  /** The refusal a writer gets while the library rebuilds. */
  busyRebuilding(lib: Library): Result<never> {
    return fail('busy', `"${lib.name}" is rebuilding its index. Search works meanwhile; try again when the rebuild has finished.`);
  }

  /** Claims a place among the library's writers; the returned function releases it (once). */
  claimWriter(lib: Library): Result<() => void> {
    const id = lib.config.id;
    if (this.rebuilding_.has(id)) return this.busyRebuilding(lib);
    this.writers.set(id, (this.writers.get(id) ?? 0) + 1);
    let released = false;
    return ok(() => {
      if (released) return;
      released = true;
      const left = (this.writers.get(id) ?? 1) - 1;
      if (left > 0) this.writers.set(id, left);
      else this.writers.delete(id);
    });
  }

  /** Claims the library for a rebuild, alone; the returned function releases it. */
  claimRebuild(lib: Library): Result<() => void> {
    const id = lib.config.id;
    if (this.rebuilding_.has(id)) return this.busyRebuilding(lib);
    if ((this.writers.get(id) ?? 0) > 0) {
      return fail('busy', `"${lib.name}" is importing, removing or reconfiguring documents. Rebuild its index when that has finished.`);
    }
    this.rebuilding_.add(id);
    return ok(() => this.rebuilding_.delete(id));
  }

  /**
   * Holds the library against writers in other processes for `purpose` ("import", "rebuild"...);
   * the returned function lets go (once). The first hold of this engine takes the lock file (and
   * runs `onFreshHold`: another process may have written the library since this one last did);
   * later ones share it. Fails with `busy` while another live process holds it.
   */
  async hold(lib: Library, purpose: string): Promise<Result<() => Promise<void>>> {
    const id = lib.config.id;
    let entry = this.holds.get(id);
    if (!entry) {
      const file = (async (): Promise<Result<() => Promise<void>>> => {
        await this.releasing.get(id);
        const lockFile = path.join(lib.dir, LIBRARY_LOCK_FILE);
        let got = await tryLock(lockFile, purpose);
        if (!got.ok && got.owner && SHORT_HOLDS.includes(got.owner.purpose) && !this.closing) {
          got = await waitLock(lockFile, purpose, OPENING_WAIT_MS, undefined, this.closed.signal);
        }
        if (!got.ok) return fail('busy', libraryBusyMessage(lib, got.owner));
        try {
          await this.onFreshHold(lib);
        } catch (err) {
          await got.release();
          throw err;
        }
        return ok(got.release);
      })();
      entry = { count: 0, file };
      this.holds.set(id, entry);
    }
    const mine = entry;
    mine.count++;
    let res: Result<() => Promise<void>>;
    try {
      res = await mine.file;
    } catch (err) {
      res = fail('busy', `The library's lock file could not be written: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!res.ok) {
      mine.count--;
      if (this.holds.get(id) === mine && mine.count === 0) this.holds.delete(id);
      return res;
    }
    const releaseFile = res.value;
    let released = false;
    return ok(async () => {
      if (released) return;
      released = true;
      mine.count--;
      if (mine.count === 0 && this.holds.get(id) === mine) {
        this.holds.delete(id);
        const gone = releaseFile().finally(() => {
          if (this.releasing.get(id) === gone) this.releasing.delete(id);
        });
        this.releasing.set(id, gone);
        await gone;
      }
    });
  }

  /**
   * Holds the library for one write step of a background job (see `index/write-turn.ts`), waiting
   * while another process writes it (a CLI import holds it for as long as it runs) and while a
   * writer of this engine runs (an import, a removal, a settings change): a step checks what it
   * writes over before writing it (the document version the model read, the text of the chunks it
   * embeds), which such a writer could change between the check and the write. (Their journals no
   * longer replace each other: journaled writes of one index take turns, `JournalTurns`.) The job
   * resumes when they have finished. Resolves with the release, or null once `signal` aborts,
   * `maxWaitMs` has passed without a turn, or the engine closes (`close`) before it has one.
   */
  async holdWhenFree(lib: Library, signal: AbortSignal, maxWaitMs = Infinity): Promise<(() => Promise<void>) | null> {
    const until = Date.now() + maxWaitMs;
    const id = lib.config.id;
    const ownWriters = () => this.writers.has(id) || this.rebuilding_.has(id);
    // One signal for every pause of this wait (a step may wait as long as a CLI import runs).
    const pause = { signal: AbortSignal.any([signal, this.closed.signal]) };
    for (;;) {
      if (signal.aborted) return null;
      if (!ownWriters()) {
        const held = await this.hold(lib, BACKGROUND_WRITE_PURPOSE);
        if (held.ok) {
          // A writer of this engine may have come while the lock file was taken.
          if (!signal.aborted && !ownWriters()) return held.value;
          await held.value();
          if (signal.aborted) return null;
        }
      }
      // Another process has the library, or this engine's own writers run (a closing engine stops them): closing, it waits no more.
      if (Date.now() >= until || this.closing) return null;
      await sleep(BACKGROUND_RETRY_MS, undefined, pause).catch(() => undefined);
    }
  }

  /**
   * Claims a place among the writers (`kind` 'writer') or the library alone ('rebuild'), then
   * holds its lock file for `purpose`; when the hold fails, the claim is let go before the failure
   * is returned. The two releases are given apart, since callers let them go at different moments.
   */
  async admit(lib: Library, kind: 'writer' | 'rebuild', purpose: string): Promise<Result<{ claim: () => void; hold: () => Promise<void> }>> {
    const claim = kind === 'rebuild' ? this.claimRebuild(lib) : this.claimWriter(lib);
    if (!claim.ok) return claim;
    const held = await this.hold(lib, purpose);
    if (!held.ok) {
      claim.value();
      return held;
    }
    return ok({ claim: claim.value, hold: held.value });
  }

  /**
   * Waits for this import's turn in the library's queue (FIFO, in call order); the returned
   * function ends the turn and lets the next import run.
   */
  importTurn(lib: Library): Promise<() => void> {
    const id = lib.config.id;
    const previous = this.importTail.get(id) ?? Promise.resolve();
    let end!: () => void;
    const mine = new Promise<void>((resolve) => (end = resolve));
    const tail = previous.then(() => mine);
    this.importTail.set(id, tail);
    void tail.then(() => {
      if (this.importTail.get(id) === tail) this.importTail.delete(id);
    });
    return previous.then(() => end);
  }
}
