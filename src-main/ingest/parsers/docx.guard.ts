import { inflateRawSync } from 'node:zlib';
import { MAX_DOCX_XML_BYTES, MAX_NESTING_DEPTH, ParseLimitError, nestingDepth } from './limits';

/**
 * Checks a DOCX's XML parts against the parse bounds before mammoth reads them: they must inflate
 * to at most `MAX_DOCX_XML_BYTES` in total (measured by inflating, not trusted from the sizes the
 * archive declares) and nest at most `MAX_NESTING_DEPTH` elements deep. Throws `ParseLimitError`.
 * An archive this reader cannot follow is left to mammoth, whose own messages name the damage.
 *
 * Reading the ZIP directory is hand-written: it is three fixed record layouts (APPNOTE 4.3), and
 * the ZIP library mammoth bundles inflates a part whole before anyone could see its size.
 */

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** Largest end-of-central-directory record: 22 bytes plus a comment of up to 65535. */
const EOCD_SEARCH = 22 + 0xffff;

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  localOffset: number;
}

function entries(b: Buffer): Entry[] | null {
  let eocd = -1;
  for (let i = b.length - 22; i >= Math.max(0, b.length - EOCD_SEARCH); i--) {
    if (b.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = b.readUInt16LE(eocd + 10);
  let at = b.readUInt32LE(eocd + 16);
  // ZIP64 (a part over 4 GB): no Word document is that large.
  if (at === 0xffffffff || count === 0xffff) throw new ParseLimitError('The file is too large to import: its archive is in the ZIP64 format of archives over 4 GB.');
  const out: Entry[] = [];
  for (let k = 0; k < count; k++) {
    if (at + 46 > b.length || b.readUInt32LE(at) !== CENTRAL) return null;
    const nameLength = b.readUInt16LE(at + 28);
    out.push({
      name: b.toString('utf8', at + 46, at + 46 + nameLength),
      method: b.readUInt16LE(at + 10),
      compressedSize: b.readUInt32LE(at + 20),
      localOffset: b.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + b.readUInt16LE(at + 30) + b.readUInt16LE(at + 32);
  }
  return out;
}

function tooLarge(): ParseLimitError {
  return new ParseLimitError(`The file is too large to import (limit ${MAX_DOCX_XML_BYTES / 1024 / 1024} MB of text parts): its parts inflate to more than that.`);
}

/** See the file comment; returns quietly when the document is within bounds. */
export function checkDocxBounds(bytes: Uint8Array): void {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const list = entries(b);
  if (!list) return;
  let budget = MAX_DOCX_XML_BYTES;
  for (const e of list) {
    if (!/\.(xml|rels)$/i.test(e.name)) continue;
    const local = e.localOffset;
    if (local + 30 > b.length || b.readUInt32LE(local) !== LOCAL) return;
    const start = local + 30 + b.readUInt16LE(local + 26) + b.readUInt16LE(local + 28);
    const data = b.subarray(start, start + e.compressedSize);
    let xml: Buffer;
    if (e.method === 0) xml = data;
    else if (e.method === 8) {
      try {
        xml = inflateRawSync(data, { maxOutputLength: budget + 1 });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) throw tooLarge();
        return;
      }
    } else return;
    budget -= xml.length;
    if (budget < 0) throw tooLarge();
    // Latin-1 keeps every byte one character: tags are ASCII, so the count is the same as in UTF-8.
    if (nestingDepth(xml.toString('latin1'), { html: false, stopAt: MAX_NESTING_DEPTH }) > MAX_NESTING_DEPTH) {
      throw new ParseLimitError(`The file is too large to import (limit ${MAX_NESTING_DEPTH} levels of nesting): its part ${e.name} nests deeper than that.`);
    }
  }
}
