import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { NormalizedDocument } from '../../src-main/core/document';
import { LibraryManager, type DocumentRecord, type Library } from '../../src-main/storage/library.store';
import { PACK_ENTRY_BYTES } from '../../src-main/storage/text-pack';
import { tempDir } from '../helpers/temp';

let tmp: Awaited<ReturnType<typeof tempDir>>;
let lib: Library;

beforeEach(async () => {
  tmp = await tempDir('manualmate-pack-');
  const made = await new LibraryManager(tmp.dir).create('Packs');
  if (!made.ok) throw new Error(made.error.message);
  lib = made.value;
});
afterEach(async () => tmp.cleanup());

function doc(id: string, text: string, hashByte: string): NormalizedDocument {
  return {
    id,
    title: id,
    format: 'markdown',
    text,
    blocks: [{ kind: 'paragraph', headingPath: [], page: null, pageEnd: null, start: 0, end: text.length }],
    pageCount: null,
    contentHash: hashByte.repeat(64),
    metadata: {},
  };
}

function record(d: NormalizedDocument, normalized: DocumentRecord['normalized'] | null): DocumentRecord {
  return {
    id: d.id,
    title: d.title,
    format: d.format,
    status: 'ready',
    sizeBytes: d.text.length,
    pageCount: null,
    contentHash: d.contentHash,
    importedAt: new Date(0).toISOString(),
    models: [],
    chunks: 1,
    original: null,
    ...(normalized ? { normalized } : {}),
  };
}

const normalizedFiles = async () => (await readdir(path.join(lib.dir, 'normalized'))).sort();

describe('packed normalized texts', () => {
  it('stores small texts in one pack and a large one in its own file, and reads each back', async () => {
    const small = [doc('a.md', 'The RAC-225B takes a 10 A fuse. ü', 'a'), doc('b.md', 'Drain the pump — every 200 h.', 'b')];
    const large = doc('big.md', 'x'.repeat(PACK_ENTRY_BYTES + 1), 'c');
    const places = await lib.storeNormalized([small[0]!, large, small[1]!]);
    expect(places[1]).toBeNull();
    expect(places[0]!.file).toBe(places[2]!.file);
    expect(await normalizedFiles()).toEqual([path.basename(places[0]!.file), `${'c'.repeat(64)}.json`].sort());
    // The pack reads as JSON lines too.
    const lines = (await readFile(path.join(lib.dir, places[0]!.file), 'utf8')).trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as NormalizedDocument).id)).toEqual(['a.md', 'b.md']);

    // A record gets the text under its own id and title (two files may share one text).
    const renamed = { ...record(small[1]!, places[2]), id: 'copy/b.md', title: 'Copy' };
    expect(await lib.loadNormalized(renamed)).toEqual({ ...small[1], id: 'copy/b.md', title: 'Copy' });
    expect(await lib.loadNormalized(record(small[0]!, places[0]))).toEqual(small[0]);
    expect(await lib.loadNormalized(record(large, null))).toEqual(large);
  });

  it('reads nothing outside the pack folder and nothing from a damaged pack', async () => {
    const d = doc('a.md', 'Clean the mesh filter every 200 hours.', 'a');
    const [where] = await lib.storeNormalized([d]);
    await writeFile(path.join(lib.dir, 'secret.jsonl'), JSON.stringify(d));
    const bad = [
      { ...where!, file: 'secret.jsonl' },
      { ...where!, file: 'normalized/../secret.jsonl' },
      { ...where!, offset: -1 },
      { ...where!, length: where!.length + 10 },
      { ...where!, offset: 1 },
    ];
    for (const b of bad) expect(await lib.loadNormalized(record(d, b)), JSON.stringify(b)).toBeNull();
  });

  it('removes a pack with its last listed document, not before', async () => {
    const a = doc('a.md', 'First manual.', 'a');
    const b = doc('b.md', 'Second manual.', 'b');
    const places = await lib.storeNormalized([a, b]);
    await lib.putDocuments([record(a, places[0]), record(b, places[1])]);
    await lib.removeDocuments(['a.md']);
    expect(await normalizedFiles()).toEqual([path.basename(places[0]!.file)]);
    expect(await lib.loadNormalized(record(b, places[1]))).toEqual(b);
    await lib.removeDocuments(['b.md']);
    expect(await normalizedFiles()).toEqual([]);
  });

  it('drops a replaced version’s pack only once no listed document points into it', async () => {
    const a = doc('a.md', 'Old text.', 'a');
    const b = doc('b.md', 'Other text.', 'b');
    const first = await lib.storeNormalized([a, b]);
    await lib.putDocuments([record(a, first[0]), record(b, first[1])]);
    const a2 = doc('a.md', 'New text.', 'd');
    const [second] = await lib.storeNormalized([a2]);
    await lib.putDocuments([record(a2, second)]);
    await lib.dropUnlisted(record(a, first[0]));
    // b.md still lives in the first pack.
    expect(await normalizedFiles()).toEqual([path.basename(first[0]!.file), path.basename(second!.file)].sort());
    const b2 = doc('b.md', 'Other text, revised.', 'e');
    const [third] = await lib.storeNormalized([b2]);
    await lib.putDocuments([record(b2, third)]);
    await lib.dropUnlisted(record(b, first[1]));
    expect(await normalizedFiles()).toEqual([path.basename(second!.file), path.basename(third!.file)].sort());
  });
});

