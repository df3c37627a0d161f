import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ParsedDocument } from '../../../src-main/core/document';
import type { ParseInput, ParseResult } from '../../../src-main/ingest/parsers/parser';
import { meaningfulTitle, pdfParser } from '../../../src-main/ingest/parsers/pdf.parser';
import { column, textWidth, wrapText, writePdf, type PdfPageSpec, type PdfTextRun } from '../../fixtures/pdf-writer';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'pdf-parser-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function parse(bytes: Uint8Array, extra: Partial<ParseInput> = {}): Promise<ParseResult> {
  return pdfParser.parse({ bytes, fileName: 'manual.pdf', ...extra });
}

async function parseOk(bytes: Uint8Array, extra: Partial<ParseInput> = {}): Promise<ParsedDocument> {
  const result = await parse(bytes, extra);
  if (!result.ok) throw new Error(`expected a parsed document, got ${result.code}: ${result.reason}`);
  assertBlockInvariants(result.doc);
  return result.doc;
}

/** The invariants of core/document.ts: sorted, non-overlapping blocks with only whitespace between. */
function assertBlockInvariants(doc: ParsedDocument): void {
  let cursor = 0;
  for (const b of doc.blocks) {
    expect(b.start).toBeGreaterThanOrEqual(cursor);
    expect(doc.text.slice(cursor, b.start).trim()).toBe('');
    expect(b.end).toBeGreaterThan(b.start);
    expect(b.page).not.toBeNull();
    expect(b.pageEnd!).toBeGreaterThanOrEqual(b.page!);
    cursor = b.end;
  }
  expect(doc.text.slice(cursor).trim()).toBe('');
}

