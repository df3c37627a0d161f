import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultPoolSize, ParsePool } from '../../src-main/ingest/parse-pool';
import { currentCompiledWorker } from '../../src-main/ingest/worker-entry';
import { parseDocument } from '../../src-main/ingest/parsers';
import { documentCodes } from '../../src-main/enrich/document-codes';
import { learningExtract } from '../../src-main/enrich/learning-extract';
import { column, wrapText, writePdf } from '../fixtures/pdf-writer';
import { tempDir } from '../helpers/temp';

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

  it('sends a worker its next file while it parses the last one it has, and parses them one at a time in order', { timeout: 120_000 }, async () => {
    const pool = new ParsePool({ size: 1 });
    // Each file over the 1 MB of one message, so each travels alone.
    const files = [0, 1, 2].map((i) => ({ name: `list-${i}.md`, bytes: enc.encode(`# List ${i}\n\n${'- item RAC-225B fuse 10 A\n'.repeat(50_000)}`) }));
    const events: string[] = [];
    const internals = pool as unknown as { send: (slot: unknown, files: { fileName: string }[]) => void; onMessage: (slot: unknown, m: { type: string; key?: number }) => void };
    const send = internals.send.bind(pool);
    const onMessage = internals.onMessage.bind(pool);
    internals.send = (slot, sent) => {
      for (const f of sent) events.push(`send ${f.fileName}`);
      send(slot, sent);
    };
    internals.onMessage = (slot, m) => {
      if (m.type !== 'ready') events.push(`${m.type} ${m.key}`);
      onMessage(slot, m);
    };
    try {
      const results = await Promise.all(files.map((f) => pool.parse(f.name, f.bytes)));
      expect(results.map((r) => (r.ok ? r.doc.title : r.reason))).toEqual(['List 0', 'List 1', 'List 2']);
      // One at a time, in order: each file starts after the one before it is done.
      expect(events.filter((e) => !e.startsWith('send'))).toEqual(['start 0', 'done 0', 'start 1', 'done 1', 'start 2', 'done 2']);
      // Each next file was on its way before the one before it was done.
      expect(events.indexOf('send list-1.md')).toBeLessThan(events.indexOf('done 0'));
      expect(events.indexOf('send list-2.md')).toBeLessThan(events.indexOf('done 1'));
    } finally {
      await pool.close();
    }
  });

  it('drops a cancelled import\'s files already sent to a worker that has not started them, and finishes the one it parses', { timeout: 120_000 }, async () => {
    const pool = new ParsePool({ size: 1 });
    const controller = new AbortController();
    // Each file over the 1 MB of one message, so each travels alone: the second is sent while the first parses.
    const list = (i: number) => enc.encode(`# List ${i}\n\n${'- item RAC-225B fuse 10 A\n'.repeat(50_000)}`);
    const events: string[] = [];
    const internals = pool as unknown as { onMessage: (slot: unknown, m: { type: string; key?: number }) => void };
    const onMessage = internals.onMessage.bind(pool);
    internals.onMessage = (slot, m) => {
      if (m.type !== 'ready') events.push(`${m.type} ${m.key}`);
      onMessage(slot, m);
      // Cancelled as soon as the first file starts: the second is in the worker's hands by then.
      if (m.type === 'start' && m.key === 0) {
        controller.abort();
        pool.cancel(controller.signal);
      }
    };
    try {
      const [first, second, third] = await Promise.all([0, 1, 2].map((i) => pool.parse(`list-${i}.md`, list(i), controller.signal)));
      expect(first).toMatchObject({ ok: true, doc: { title: 'List 0' } });
      expect(second).toMatchObject({ ok: false, code: 'cancelled' });
      expect(third).toMatchObject({ ok: false, code: 'cancelled' });
      // The worker passes over the second file (sent, never started) and is free for the next import.
      expect(await pool.parse('after.md', small('After'))).toMatchObject({ ok: true, doc: { title: 'After' } });
      expect(events).toContain('skipped 1');
      expect(events).not.toContain('start 1');
      expect(events).not.toContain('start 2');
    } finally {
      await pool.close();
    }
  });

  it('sends with a parsed document what learning and its record need from it alone, as the calling thread makes it, when asked', async () => {
    const pool = new ParsePool({ size: 1 });
    try {
      const source = '# RAC-225B\n\nZebra cables: order code SKU: RAC-225B-EU. Charging batteries at 100 mA.\n\n## Relay\n\nReplace the relay.\n';
      const result = await pool.parse('rac-225b.md', new TextEncoder().encode(source), undefined, { extract: true });
      if (!result.ok) throw new Error(result.reason);
      expect(result.extract).toEqual(learningExtract(result.doc));
      expect(result.codes).toEqual(documentCodes(result.doc));
      expect(result.codes).toContain('RAC-225B-EU');
      // Not asked (the import's thread makes them when the worker is the busier side): the document alone.
      const plain = await pool.parse('rac-225b.md', new TextEncoder().encode(source));
      if (!plain.ok) throw new Error(plain.reason);
      expect(plain.doc).toEqual(result.doc);
      expect(plain.extract).toBeUndefined();
      expect(plain.codes).toBeUndefined();
    } finally {
      await pool.close();
    }
  });

  it('reads a compressed PDF in a worker exactly as on the calling thread', { timeout: 120_000 }, async () => {
    // The worker inflates with pdf.js's own code (it removes DecompressionStream); the text must not change.
    const prose = 'The RAC-225B takes a 10 A slow-blow fuse in the holder next to the mains inlet. Replace it only with the same type and rating.';
    const bytes = writePdf(
      [1, 2, 3].map((n) => ({ runs: [{ x: 72, y: 740, text: `${n}. Fuses`, size: 14, bold: true }, ...column(wrapText(`${prose} `.repeat(4 * n), 440), 72, 710)] })),
      { compress: true, title: 'RAC-225B service manual' },
    );
    const pool = new ParsePool({ size: 1 });
    try {
      const inWorker = await pool.parse('rac-225b.pdf', bytes);
      const here = await parseDocument({ bytes, fileName: 'rac-225b.pdf' });
      expect(here).toMatchObject({ ok: true, doc: { text: expect.stringContaining('10 A slow-blow fuse') } });
      // Equal, extract included: a PDF is learned on the import's thread, which waits for its parse anyway.
      expect(inWorker).toEqual(here);
    } finally {
      await pool.close();
    }
  });
});

