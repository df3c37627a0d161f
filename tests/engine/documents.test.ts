import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { validateInput, type EngineEvent } from '../../src-main/contract/api';
import { column, writePdf } from '../fixtures/pdf-writer';
import { useTempEngine } from '../helpers/temp-engine';
import { Readable } from 'node:stream';
import { isSafeRelativePath, stageUploadedFile } from '../../src-main/engine/uploads';

const t = useTempEngine();

const MD = '# RAC-225B service manual\n\n## Fuses\n\nThe RAC-225B takes a 10 A slow-blow fuse on the control board.\n\n## Filters\n\nClean the RAC-225B air filter every two weeks.\n';

function unwrap<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('document views for the inspector and the source viewer', () => {
  it('lists a document’s chunks with prefix, signature and offsets into its text', async () => {
    const file = path.join(t.dir, 'rac-225b.md');
    await writeFile(file, MD);
    unwrap(await t.engine.importPaths('Shop', [file]));
    const chunks = unwrap(await t.engine.handlers['documents.chunks']({ library: 'Shop', id: 'rac-225b.md' }));
    expect(chunks.length).toBeGreaterThan(0);
    const source = unwrap(await t.engine.handlers['documents.source']({ library: 'Shop', id: 'rac-225b.md' }));
    for (const c of chunks) {
      expect(source.text.slice(c.start, c.end)).toBe(c.text);
      expect(c.indexedText.endsWith(c.text)).toBe(true);
      expect(c.signature.model).toBe('RAC-225B');
    }
    expect(chunks[0]!.prefix).toContain('Model: RAC-225B');
    expect(chunks.map((c) => c.ordinal)).toEqual(chunks.map((_, i) => i));
  });

  it('takes the same file imported again as a new version when the stored text was lost, and shows that text again', async () => {
    const file = path.join(t.dir, 'rac-225b.md');
    await writeFile(file, MD);
    unwrap(await t.engine.importPaths('Shop', [file]));
    const lib = (await t.engine.libraries.get('Shop'))!;
    // Unchanged and intact: already in the library.
    expect(unwrap(await t.engine.importPaths('Shop', [file])).results.map((r) => r.status)).toEqual(['already']);
    const rec = (await lib.document('rac-225b.md'))!;
    await rm(path.join(lib.dir, rec.normalized!.file));
    expect((await t.engine.handlers['documents.source']({ library: 'Shop', id: 'rac-225b.md' })).ok).toBe(false);
    // The viewer says "import the file again": doing so restores the text.
    expect(unwrap(await t.engine.importPaths('Shop', [file])).results.map((r) => r.status)).toEqual(['replaced']);
    const source = unwrap(await t.engine.handlers['documents.source']({ library: 'Shop', id: 'rac-225b.md' }));
    expect(source.text).toContain('10 A slow-blow fuse');
    expect(unwrap(await t.engine.handlers['documents.chunks']({ library: 'Shop', id: 'rac-225b.md' })).length).toBe((await lib.document('rac-225b.md'))!.chunks);
  });

  it('gives page starts for a PDF and its original bytes', async () => {
    const pages = [1, 2, 3].map((n) => ({ runs: column([`Page ${n} talks about the pump seal number ${n * 111}.`], 72, 700) }));
    const bytes = writePdf(pages, { title: 'Pump manual' });
    const file = path.join(t.dir, 'pump.pdf');
    await writeFile(file, bytes);
    unwrap(await t.engine.importPaths('Shop', [file]));
    const source = unwrap(await t.engine.handlers['documents.source']({ library: 'Shop', id: 'pump.pdf' }));
    expect(source.pageCount).toBe(3);
    expect(source.pageStarts).toHaveLength(3);
    expect(source.text.slice(source.pageStarts[1]!, source.pageStarts[2]!)).toContain('222');
    const original = unwrap(await t.engine.handlers['documents.original']({ library: 'Shop', id: 'pump.pdf' }));
    expect(original.mime).toBe('application/pdf');
    expect(Buffer.from(original.base64, 'base64').equals(Buffer.from(bytes))).toBe(true);
  });

  it("never opens a file outside the library that a document's record names as its original", async () => {
    // A subscribed library's documents.json comes from a bucket: a record may name any path.
    const secret = path.join(t.dir, 'secret.txt');
    await writeFile(secret, 'aws_secret_access_key = hunter2');
    const file = path.join(t.dir, 'rac-225b.md');
    await writeFile(file, MD);
    unwrap(await t.engine.importPaths('Shop', [file]));
    const libDir = (await t.engine.libraries.get('Shop'))!.dir;
    const docsFile = path.join(libDir, 'documents.json');
    const stored = JSON.parse(await readFile(docsFile, 'utf8')) as { documents: { original: string | null }[] };
    stored.documents[0]!.original = path.relative(libDir, secret);
    await writeFile(docsFile, JSON.stringify(stored));
    // The engine reads documents.json again when it changed on disk (as after another process's write).
    await (await t.engine.libraries.get('Shop'))!.reloadIfChangedOnDisk();
    const res = await t.engine.handlers['documents.original']({ library: 'Shop', id: 'rac-225b.md' });
    expect(res).toMatchObject({ ok: false, error: { code: 'corrupt', message: expect.stringContaining('outside the library folder') } });
    // Removing the document does not delete the file the record names either.
    unwrap(await t.engine.handlers['documents.remove']({ library: 'Shop', id: 'rac-225b.md' }));
    expect(existsSync(secret)).toBe(true);
  });

  it('serves each small original from its batch’s pack with exactly its own bytes, until the last one goes', async () => {
    const dir = path.join(t.dir, 'in');
    await mkdir(dir);
    const texts = { 'a.md': MD, 'b.txt': 'Relay K4\n\nThe K4 relay coil is rated 24 V DC. ü\n' };
    for (const [name, text] of Object.entries(texts)) await writeFile(path.join(dir, name), text);
    unwrap(await t.engine.importPaths('Shop', [dir]));
    const lib = (await t.engine.libraries.get('Shop'))!;
    const recs = await lib.documents();
    expect(new Set(recs.map((r) => r.original)).size).toBe(1);
    expect(recs.every((r) => r.originalRange)).toBe(true);
    const served = async (id: string) => Buffer.from(unwrap(await t.engine.handlers['documents.original']({ library: 'Shop', id })).base64, 'base64').toString('utf8');
    expect(await served('in/a.md')).toBe(texts['a.md']);
    expect(await served('in/b.txt')).toBe(texts['b.txt']);
    const pack = path.join(lib.dir, recs[0]!.original!);
    unwrap(await t.engine.handlers['documents.remove']({ library: 'Shop', id: 'in/a.md' }));
    expect(await served('in/b.txt')).toBe(texts['b.txt']);
    unwrap(await t.engine.handlers['documents.remove']({ library: 'Shop', id: 'in/b.txt' }));
    expect(existsSync(pack)).toBe(false);
  });

  it('answers not-found for a packed original whose range lies past its pack', async () => {
    const file = path.join(t.dir, 'rac-225b.md');
    await writeFile(file, MD);
    unwrap(await t.engine.importPaths('Shop', [file]));
    const libDir = (await t.engine.libraries.get('Shop'))!.dir;
    const docsFile = path.join(libDir, 'documents.json');
    const stored = JSON.parse(await readFile(docsFile, 'utf8')) as { documents: { originalRange?: { offset: number; length: number } }[] };
    stored.documents[0]!.originalRange = { offset: 10, length: MD.length };
    await writeFile(docsFile, JSON.stringify(stored));
    await (await t.engine.libraries.get('Shop'))!.reloadIfChangedOnDisk();
    const res = await t.engine.handlers['documents.original']({ library: 'Shop', id: 'rac-225b.md' });
    expect(res).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });

  it('answers not-found for an unknown document', async () => {
    unwrap(await t.engine.handlers['libraries.create']({ name: 'Shop' }));
    const res = await t.engine.handlers['documents.chunks']({ library: 'Shop', id: 'nope.md' });
    expect(res).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });
});

