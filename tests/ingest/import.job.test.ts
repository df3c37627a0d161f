import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import type { ImportSummary } from '../../src-main/contract/api';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { LibraryIndex } from '../../src-main/index/library-index';
import { Library } from '../../src-main/storage/library.store';
import { PackWriter, storedBy } from '../../src-main/storage/text-pack';
import { writePdf } from '../fixtures/pdf-writer';
import { corpusRoots, tempDir } from '../helpers/temp';
import { markdownFiles } from './doc-invariants';

let engine: Engine;
let dir: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  const tmp = await tempDir();
  dir = tmp.dir;
  cleanup = tmp.cleanup;
  engine = createEngine({ dataDir: path.join(dir, 'data'), bundledModelsDir: path.join(dir, 'no-models'), maxFileBytes: 64 * 1024 });
});
afterEach(async () => {
  await engine.dispose();
  await cleanup();
});

async function write(rel: string, data: string | Uint8Array): Promise<string> {
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

async function search(query: string, library = 'Shop') {
  const res = await engine.handlers['search.query']({ library, query, topK: 5, retriever: 'bm25' });
  if (!res.ok) throw new Error(res.error.message);
  return res.value.results;
}

const byFile = (s: ImportSummary) => Object.fromEntries(s.results.map((r) => [r.file, r]));

describe('import of a batch with bad files', () => {
  it('imports the good files and gives every bad one its reason, without stopping', async () => {
    const docx = await Packer.toBuffer(
      new Document({ sections: [{ children: [new Paragraph({ text: 'Pump P-200 manual', heading: HeadingLevel.HEADING_1 }), new Paragraph('The P-200 impeller torque is 42 Nm.')] }] }),
    );
    const folder = path.join(dir, 'in', 'batch');
    await write('batch/good.md', '# RAC-225B service\n\nThe RAC-225B takes a 10 A slow-blow fuse on the control board.\n');
    await write('batch/manual.docx', docx);
    await write('batch/empty.md', '');
    await write('batch/picture.md', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]));
    await write('batch/broken.pdf', '%PDF-1.4\nthis is not really a pdf\n');
    await write('batch/locked.pdf', writePdf([{ runs: [{ x: 72, y: 700, text: 'Secret service data' }] }], { userPassword: 'pw' }));
    await write('batch/scan.pdf', writePdf([{ image: { x: 0, y: 0, width: 612, height: 792 } }]));
    await write('batch/huge.txt', 'x'.repeat(70 * 1024));
    await write('batch/notes.xyz', 'ignored inside a folder');
    const named = await write('single/old.doc', 'old word file');
    const missing = path.join(dir, 'in', 'does-not-exist.pdf');

    const summary = await importOk([folder, named, missing]);
    const r = byFile(summary);
    expect(r['batch/good.md']).toMatchObject({ status: 'imported' });
    expect(r['batch/manual.docx']).toMatchObject({ status: 'imported' });
    expect(r['batch/empty.md']).toMatchObject({ status: 'failed', reason: expect.stringMatching(/empty/i) });
    expect(r['batch/picture.md']).toMatchObject({ status: 'failed', reason: expect.stringMatching(/not text|PNG/i) });
    expect(r['batch/broken.pdf']).toMatchObject({ status: 'failed', reason: expect.stringMatching(/damaged|not a PDF/i) });
    expect(r['batch/locked.pdf']).toMatchObject({ status: 'failed', reason: expect.stringMatching(/password/i) });
    expect(r['batch/scan.pdf']).toMatchObject({ status: 'failed', reason: expect.stringContaining('no text layer; OCR is not supported yet') });
    expect(r['batch/huge.txt']).toMatchObject({ status: 'failed', reason: 'The file is too large to import (limit 64 KB): it is 70 KB.' });
    expect(r['old.doc']).toMatchObject({ status: 'failed', reason: expect.stringMatching(/docx/i) });
    expect(r['does-not-exist.pdf']).toMatchObject({ status: 'failed', reason: expect.stringMatching(/does not exist/) });
    expect(r['batch/notes.xyz']).toBeUndefined();
    expect(summary.skipped).toEqual([{ file: 'batch/notes.xyz', reason: 'unsupported type .xyz' }]);
    expect(summary.summary).toMatchObject({ imported: 2, failed: 8 });

    const docs = await engine.handlers['documents.list']({ library: 'Shop' });
    if (!docs.ok) throw new Error(docs.error.message);
    const listed = Object.fromEntries(docs.value.map((d) => [d.id, d]));
    expect(listed['batch/good.md']).toMatchObject({ status: 'ready', format: 'markdown' });
    expect(listed['batch/locked.pdf']).toMatchObject({ status: 'failed', reason: expect.stringMatching(/password/i) });
    // A format it does not read is reported above but not listed as a document to retry.
    expect(listed['old.doc']).toBeUndefined();
    expect((await search('slow-blow fuse'))[0]?.doc).toBe('batch/good.md');
    expect((await search('impeller torque'))[0]?.doc).toBe('batch/manual.docx');
  });

  it('refuses a file name that could escape the library folder', async () => {
    const evil = await write('a\\..\\..\\evil.md', '# Evil\n\ntext\n');
    const summary = await importOk([evil]);
    expect(summary.results[0]).toMatchObject({ status: 'failed', reason: expect.stringMatching(/could escape the library folder/) });
  });
});

