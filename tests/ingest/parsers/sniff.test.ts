import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { cleanText, decodeText, detectMagic, extensionOf, looksBinary, mostlyUtf8, sniffText } from '../../../src-main/ingest/parsers/sniff';

const bytes = (...parts: (number[] | string)[]): Uint8Array =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? Array.from(Buffer.from(p, 'latin1')) : p)));

const PNG = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0, 0, 0, 13], 'IHDR', [0, 0, 1, 0]);

describe('sniffText', () => {
  it('names the real format of binary files renamed to a text extension', () => {
    expect(sniffText(PNG, 'manual.md')).toEqual({ ok: false, code: 'binary', reason: 'This file is not text: it looks like a PNG image renamed to .md.' });
    // A format ManualMate reads, under a text extension: renamed, it imports (no "not the manual" advice).
    const misnamed: [Uint8Array, string, string][] = [
      [bytes('%PDF-1.7\n', [0xe2, 0xe3, 0xcf, 0xd3]), 'guide.txt', 'looks like a PDF document renamed to .txt. Rename it to .pdf and import it again.'],
      [bytes('PK', [3, 4, 20, 0], 'word/document.xml'), 'spec.html', 'looks like a Word document (.docx) renamed to .html. Rename it to .docx'],
    ];
    for (const [data, name, reason] of misnamed) {
      const r = sniffText(data, name);
      expect(r?.code, name).toBe('misnamed');
      expect(r?.reason, name).toContain(reason);
    }
    const cases: [Uint8Array, string, string][] = [
      [bytes('PK', [3, 4, 20, 0], 'data/file.bin'), 'a.md', 'looks like a ZIP archive renamed to .md.'],
      [bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF'), 'photo.txt', 'looks like a JPEG image'],
      [bytes('GIF89a', [1, 0, 1, 0]), 'anim.md', 'looks like a GIF image'],
      [bytes([0x7f], 'ELF', [2, 1, 1, 0]), 'tool.txt', 'looks like a Linux program (ELF)'],
      [bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], [0, 0]), 'old.md', 'looks like an old Word/Office 97-2003 document (.doc)'],
      [bytes('MZ', [0x90, 0, 3, 0, 0, 0, 4, 0]), 'setup.txt', 'looks like a Windows program'],
    ];
    for (const [data, name, reason] of cases) {
      const r = sniffText(data, name);
      expect(r?.code, name).toBe('binary');
      expect(r?.reason, name).toContain(reason);
    }
  });

  it('treats NUL bytes or many control characters as binary, and says so', () => {
    const withNul = bytes('Looks like text', [0], ' but is not');
    expect(sniffText(withNul, 'a.txt')).toEqual({
      ok: false,
      code: 'binary',
      reason: 'This file is not text: it contains binary data (NUL bytes or control characters), so it cannot be read as .txt.',
    });
    const noisy = new Uint8Array(200).map((_, i) => (i % 4 === 0 ? 0x01 : 0x41));
    expect(looksBinary(noisy)).toBe(true);
    const fewControls = new Uint8Array(200).map((_, i) => (i === 5 ? 0x1b : 0x41));
    expect(looksBinary(fewControls)).toBe(false);
  });

  it('counts every control character but tab, line breaks, form feed, vertical tab and escape, and only those of the bytes given', () => {
    const allowed = [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b];
    for (let c = 1; c < 0x80; c++) {
      const third = new Uint8Array(30).map((_, i) => (i % 3 === 0 ? c : 0x41));
      expect(looksBinary(third), `0x${c.toString(16)}`).toBe((c < 0x20 && !allowed.includes(c)) || c === 0x7f);
    }
    // A view into a larger buffer: the control bytes around it are not the file's.
    const around = new Uint8Array(300).fill(0x01);
    around.fill(0x41, 100, 200);
    expect(looksBinary(around.subarray(100, 200))).toBe(false);
    expect(looksBinary(around.subarray(95, 200))).toBe(false);
    expect(looksBinary(around.subarray(80, 200))).toBe(true);
  });

  it('accepts text in any encoding, including UTF-16 whose NUL bytes are part of the text', () => {
    for (const enc of ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252', 'gb18030', 'shift_jis']) {
      for (const addBOM of [false, true]) {
        const data = new Uint8Array(iconv.encode('Fuse T5A — 电源 — Größe\n'.repeat(3), enc, { addBOM }));
        expect(sniffText(data, 'a.txt'), `${enc} bom=${addBOM}`).toBeNull();
      }
    }
    expect(sniffText(bytes('MZ is a model name, not a program.\n'), 'a.txt')).toBeNull();
  });

  it('reports empty and whitespace-only files as empty', () => {
    const empty = { ok: false, code: 'empty', reason: 'The file is empty.' };
    expect(sniffText(new Uint8Array(), 'a.md')).toEqual(empty);
    expect(sniffText(bytes(' \t\r\n\n  '), 'a.md')).toEqual(empty);
    expect(sniffText(bytes([0xef, 0xbb, 0xbf], '\n'), 'a.md')).toEqual(empty);
    expect(sniffText(new Uint8Array(iconv.encode(' \n', 'utf-16le', { addBOM: true })), 'a.md')).toEqual(empty);
  });
});