/** Plain words of Markdown or plain text, lower-cased, without table pipes and heading marks. */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[|#\\]/g, ' ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/** Words that occur exactly once in both lists, in the order of `a`; order-sensitive and robust to hyphenation. */
function sharedUniqueWords(a: string[], b: string[]): [string[], string[]] {
  const count = (ws: string[]): Map<string, number> => ws.reduce((m, w) => m.set(w, (m.get(w) ?? 0) + 1), new Map<string, number>());
  const ca = count(a);
  const cb = count(b);
  const keep = (w: string): boolean => ca.get(w) === 1 && cb.get(w) === 1;
  return [a.filter(keep), b.filter(keep)];
}

/** Runs poppler's pdftotext, the reading-order reference; fails loudly when it is not installed. */
function runPdftotext(pdf: Uint8Array, args: string[]): string {
  const file = path.join(tmp, `ref-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  try {
    return execFileSync('pdftotext', [...args, file, '-'], { encoding: 'utf8' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error('pdftotext is not installed; install the apt package poppler-utils (apt-get install -y poppler-utils).');
    }
    throw err;
  }
}

const pdftotext = (pdf: Uint8Array, layout: boolean): string => runPdftotext(pdf, layout ? ['-layout'] : []);

function interleave(a: PdfTextRun[], b: PdfTextRun[]): PdfTextRun[] {
  const out: PdfTextRun[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i]) out.push(a[i]!);
    if (b[i]) out.push(b[i]!);
  }
  return out;
}

const LEFT_TEXT =
  'Alpha opens the left column with the power supply. The unit takes 24 V DC from the terminal block on the rear panel. ' +
  'Use copper wire of at least 1.5 square millimetres and tighten the screws to 0.5 newton metres. Alpha closes the left column.';
const RIGHT_TEXT =
  'Bravo opens the right column with the display. The display shows error codes while the controller starts up. ' +
  'Hold the reset button for five seconds until the green lamp blinks twice, then release it. Bravo closes the right column.';

function twoColumnPdf(): Uint8Array {
  const left = column(wrapText(LEFT_TEXT, 230), 72, 690);
  const right = column(wrapText(RIGHT_TEXT, 230), 320, 690);
  const runs = [{ x: 72, y: 740, text: 'Controller Overview', size: 20 }, ...interleave(left, right)];
  return writePdf([{ runs }]);
}

const TABLE = [
  ['Model', 'Fuse', 'Supply'],
  ['RAC-225A', '2 A slow', '24 V DC'],
  ['RAC-225B', '3.15 A slow', '24 V DC'],
  ['RAC-230', '4 A fast', '48 V DC'],
  ['RAC-240X', '6.3 A fast', '230 V AC'],
];

/** A spec table written column by column, between two paragraphs. */
function columnMajorTablePdf(): Uint8Array {
  const xs = [72, 200, 320];
  const runs: PdfTextRun[] = [{ x: 72, y: 720, text: 'The fuse table lists every variant of the controller series.' }];
  for (let c = 0; c < 3; c++) {
    TABLE.forEach((row, r) => runs.push({ x: xs[c]!, y: 690 - r * 14, text: row[c]! }));
  }
  runs.push({ x: 72, y: 600, text: 'Replace a blown fuse only with the type listed for your model.' });
  return writePdf([{ runs }]);
}

describe('pdfParser reading order', () => {
  it('reads a two-column page written with left and right lines interleaved as the left column, then the right', async () => {
    const pdf = twoColumnPdf();
    const doc = await parseOk(pdf);
    const text = doc.text;
    expect(text.indexOf('Alpha closes the left column.')).toBeGreaterThan(text.indexOf('Alpha opens'));
    expect(text.indexOf('Bravo opens')).toBeGreaterThan(text.indexOf('Alpha closes the left column.'));
    expect(text).toContain(LEFT_TEXT);
    expect(text).toContain(RIGHT_TEXT);
    const [ours, ref] = sharedUniqueWords(words(text), words(pdftotext(pdf, false)));
    expect(ours.length).toBeGreaterThan(40);
    expect(ours).toEqual(ref);
  });

  it('keeps a table written column-major as rows in reading order', async () => {
    const pdf = columnMajorTablePdf();
    const doc = await parseOk(pdf);
    const table = doc.blocks.find((b) => b.kind === 'table');
    expect(table).toBeDefined();
    const tableText = doc.text.slice(table!.start, table!.end);
    const rows = tableText.split('\n').filter((l) => !/^\|[\s|-]+\|$/.test(l));
    expect(rows).toEqual(TABLE.map((r) => `| ${r.join(' | ')} |`));
    expect(doc.text.indexOf('lists every variant')).toBeLessThan(table!.start);
    expect(doc.text.indexOf('Replace a blown fuse')).toBeGreaterThan(table!.end);
    // pdftotext -layout prints each table row on one line; ours must list the rows in the same order.
    const refRows = pdftotext(pdf, true)
      .split('\n')
      .filter((l) => /RAC-\d/.test(l))
      .map((l) => l.trim().split(/\s{2,}/));
    expect(refRows).toEqual(TABLE.slice(1));
  });

  it('removes running headers, footers and page numbers from a four-page manual', async () => {
    const pages: PdfPageSpec[] = [1, 2, 3, 4].map((n) => ({
      runs: [
        { x: 72, y: 760, text: 'RAC-225 Service Manual', size: 9 },
        { x: 480, y: 760, text: `Rev. ${n}.0`, size: 9 },
        { x: 72, y: 700, text: `Body of page ${n} explains step ${n} of the repair in full.` },
        { x: 72, y: 686, text: n % 2 ? 'The odd pages carry extra notes for the field technician.' : 'Even pages close the step.' },
        { x: 280, y: 40, text: `Page ${n} of 4`, size: 9 },
        { x: 540, y: 40, text: `- ${n + 10} -`, size: 9 },
      ],
    }));
    const doc = await parseOk(writePdf(pages));
    expect(doc.pageCount).toBe(4);
    expect(doc.text).not.toMatch(/Service Manual|Rev\.|Page \d of 4|- \d+ -/);
    for (const n of [1, 2, 3, 4]) {
      const at = doc.text.indexOf(`Body of page ${n}`);
      expect(at).toBeGreaterThanOrEqual(0);
      const block = doc.blocks.find((b) => b.start <= at && at < b.end);
      expect(block?.page).toBe(n);
    }
  });

  it('keeps a number that is the last line of a short page, alone or in a numbered document', async () => {
    const alone = await parseOk(writePdf([{ runs: [{ x: 72, y: 700, text: 'Channels' }, { x: 72, y: 686, text: '55' }] }]));
    expect(alone.text).toMatch(/Channels\s+55\b/);

    // Pages 2-4 print 12-14 at the foot; page 3 has no number and ends on a value under its label.
    const body = (n: number): PdfTextRun => ({ x: 72, y: 700, text: `Section ${n} lists the settings of the receiver.` });
    const pages: PdfPageSpec[] = [
      { runs: [body(1), { x: 300, y: 40, text: '11', size: 9 }] },
      { runs: [body(2), { x: 300, y: 40, text: '12', size: 9 }] },
      { runs: [body(3), { x: 72, y: 686, text: 'Channels' }, { x: 72, y: 672, text: '55' }] },
      { runs: [body(4), { x: 300, y: 40, text: '14', size: 9 }] },
    ];
    const doc = await parseOk(writePdf(pages));
    expect(doc.text).toMatch(/Channels\s+55\b/);
    expect(doc.text).not.toMatch(/\b1[124]\b/);
  });

  it('keeps a table of contents entry whose page number breaks the sequence, and removes the printed page numbers', async () => {
    // A contents page whose first line, in the top margin, is an entry's page number ("24") left
    // alone by the dot leader; the document numbers its pages i, ii in the front matter, then 1, 2, 3
    // at a height outside the margin zone.
    const pages: PdfPageSpec[] = [
      { runs: [{ x: 500, y: 760, text: '24' }, { x: 72, y: 700, text: 'Contents of the manual and where each part begins.' }, { x: 300, y: 80, text: 'i', size: 9 }] },
      { runs: [{ x: 72, y: 700, text: 'Safety notes for the installer of the receiver.' }, { x: 300, y: 80, text: 'ii', size: 9 }] },
      ...[1, 2, 3].map((n) => ({ runs: [{ x: 72, y: 700, text: `Chapter text ${n} explains one more step of the setup.` }, { x: 300, y: 80, text: String(n), size: 9 }] })),
    ];
    const doc = await parseOk(writePdf(pages));
    expect(doc.text).toMatch(/^24$/m);
    expect(doc.text).not.toMatch(/^(?:i|ii|[123])$/m);
    for (const n of [1, 2, 3]) expect(doc.text).toContain(`Chapter text ${n} explains`);
  });

  it('recovers headings from a larger font size and from section numbering', async () => {
    const runs: PdfTextRun[] = [
      { x: 72, y: 740, text: 'Installation Guide', size: 22 },
      { x: 72, y: 700, text: 'Safety', size: 15 },
      ...column(wrapText('Disconnect the mains supply before opening the housing. Only trained staff may service the unit.', 460), 72, 680),
      { x: 72, y: 630, text: '3.2 Installation' },
      ...column(wrapText('Mount the controller on a DIN rail in a dry cabinet away from heat sources and direct sunlight.', 460), 72, 612),
      { x: 72, y: 570, text: '3.2.1 Mounting the bracket' },
      ...column(wrapText('Fix the bracket with two M4 screws and check that it does not wobble before you hang the unit.', 460), 72, 552),
    ];
    const doc = await parseOk(writePdf([{ runs }]));
    const headings = doc.blocks.filter((b) => b.kind === 'heading').map((b) => [b.level, doc.text.slice(b.start, b.end)]);
    expect(headings).toEqual([
      [1, '# Installation Guide'],
      [2, '## Safety'],
      [2, '## 3.2 Installation'],
      [3, '### 3.2.1 Mounting the bracket'],
    ]);
    const last = doc.blocks[doc.blocks.length - 1]!;
    expect(last.kind).toBe('paragraph');
    expect(last.headingPath).toEqual(['Installation Guide', '3.2 Installation', '3.2.1 Mounting the bracket']);
  });

  it('joins wrapped lines into paragraphs, removes line-end hyphens and separates paragraphs by a blank line', async () => {
    const runs: PdfTextRun[] = [
      ...column(['The controller measures the trans-', 'mission temperature every second and', 'stores the maximum value.'], 72, 700),
      ...column(['A second paragraph starts after a gap.'], 72, 650),
    ];
    const doc = await parseOk(writePdf([{ runs }]));
    expect(doc.text).toBe(
      'The controller measures the transmission temperature every second and stores the maximum value.\n\nA second paragraph starts after a gap.\n',
    );
    expect(doc.blocks.map((b) => b.kind)).toEqual(['paragraph', 'paragraph']);
  });

  it('continues a paragraph cut by a page break and gives its block both pages', async () => {
    const doc = await parseOk(
      writePdf([
        { runs: column(['The cooling fan starts when the heat sink reaches', 'forty degrees and'], 72, 700) },
        { runs: column(['stops again below thirty-five degrees.', '', 'Next topic.'], 72, 700) },
      ]),
    );
    expect(doc.text).toContain('reaches forty degrees and stops again below thirty-five degrees.');
    const block = doc.blocks[0]!;
    expect([block.page, block.pageEnd]).toEqual([1, 2]);
    expect(doc.blocks[1]!.page).toBe(2);
  });
});

describe('pdfParser titles and metadata', () => {
  it('uses a meaningful metadata title', async () => {
    const doc = await parseOk(writePdf([{ runs: [{ x: 72, y: 700, text: 'Some body text.' }] }], { title: 'RAC-225 Service Manual' }));
    expect(doc.title).toBe('RAC-225 Service Manual');
  });

  it('falls back to the first heading when the metadata title is a default, then to the file name', async () => {
    const withHeading = writePdf([{ runs: [{ x: 72, y: 740, text: 'Quick Start', size: 18 }, { x: 72, y: 700, text: 'Body text set in the regular size.' }] }], {
      title: 'Microsoft Word - draft3.docx',
    });
    expect((await parseOk(withHeading)).title).toBe('Quick Start');
    const plain = writePdf([{ runs: [{ x: 72, y: 700, text: 'Body text only.' }] }], { title: 'Untitled' });
    expect((await parseOk(plain, { fileName: 'RAC-225 quick guide.pdf' })).title).toBe('RAC-225 quick guide');
  });

  it('judges metadata titles', () => {
    expect(meaningfulTitle('  Pump P-12  Manual ')).toBe('Pump P-12 Manual');
    for (const junk of ['', 'ab', 'Untitled', 'Document1', 'manual_v3.pdf', 'C:\\docs\\x.doc', '1234', null, 42]) {
      expect(meaningfulTitle(junk)).toBeNull();
    }
  });
});

describe('pdfParser failures', () => {
  it('reports an empty file', async () => {
    const result = await parse(new Uint8Array());
    // Worded as every other format's empty file.
    expect(result).toMatchObject({ ok: false, code: 'empty', reason: 'The file is empty.' });
  });

  it.each([
    ['random bytes', new Uint8Array(Array.from({ length: 4000 }, (_, i) => (i * 7919) % 251))],
    ['a text file', new TextEncoder().encode('Dear customer,\nthis is not a PDF.\n')],
    ['a PDF header followed by garbage', new TextEncoder().encode(`%PDF-1.7\n${'garbage '.repeat(300)}\n%%EOF\n`)],
    ['a PDF cut in half', twoColumnPdf().subarray(0, Math.floor(twoColumnPdf().length / 2))],
  ])('reports %s as damaged or not a PDF', async (_name, bytes) => {
    const result = await parse(bytes);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe('corrupt');
    expect(result.reason).toMatch(/^The file is damaged or not a PDF: .+\.$/);
  });

  it('names a Word document or an image saved under .pdf, and tells the Word document to be renamed', async () => {
    // The start of a .docx: a ZIP whose first entry is the Word document's XML.
    const docx = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 20, 0, ...Buffer.from('word/document.xml'), ...new Array(200).fill(0)]);
    const word = await parse(docx);
    expect(word).toMatchObject({ ok: false, code: 'misnamed' });
    expect(!word.ok && word.reason).toBe('This file is not a PDF: it looks like a Word document (.docx) renamed to .pdf. Rename it to .docx and import it again.');
    const png = await parse(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, ...Buffer.from('IHDR')]));
    expect(png).toMatchObject({ ok: false, code: 'corrupt', reason: 'The file is damaged or not a PDF: it looks like a PNG image renamed to .pdf.' });
  });

  it('reports a password-protected PDF', async () => {
    const pdf = writePdf([{ runs: [{ x: 72, y: 700, text: 'Secret wiring diagram notes.' }] }], { title: 'Secret', userPassword: 'hunter2' });
    const result = await parse(pdf);
    expect(result).toMatchObject({ ok: false, code: 'encrypted' });
    if (!result.ok) expect(result.reason).toMatch(/^The PDF is password-protected; .+\.$/);
    // The fixture's encryption is real: poppler decrypts it with the password.
    expect(runPdftotext(pdf, ['-upw', 'hunter2'])).toContain('Secret wiring diagram notes.');
  });

  it('reports a scanned PDF without a text layer', async () => {
    const scan = { image: { x: 50, y: 50, width: 512, height: 692 } };
    const result = await parse(writePdf([scan, scan]));
    expect(result).toMatchObject({ ok: false, code: 'no-text-layer' });
    if (!result.ok) expect(result.reason).toContain('no text layer; OCR is not supported yet');
  });

  it('imports the text pages of a partly scanned PDF and lists the pages without text', async () => {
    const doc = await parseOk(
      writePdf([
        { runs: [{ x: 72, y: 700, text: 'Page one text.' }] },
        { image: { x: 50, y: 50, width: 512, height: 692 } },
        { runs: [{ x: 72, y: 700, text: 'Page three text.' }] },
      ]),
    );
    expect(doc.metadata['pagesWithoutText']).toBe('2');
    const third = doc.blocks.find((b) => doc.text.slice(b.start, b.end) === 'Page three text.');
    expect(third?.page).toBe(3);
  });
});

describe('pdfParser progress, cancellation and size', () => {
  const manyPages = (n: number): Uint8Array =>
    writePdf(
      Array.from({ length: n }, (_, i) => ({
        runs: [
          { x: 72, y: 700, text: `Chapter ${i + 1}`, size: 16 },
          ...column(wrapText(`Marker${i + 1} ${'The pump delivers water to the upper tank through the check valve. '.repeat(12)}`, 460), 72, 670),
          { x: 300, y: 40, text: String(i + 1), size: 9 },
        ],
      })),
    );

  it('reports progress once per page, ending at 1, and leaves the caller bytes intact', async () => {
    const pdf = manyPages(5);
    const before = Buffer.from(pdf).toString('base64');
    const seen: number[] = [];
    await parseOk(pdf, { onProgress: (f) => seen.push(f) });
    expect(seen).toEqual([0.2, 0.4, 0.6, 0.8, 1]);
    expect(Buffer.from(pdf).toString('base64')).toBe(before);
  });

  it('returns cancelled when the signal is aborted before or during parsing', async () => {
    const pdf = manyPages(5);
    const early = new AbortController();
    early.abort();
    expect(await parse(pdf, { signal: early.signal })).toMatchObject({ ok: false, code: 'cancelled' });
    const midway = new AbortController();
    const result = await parse(pdf, { signal: midway.signal, onProgress: (f) => f >= 0.4 && midway.abort() });
    expect(result).toMatchObject({ ok: false, code: 'cancelled' });
  });

  it('parses a 200-page PDF with every page numbered and no page numbers left in the text', async () => {
    const doc = await parseOk(manyPages(200));
    expect(doc.pageCount).toBe(200);
    for (const n of [1, 57, 200]) {
      const at = doc.text.indexOf(`Marker${n} `);
      const block = doc.blocks.find((b) => b.start <= at && at < b.end);
      expect(block?.page).toBe(n);
      expect(block?.headingPath).toEqual([`Chapter ${n}`]);
    }
    expect(doc.text).not.toMatch(/^\d+$/m);
  });
});

// textWidth is part of the fixture's contract: runs placed with it must not overlap in pdftotext's view.
describe('pdf-writer fixture', () => {
  it('places runs that pdftotext reads back in layout order', () => {
    const a = 'Left cell';
    const pdf = writePdf([{ runs: [{ x: 100 + textWidth(a) + 30, y: 700, text: 'Right cell' }, { x: 100, y: 700, text: a }] }]);
    expect(pdftotext(pdf, true).trim()).toMatch(/^Left cell\s{2,}Right cell$/);
  });
});