describe('storing originals', () => {
  it('fails only the file whose original cannot be stored and lists it without chunks', async () => {
    // The disk refuses one file (a full disk, a permission problem): stores run behind parsing now,
    // so their failure must still reach that file alone, before any of its rows are written.
    // Small originals are gathered into a pack (`PackWriter`); one of them is refused.
    const add = PackWriter.prototype.add;
    const spy = vi.spyOn(PackWriter.prototype, 'add').mockImplementation(function (this: PackWriter, bytes: Uint8Array) {
      if (Buffer.from(bytes).toString().includes('mesh filter')) return Promise.reject(new Error('ENOSPC: no space left on device'));
      return add.call(this, bytes);
    });
    try {
      await write('disk/fuse.md', '# RAC-225B fuses\n\nThe RAC-225B takes a 10 A slow-blow fuse.\n');
      await write('disk/full-disk.md', '# RAC-225B filter\n\nClean the mesh filter every 200 hours.\n');
      const summary = await importOk([path.join(dir, 'in', 'disk')]);
      const r = byFile(summary);
      expect(r['disk/fuse.md']).toMatchObject({ status: 'imported' });
      expect(r['disk/full-disk.md']).toMatchObject({ status: 'failed', reason: 'Could not store this document in the library: the disk is full (ENOSPC).' });
      expect(summary.summary).toMatchObject({ imported: 1, failed: 1 });
      const docs = await engine.handlers['documents.list']({ library: 'Shop' });
      if (!docs.ok) throw new Error(docs.error.message);
      const listed = Object.fromEntries(docs.value.map((d) => [d.id, d]));
      expect(listed['disk/fuse.md']).toMatchObject({ status: 'ready' });
      expect(listed['disk/full-disk.md']).toMatchObject({ status: 'failed', chunks: 0 });
      expect((await search('slow-blow fuse'))[0]?.doc).toBe('disk/fuse.md');
      expect(await search('mesh filter')).toHaveLength(0);
    } finally {
      spy.mockRestore();
    }
  });

  it('keeps the previous version of a document whose new original cannot be stored', async () => {
    const file = await write('m/pump.md', '# Pump\n\nThe old gasket is part GX-100.\n');
    await importOk([file]);
    await writeFile(file, '# Pump\n\nThe new gasket is part GY-300.\n');
    // The small original goes into the batch's pack, whose write fails.
    const spy = vi.spyOn(PackWriter.prototype, 'flush').mockImplementation(async function (this: PackWriter) {
      this.discard(new Error('EIO: i/o error'));
    });
    try {
      const summary = await importOk([file]);
      expect(summary.results[0]).toMatchObject({ status: 'failed', reason: expect.stringMatching(/i\/o error.*previous version is kept/) });
    } finally {
      spy.mockRestore();
    }
    expect((await search('GX-100'))[0]?.doc).toBe('pump.md');
    expect(await search('GY-300')).toHaveLength(0);
    const lib = (await engine.libraries.get('Shop'))!;
    expect(await lib.document('pump.md')).toMatchObject({ status: 'ready', chunks: 1 });
  });
});

