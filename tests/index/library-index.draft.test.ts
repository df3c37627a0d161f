import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NormalizedDocument } from '../../src-main/core/document';
import { loadCorpus, markdownDocument } from '../enrich/corpus.helper';
import { corpusRoots, tempDir } from '../helpers/temp';
import { DRAFT_MAX_DOC_CHARS } from '../../src-main/index/library-index';

/**
 * A library's index drafts a learned document (chunks, chunk texts, tags ahead) when its own
 * thread prepares the batch, and the rows it then prepares are those of an undrafted copy. Each
 * variant loads the engine afresh (the prepare pool is sized from MANUALMATE_PREPARE_WORKERS once).
 */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  vi.unstubAllEnvs();
});

async function openIndex(workers: string) {
  vi.resetModules();
  vi.stubEnv('MANUALMATE_PREPARE_WORKERS', workers);
  const { createEngine } = await import('../../src-main/engine/engine');
  const tmp = await tempDir();
  const engine = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none') });
  cleanups.push(async () => {
    await engine.dispose();
    await tmp.cleanup();
  });
  const made = await engine.libraries.create('Boards');
  if (!made.ok) throw new Error(made.error.message);
  return engine.indexes.open(made.value);
}

/** Runs a draft to its end; returns its step count. */
async function drain(steps: AsyncIterator<unknown> | null | undefined): Promise<number> {
  let n = 0;
  while (steps && !(await steps.next()).done) n++;
  return n;
}

describe('LibraryIndex.draft', () => {
  it('drafts every chunk of a learned document and prepares the rows an undrafted copy gets', { timeout: 120_000 }, async () => {
    const index = await openIndex('0');
    const docs = loadCorpus('radxa-docs', corpusRoots.fixture);
    await index.learn(docs);
    const signal = new AbortController().signal;
    let drafted = 0;
    for (const doc of docs) {
      const copy: NormalizedDocument = structuredClone(doc);
      drafted += await drain(index.draft(doc));
      const ahead = await index.prepare(doc, signal);
      const plain = await index.prepare(copy, signal);
      expect(ahead.rows).toEqual(plain.rows);
      expect(ahead.models).toEqual(plain.models);
    }
    // One step for the chunking, one per chunk.
    expect(drafted).toBeGreaterThan(docs.length * 2);
  });

  it('drafts no document past the drafts\' text budget', { timeout: 120_000 }, async () => {
    const index = await openIndex('0');
    // One paragraph a line: 9 million characters, over the 8 million drafts may hold at once (and
    // over the size of one document drafted, which alone keeps it out).
    const big = markdownDocument('big.md', `# Big\n\n${'The RAC-225B relay is checked after each service.\n\n'.repeat(180_000)}`);
    const [small] = loadCorpus('radxa-docs', corpusRoots.fixture);
    expect(big.text.length).toBeGreaterThan(8 * 1024 * 1024);
    expect(await drain(index.draft(big))).toBe(0);
    expect(await drain(index.draft(small!))).toBeGreaterThan(1);
  });

  it('drafts no document larger than one draft step may chunk at once', { timeout: 120_000 }, async () => {
    const index = await openIndex('0');
    const para = 'The RAC-225B relay is checked after each service.\n\n';
    const large = markdownDocument('large.md', `# Large\n\n${para.repeat(Math.ceil((DRAFT_MAX_DOC_CHARS + 1) / para.length))}`);
    const below = markdownDocument('below.md', `# Below\n\n${para.repeat(Math.floor((DRAFT_MAX_DOC_CHARS - 100) / para.length))}`);
    expect(large.text.length).toBeGreaterThan(DRAFT_MAX_DOC_CHARS);
    expect(below.text.length).toBeLessThanOrEqual(DRAFT_MAX_DOC_CHARS);
    await index.learn([large, below]);
    expect(await drain(index.draft(large))).toBe(0);
    expect(await drain(index.draft(below))).toBeGreaterThan(1);
  });

  it('drafts nothing when prepare workers would prepare the batch (they would redo it)', { timeout: 120_000 }, async () => {
    const index = await openIndex('1');
    const [doc] = loadCorpus('radxa-docs', corpusRoots.fixture);
    await index.learn([doc!]);
    expect(await drain(index.draft(doc!))).toBe(0);
  });
});

describe('LibraryIndex.extractsAhead', () => {
  it('asks the parse worker for learning extracts only when this thread tags nouns while it waits', async () => {
    const tmp = await tempDir();
    const { createEngine } = await import('../../src-main/engine/engine');
    const engine = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none') });
    cleanups.push(async () => {
      await engine.dispose();
      await tmp.cleanup();
    });
    for (const [name, prefix, expected] of [
      ['Plain', undefined, false],
      ['Signed', { signature: true }, true],
    ] as const) {
      const made = await engine.handlers['libraries.create']({ name, ...(prefix ? { prefix } : {}) });
      if (!made.ok) throw new Error(made.error.message);
      const library = await engine.libraries.get(name);
      expect((await engine.indexes.open(library!)).extractsAhead()).toBe(expected);
    }
  });
});
