import { analyse } from 'chardet';
import iconv from 'iconv-lite';
import { extensionOf } from './choose';
import { ParseLimitError } from './limits';
import type { ParseFailure, ParseInput, ParseResult } from './parser';

/**
 * Content sniffing shared by the parsers: what a file really is (magic numbers), whether bytes
 * that claim to be text are text, and which encoding that text is in. Hand-written where no
 * library fits: the magic-number table is a few bytes per format, and `file-type` would pull a
 * large dependency in for a one-line check.
 */

/** How many leading bytes the text/binary heuristic looks at. */
const SNIFF_BYTES = 64 * 1024;

interface Magic {
  /** Human description used in sentences: "looks like {what} renamed to .md". */
  what: string;
  /** Extension the user should rename the file to, when the app can read that format. */
  renameTo?: string;
  test: (b: Uint8Array) => boolean;
}

function startsWith(b: Uint8Array, sig: readonly number[], at = 0): boolean {
  if (b.length < at + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (b[at + i] !== sig[i]) return false;
  return true;
}

const ascii = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));

/** OLE2 compound file: old Office (.doc/.xls/.ppt) and password-protected Office documents. */
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const ZIP_EMPTY = [0x50, 0x4b, 0x05, 0x06];

function containsAscii(b: Uint8Array, needle: string): boolean {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).includes(needle, 0, 'latin1');
}

function containsUtf16le(b: Uint8Array, needle: string): boolean {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).includes(Buffer.from(needle, 'utf16le'));
}

const MAGICS: readonly Magic[] = [
  { what: 'a PDF document', renameTo: 'pdf', test: (b) => startsWith(b, ascii('%PDF-')) },
  {
    what: 'a Word document (.docx)',
    renameTo: 'docx',
    test: (b) => startsWith(b, ZIP) && containsAscii(b, 'word/document.xml'),
  },
  { what: 'a ZIP archive', test: (b) => startsWith(b, ZIP) || startsWith(b, ZIP_EMPTY) },
  {
    what: 'a password-protected Office document',
    test: (b) => startsWith(b, OLE2) && containsUtf16le(b, 'EncryptedPackage'),
  },
  { what: 'an old Word/Office 97-2003 document (.doc)', test: (b) => startsWith(b, OLE2) },
  { what: 'a PNG image', test: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { what: 'a JPEG image', test: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { what: 'a GIF image', test: (b) => startsWith(b, ascii('GIF87a')) || startsWith(b, ascii('GIF89a')) },
  { what: 'a WebP image', test: (b) => startsWith(b, ascii('RIFF')) && startsWith(b, ascii('WEBP'), 8) },
  { what: 'a TIFF image', test: (b) => startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a]) },
  { what: 'a Linux program (ELF)', test: (b) => startsWith(b, [0x7f, 0x45, 0x4c, 0x46]) },
  { what: 'a macOS program (Mach-O)', test: (b) => startsWith(b, [0xcf, 0xfa, 0xed, 0xfe]) || startsWith(b, [0xce, 0xfa, 0xed, 0xfe]) },
  { what: 'a gzip archive', test: (b) => startsWith(b, [0x1f, 0x8b]) },
  { what: 'a 7-Zip archive', test: (b) => startsWith(b, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]) },
  { what: 'a RAR archive', test: (b) => startsWith(b, ascii('Rar!\x1a\x07')) },
  { what: 'an SQLite database', test: (b) => startsWith(b, ascii('SQLite format 3\0')) },
  { what: 'an MP4/QuickTime video', test: (b) => startsWith(b, ascii('ftyp'), 4) },
  { what: 'an Ogg audio/video file', test: (b) => startsWith(b, ascii('OggS')) },
  { what: 'an MP3 audio file', test: (b) => startsWith(b, ascii('ID3')) },
  // "MZ" alone is too weak (a text may start with it); the binary heuristic must agree.
  { what: 'a Windows program (.exe/.dll)', test: (b) => startsWith(b, ascii('MZ')) && looksBinary(b) },
];

/** The format the bytes' magic number names, or null when none is recognised. */
export function detectMagic(bytes: Uint8Array): { what: string; renameTo?: string } | null {
  for (const m of MAGICS) {
    if (m.test(bytes)) return m.renameTo ? { what: m.what, renameTo: m.renameTo } : { what: m.what };
  }
  return null;
}

/** Byte order marks: encoding name (iconv-lite spelling) and BOM length in bytes. */
export function detectBom(bytes: Uint8Array): { encoding: string; length: number } | null {
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) return { encoding: 'utf-8', length: 3 };
  if (startsWith(bytes, [0xff, 0xfe, 0x00, 0x00])) return { encoding: 'utf-32le', length: 4 };
  if (startsWith(bytes, [0x00, 0x00, 0xfe, 0xff])) return { encoding: 'utf-32be', length: 4 };
  if (startsWith(bytes, [0xff, 0xfe])) return { encoding: 'utf-16le', length: 2 };
  if (startsWith(bytes, [0xfe, 0xff])) return { encoding: 'utf-16be', length: 2 };
  return null;
}