describe('normalized texts stored per batch', () => {
  it('fails the batch when its normalized texts cannot be stored, keeping the previous version of a replaced document', async () => {
    const pump = await write('b/pump.md', '# Pump\n\nThe old gasket is part GX-100.\n');
    await importOk([pump]);
    const lib = (await engine.libraries.get('Shop'))!;
    const before = await readdir(path.join(lib.dir, 'normalized'));
    await writeFile(pump, '# Pump\n\nThe new gasket is part GY-300.\n');
    const fan = await write('b/fan.md', '# Fan\n\nThe fan takes a 3 A fuse.\n');
    const spy = vi.spyOn(Library.prototype, 'storeNormalized').mockRejectedValue(Object.assign(new Error('no space'), { code: 'ENOSPC' }));
    try {
      const r = byFile(await importOk([pump, fan]));
      expect(r['fan.md']).toMatchObject({ status: 'failed', reason: 'Could not store this document in the library: the disk is full (ENOSPC).' });
      expect(r['pump.md']).toMatchObject({ status: 'failed', reason: expect.stringMatching(/disk is full.*previous version is kept/) });
    } finally {
      spy.mockRestore();
    }
    expect((await search('GX-100'))[0]?.doc).toBe('pump.md');
    expect(await search('GY-300')).toHaveLength(0);
    expect(await search('3 A fuse')).toHaveLength(0);
    expect(await lib.document('pump.md')).toMatchObject({ status: 'ready', chunks: 1 });
    expect(await lib.document('fan.md')).toMatchObject({ status: 'failed', chunks: 0 });
    expect(await readdir(path.join(lib.dir, 'normalized'))).toEqual(before);
  });

  it('keeps no normalized text of a document that failed to be indexed', async () => {
    // The batch's texts are written while it is prepared: those of documents that fail afterwards must not stay.
    const pump = await write('f/pump.md', '# Pump\n\nThe gasket is part GX-100.\n');
    await importOk([pump]);
    const lib = (await engine.libraries.get('Shop'))!;
    const before = await readdir(path.join(lib.dir, 'normalized'), { recursive: true });
    const prepare = LibraryIndex.prototype.prepare;
    const spy = vi.spyOn(LibraryIndex.prototype, 'prepare').mockImplementation(function (this: LibraryIndex, doc, signal) {
      // A reason written as a sentence (as the chunkers write theirs) is not given a second full stop.
      return doc.id.startsWith('fan') ? Promise.reject(new Error('The chunker broke.')) : prepare.call(this, doc, signal);
    });
    try {
      const fans = await Promise.all(['fan.md', 'fan2.md'].map((n) => write(`f/${n}`, `# Fan\n\nThe ${n} takes a 3 A fuse.\n`)));
      const r = byFile(await importOk(fans));
      expect(r['fan.md']).toMatchObject({ status: 'failed', reason: 'Could not chunk and enrich this document: The chunker broke.' });
      expect(r['fan2.md']).toMatchObject({ status: 'failed' });
    } finally {
      spy.mockRestore();
    }
    expect(await readdir(path.join(lib.dir, 'normalized'), { recursive: true })).toEqual(before);
    const used = storedBy(await lib.documents());
    expect(used.packs.size + used.hashes.size).toBe(1);
  });

  it('packs a batch of small documents into one file that each listed record points into', async () => {
    const files = await Promise.all(['one', 'two', 'three'].map((n) => write(`p/${n}.md`, `# ${n}\n\nManual ${n} for the RAC-225B.\n`)));
    expect((await importOk(files)).summary.imported).toBe(3);
    const lib = (await engine.libraries.get('Shop'))!;
    const docs = await lib.documents();
    expect(new Set(docs.map((d) => d.normalized?.file)).size).toBe(1);
    expect(await readdir(path.join(lib.dir, 'normalized'))).toEqual([path.basename(docs[0]!.normalized!.file)]);
    for (const d of docs) expect((await lib.loadNormalized(d))?.text).toContain(`Manual ${d.id.replace('.md', '')}`);
  });
});