describe('writing a pack when the disk fills up', () => {
  // The FileHandle class is not exported; its prototype is reached through an open handle.
  async function handleProto() {
    const { open } = await import('node:fs/promises');
    const h = await open(path.join(tmp.dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(h) as { writev: (buffers: Uint8Array[], position?: number) => Promise<{ bytesWritten: number }> };
    await h.close();
    return proto;
  }

  it('writes again what a short write left, so every packed text reads back whole', async () => {
    const proto = await handleProto();
    const real = proto.writev;
    let calls = 0;
    const spy = vi.spyOn(proto, 'writev').mockImplementation(async function (this: unknown, buffers: Uint8Array[]) {
      calls++;
      // The first call writes only 7 bytes and says so, as a filling disk does.
      if (calls === 1) return real.call(this, [buffers[0]!.subarray(0, 7)]);
      return real.call(this, buffers);
    });
    try {
      const docs = [doc('a.md', 'The RAC-225B takes a 10 A fuse.', 'a'), doc('b.md', 'Drain the pump every 200 h.', 'b')];
      const places = await lib.storeNormalized(docs);
      expect(calls).toBeGreaterThan(1);
      for (const [k, d] of docs.entries()) expect((await lib.loadNormalized({ ...record(d, places[k]!), id: d.id }))?.text).toBe(d.text);
    } finally {
      spy.mockRestore();
    }
  });

  it('fails in words when nothing more can be written, and leaves no pack or temp file', async () => {
    const proto = await handleProto();
    const spy = vi.spyOn(proto, 'writev').mockResolvedValue({ bytesWritten: 0 });
    try {
      await expect(lib.storeNormalized([doc('a.md', 'text', 'a')])).rejects.toMatchObject({ code: 'ENOSPC' });
      expect(await normalizedFiles()).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('originals stored alone', () => {
  it('stores a new original of a listed document beside the old one, which stays whole until its record goes', async () => {
    const first = await lib.storeOriginal('m/big.pdf', Buffer.from('%PDF old version'));
    expect(first).toBe('originals/m/big.pdf');
    // A re-import of the same file: the listed version's original must survive a batch that fails.
    const second = await lib.storeOriginal('m/big.pdf', Buffer.from('%PDF new version'));
    expect(second).toMatch(/^originals\/m\/big\.[0-9a-f]{8}\.pdf$/);
    expect((await lib.readOriginal({ original: first }))?.toString()).toBe('%PDF old version');
    expect((await lib.readOriginal({ original: second }))?.toString()).toBe('%PDF new version');
  });
});