describe('import.upload (dropped files in a browser)', () => {
  it('imports streamed uploads under their relative names and removes the staging folder', async () => {
    const events: EngineEvent[] = [];
    t.engine.subscribe((e) => events.push(e));
    const uploadId = 'drop-0001';
    const files = [
      { path: 'manuals/rac-225b.md', text: MD },
      { path: 'manuals/sub/notes.txt', text: 'Torque the RAC-225B fan screw to 2 Nm.' },
    ];
    for (const f of files) {
      const staged = await stageUploadedFile(t.engine.uploadsDir, uploadId, f.path, Readable.from([Buffer.from(f.text)]), 1024 * 1024);
      expect(staged).toEqual({ ok: true, value: { bytes: Buffer.byteLength(f.text) } });
    }
    const { jobId } = unwrap(await t.engine.handlers['import.upload']({ library: 'Drops', uploadId }));
    await t.engine.idle();
    const done = events.find((e) => e.type === 'import.done' && e.jobId === jobId);
    expect(done).toBeDefined();
    const docs = unwrap(await t.engine.handlers['documents.list']({ library: 'Drops' }));
    expect(docs.map((d) => d.id).sort()).toEqual(['manuals/rac-225b.md', 'manuals/sub/notes.txt']);
    expect(docs.every((d) => d.status === 'ready')).toBe(true);
    expect(existsSync(t.engine.uploadsDir) ? await readdir(t.engine.uploadsDir) : []).toEqual([]);
  });

  it('refuses names that leave the dropped folder before anything is written', async () => {
    for (const bad of ['../evil.md', '/etc/passwd', 'a/../../b.md', 'C:/x.md', 'a\\b.md', 'a//b.md']) {
      expect(isSafeRelativePath(bad), bad).toBe(false);
      const res = await stageUploadedFile(t.engine.uploadsDir, 'drop-0002', bad, Readable.from([Buffer.from('x')]), 1024);
      expect(res, bad).toMatchObject({ ok: false, error: { code: 'unsafe-path' } });
    }
    expect(existsSync(path.join(t.engine.uploadsDir, 'drop-0002'))).toBe(false);
  });

  it('stops staging a file at the size cap and keeps no part of it', async () => {
    const big = Readable.from((function* () {
      for (let i = 0; i < 64; i++) yield Buffer.alloc(16 * 1024, 0x61);
    })());
    const res = await stageUploadedFile(t.engine.uploadsDir, 'drop-0003', 'big.txt', big, 100 * 1024);
    expect(res).toMatchObject({ ok: false, error: { code: 'too-large' } });
    expect(await readdir(path.join(t.engine.uploadsDir, 'drop-0003'))).toEqual([]);
    expect(await t.engine.handlers['import.upload']({ library: 'Drops', uploadId: 'drop-0003' })).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });

  it('refuses a second file under a name the upload already holds, in words, and keeps the first', async () => {
    const dir = path.join(t.engine.uploadsDir, 'drop-0004');
    const stage = (rel: string, text: string) => stageUploadedFile(t.engine.uploadsDir, 'drop-0004', rel, Readable.from([Buffer.from(text)]), 1024);
    expect(await stage('manual.md', '# RAC-225B manual')).toEqual({ ok: true, value: { bytes: 17 } });
    expect(await stage('manual.md', '# XR-10 manual')).toEqual({
      ok: false,
      error: {
        code: 'already-exists',
        message: 'Another file of this upload is already named "manual.md": the first is kept, and this one is not taken (each file of a drop needs a name of its own).',
      },
    });
    // A file where a folder of the upload is, and a folder where one of its files is.
    expect((await stage('docs/a.md', '# A')).ok).toBe(true);
    expect(await stage('docs', '# Docs')).toMatchObject({ ok: false, error: { code: 'already-exists' } });
    expect(await stage('manual.md/b.md', '# B')).toMatchObject({ ok: false, error: { code: 'already-exists', message: expect.stringContaining('"manual.md/b.md" needs a folder') } });
    // Two at once under one name: one is taken, the other refused, never one replacing the other.
    const raced = await Promise.all([stage('twin.md', '# One'), stage('twin.md', '# Two')]);
    expect(raced.map((r) => (r.ok ? 'ok' : r.error.code)).sort()).toEqual(['already-exists', 'ok']);
    expect(await readFile(path.join(dir, 'manual.md'), 'utf8')).toBe('# RAC-225B manual');
    expect((await readdir(dir, { recursive: true })).map(String).sort()).toEqual(['docs', path.join('docs', 'a.md'), 'manual.md', 'twin.md']);
  });

  it('validates the upload id at the edge', () => {
    for (const bad of ['../x', 'short', 'a/b/c/d/e/f', '']) expect(validateInput('import.upload', { library: 'L', uploadId: bad }).ok, bad).toBe(false);
  });
});