describe('re-import and replacement', () => {
  it('reports an identical file as already in the library', async () => {
    const file = await write('m/pump.md', '# Pump\n\nPrime the pump before first use.\n');
    expect((await importOk([file])).summary.imported).toBe(1);
    const again = await importOk([file]);
    expect(again.results).toEqual([{ file: 'pump.md', status: 'already', reason: 'already in library' }]);
  });

  it('reports a copy of a listed document under another name as already there, and imports it once', async () => {
    const text = '# RAC-225B service\n\nThe RAC-225B takes a 10 A slow-blow fuse.\n';
    await importOk([await write('a/rac-225b.md', text)]);
    const copy = await write('b/rac-225b copy.md', text);
    expect((await importOk([copy])).results).toEqual([{ file: 'rac-225b copy.md', status: 'already', reason: 'the same file as "rac-225b.md"', sameAs: 'rac-225b.md' }]);
    const lib = (await engine.libraries.get('Shop'))!;
    expect((await lib.documents()).map((d) => d.id)).toEqual(['rac-225b.md']);
    expect(await search('slow-blow fuse')).toHaveLength(1);
  });

  it('imports the first of two identical files of one drop and reports the other as its copy', async () => {
    const text = '# Pump P-200\n\nPrime the P-200 before first use.\n';
    const first = await write('c/p-200.md', text);
    const second = await write('c/p-200 (1).md', text);
    const summary = await importOk([first, second]);
    expect(byFile(summary)['p-200.md']).toMatchObject({ status: 'imported' });
    expect(byFile(summary)['p-200 (1).md']).toMatchObject({ status: 'already', sameAs: 'p-200.md' });
    expect(await search('Prime the P-200')).toHaveLength(1);
  });

  it('reports the second of two identical files of one name as a copy, under the name the user gave it, without the note on its renaming', async () => {
    const text = '# Pump P-9\n\nPrime the P-9 before first use.\n';
    const second = await write('h/b/manual.md', text);
    const summary = await importOk([await write('h/a/manual.md', text), second]);
    expect(summary.results.find((r) => r.file === 'manual.md')).toMatchObject({ status: 'imported' });
    // "manual (2).md" is a name the user never gave: the copy is reported as the file they named.
    expect(summary.results.map((r) => r.file)).not.toContain('manual (2).md');
    const copy = summary.results.find((r) => r.file === second);
    expect(copy).toMatchObject({ status: 'already', sameAs: 'manual.md' });
    expect(copy?.note).toBeUndefined();
  });

  it('reports a copy inside a renamed folder under the folder as the user named it, and the rest of its path', async () => {
    const text = '# Pump P-8\n\nPrime the P-8 before first use.\n';
    await write('i/a/docs/other.md', '# Pump P-7\n\nThe P-7 seal is checked yearly.\n');
    await write('i/b/docs/x/manual.md', text);
    await write('i/b/docs/x/manual copy.md', text);
    const summary = await importOk([path.join(dir, 'in', 'i/a/docs'), path.join(dir, 'in', 'i/b/docs')]);
    // The folder's walk reads "manual.md" first (a name before its copies): the other is its copy.
    expect(summary.results.find((r) => r.sameAs !== undefined)).toMatchObject({ file: path.join(dir, 'in', 'i/b/docs/x/manual copy.md'), status: 'already', sameAs: 'docs (2)/x/manual.md' });
    // A file of the renamed folder that was imported keeps its name and says why.
    expect(summary.results.find((r) => r.file === 'docs (2)/x/manual.md')).toMatchObject({ status: 'imported', note: expect.stringContaining('Imported as "docs (2)"') });
  });

  it('imports the plain name of identical files in a folder and reports the copy-marked ones as its copies', async () => {
    const text = '# Pump P-6\n\nPrime the P-6 before first use.\n';
    const copies = ['manual copy.md', 'manual - Copy.md', 'manual (1).md'];
    for (const name of ['manual.md', ...copies]) await write(`j/manuals/${name}`, text);
    const r = byFile(await importOk([path.join(dir, 'in', 'j/manuals')]));
    expect(r['manuals/manual.md']).toMatchObject({ status: 'imported' });
    for (const copy of copies) expect(r[`manuals/${copy}`]).toMatchObject({ status: 'already', sameAs: 'manuals/manual.md' });
    const lib = (await engine.libraries.get('Shop'))!;
    expect((await lib.documents()).map((d) => d.id)).toEqual(['manuals/manual.md']);
  });

  it('imports the same bytes under another name or folder: a page vendors publish for each sibling model', async () => {
    const page = '# HDMI\n\nConnect the display to the HDMI port before power-on.\n';
    await write('f/rock2a/hdmi.md', page);
    await write('f/rock2f/hdmi.md', page);
    const r = byFile(await importOk([path.join(dir, 'in', 'f')]));
    expect(r['f/rock2a/hdmi.md']).toMatchObject({ status: 'imported' });
    expect(r['f/rock2f/hdmi.md']).toMatchObject({ status: 'imported' });
    // Alone, under another folder's name, it is another document too.
    expect((await importOk([await write('g/hdmi.md', page)])).results[0]).toMatchObject({ status: 'imported' });
  });

  it('imports a file whose bytes are a listed document\'s old version when the same import replaces that document', async () => {
    const folder = path.join(dir, 'in', 'd');
    const old = '# Fan F-10\n\nThe F-10 blade is part BL-10.\n';
    await write('d/fan.md', old);
    await importOk([folder]);
    await write('d/fan.md', '# Fan F-10\n\nThe F-10 blade is now part BL-20.\n');
    await write('d/fan copy.md', old);
    const r = byFile(await importOk([folder]));
    expect(r['d/fan.md']).toMatchObject({ status: 'replaced' });
    expect(r['d/fan copy.md']).toMatchObject({ status: 'imported' });
    const lib = (await engine.libraries.get('Shop'))!;
    expect((await lib.documents()).map((d) => d.id)).toEqual(['d/fan copy.md', 'd/fan.md']);
    expect((await search('blade')).map((h) => h.doc).sort()).toEqual(['d/fan copy.md', 'd/fan.md']);
  });

  it('replaces a listed document with a new version even when its bytes are another listed document\'s', async () => {
    const a = await write('e/a.md', '# Valve V-1\n\nThe V-1 seat is part S-1.\n');
    const b = await write('e/b.md', '# Valve V-2\n\nThe V-2 seat is part S-2.\n');
    await importOk([a, b]);
    await writeFile(b, '# Valve V-1\n\nThe V-1 seat is part S-1.\n');
    expect((await importOk([b])).results[0]).toMatchObject({ status: 'replaced' });
    expect(await search('S-2')).toHaveLength(0);
  });

  it('replaces a changed file without leaving orphans and keeps a good version when the new one is bad', async () => {
    const file = await write('m/pump.md', '# Pump\n\nThe old gasket is part GX-100.\n');
    await importOk([file]);
    expect(await search('GX-100')).toHaveLength(1);
    await writeFile(file, '# Pump\n\nThe new gasket is part GY-300.\n');
    expect((await importOk([file])).results[0]).toMatchObject({ status: 'replaced' });
    expect(await search('GX-100')).toHaveLength(0);
    expect((await search('GY-300'))[0]?.doc).toBe('pump.md');
    const lib = (await engine.libraries.get('Shop'))!;
    expect(await readdir(path.join(lib.dir, 'normalized'))).toHaveLength(1);
    // The previous version's original (a pack of one) went with it.
    expect(await readdir(path.join(lib.dir, 'originals'))).toEqual([path.basename((await lib.document('pump.md'))!.original!)]);

    await writeFile(file, Buffer.from([0, 1, 2, 3, 0, 0, 0, 0]));
    const bad = await importOk([file]);
    expect(bad.results[0]).toMatchObject({ status: 'failed', reason: expect.stringContaining('previous version is kept') });
    expect((await search('GY-300'))[0]?.doc).toBe('pump.md');
    expect((await lib.document('pump.md'))?.status).toBe('ready');
  });
});

