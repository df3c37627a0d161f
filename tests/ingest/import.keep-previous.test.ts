import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ImportSummary } from '../../src-main/contract/api';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { LibraryEnrichment } from '../../src-main/index/library-enrichment';
import { Library } from '../../src-main/storage/library.store';
import { tempDir } from '../helpers/temp';

/**
 * A new version of a listed document that fails while it is learned or prepared: learning has
 * already replaced the previous version in the library's vocabulary, which must get it back, so
 * the previous version stays listed, searchable and known by its model names.
 */

let engine: Engine;
let dir: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  const tmp = await tempDir();
  dir = tmp.dir;
  cleanup = tmp.cleanup;
  engine = createEngine({ dataDir: path.join(dir, 'data'), bundledModelsDir: path.join(dir, 'no-models') });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await engine.dispose();
  await cleanup();
});

const OLD = '# Pump RAC-225B\n\nThe old gasket of the RAC-225B is part GX-100.\n\n## Priming\n\nOpen the bleed screw of the RAC-225B before the first start.\n';
const NEW = '# Pump RAC-990X\n\nThe new gasket of the RAC-990X is part GY-300.\n';
const FAN = '# Fan FN-40\n\nThe FN-40 fan takes a 3 A fuse.\n';

async function write(rel: string, data: string): Promise<string> {
  const file = path.join(dir, 'in', rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, data);
  return file;
}

async function importOk(paths: string[], library = 'Shop'): Promise<ImportSummary> {
  const res = await engine.importPaths(library, paths);
  if (!res.ok) throw new Error(res.error.message);
  return res.value;
}

async function query(q: string, library = 'Shop') {
  const res = await engine.handlers['search.query']({ library, query: q, topK: 5, retriever: 'bm25' });
  if (!res.ok) throw new Error(res.error.message);
  return res.value;
}

/** The model names the library's vocabulary resolves in a query, as one string. */
async function modelsFor(q: string, library = 'Shop'): Promise<string> {
  return (await query(q, library)).resolvedModels.join(' | ');
}

/** The library's model vocabulary and term statistics, as they would be saved. */
async function vocabularyOf(library = 'Shop') {
  const lib = (await engine.libraries.get(library))!;
  return (await engine.indexes.open(lib)).enrichment.snapshot();
}

/** Makes the new version's text a failure of `fail`'s stage, whatever the rest of the batch does. */
const isNew = (x: unknown) => JSON.stringify(x).includes('GY-300');

/** Learning the new version throws, after it has taken the previous version out of the term statistics and counted the new one's passages. */
function failLearningOfNew(): void {
  const add = ModelVocabulary.prototype.addDocument;
  vi.spyOn(ModelVocabulary.prototype, 'addDocument').mockImplementation(function (this: ModelVocabulary, doc) {
    if (isNew(doc)) throw new Error('vocabulary broke');
    add.call(this, doc);
  });
}

/** Enriching the new version (its preparation) fails. */
function failEnrichmentOfNew(): void {
  const enrich = LibraryEnrichment.prototype.enrich;
  vi.spyOn(LibraryEnrichment.prototype, 'enrich').mockImplementation(function (this: LibraryEnrichment, doc, ...rest) {
    if (isNew(doc)) return Promise.reject(new Error('enricher broke'));
    return enrich.call(this, doc, ...rest);
  });
}

/** The state of the library before the new version comes, and its file. */
async function importOld() {
  const file = await write('m/pump.md', OLD);
  expect((await importOk([file])).summary.imported).toBe(1);
  const lib = (await engine.libraries.get('Shop'))!;
  const record = await lib.document('pump.md');
  expect(record).toMatchObject({ status: 'ready' });
  expect(record!.chunks).toBeGreaterThan(0);
  expect(await modelsFor('RAC-225B gasket')).toContain('RAC-225B');
  return { file, lib, record: record!, vocabulary: await vocabularyOf() };
}

/** What must hold after the failed re-import: nothing of the previous version is lost. */
async function expectPreviousKept(summary: ImportSummary, before: Awaited<ReturnType<typeof importOld>>, stage: RegExp) {
  expect(summary.results).toEqual([{ file: 'pump.md', status: 'failed', reason: expect.stringMatching(stage), code: 'internal' }]);
  expect(summary.results[0]!.reason).toMatch(/The previous version is kept\.$/);
  expect(await before.lib.document('pump.md')).toEqual(before.record);
  expect((await query('GX-100 gasket')).results[0]?.doc).toBe('pump.md');
  expect((await query('GY-300')).results).toHaveLength(0);
  expect(await modelsFor('RAC-225B gasket')).toContain('RAC-225B');
  expect(await modelsFor('RAC-990X gasket')).not.toContain('RAC-990X');
  expect(await vocabularyOf()).toEqual(before.vocabulary);
}

