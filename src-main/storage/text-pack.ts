import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { writeFileAtomic } from './atomic-file';

/**
 * Packs of small stored files: many documents' normalized JSON (`normalized/pack-*.jsonl`) or
 * original files (`originals/pack-*.bin`) in one file, each found by its byte range. Creating a
 * file is what a small stored file costs: on the 2-core test machine, creating an empty file took
 * ~0.75 ms of kernel time (1,320 of them ~1 s, as much as writing 1,320 files of 4 KB; one file of
 * the same 5 MB, 8 ms), and a virus scanner that opens every new file does the same on users'
 * machines. An import batch's small files go into few packs; one larger than `PACK_ENTRY_BYTES`
 * keeps a file of its own.
 *
 * A pack is written once (temp file, then rename) and never changed; it is removed when no listed
 * document points into it any more. Until then the ranges of removed documents are dead bytes.
 */

/** Where a packed file is: `file` relative to the library folder, a byte range inside it. */
export interface PackedText {
  file: string;
  offset: number;
  length: number;
}

/** A byte range inside a pack. */
export type PackRange = Pick<PackedText, 'offset' | 'length'>;

/** Largest file, in bytes, that goes into a pack (a larger one is stored alone). */
export const PACK_ENTRY_BYTES = 256 * 1024;

/** Bytes of files in one pack: a writer starts another past it, so a batch of many files never sits in memory whole. */
const PACK_BYTES = 16 * 1024 * 1024;

/** The folder normalized texts' packs live in, relative to the library folder. */
export const PACK_DIR = 'normalized';
/** The folder originals' packs live in (beside originals stored alone, by document id). */
export const ORIGINALS_DIR = 'originals';

const PACK_NAME = /^pack-[0-9a-f]{16}\.(?:jsonl|bin)$/;

/** What listed records keep on disk: their originals (own files or packs), normalized packs, and texts stored by hash. */
export function storedBy(records: Iterable<{ original: string | null; normalized?: PackedText; contentHash: string | null }>): {
  originals: Set<string>;
  packs: Set<string>;
  hashes: Set<string>;
} {
  const used = { originals: new Set<string>(), packs: new Set<string>(), hashes: new Set<string>() };
  for (const d of records) {
    if (d.original) used.originals.add(d.original);
    if (d.normalized) used.packs.add(d.normalized.file);
    else if (d.contentHash) used.hashes.add(d.contentHash);
  }
  return used;
}

/** True for the file name of a pack (not its temp file). */
export function isPackName(name: string): boolean {
  return PACK_NAME.test(name);
}

/**
 * Writes `parts` into one new pack in `folder` under `libDir` (atomically: readers never see a pack
 * torn) and returns where each one is, in order. Texts (`.jsonl`) each end with a newline, so the
 * pack also reads as JSON lines. Throws on a write error, leaving no pack under its final name.
 */
async function writePack(libDir: string, folder: string, parts: readonly (string | Uint8Array)[]): Promise<PackedText[]> {
  const texts = typeof parts[0] === 'string';
  const file = path.posix.join(folder, `pack-${randomBytes(8).toString('hex')}.${texts ? 'jsonl' : 'bin'}`);
  const out: PackedText[] = [];
  const buffers: Uint8Array[] = [];
  let bytes = 0;
  for (const part of parts) {
    const buf = typeof part === 'string' ? Buffer.from(`${part}\n`, 'utf8') : part;
    const length = typeof part === 'string' ? buf.byteLength - 1 : buf.byteLength;
    out.push({ file, offset: bytes, length });
    buffers.push(buf);
    bytes += buf.byteLength;
  }
  // Durable: the pack is on disk before the batch's documents.json names it (written durably next).
  // A lost pack would not be redone, as re-importing the same files finds them "already" imported;
  // one fsync per pack of up to `PACK_BYTES` costs little next to the thousand files it replaces.
  await writeFileAtomic(path.join(libDir, ...file.split('/')), buffers);
  return out;
}

/**
 * Stores `count` texts, made one at a time by `textOf`: those up to `PACK_ENTRY_BYTES` in packs of
 * about `PACK_BYTES`, each larger one through `storeAlone`. Returns where each text is, in order,
 * or null for one stored alone. Throws on the first write error.
 */