describe('document identity', () => {
  it('names documents by their path relative to the parent of the imported folder', async () => {
    const summary = await importOk([path.join(corpusRoots.fixture, 'esp-dev-kits')], 'Esp');
    expect(summary.summary.failed).toBe(0);
    const ids = summary.results.map((r) => r.file);
    expect(ids.every((id) => id.startsWith('esp-dev-kits/'))).toBe(true);
    expect(ids).toContain('esp-dev-kits/MANIFEST.txt');
  });
});

describe('cancelling an import', () => {
  it('keeps only fully imported documents when cancelled midway', async () => {
    const lib = await engine.handlers['libraries.create']({ name: 'Big' });
    expect(lib.ok).toBe(true);
    let jobId = '';
    let cancelled: Promise<unknown> | null = null;
    const seen: string[] = [];
    const unsubscribe = engine.subscribe((e) => {
      if (e.type !== 'import.progress' || e.jobId !== jobId) return;
      if (e.stage === 'ready') seen.push(e.file);
      if (!cancelled && e.stage === 'parsing' && e.done === 0 && seen.length === 0) cancelled = engine.handlers['import.cancel']({ jobId });
    });
    const folder = path.join(corpusRoots.fixture, 'radxa-docs');
    const started = await engine.handlers['import.start']({ library: 'Big', paths: [folder] });
    if (!started.ok) throw new Error(started.error.message);
    jobId = started.value.jobId;
    await engine.idle();
    unsubscribe();
    expect(cancelled).not.toBeNull();
    expect(await cancelled).toEqual({ ok: true, value: { cancelled: true } });
    const docs = await engine.handlers['documents.list']({ library: 'Big' });
    if (!docs.ok) throw new Error(docs.error.message);
    expect(docs.value.length).toBeLessThan(markdownFiles(folder).length);
    expect(docs.value.every((d) => d.status === 'ready' && d.chunks > 0)).toBe(true);
  });
});