/**
 * UTF-16 without a BOM shows up as NUL bytes on every other position (the high byte of ASCII
 * characters). Returns the byte order when at least 30% of the sample follows that pattern and the
 * other positions hold almost no NULs, otherwise null.
 */
function detectBomlessUtf16(sample: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const pairs = Math.floor(sample.length / 2);
  // Almost every file has no NUL byte at all; finding none is one native scan, not a byte loop.
  if (pairs < 2 || !sample.includes(0)) return null;
  const [evenNul, oddNul] = nulCounts(sample);
  if (oddNul >= pairs * 0.3 && evenNul <= pairs * 0.02) return 'utf-16le';
  if (evenNul >= pairs * 0.3 && oddNul <= pairs * 0.02) return 'utf-16be';
  return null;
}

/*
 * The byte loops below live in functions that only count and return. V8 compiles a long loop
 * on-stack while it runs, before the arithmetic after the loop has ever executed; that code then
 * deoptimized at the arithmetic on every later call (hundreds of times per import, ~0.2 s).
 */

/** NUL bytes at even and at odd positions of the sample's byte pairs. */
function nulCounts(sample: Uint8Array): [even: number, odd: number] {
  let even = 0;
  let odd = 0;
  for (let i = 0; i + 1 < sample.length; i += 2) {
    if (sample[i] === 0) even++;
    if (sample[i + 1] === 0) odd++;
  }
  return [even, odd];
}

/** Bytes `controlCount` counts or stops at; a sample without any needs no byte loop. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_BYTE = /[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f]/;

/** Control characters that text never holds, or -1 at the first NUL byte. */
function controlCount(sample: Uint8Array): number {
  // The common case (none at all) by one native regex scan over the bytes read as Latin-1.
  if (!CONTROL_BYTE.test(Buffer.from(sample.buffer, sample.byteOffset, sample.byteLength).toString('latin1'))) return 0;
  let control = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample[i]!;
    if (c === 0) return -1;
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c && c !== 0x0b && c !== 0x1b) || c === 0x7f) control++;
  }
  return control;
}

/**
 * True when the bytes are not text: NUL bytes or more than 10% control characters in the first
 * 64 KiB (tab, newline, carriage return, form feed, vertical tab and escape count as text).
 * UTF-16/32 text (BOM, or the NUL pattern of BOM-less UTF-16) is text.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  if (detectBom(bytes)) return false;
  const sample = bytes.subarray(0, SNIFF_BYTES);
  if (detectBomlessUtf16(sample)) return false;
  const control = controlCount(sample);
  return control < 0 || (sample.length > 0 && control / sample.length > 0.1);
}

export { extensionOf };

/** File name without directories and without its extension, for fallback titles. */
export function baseTitle(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  const dot = base.lastIndexOf('.');
  return (dot > 0 ? base.slice(0, dot) : base) || base;
}

/** The failure for a file that holds no characters but whitespace (or nothing at all). */
export const EMPTY_FAILURE: ParseFailure = { ok: false, code: 'empty', reason: 'The file is empty.' };

/** The failure for a file whose bytes are text but hold nothing to index (only markup or code). */
export const NO_TEXT_FAILURE: ParseFailure = {
  ok: false,
  code: 'empty',
  reason: 'The file has no text to index: it contains only markup, scripts or code.',
};

/** The failure returned when `signal` aborts a parse between steps. */
export const CANCELLED_FAILURE: ParseFailure = { ok: false, code: 'cancelled', reason: 'Import was cancelled.' };

function isBlankBytes(bytes: Uint8Array): boolean {
  const bom = detectBom(bytes);
  for (let i = bom ? bom.length : 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    // NUL counts as blank so a UTF-16 file of spaces is empty too.
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c && c !== 0x0b && c !== 0x00) return false;
  }
  return true;
}

/**
 * Checks that bytes meant for a text parser (Markdown, HTML, TXT) are text. Returns the failure
 * to report ('empty' or 'binary' with a sentence naming what the file looks like), or null.
 */
export function sniffText(bytes: Uint8Array, fileName: string): ParseFailure | null {
  if (bytes.length === 0 || isBlankBytes(bytes)) return EMPTY_FAILURE;
  const ext = extensionOf(fileName);
  const asExt = ext ? `.${ext}` : 'a text file';
  const magic = detectMagic(bytes);
  if (magic) {
    const hint = magic.renameTo ? ` Rename it to .${magic.renameTo} and import it again.` : '';
    return { ok: false, code: magic.renameTo ? 'misnamed' : 'binary', reason: `This file is not text: it looks like ${magic.what} renamed to ${asExt}.${hint}` };
  }
  if (looksBinary(bytes)) {
    return {
      ok: false,
      code: 'binary',
      reason: `This file is not text: it contains binary data (NUL bytes or control characters), so it cannot be read as ${asExt}.`,
    };
  }
  return null;
}