export async function storeTexts(
  libDir: string,
  count: number,
  textOf: (i: number) => string,
  storeAlone: (i: number, text: string) => Promise<void>,
): Promise<(PackedText | null)[]> {
  const out: (PackedText | null)[] = new Array<PackedText | null>(count).fill(null);
  let group: { at: number; text: string }[] = [];
  let groupBytes = 0;
  const flush = async () => {
    const packed = await writePack(libDir, PACK_DIR, group.map((g) => g.text));
    group.forEach((g, k) => (out[g.at] = packed[k]!));
    group = [];
    groupBytes = 0;
  };
  for (let i = 0; i < count; i++) {
    const text = textOf(i);
    const bytes = Buffer.byteLength(text);
    if (bytes > PACK_ENTRY_BYTES) {
      await storeAlone(i, text);
      continue;
    }
    group.push({ at: i, text });
    groupBytes += bytes;
    if (groupBytes >= PACK_BYTES) await flush();
  }
  if (group.length > 0) await flush();
  return out;
}

/**
 * Collects small files (originals, up to `PACK_ENTRY_BYTES` each) as an import parses them and
 * writes them as packs: when `PACK_BYTES` have gathered, and at `flush`. Each `add` settles once
 * its pack is written (or fails with the write's error, or with `discard`'s).
 */
export class PackWriter {
  private pending: { bytes: Uint8Array; resolve: (p: PackedText) => void; reject: (e: unknown) => void }[] = [];
  private bytes = 0;

  constructor(
    private readonly libDir: string,
    private readonly folder: string,
  ) {}

  add(bytes: Uint8Array): Promise<PackedText> {
    const placed = new Promise<PackedText>((resolve, reject) => this.pending.push({ bytes, resolve, reject }));
    this.bytes += bytes.byteLength;
    if (this.bytes >= PACK_BYTES) void this.flush();
    return placed;
  }

  /** Writes what has gathered as one pack. Never rejects: the files' own promises carry an error. */
  async flush(): Promise<void> {
    const items = this.take();
    if (items.length === 0) return;
    try {
      const places = await writePack(this.libDir, this.folder, items.map((i) => i.bytes));
      items.forEach((item, k) => item.resolve(places[k]!));
    } catch (err) {
      for (const item of items) item.reject(err);
    }
  }

  /** Drops what has gathered (a cancelled import): each file's promise fails with `reason`. */
  discard(reason: Error): void {
    for (const item of this.take()) item.reject(reason);
  }

  private take() {
    const items = this.pending;
    this.pending = [];
    this.bytes = 0;
    return items;
  }
}

/** True for a well-formed byte range (a record read from a bucket may hold anything). */
export function validRange(r: Partial<PackRange> | null | undefined): r is PackRange {
  return !!r && Number.isSafeInteger(r.offset) && Number.isSafeInteger(r.length) && r.offset! >= 0 && r.length! >= 0;
}

/**
 * The pack file of `where` inside `libDir`, or null when the record's location is malformed or
 * leaves the pack folder (a subscribed library's documents.json comes from a bucket; it must not
 * make this computer read, or removal delete, a file outside the library).
 */
export function packPath(libDir: string, where: Partial<PackedText> | null | undefined): string | null {
  if (!where || typeof where.file !== 'string' || !validRange({ offset: where.offset, length: where.length })) return null;
  const segs = where.file.split('/');
  if (segs.length !== 2 || segs[0] !== PACK_DIR || !isPackName(segs[1]!)) return null;
  return path.join(libDir, PACK_DIR, segs[1]!);
}

/** The bytes of `range` in `file`, or null when the file is missing or too short. */
export async function readRange(file: string, range: PackRange): Promise<Buffer | null> {
  let handle;
  try {
    handle = await fs.open(file, 'r');
  } catch {
    return null;
  }
  try {
    // The range may come from a bucket's documents.json: no allocation beyond the file's end.
    if (range.offset + range.length > (await handle.stat()).size) return null;
    const buf = Buffer.alloc(range.length);
    const { bytesRead } = await handle.read(buf, 0, range.length, range.offset);
    return bytesRead === range.length ? buf : null;
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

/** Size of `range` in `file` (the whole file without a range), or null when missing or out of its bounds. */
export async function storedSize(file: string, range: PackRange | undefined): Promise<number | null> {
  const st = await fs.stat(file).catch(() => null);
  if (!st?.isFile()) return null;
  if (!range) return st.size;
  return validRange(range) && range.offset + range.length <= st.size ? range.length : null;
}

/** The bytes of `range` in `file` (the whole file without a range), or null when missing. */
export async function readStored(file: string, range: PackRange | undefined): Promise<Buffer | null> {
  if (!range) return fs.readFile(file).catch(() => null);
  return validRange(range) ? readRange(file, range) : null;
}

/** The text at `where`, or null when its pack is missing, too short or the location is malformed. */
export async function readPacked(libDir: string, where: PackedText): Promise<string | null> {
  const file = packPath(libDir, where);
  return file ? ((await readRange(file, where))?.toString('utf8') ?? null) : null;
}