describe('cancelling an import after its documents were learned', () => {
  it('leaves the vocabulary with the listed documents only', async () => {
    const lib = await engine.handlers['libraries.create']({ name: 'Vocab' });
    expect(lib.ok).toBe(true);
    const first = await write('first/rac-225b.md', '# RAC-225B service manual\n\nThe RAC-225B takes a 10 A fuse.\n');
    expect((await importOk([path.dirname(first)], 'Vocab')).summary.imported).toBe(1);
    let jobId = '';
    let cancelled: Promise<unknown> | null = null;
    const unsubscribe = engine.subscribe((e) => {
      // Chunking starts once the whole batch is learned.
      if (e.type === 'import.progress' && e.jobId === jobId && e.stage === 'chunking' && !cancelled) cancelled = engine.handlers['import.cancel']({ jobId });
    });
    const started = await engine.handlers['import.start']({ library: 'Vocab', paths: [path.join(corpusRoots.fixture, 'radxa-docs')] });
    if (!started.ok) throw new Error(started.error.message);
    jobId = started.value.jobId;
    await engine.idle();
    unsubscribe();
    expect(await cancelled).toEqual({ ok: true, value: { cancelled: true } });
    const library = (await engine.libraries.list()).find((l) => l.config.name === 'Vocab')!;
    const listed = (await library.documents()).filter((d) => d.status === 'ready').map((d) => d.id);
    const vocabulary = (await engine.indexes.open(library)).enrichment.vocabulary;
    expect(vocabulary.documentCount).toBe(listed.length);
    for (const id of listed) expect(vocabulary.hasDocument(id)).toBe(true);
    // Nor are the cancelled batch's normalized texts kept: only the listed document's is there.
    const used = storedBy(await library.documents());
    const files = (await readdir(path.join(library.dir, 'normalized'), { recursive: true })).filter((f) => /\.jsonl?$/.test(f));
    expect(files).toHaveLength(used.packs.size + used.hashes.size);
  });
});