/** Encodings chardet may name that are better read as a superset (what browsers do too). */
const ENCODING_ALIASES: Record<string, string> = {
  'iso-8859-1': 'windows-1252',
  'iso-8859-9': 'windows-1254',
  ascii: 'utf-8',
  gb2312: 'gb18030',
  gbk: 'gb18030',
};

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** Valid multi-byte UTF-8 sequences and invalid bytes (each would decode as U+FFFD). */
function utf8Counts(b: Uint8Array): [valid: number, invalid: number] {
  let valid = 0;
  let invalid = 0;
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    const n = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    let ok = n > 0;
    for (let k = 1; ok && k <= n; k++) ok = i + k < b.length && (b[i + k]! & 0xc0) === 0x80;
    if (ok) {
      valid++;
      i += n + 1;
    } else {
      invalid++;
      i++;
    }
  }
  return [valid, invalid];
}

/**
 * True when bytes that are not valid UTF-8 are still mostly UTF-8: more valid multi-byte
 * sequences than invalid bytes. A few bad bytes in a UTF-8 file (a truncated copy, one pasted
 * Latin-1 character) then become U+FFFD where they are, as browsers decode, instead of the whole
 * file being read as Windows-1252 ("cafÃ©"). Text in a legacy code page has almost no valid
 * multi-byte sequences, so it still goes to statistical detection.
 */
export function mostlyUtf8(bytes: Uint8Array): boolean {
  const [valid, invalid] = utf8Counts(bytes);
  return valid > invalid;
}

/** Decoded text and the encoding that was used (iconv-lite name, lower case). */
export interface DecodedText {
  text: string;
  encoding: string;
}

/**
 * Decodes bytes to a string. Order: BOM; BOM-less UTF-16 (NUL pattern); valid UTF-8; the
 * caller's declared charset (HTML `<meta charset>`); chardet's best candidate that iconv-lite can
 * decode; windows-1252 as the last resort (it maps every byte, so decoding never fails). The BOM
 * is not part of the returned text.
 */
export function decodeText(bytes: Uint8Array, declaredCharset?: string | null): DecodedText {
  const bom = detectBom(bytes);
  if (bom) return { text: iconv.decode(Buffer.from(bytes.subarray(bom.length)), bom.encoding, { stripBOM: true }), encoding: bom.encoding };
  const utf16 = detectBomlessUtf16(bytes.subarray(0, SNIFF_BYTES));
  if (utf16) return { text: iconv.decode(Buffer.from(bytes), utf16), encoding: utf16 };
  try {
    return { text: strictUtf8.decode(bytes), encoding: 'utf-8' };
  } catch {
    // Not valid UTF-8 throughout: mostly UTF-8 with a few bad bytes, or another encoding.
  }
  const declared = declaredCharset ? (ENCODING_ALIASES[declaredCharset.toLowerCase()] ?? declaredCharset.toLowerCase()) : null;
  if (declared === 'utf-8' || declared === 'utf8' || (!declared && mostlyUtf8(bytes))) {
    return { text: lenientUtf8.decode(bytes), encoding: 'utf-8' };
  }
  const candidates: string[] = [];
  if (declaredCharset) candidates.push(declaredCharset);
  for (const match of analyse(bytes)) candidates.push(match.name);
  for (const raw of candidates) {
    const name = ENCODING_ALIASES[raw.toLowerCase()] ?? raw.toLowerCase();
    if (name === 'utf-8' || !iconv.encodingExists(name)) continue;
    return { text: iconv.decode(Buffer.from(bytes), name), encoding: name };
  }
  return { text: iconv.decode(Buffer.from(bytes), 'windows-1252'), encoding: 'windows-1252' };
}

/**
 * Removes characters that are never content: C0 controls other than tab/newline (form feed
 * becomes a paragraph break), DEL, and stray BOMs. Line endings become `\n`.
 */
export function cleanText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\f/g, '\n\n')
    // eslint-disable-next-line no-control-regex -- removing control characters is the point
    .replace(/[\u0000-\u0008\u000b\u000e-\u001f\u007f\ufeff]/g, '');
}

/**
 * The frame every text format shares: a cancelled import, bytes that are not text (sniffed) and
 * the decoding, then the format's own `body`; anything thrown becomes 'corrupt', naming the
 * format (`label`, as in "The HTML file could not be read"). `charset` reads an encoding the file
 * declares itself. Progress reaches 1 when `body` succeeds.
 */
export function parseText(
  input: ParseInput,
  label: string,
  body: (decoded: DecodedText) => ParseResult,
  charset?: (bytes: Uint8Array) => string | null,
): ParseResult {
  if (input.signal?.aborted) return CANCELLED_FAILURE;
  const notText = sniffText(input.bytes, input.fileName);
  if (notText) return notText;
  try {
    const result = body(decodeText(input.bytes, charset?.(input.bytes)));
    if (result.ok) input.onProgress?.(1);
    return result;
  } catch (err) {
    if (err instanceof ParseLimitError) return err.failure;
    return { ok: false, code: 'corrupt', reason: `The ${label} file could not be read: ${err instanceof Error ? err.message : String(err)}` };
  }
}