describe('a new version that fails while it is learned', () => {
  it('keeps the previous version and puts it back in the vocabulary after a learn that threw part-way', async () => {
    const before = await importOld();
    await writeFile(before.file, NEW);
    failLearningOfNew();
    const summary = await importOk([before.file]);
    await expectPreviousKept(summary, before, /^Could not learn this document's model names: vocabulary broke\./);
  });

  it('saves the vocabulary of the previous version with the rest of the batch', async () => {
    const before = await importOld();
    await writeFile(before.file, NEW);
    const fan = await write('m/fan.md', FAN);
    failLearningOfNew();
    // The fan is learned before the pump fails: the vocabulary put back keeps it.
    const r = Object.fromEntries((await importOk([fan, before.file])).results.map((x) => [x.file, x.status]));
    expect(r).toEqual({ 'fan.md': 'imported', 'pump.md': 'failed' });
    vi.restoreAllMocks();
    // The same documents imported without a failure, in the same order, in a library of their own.
    await importOk([await write('ref/pump.md', OLD)], 'Ref');
    await importOk([await write('ref/fan.md', FAN)], 'Ref');
    expect(await vocabularyOf()).toEqual(await vocabularyOf('Ref'));
    expect(await modelsFor('RAC-225B gasket')).toContain('RAC-225B');
    // What the commit saved is the same vocabulary.
    await engine.dispose();
    engine = createEngine({ dataDir: path.join(dir, 'data'), bundledModelsDir: path.join(dir, 'no-models') });
    expect(await vocabularyOf()).toEqual(await vocabularyOf('Ref'));
  });
});

describe('a new version that fails while it is prepared', () => {
  it('keeps the previous version and takes the new one out of the vocabulary', async () => {
    const before = await importOld();
    await writeFile(before.file, NEW);
    failEnrichmentOfNew();
    const summary = await importOk([before.file]);
    await expectPreviousKept(summary, before, /^Could not chunk and enrich this document: enricher broke\./);
  });

  it('fails as before when the previous version cannot be read back into the vocabulary', async () => {
    const before = await importOld();
    await writeFile(before.file, NEW);
    failEnrichmentOfNew();
    // Learning reads the previous version; putting it back, the second read, finds it gone.
    const load = Library.prototype.loadNormalized;
    let reads = 0;
    vi.spyOn(Library.prototype, 'loadNormalized').mockImplementation(function (this: Library, rec) {
      return ++reads > 1 ? Promise.resolve(null) : load.call(this, rec);
    });
    const summary = await importOk([before.file]);
    expect(summary.results).toEqual([{ file: 'pump.md', status: 'failed', reason: 'Could not chunk and enrich this document: enricher broke.', code: 'internal' }]);
    expect(await before.lib.document('pump.md')).toMatchObject({ status: 'failed', chunks: 0 });
  });
});

describe('a new version whose files cannot be stored', () => {
  it('keeps the previous version in the vocabulary, so the next commit saves it and not the new one', async () => {
    const before = await importOld();
    await writeFile(before.file, NEW);
    const fan = await write('m/fan.md', FAN);
    // The new version's text cannot be stored; the fan imported next commits and saves the vocabulary.
    const store = Library.prototype.storeNormalized;
    vi.spyOn(Library.prototype, 'storeNormalized').mockImplementation(function (this: Library, docs) {
      if (docs.some((d) => isNew(d))) return Promise.reject(Object.assign(new Error('no space'), { code: 'ENOSPC' }));
      return store.call(this, docs);
    });
    const first = Object.fromEntries((await importOk([before.file])).results.map((x) => [x.file, x.reason ?? x.status]));
    expect(first['pump.md']).toMatch(/disk is full.*The previous version is kept\.$/);
    expect(await before.lib.document('pump.md')).toEqual(before.record);
    expect(await vocabularyOf()).toEqual(before.vocabulary);
    expect((await importOk([fan])).summary.imported).toBe(1);
    vi.restoreAllMocks();
    await importOk([await write('ref/pump.md', OLD)], 'Ref');
    await importOk([await write('ref/fan.md', FAN)], 'Ref');
    // What the fan's commit saved holds the previous pump, not the new one.
    await engine.dispose();
    engine = createEngine({ dataDir: path.join(dir, 'data'), bundledModelsDir: path.join(dir, 'no-models') });
    expect(await vocabularyOf()).toEqual(await vocabularyOf('Ref'));
    expect(await modelsFor('RAC-990X gasket')).not.toContain('RAC-990X');
  });
});