describe('library settings', () => {
  it('re-chunks from stored normalized documents when the strategy changes', async () => {
    await mkdir(path.join(t.dir, 'in'), { recursive: true });
    const section = (name: string, fact: string) => `## ${name}\n\n${fact} ${'This paragraph explains the procedure in detail for the service technician. '.repeat(3)}\n\n`;
    await writeFile(path.join(t.dir, 'in', 'm.md'), `# RAC-225B\n\n${section('Fuses', 'Use a 10 A slow-blow fuse.')}${section('Filters', 'Clean the air filter.')}${section('Drain', 'Check the drain hose.')}`);
    unwrap(await t.engine.importPaths('Shop', [path.join(t.dir, 'in', 'm.md')]));
    const before = unwrap(await t.engine.handlers['documents.chunks']({ library: 'Shop', id: 'm.md' }));
    const lib = unwrap(await t.engine.handlers['libraries.configure']({ library: 'Shop', strategy: 'naive' }));
    expect(lib.strategy).toBe('naive');
    const after = unwrap(await t.engine.handlers['documents.chunks']({ library: 'Shop', id: 'm.md' }));
    expect(after.length).toBe(1);
    expect(before.length).toBeGreaterThan(1);
    const hits = unwrap(await t.engine.handlers['search.query']({ library: 'Shop', query: 'slow-blow fuse', topK: 3, retriever: 'bm25' }));
    expect(hits.results[0]?.doc).toBe('m.md');
  });
});
