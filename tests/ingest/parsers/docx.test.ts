import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import mammoth from 'mammoth';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ParsedDocument } from '../../../src-main/core/document';
import { docxParser } from '../../../src-main/ingest/parsers/docx.parser';
import { invariantViolations } from '../doc-invariants';

const cell = (text: string): TableCell => new TableCell({ children: [new Paragraph(text)] });
/** `tableHeader: false` writes `<w:tblHeader w:val="off"/>`, which mammoth 1.13 reads as a header row. */
const row = (...cells: string[]): TableRow => new TableRow({ tableHeader: false, children: cells.map(cell) });

async function buildManual(): Promise<Uint8Array> {
  const doc = new Document({
    numbering: { config: [{ reference: 'steps', levels: [{ level: 0, format: 'decimal', text: '%1.', alignment: 'left' }] }] },
    sections: [
      {
        children: [
          new Paragraph({ text: 'RAC-225B Service Manual', heading: HeadingLevel.TITLE }),
          new Paragraph({ text: 'Safety', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ children: [new TextRun('Replace fuse '), new TextRun({ text: 'F2_T5A', font: 'Courier New' }), new TextRun(' only with the power off.')] }),
          new Paragraph({ text: 'Parts', heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: 'Front panel', bullet: { level: 0 } }),
          new Paragraph({ text: 'Fuse holder', bullet: { level: 0 } }),
          new Paragraph({ text: 'Fuses', heading: HeadingLevel.HEADING_3 }),
          new Table({ rows: [row('Model', 'Fuse', 'Voltage'), row('RAC-225B', 'T5A', '230 V'), row('RAC-225C', 'T6.3A', '230 V')] }),
          new Paragraph({ text: 'Reset', heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: 'Open the cover.', numbering: { reference: 'steps', level: 0 } }),
          new Paragraph({ text: 'Run the reset command.', numbering: { reference: 'steps', level: 0 } }),
          new Paragraph({ children: [new TextRun({ text: 'sudo rac-reset --model RAC-225B', font: 'Consolas' })] }),
          new Paragraph({ children: [new TextRun({ text: 'rac-status *all*', font: 'Consolas' })] }),
          new Paragraph('The unit restarts.'),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

let bytes: Uint8Array;
let doc: ParsedDocument;

beforeAll(async () => {
  bytes = await buildManual();
  const r = await docxParser.parse({ bytes, fileName: 'rac-225b.docx' });
  if (!r.ok) throw new Error(`${r.code}: ${r.reason}`);
  doc = r.doc;
});

const textOf = (kind: string): string[] => doc.blocks.filter((b) => b.kind === kind).map((b) => doc.text.slice(b.start, b.end));

describe('docx parser', () => {
  it('produces a sound normalized document titled by the Title paragraph', () => {
    expect(invariantViolations(doc)).toEqual([]);
    expect(doc.format).toBe('docx');
    expect(doc.title).toBe('RAC-225B Service Manual');
    expect(doc.pageCount).toBeNull();
  });

  it('keeps Word headings as Markdown headings with nested heading paths', () => {
    const headings = doc.blocks.filter((b) => b.kind === 'heading').map((b) => [b.level, b.headingPath.join(' > ')]);
    expect(headings).toEqual([
      [1, 'RAC-225B Service Manual'],
      [1, 'Safety'],
      [2, 'Safety > Parts'],
      [3, 'Safety > Parts > Fuses'],
      [2, 'Safety > Reset'],
    ]);
  });

  it('keeps bulleted and numbered lists as lists', () => {
    const lists = textOf('list');
    expect(lists).toHaveLength(2);
    expect(lists[0]).toMatch(/^- +Front panel\n- +Fuse holder$/);
    expect(lists[1]).toMatch(/^1\. +Open the cover\.\n2\. +Run the reset command\.$/);
  });

  it('makes a GFM table with one header row even though mammoth marks every row as a header', async () => {
    // The quirk is real: mammoth puts all three rows in <thead> as <th> cells.
    const html = (await mammoth.convertToHtml({ buffer: Buffer.from(bytes) })).value;
    expect(html).toMatch(/<thead><tr><th><p>Model<\/p><\/th>.*RAC-225C.*<\/thead>/);

    const tables = doc.blocks.filter((b) => b.kind === 'table');
    expect(tables).toHaveLength(1);
    expect(tables[0]!.headingPath).toEqual(['Safety', 'Parts', 'Fuses']);
    const lines = doc.text.slice(tables[0]!.start, tables[0]!.end).split('\n');
    expect(lines).toEqual(['| Model | Fuse | Voltage |', '| --- | --- | --- |', '| RAC-225B | T5A | 230 V |', '| RAC-225C | T6.3A | 230 V |']);
  });

  it('turns monospace paragraphs into one fenced code block and monospace runs into inline code', () => {
    expect(textOf('code')).toEqual(['```\nsudo rac-reset --model RAC-225B\nrac-status *all*\n```']);
    expect(doc.text).toContain('Replace fuse `F2_T5A` only with the power off.');
    expect(textOf('paragraph')).toContain('The unit restarts.');
  });

  it('reports a text file renamed to .docx as corrupt, in words', async () => {
    const r = await docxParser.parse({ bytes: new TextEncoder().encode('Just some notes.\n'), fileName: 'notes.docx' });
    expect(r).toMatchObject({ ok: false, code: 'corrupt' });
    expect(!r.ok && r.reason).toMatch(/not a valid Word document.*plain text/);
  });

  it('reports a truncated .docx as damaged', async () => {
    const r = await docxParser.parse({ bytes: bytes.subarray(0, Math.floor(bytes.length / 2)), fileName: 'cut.docx' });
    expect(r).toMatchObject({ ok: false, code: 'corrupt' });
    expect(!r.ok && r.reason).toMatch(/damaged or incomplete/);
  });

  it('reports a ZIP without a Word document inside as corrupt', async () => {
    const renamed = Buffer.from(Buffer.from(bytes).toString('latin1').split('word/document.xml').join('word/documenX.xml'), 'latin1');
    const r = await docxParser.parse({ bytes: new Uint8Array(renamed), fileName: 'other.docx' });
    expect(r).toMatchObject({ ok: false, code: 'corrupt' });
    expect(!r.ok && r.reason).toMatch(/holds no Word document/);
  });

  it('tells an old .doc, a password-protected file and a PDF apart from a damaged .docx', async () => {
    const ole = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
    const oldDoc = new Uint8Array([...ole, ...new Array(504).fill(0)]);
    expect(await docxParser.parse({ bytes: oldDoc, fileName: 'old.docx' })).toMatchObject({ ok: false, code: 'unsupported' });
    const encrypted = new Uint8Array([...ole, ...new Array(100).fill(0), ...Buffer.from('EncryptedPackage', 'utf16le')]);
    expect(await docxParser.parse({ bytes: encrypted, fileName: 'locked.docx' })).toMatchObject({ ok: false, code: 'encrypted' });
    const pdf = await docxParser.parse({ bytes: new TextEncoder().encode('%PDF-1.7\n%âãÏÓ\n'), fileName: 'manual.docx' });
    // Renamed, it imports: not 'corrupt', whose advice is to download a good copy again.
    expect(pdf).toMatchObject({ ok: false, code: 'misnamed' });
    expect(!pdf.ok && pdf.reason).toContain('looks like a PDF document renamed to .docx. Rename it to .pdf');
  });

  it('reports empty files and documents without text as empty', async () => {
    expect(await docxParser.parse({ bytes: new Uint8Array(), fileName: 'zero.docx' })).toMatchObject({ ok: false, code: 'empty' });
    const blank = new Uint8Array(await Packer.toBuffer(new Document({ sections: [{ children: [] }] })));
    expect(await docxParser.parse({ bytes: blank, fileName: 'blank.docx' })).toMatchObject({ ok: false, code: 'empty' });
  });

  it('stops with a cancelled failure when the signal is already aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    expect(await docxParser.parse({ bytes, fileName: 'a.docx', signal: ac.signal })).toMatchObject({ ok: false, code: 'cancelled' });
  });
});
