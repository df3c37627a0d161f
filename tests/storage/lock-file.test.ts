import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFile, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tryLock, waitLock } from '../../src-main/storage/lock-file';
import { tempDir } from '../helpers/temp';

/** The pid of a process that has already exited (a real one, so the pid really is free or reused). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(r.stdout.toString());
}

describe('lock file', () => {
  it('admits one holder; the second learns who holds it and for what', async () => {
    const tmp = await tempDir();
    try {
      const file = path.join(tmp.dir, 'write.lock');
      const first = await tryLock(file, 'import');
      expect(first.ok).toBe(true);
      const second = await tryLock(file, 'rebuild');
      expect(second).toMatchObject({ ok: false, owner: { pid: process.pid, purpose: 'import', host: os.hostname() } });
      if (first.ok) await first.release();
      expect(existsSync(file)).toBe(false);
      const third = await tryLock(file, 'rebuild');
      expect(third.ok).toBe(true);
      if (third.ok) await third.release();
    } finally {
      await tmp.cleanup();
    }
  });

  it('takes over a lock whose process is gone', async () => {
    const tmp = await tempDir();
    try {
      const file = path.join(tmp.dir, 'write.lock');
      await writeFile(file, JSON.stringify({ pid: deadPid(), procStart: null, host: os.hostname(), purpose: 'import', since: '2026-01-01T00:00:00Z', nonce: 'dead' }));
      const got = await tryLock(file, 'import');
      expect(got.ok).toBe(true);
      expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ pid: process.pid });
      if (got.ok) await got.release();
    } finally {
      await tmp.cleanup();
    }
  });

  it('takes over a lock whose pid now belongs to another process (start time differs)', async () => {
    if (!existsSync('/proc/self/stat')) return expect(process.platform).not.toBe('linux');
    const tmp = await tempDir();
    try {
      const file = path.join(tmp.dir, 'write.lock');
      // Our own pid, alive, but recorded with a start time it never had: a reused pid.
      await writeFile(file, JSON.stringify({ pid: process.pid, procStart: '1', host: os.hostname(), purpose: 'import', since: '2026-01-01T00:00:00Z', nonce: 'reused' }));
      const got = await tryLock(file, 'import');
      expect(got.ok).toBe(true);
      if (got.ok) await got.release();
    } finally {
      await tmp.cleanup();
    }
  });

  it('waits for a lock file still being written, and takes it over once it is old and unreadable', async () => {
    const tmp = await tempDir();
    try {
      const file = path.join(tmp.dir, 'write.lock');
      await writeFile(file, '');
      expect(await tryLock(file, 'import')).toEqual({ ok: false, owner: null });
      const old = new Date(Date.now() - 60_000);
      await utimes(file, old, old);
      const got = await tryLock(file, 'import');
      expect(got.ok).toBe(true);
      if (got.ok) await got.release();
    } finally {
      await tmp.cleanup();
    }
  });

  it('never removes a lock another holder took over', async () => {
    const tmp = await tempDir();
    try {
      const file = path.join(tmp.dir, 'write.lock');
      const mine = await tryLock(file, 'import');
      expect(mine.ok).toBe(true);
      const theirs = JSON.stringify({ pid: process.pid, procStart: null, host: os.hostname(), purpose: 'rebuild', since: '2026-01-01T00:00:00Z', nonce: 'theirs' });
      await writeFile(file, theirs);
      if (mine.ok) await mine.release();
      expect(await readFile(file, 'utf8')).toBe(theirs);
    } finally {
      await tmp.cleanup();
    }
  });

  it('waitLock gets the lock once its holder lets go', async () => {
    const tmp = await tempDir();
    try {
      const file = path.join(tmp.dir, 'create.lock');
      const first = await tryLock(file, 'library creation');
      if (!first.ok) throw new Error('first lock not taken');
      const waiting = waitLock(file, 'library creation', 30_000, 5);
      await first.release();
      const got = await waiting;
      expect(got.ok).toBe(true);
      if (got.ok) await got.release();
    } finally {
      await tmp.cleanup();
    }
  });

  it('waitLock stops waiting when its signal aborts, and says who holds the lock', async () => {
    const tmp = await tempDir();
    try {
      const file = path.join(tmp.dir, 'write.lock');
      const first = await tryLock(file, 'background update');
      if (!first.ok) throw new Error('first lock not taken');
      const stop = new AbortController();
      let answered = false;
      // Waits far longer than the test runs unless the abort ends it.
      const waiting = waitLock(file, 'import', 3_600_000, 5, stop.signal).finally(() => (answered = true));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(answered).toBe(false);
      stop.abort();
      const got = await waiting;
      expect(got).toMatchObject({ ok: false, owner: { pid: process.pid, purpose: 'background update' } });
      // The holder still holds it: the abort gave nothing up on its behalf.
      expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ purpose: 'background update' });
      await first.release();
    } finally {
      await tmp.cleanup();
    }
  });
});
