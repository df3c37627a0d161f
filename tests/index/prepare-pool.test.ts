import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { NormalizedDocument } from '../../src-main/core/document';
import { DEFAULT_PREFIX_OPTIONS } from '../../src-main/core/prefix';
import { CodedError } from '../../src-main/core/result';
import { createChunker } from '../../src-main/chunking/chunker.registry';
import type { PreparedDocument } from '../../src-main/ingest/import.job';
import { parseDocument } from '../../src-main/ingest/parsers';
import { LibraryEnrichment } from '../../src-main/index/library-enrichment';
import { prepareDocument } from '../../src-main/index/prepare';
import { PreparePool, defaultPrepareWorkers, type BatchState } from '../../src-main/index/prepare-pool';
import { markdownFiles } from '../ingest/doc-invariants';
import { corpusRoots } from '../helpers/temp';

/**
 * The prepare pool spreads a learned batch over worker threads and the calling thread: whichever
 * thread prepares a document, its rows must be the ones the calling thread alone would make.
 */

const settings = { prefix: { ...DEFAULT_PREFIX_OPTIONS }, restructure: false, nouns: true };
const docs: NormalizedDocument[] = [];
let enrichment: LibraryEnrichment;
let expected: PreparedDocument[] = [];

const chunker = () => {
  const made = createChunker('structure', {});
  if (!made.ok) throw new Error(made.error.message);
  return made.value;
};
const state = (): BatchState => ({ enrichment: enrichment.snapshot(), strategy: 'structure', settings });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  const root = corpusRoots.fixture;
  for (const id of markdownFiles(path.join(root, 'radxa-docs')).slice(0, 16)) {
    const res = await parseDocument({ bytes: await readFile(path.join(root, id)), fileName: path.basename(id) });
    if (res.ok) docs.push({ ...res.doc, id, contentHash: 'f'.repeat(64) });
  }
  enrichment = LibraryEnrichment.restore(null);
  enrichment.learn(docs);
  const c = chunker();
  expected = [];
  for (const d of docs) expected.push(await prepareDocument(enrichment, c, settings, d, {}));
}, 60_000);

const pools: PreparePool[] = [];
afterEach(async () => {
  for (const p of pools.splice(0)) await p.close();
});

function newPool(): PreparePool {
  const pool = new PreparePool({ size: 1 });
  pools.push(pool);
  return pool;
}

describe('prepare pool', () => {
  it('gives the rows the calling thread gives, in input order, with a worker doing part of the batch', { timeout: 60_000 }, async () => {
    expect(docs.length).toBeGreaterThan(8);
    const pool = newPool();
    expect(await pool.ready()).toBe(true);
    let local = 0;
    const c = chunker();
    // A slow calling thread, so the worker is sure to take documents.
    const results = await Promise.all(
      pool.prepareAll(
        state(),
        docs,
        async (doc) => {
          local++;
          await sleep(30);
          return prepareDocument(enrichment, c, settings, doc, {});
        },
        new AbortController().signal,
      ),
    );
    expect(local).toBeLessThan(docs.length);
    expect(results.map((r) => r.doc.id)).toEqual(docs.map((d) => d.id));
    expect(results.map((r) => ({ chunks: r.chunks, models: r.models, rows: r.rows }))).toEqual(expected.map((r) => ({ chunks: r.chunks, models: r.models, rows: r.rows })));
  });

  it('prepares every document on the calling thread when the workers stop mid-batch', { timeout: 60_000 }, async () => {
    const pool = newPool();
    expect(await pool.ready()).toBe(true);
    const c = chunker();
    const pending = pool.prepareAll(state(), docs, (doc) => prepareDocument(enrichment, c, settings, doc, {}), new AbortController().signal);
    await pool.close();
    const results = await Promise.all(pending);
    expect(results.map((r) => r.rows)).toEqual(expected.map((r) => r.rows));
    expect(pool.usable).toBe(false);
  });

  it("passes a worker's coded failure on with its code", { timeout: 60_000 }, async () => {
    const pool = newPool();
    expect(await pool.ready()).toBe(true);
    // `semantic` needs an embedder, which a worker never has: its chunker fails with 'unavailable'.
    const outcomes = await Promise.allSettled(
      pool.prepareAll({ ...state(), strategy: 'semantic' }, docs.slice(0, 4), () => sleep(200).then(() => Promise.reject(new Error('calling thread'))), new AbortController().signal),
    );
    const fromWorker = outcomes.filter((o) => o.status === 'rejected' && o.reason instanceof CodedError);
    expect(fromWorker.length).toBeGreaterThan(0);
    expect(fromWorker.every((o) => o.status === 'rejected' && (o.reason as CodedError).code === 'unavailable')).toBe(true);
  });

  it('takes its size from MANUALMATE_PREPARE_WORKERS when that is a whole number', async () => {
    const sizeWith = async (value: string | undefined): Promise<number> => {
      vi.resetModules();
      vi.stubEnv('MANUALMATE_PREPARE_WORKERS', value);
      try {
        return (await import('../../src-main/index/prepare-pool')).sharedPreparePool().size;
      } finally {
        vi.unstubAllEnvs();
      }
    };
    expect(await sizeWith('0')).toBe(0);
    expect(await sizeWith('3')).toBe(3);
    expect(await sizeWith('many')).toBe(new PreparePool().size);
  });

  it('starts no workers by default on two cores, and one per core but two on more', () => {
    expect([1, 2, 3, 4, 8].map((cores) => defaultPrepareWorkers(cores))).toEqual([0, 0, 1, 2, 6]);
    expect(new PreparePool().size).toBe(defaultPrepareWorkers());
  });

  it('rejects the documents not started yet once the import is cancelled', async () => {
    const pool = newPool();
    const controller = new AbortController();
    controller.abort();
    const outcomes = await Promise.allSettled(pool.prepareAll(state(), docs.slice(0, 3), () => Promise.reject(new Error('must not run')), controller.signal));
    expect(outcomes.every((o) => o.status === 'rejected' && (o.reason as Error).name === 'AbortError')).toBe(true);
  });
});