describe('file names and leftovers', () => {
  it('imports a file whose name is 251 bytes long', async () => {
    const name = `${'ü'.repeat(100)}${'x'.repeat(47)}.txt`;
    expect(Buffer.byteLength(name)).toBe(251);
    const file = await write(name, 'Relay K4\n\nThe K4 relay coil is rated 24 V DC.\n');
    const summary = await importOk([file]);
    expect(summary.results).toEqual([{ file: name, status: 'imported' }]);
    expect((await search('relay coil'))[0]?.doc).toBe(name);
  });

  it('sweeps temp files at open and, when an import starts, originals and normalized texts no document lists', async () => {
    const kept = await write('kept.md', '# Kept\n\nThe kept manual.\n');
    await importOk([kept]);
    const lib = (await engine.libraries.get('Shop'))!;
    const before = await lib.documents();
    const orphanOriginal = path.join(lib.dir, 'originals', 'gone', 'killed.md');
    const orphanNormalized = path.join(lib.dir, 'normalized', `${'ab'.repeat(32)}.json`);
    const orphanPack = path.join(lib.dir, 'normalized', `pack-${'cd'.repeat(8)}.jsonl`);
    const deadTemp = path.join(lib.dir, 'originals', 'gone', '.killed.md.999999999.0123abcd.tmp');
    await mkdir(path.dirname(orphanOriginal), { recursive: true });
    // Left by an import killed before this process started (their times say so).
    const earlier = new Date(Date.now() - process.uptime() * 1000 - 60_000);
    for (const f of [orphanOriginal, orphanNormalized, orphanPack, deadTemp]) {
      await writeFile(f, 'left by a killed import');
      await utimes(f, earlier, earlier);
    }
    // Written by this process: it could be another import's of this app, not yet listed.
    const fresh = path.join(lib.dir, 'originals', 'gone', 'in-flight.md');
    await writeFile(fresh, 'stored by an import still running');
    await engine.dispose();

    // Opening the library again (a new process, as after a crash) sweeps the temp file only.
    engine = createEngine({ dataDir: path.join(dir, 'data'), bundledModelsDir: path.join(dir, 'no-models') });
    const reopened = (await engine.libraries.get('Shop'))!;
    const files = async () => (await readdir(reopened.dir, { recursive: true })).map((f) => f.split(path.sep).join('/')).sort();
    expect(await files()).not.toContain('originals/gone/.killed.md.999999999.0123abcd.tmp');
    expect(await files()).toContain('originals/gone/killed.md');

    // The next import, the library's writer, sweeps the orphans and keeps what is listed.
    await importOk([await write('next.md', '# Next\n\nThe next manual.\n')]);
    const after = await files();
    expect(after).not.toContain('originals/gone/killed.md');
    expect(after).not.toContain(`normalized/${'ab'.repeat(32)}.json`);
    expect(after).not.toContain(`normalized/pack-${'cd'.repeat(8)}.jsonl`);
    expect(after).toContain('originals/gone/in-flight.md');
    expect(after).toContain(before[0]!.original);
    // The kept document's text is in its batch's pack, which stays.
    expect(after).toContain(before[0]!.normalized!.file);
    // The kept pack predates this process too: only what no listed document points into goes.
    await utimes(path.join(reopened.dir, before[0]!.normalized!.file), earlier, earlier);
    await importOk([await write('third.md', '# Third\n\nThe third manual.\n')]);
    expect(await files()).toContain(before[0]!.normalized!.file);
    expect((await search('kept manual'))[0]?.doc).toBe('kept.md');
  });
});
