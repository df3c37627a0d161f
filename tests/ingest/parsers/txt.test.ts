import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import type { ParsedDocument } from '../../../src-main/core/document';
import { escapePlainLine, txtParser } from '../../../src-main/ingest/parsers/txt.parser';
import { invariantViolations } from '../doc-invariants';

async function parse(bytes: Uint8Array, fileName = 'notes.txt'): Promise<ParsedDocument> {
  const r = await txtParser.parse({ bytes, fileName });
  if (!r.ok) throw new Error(`expected a document, got ${r.code}: ${r.reason}`);
  expect(invariantViolations(r.doc)).toEqual([]);
  return r.doc;
}

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const paragraphs = (doc: ParsedDocument): string[] => doc.blocks.map((b) => doc.text.slice(b.start, b.end));

/** Sample manuals per encoding; each is long enough for statistical detection, as real files are. */
const SAMPLES: { encoding: string; bom?: boolean; text: string }[] = [
  { encoding: 'utf-8', text: 'Service notes\n\nThe RAC-225B takes a T5A fuse — never 6.3 A.\nTempérature: 40 °C.\n\nΩ µ ° ± ≤ 5 V\n' },
  { encoding: 'utf-8', bom: true, text: 'Service notes\n\nThe RAC-225B takes a T5A fuse. Café 40 °C.\n' },
  { encoding: 'utf-16le', bom: true, text: 'Service notes\n\nThe RAC-225B takes a T5A fuse. 电源 5 V, Größe ≤ 2 A.\n' },
  { encoding: 'utf-16be', bom: true, text: 'Service notes\n\nThe RAC-225B takes a T5A fuse. 電源は100Vです。\n' },
  {
    encoding: 'windows-1252',
    text: 'Bedienungsanleitung\n\nDie Größe der Sicherung beträgt 5 A. Überprüfen Sie die Spannung vor dem Öffnen.\nCafé crème, naïve résumé — déjà vu. Señor niño: 40 °C, „Anführung“.\n',
  },
  {
    encoding: 'gb18030',
    text: '用户手册\n\n本手册介绍了设备的安装、操作和维护。请在使用前仔细阅读本说明书，并妥善保管。\n电源电压为220伏，保险丝规格为T5A。请勿在潮湿环境中使用本设备。\n',
  },
  {
    encoding: 'Shift_JIS',
    text: '取扱説明書\n\nこの取扱説明書には、製品の設置、操作、保守について記載されています。\nご使用の前に必ずお読みください。電源は100Vです。ヒューズはT5Aを使用してください。\n',
  },
];

describe('txt parser: encodings', () => {
  for (const s of SAMPLES) {
    it(`decodes ${s.encoding}${s.bom ? ' with a BOM' : ''} to the original text`, async () => {
      const bytes = new Uint8Array(iconv.encode(s.text, s.encoding, { addBOM: s.bom ?? false }));
      const doc = await parse(bytes);
      expect(doc.text).toBe(s.text);
      expect(doc.metadata['encoding']).toBe(s.encoding.toLowerCase());
      expect(doc.title).toBe(s.text.split('\n')[0]);
      expect(doc.text.charCodeAt(0)).not.toBe(0xfeff);
    });
  }

  it('reads UTF-16 without a BOM from its NUL byte pattern', async () => {
    const doc = await parse(new Uint8Array(iconv.encode('Fuse table\n\nRAC-225B uses T5A.\n', 'utf-16le')));
    expect(doc.text).toBe('Fuse table\n\nRAC-225B uses T5A.\n');
  });
});

