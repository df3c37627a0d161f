import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { openCreating, tempName } from './atomic-file';

/**
 * Packs of small stored texts: many documents' normalized JSON in one file, each found by its
 * byte range. Creating a file is what a small stored text costs: on the 2-core test machine,
 * creating an empty file took ~0.75 ms of kernel time (1,320 of them ~1 s, as much as writing
 * 1,320 files of 4 KB; one file of the same 5 MB, 8 ms), and a virus scanner that opens every new
 * file does the same on users' machines. An import batch's small texts go into one pack; a text
 * larger than `PACK_ENTRY_BYTES` keeps a file of its own.
 *
 * A pack is written once (temp file, then rename) and never changed; it is removed when no listed
 * document points into it any more. Until then the ranges of removed documents are dead bytes.
 */

/** Where a packed text is: `file` relative to the library folder, a byte range inside it. */
export interface PackedText {
  file: string;
  offset: number;
  length: number;
}

/** Largest text, in bytes, that goes into a pack (a larger one is stored alone). */
export const PACK_ENTRY_BYTES = 256 * 1024;

/** Bytes of texts in one pack: a writer starts another past it, so a batch of many texts never sits in memory whole. */
const PACK_BYTES = 16 * 1024 * 1024;

/** The folder packs live in, relative to the library folder. */
export const PACK_DIR = 'normalized';

const PACK_NAME = /^pack-[0-9a-f]{16}\.jsonl$/;

/** True for the file name of a pack (not its temp file). */
export function isPackName(name: string): boolean {
  return PACK_NAME.test(name);
}

/**
 * Writes `texts` (UTF-8 strings, each at most `PACK_ENTRY_BYTES`) into one new pack under `libDir`
 * and returns where each one is, in order. A newline ends each text, so a pack also reads as JSON
 * lines. Throws on a write error, leaving no pack under its final name.
 */
export async function writePack(libDir: string, texts: readonly string[]): Promise<PackedText[]> {
  const file = path.posix.join(PACK_DIR, `pack-${randomBytes(8).toString('hex')}.jsonl`);
  const out: PackedText[] = [];
  const parts: Buffer[] = [];
  let bytes = 0;
  for (const text of texts) {
    const buf = Buffer.from(`${text}\n`, 'utf8');
    out.push({ file, offset: bytes, length: buf.byteLength - 1 });
    parts.push(buf);
    bytes += buf.byteLength;
  }
  await writeWhole(path.join(libDir, ...file.split('/')), parts);
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
    const packed = await writePack(libDir, group.map((g) => g.text));
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

/** Temp file, one gathered write, rename: readers never see a pack torn (no fsync: a lost pack is a lost import, redone). */
async function writeWhole(file: string, parts: Buffer[]): Promise<void> {
  const tmp = path.join(path.dirname(file), tempName(path.basename(file)));
  try {
    const handle = await openCreating(tmp);
    try {
      await handle.writev(parts);
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

/**
 * The pack file of `where` inside `libDir`, or null when the record's location is malformed or
 * leaves the pack folder (a subscribed library's documents.json comes from a bucket; it must not
 * make this computer read, or removal delete, a file outside the library).
 */
export function packPath(libDir: string, where: Partial<PackedText> | null | undefined): string | null {
  if (!where || typeof where.file !== 'string') return null;
  const segs = where.file.split('/');
  if (segs.length !== 2 || segs[0] !== PACK_DIR || !isPackName(segs[1]!)) return null;
  if (!Number.isSafeInteger(where.offset) || !Number.isSafeInteger(where.length) || where.offset! < 0 || where.length! < 0) return null;
  return path.join(libDir, PACK_DIR, segs[1]!);
}

/** The text at `where`, or null when its pack is missing, too short or the location is malformed. */
export async function readPacked(libDir: string, where: PackedText): Promise<string | null> {
  const file = packPath(libDir, where);
  if (!file) return null;
  let handle;
  try {
    handle = await fs.open(file, 'r');
  } catch {
    return null;
  }
  try {
    const buf = Buffer.alloc(where.length);
    const { bytesRead } = await handle.read(buf, 0, where.length, where.offset);
    return bytesRead === where.length ? buf.toString('utf8') : null;
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}