describe("the parse pool's size and worker", () => {
  it('leaves a core to the main thread, and runs one worker on one or two cores', () => {
    expect([1, 2, 4, 8].map((cores) => defaultPoolSize(cores))).toEqual([1, 1, 3, 7]);
  });

  it('runs the compiled worker of a CLI bundle only while no source is newer than the bundle', async () => {
    const tmp = await tempDir('manualmate-pool-entry-');
    try {
      const root = tmp.dir;
      const source = path.join(root, 'src-main', 'ingest', 'parse.worker.ts');
      await mkdir(path.dirname(source), { recursive: true });
      await mkdir(path.join(root, 'out', 'cli'), { recursive: true });
      await writeFile(source, 'export {};\n');
      const builtAt = Date.now();
      await utimes(source, new Date(builtAt - 60_000), new Date(builtAt - 60_000));
      expect(currentCompiledWorker(root)).toBeNull(); // no bundle yet
      await writeFile(path.join(root, 'out', 'cli', 'inputs.json'), JSON.stringify({ builtAt, inputs: ['src-main/ingest/parse.worker.ts'] }));
      await writeFile(path.join(root, 'out', 'cli', 'parse-worker.mjs'), '');
      expect(currentCompiledWorker(root)?.href).toBe(pathToFileURL(path.join(root, 'out', 'cli', 'parse-worker.mjs')).href);
      await utimes(source, new Date(builtAt + 60_000), new Date(builtAt + 60_000));
      expect(currentCompiledWorker(root)).toBeNull(); // edited since the build
      await writeFile(path.join(root, 'out', 'cli', 'inputs.json'), JSON.stringify({ builtAt, inputs: ['src-main/ingest/gone.ts'] }));
      expect(currentCompiledWorker(root)).toBeNull(); // a source of the build is gone
    } finally {
      await tmp.cleanup();
    }
  });
});