describe('txt parser: structure', () => {
  it('splits paragraphs on blank lines and normalizes CRLF', async () => {
    const doc = await parse(utf8('Title line\r\n\r\nFirst paragraph\r\nstill first.\r\n\r\n\r\n\r\nSecond paragraph.\r\n'));
    expect(paragraphs(doc)).toEqual(['Title line', 'First paragraph\nstill first.', 'Second paragraph.']);
    expect(doc.blocks.every((b) => b.kind === 'paragraph')).toBe(true);
  });

  it('never turns a plain line into Markdown structure: headings, lists, quotes, tables, rules, fences, HTML, front matter', async () => {
    const lines = [
      '---',
      'title: not front matter',
      '---',
      '',
      '# Not a heading',
      '',
      '- not a list',
      '* not a list either',
      '+ nor this',
      '',
      '1. not an ordered list',
      '2) nor this',
      '',
      '> not a quote',
      '',
      'Setext candidate',
      '=====',
      '',
      'Another candidate',
      '--',
      '',
      '| Model | Fuse |',
      '|-------|------|',
      '| A     | T5A  |',
      '',
      '***',
      '',
      '```',
      'not code',
      '```',
      '',
      '<div>not html</div>',
      '',
      '[ref]: https://example.com not a definition',
    ];
    const doc = await parse(utf8(lines.join('\n') + '\n'));
    expect(doc.blocks.map((b) => b.kind).filter((k) => k !== 'paragraph')).toEqual([]);
    expect(doc.metadata).toEqual({ encoding: 'utf-8' });
    // Escapes are minimal: one backslash before the marker, the rest of the line unchanged.
    expect(doc.text).toContain('\\# Not a heading');
    expect(doc.text).toContain('1\\. not an ordered list');
    expect(doc.text).toContain('\\- not a list');
    expect(doc.text).toContain('| Model | Fuse |\n\\|-------|------|');
  });

  it('keeps lines indented by four or more columns as code, preserving column alignment', async () => {
    const table = '    Model      Fuse   Volts\n    RAC-225B   T5A    230\n    RAC-225C   T6.3A  230';
    const doc = await parse(utf8(`Fuse list\n\n${table}\n\nEnd.\n`));
    const code = doc.blocks.find((b) => b.kind === 'code')!;
    expect(doc.text.slice(code.start, code.end)).toBe(table.trimStart());
  });

  it('escapes only the marker character of a line', () => {
    expect(escapePlainLine('  ## Two')).toBe('  \\## Two');
    expect(escapePlainLine('12. Twelve')).toBe('12\\. Twelve');
    expect(escapePlainLine('Text with # and - inside')).toBe('Text with # and - inside');
    expect(escapePlainLine('-5 °C minimum')).toBe('-5 °C minimum');
    expect(escapePlainLine('    # indented: code, left alone')).toBe('    # indented: code, left alone');
  });

  it('uses a short first line as the title and the file name otherwise', async () => {
    expect((await parse(utf8('\n\n  RAC-225B Quick Guide  \n\nbody\n'))).title).toBe('RAC-225B Quick Guide');
    const long = 'x'.repeat(200);
    expect((await parse(utf8(`${long}\n\nbody\n`), 'rac-guide.txt')).title).toBe('rac-guide');
  });

  it('returns empty, binary and cancelled failures instead of documents', async () => {
    expect(await txtParser.parse({ bytes: new Uint8Array(), fileName: 'a.txt' })).toMatchObject({ ok: false, code: 'empty', reason: 'The file is empty.' });
    expect(await txtParser.parse({ bytes: utf8(' \t\r\n\n'), fileName: 'a.txt' })).toMatchObject({ ok: false, code: 'empty' });
    expect(await txtParser.parse({ bytes: new Uint8Array(iconv.encode('   \n', 'utf-16le', { addBOM: true })), fileName: 'a.txt' })).toMatchObject({ ok: false, code: 'empty' });
    const elf = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0]);
    const bin = await txtParser.parse({ bytes: elf, fileName: 'readme.txt' });
    expect(bin).toMatchObject({ ok: false, code: 'binary' });
    expect(!bin.ok && bin.reason).toBe('This file is not text: it looks like a Linux program (ELF) renamed to .txt.');
    const ac = new AbortController();
    ac.abort();
    expect(await txtParser.parse({ bytes: utf8('x'), fileName: 'a.txt', signal: ac.signal })).toMatchObject({ ok: false, code: 'cancelled' });
  });
});
