import { describe, expect, it } from 'vitest';
import { ParsePool } from '../../src-main/ingest/parse-pool';

/** Real worker threads: a file over its memory cap or CPU budget fails alone, the files around it parse. */

const enc = new TextEncoder();
const small = (title: string) => enc.encode(`# ${title}\n\nThe RAC-225B takes a 10 A fuse.\n`);
/** `mb` MB of list items: markdown-it's tokens for 10 MB need far more than 96 MB of heap and seconds of CPU. */
const heavy = (mb: number) => enc.encode('- item RAC-225B fuse 10 A\n'.repeat(Math.round((mb * 1e6) / 26)));

describe('the parse pool', () => {
  it('parses many small files packed into few messages, each with its own result', async () => {
    const pool = new ParsePool({ size: 2 });
    try {
      const results = await Promise.all(Array.from({ length: 150 }, (_, i) => pool.parse(`page-${i}.md`, small(`Page ${i}`))));
      expect(results.map((r) => (r.ok ? r.doc.title : r.reason))).toEqual(Array.from({ length: 150 }, (_, i) => `Page ${i}`));
    } finally {
      await pool.close();
    }
  });

  it('fails a file whose parse runs out of its heap cap, and parses the files before and after it', { timeout: 300_000 }, async () => {
    const pool = new ParsePool({ size: 1, limits: { workerMemoryMb: 96, cpuSecondsBase: 600 } });
    try {
      const [before, big, after] = await Promise.all([pool.parse('before.md', small('Before')), pool.parse('big.md', heavy(10)), pool.parse('after.md', small('After'))]);
      expect(before).toMatchObject({ ok: true, doc: { title: 'Before' } });
      expect(big).toEqual({ ok: false, code: 'too-large', reason: 'The file is too large to import (limit 96 MB of memory): parsing it ran out of memory.' });
      expect(after).toMatchObject({ ok: true, doc: { title: 'After' } });
    } finally {
      await pool.close();
    }
  });

  it('stops a parse that uses more CPU time than its budget and goes on with the next file', { timeout: 300_000 }, async () => {
    const pool = new ParsePool({ size: 1, limits: { cpuSecondsBase: 0.2, cpuSecondsPerMb: 0 } });
    try {
      const [before, big, after] = await Promise.all([pool.parse('before.md', small('Before')), pool.parse('big.md', heavy(10)), pool.parse('after.md', small('After'))]);
      expect(before).toMatchObject({ ok: true });
      expect(big).toMatchObject({ ok: false, code: 'too-large', reason: expect.stringContaining('(limit 0.2 s of CPU time for a file of this size)') });
      expect(after).toMatchObject({ ok: true, doc: { title: 'After' } });
    } finally {
      await pool.close();
    }
  });

  it('drops the queued files of a cancelled import and parses the other import sharing the pool', async () => {
    const controller = new AbortController();
    const pool = new ParsePool({ size: 1 });
    try {
      const cancelled = Array.from({ length: 20 }, (_, i) => pool.parse(`p${i}.md`, small(`P${i}`), controller.signal));
      const other = pool.parse('other.md', small('Other'));
      controller.abort();
      pool.cancel(controller.signal);
      const results = await Promise.all(cancelled);
      expect(results.every((r) => !r.ok && r.code === 'cancelled')).toBe(true);
      expect(await other).toMatchObject({ ok: true, doc: { title: 'Other' } });
      expect(await pool.parse('late.md', small('Late'), controller.signal)).toMatchObject({ ok: false, code: 'cancelled' });
    } finally {
      await pool.close();
    }
  });
});