describe('detectMagic', () => {
  it('returns null for text and the format for known signatures', () => {
    expect(detectMagic(bytes('# Heading\n'))).toBeNull();
    expect(detectMagic(PNG)).toEqual({ what: 'a PNG image' });
    expect(detectMagic(bytes('%PDF-2.0'))).toEqual({ what: 'a PDF document', renameTo: 'pdf' });
  });
});

describe('decodeText', () => {
  it('prefers the BOM, then valid UTF-8, then the declared charset, then chardet', () => {
    expect(decodeText(bytes([0xef, 0xbb, 0xbf], 'abc'))).toEqual({ text: 'abc', encoding: 'utf-8' });
    expect(decodeText(new Uint8Array(Buffer.from('Größe', 'utf8')))).toEqual({ text: 'Größe', encoding: 'utf-8' });
    // Not valid UTF-8: the declared charset wins over statistics.
    const koi = new Uint8Array(iconv.encode('Привет', 'koi8-r'));
    expect(decodeText(koi, 'koi8-r')).toEqual({ text: 'Привет', encoding: 'koi8-r' });
    // ISO-8859-1 guesses are read as windows-1252, which also maps 0x80-0x9f to characters.
    const cp = new Uint8Array(iconv.encode('“Quoted” text — Größe über Spannung, Gerät prüfen.', 'windows-1252'));
    expect(decodeText(cp)).toEqual({ text: '“Quoted” text — Größe über Spannung, Gerät prüfen.', encoding: 'windows-1252' });
  });

  it('decodes a mostly UTF-8 file as UTF-8 with U+FFFD at its invalid bytes, not the whole file as Windows-1252', () => {
    const utf8 = (t: string) => Array.from(Buffer.from(t, 'utf8'));
    const mixed = new Uint8Array([...utf8('Café crème — the CM-3 '), 0xe9, 0xff, ...utf8(' Überprüfung, Größe.')]);
    expect(decodeText(mixed)).toEqual({ text: 'Café crème — the CM-3 \ufffd\ufffd Überprüfung, Größe.', encoding: 'utf-8' });
    // A page that declares UTF-8 keeps it even with more bad bytes than good sequences.
    expect(decodeText(new Uint8Array([...utf8('abc '), 0xff, 0xfe]), 'UTF-8')).toEqual({ text: 'abc \ufffd\ufffd', encoding: 'utf-8' });
    // Legacy text has no valid multi-byte sequences: still detected as a code page.
    expect(mostlyUtf8(new Uint8Array(iconv.encode('Café crème brûlée, naïve façade, Größe.', 'windows-1252')))).toBe(false);
    expect(mostlyUtf8(mixed)).toBe(true);
  });

  it('never throws, whatever the bytes', () => {
    const random = new Uint8Array(4096).map((_, i) => (i * 7919 + 13) % 256);
    expect(typeof decodeText(random).text).toBe('string');
  });
});

describe('helpers', () => {
  it('takes the lower-case extension of the last path segment', () => {
    expect(extensionOf('Manual.PDF')).toBe('pdf');
    expect(extensionOf('dir.v2/README')).toBe('');
    expect(extensionOf('.hidden')).toBe('');
    expect(extensionOf('a.tar.gz')).toBe('gz');
  });

  it('cleans line endings and control characters but keeps tabs and text', () => {
    expect(cleanText('a\r\nb\rc\fd\u0000e\u0007f\tg\ufeff')).toBe('a\nb\nc\n\nd' + 'ef\tg');
  });
});
