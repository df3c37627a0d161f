// Issue 19: the defects found on real vendor manuals, each rebuilt as a generated PDF.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import type { ParsedDocument } from '../../../src-main/core/document';
import { normalizeText } from '../../../src-main/core/text';
import { pdfParser } from '../../../src-main/ingest/parsers/pdf.parser';
import { column, textWidth, wrapText, writePdf, type PdfPageSpec, type PdfWriteOptions } from '../../fixtures/pdf-writer';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'pdf-vendor-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function parseOk(pages: PdfPageSpec[], options: PdfWriteOptions = {}): Promise<ParsedDocument> {
  const result = await pdfParser.parse({ bytes: writePdf(pages, options), fileName: 'datasheet.pdf' });
  if (!result.ok) throw new Error(`expected a parsed document, got ${result.code}: ${result.reason}`);
  return result.doc;
}

/** poppler's pdftotext, the reference for content and reading order; fails loudly when it is missing. */
function pdftotext(pdf: Uint8Array): string {
  const file = path.join(tmp, `ref-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  try {
    return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('pdftotext (poppler-utils) is not installed; .ci/run installs it. Install poppler-utils to run this test.');
    throw err;
  }
}

// eslint-disable-next-line no-control-regex
const C0 = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

/** A body page of a datasheet with a running header (title + part numbers) and footer (revision + page). */
function datasheetPage(n: number, body: string[]): PdfPageSpec {
  return {
    runs: [
      { x: 72, y: 760, text: 'NTD4809N, NVD4809N', size: 12 },
      { x: 400, y: 760, text: 'Power MOSFET 30 V', size: 9 },
      ...column(body, 72, 700),
      { x: 72, y: 30, text: `Rev. 3 ${n}`, size: 8 },
    ],
  };
}


describe('pdfParser on a running process', () => {
  // In its own Node process: vitest may load pdf.js in a realm of its own, where the polyfill would
  // replace another Array.prototype than the engine's.
  it('leaves Array.prototype.push native after loading pdf.js (its polyfill slowed every array in the engine)', () => {
    const parser = path.resolve(import.meta.dirname, '../../../src-main/ingest/parsers/pdf.parser.ts');
    const script = [
      'const native = Array.prototype.push;',
      `const { pdfParser } = await import(${JSON.stringify(pathToFileURL(parser).href)});`,
      `const r = await pdfParser.parse({ bytes: new Uint8Array(Buffer.from(${JSON.stringify(Buffer.from(writePdf([{ runs: [{ x: 72, y: 700, text: 'Any text.' }] }])).toString('base64'))}, 'base64')), fileName: 'a.pdf' });`,
      `console.log(JSON.stringify({ ok: r.ok, native: Array.prototype.push === native }));`,
    ].join('\n');
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    const result = JSON.parse(out.trim().split('\n').pop()!) as { ok: boolean; native: boolean };
    expect(result.ok).toBe(true);
    // core-js makes its replacement print as "[native code]", so only identity tells them apart.
    expect(result.native).toBe(true);
  });
});

describe('pdfParser running headers, footers and metadata as document facts', () => {
  const body = (n: number): string[] => wrapText(`Section ${n}. The drain current rating applies at a case temperature of 25 degrees with the tab soldered to a copper area. `.repeat(3), 460);
  const pages = [1, 2, 3, 4].map((n) => datasheetPage(n, body(n)));

  it('removes the running lines from pages 2+ but keeps the title line of page 1', async () => {
    const doc = await parseOk(pages);
    expect(doc.text.match(/NTD4809N, NVD4809N/g)).toHaveLength(1);
    const block = doc.blocks.find((b) => doc.text.slice(b.start, b.end).includes('NTD4809N'));
    expect(block?.page).toBe(1);
    expect(doc.text).not.toContain('Rev. 3');
  });

  it('keeps the removed lines, part numbers and revision as typed facts', async () => {
    const doc = await parseOk(pages, { title: 'NTD4809N Power MOSFET', subject: 'Single N-Channel DPAK' });
    expect(doc.facts?.runningText).toEqual(expect.arrayContaining(['NTD4809N, NVD4809N', 'Power MOSFET 30 V']));
    expect(doc.facts?.partNumbers).toEqual(expect.arrayContaining(['NTD4809N', 'NVD4809N']));
    expect(doc.facts?.partNumbers).not.toContain('DPAK');
    expect(doc.facts?.revision).toBe('Rev. 3');
    expect(doc.facts?.metadataTitle).toBe('NTD4809N Power MOSFET');
    expect(doc.facts?.subject).toBe('Single N-Channel DPAK');
  });

  it('titles a document from its level-1 heading when the metadata title is a tool file name', async () => {
    const cover: PdfPageSpec = { runs: [{ x: 400, y: 700, text: 'July 2013', size: 12 }, { x: 72, y: 660, text: 'LM317 Adjustable Regulator', size: 20 }, ...column(body(1), 72, 620)] };
    const doc = await parseOk([cover, ...pages.slice(1)], { title: 'LM317 20130307.fm' });
    expect(doc.title).toBe('LM317 Adjustable Regulator');
  });
});

describe('pdfParser hyphens at line ends', () => {
  // Lines as wide as the column, so only the hyphen decides whether the next line continues.
  const lines = [
    'The module integrates a 32-bit RISC-',
    'V core, a radio and the ESP32-',
    'C3 chip, and every seg-',
    'ment of flash is encrypted, the Wi-',
    'Fi radio is off before the USB-',
    'powered board starts; soft\u00ad',
    'hyphens join too.',
  ];
  const width = Math.max(...lines.map((l) => textWidth(l)));
  const pdf = writePdf([{ runs: [{ x: 72, y: 720, text: 'ESP32\u00adC3 Series Datasheet', size: 20 }, ...column(lines.map((l) => l.padEnd(l.length)), 72, 690)] }]);

  it('joins at a hyphenation break and keeps printed hyphens, as pdftotext prints them', async () => {
    expect(width).toBeGreaterThan(100);
    const result = await pdfParser.parse({ bytes: pdf, fileName: 'a.pdf' });
    if (!result.ok) throw new Error(result.reason);
    const text = result.doc.text;
    for (const kept of ['RISC-V core', 'ESP32-C3 chip', 'USB-powered', 'segment of flash', 'Wi-Fi radio', 'soft', 'ESP32-C3 Series']) expect(text).toContain(kept);
    expect(text).not.toMatch(/ESP32C3|RISCV|ESP32- C3|seg- ment/);
    // One paragraph: the short "ESP32-" line does not end it.
    expect(text).toMatch(/The module integrates[^\n]+hyphens join too\./);
    // Every word of pdftotext's reading is there, in the same order (hyphenated halves aside).
    // pdftotext drops every line-end hyphen ("RISCV"), so hyphens are ignored on both sides here.
    const words = (t: string): string[] => t.replace(/[-\u00ad]/g, '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 3);
    const ours = words(text);
    const ref = words(pdftotext(pdf));
    expect(ref.length).toBeGreaterThan(20);
    expect(ref.filter((w) => !ours.includes(w))).toEqual([]);
  });
});

describe('pdfParser characters', () => {
  // pdftotext is no reference here: it joins the two lines to "AESXTS", a name no datasheet prints.
  it('keeps an all-capitals name broken at its hyphen at a line end whole, with the hyphen', async () => {
    const lines = ['The flash is encrypted on the fly by the AES-', 'XTS engine, and the keys stay in the eFuse block.'];
    const doc = await parseOk([{ runs: column(lines, 72, 700) }]);
    expect(doc.text).toContain('by the AES-XTS engine');
    expect(doc.text).not.toMatch(/AESXTS|AES- XTS/);
  });

  it('stores the micro sign and Greek mu as one character, the same one normalizeText gives a query', async () => {
    const doc = await parseOk([{ runs: [{ x: 72, y: 700, text: 'Decouple VDD with 10 \u00b5F and 100 nF.' }] }]);
    expect(doc.text).toContain(normalizeText('10 \u00b5F'));
    expect(normalizeText('10\u00b5F')).toBe(normalizeText('10\u03bcF'));
    expect(normalizeText('\ufb01rmware')).toBe('firmware');
  });

  it('decodes a font through its encoding and flags codes without a Unicode mapping, never as control characters', async () => {
    const runs = [
      { x: 72, y: 700, text: 'Thermal resistance R' },
      { x: 72 + textWidth('Thermal resistance R'), y: 700, text: '\u0002', font: 'custom' as const },
      { x: 78 + textWidth('Thermal resistance R'), y: 700, text: 'JA is 50 and unnamed glyphs \u0005\u0006 stay flagged.' },
      { x: 72, y: 680, text: 'On-resistance 9.0 m' },
      { x: 72 + textWidth('On-resistance 9.0 m'), y: 680, text: 'W', font: 'symbol' as const },
      { x: 72, y: 660, text: 'unknown' },
      { x: 72 + textWidth('unknown '), y: 660, text: '\u0005\u0006', font: 'custom' as const },
    ];
    const doc = await parseOk([{ runs }, { runs: [{ x: 72, y: 700, text: 'Plain page.' }] }]);
    expect(doc.text).not.toMatch(C0);
    expect(doc.text).toContain('R\u03b8');
    expect(doc.text).toContain('m\u03a9');
    expect(doc.text).toContain('\ufffd');
    expect(doc.metadata['pagesWithUndecodedCharacters']).toBe('1');
  });
});

describe('pdfParser icon and symbol glyphs in the Private Use Area', () => {
  // Wingdings-style fonts map their arrows and bullets, and some symbol fonts their degree sign, to
  // Private Use code points: no font but the PDF's own draws them, so they showed as empty boxes in
  // answers and the viewer. pdftotext leaves them out; so does the import.
  it('leaves them out of the text and keeps the words around them', async () => {
    const runs = [
      { x: 72, y: 700, text: '\u000a', font: 'custom' as const },
      { x: 84, y: 700, text: 'Open the project in the IDE.' },
      { x: 72, y: 680, text: 'Operating range -40' },
      { x: 72 + textWidth('Operating range -40'), y: 680, text: '\u000b', font: 'custom' as const },
      { x: 78 + textWidth('Operating range -40'), y: 680, text: 'C to +125' },
      { x: 78 + textWidth('Operating range -40C to +125'), y: 680, text: '\u000b', font: 'custom' as const },
      { x: 84 + textWidth('Operating range -40C to +125'), y: 680, text: 'C.' },
    ];
    const doc = await parseOk([{ runs }]);
    expect(doc.text).not.toMatch(/[\ue000-\uf8ff]/);
    expect(doc.text).toMatch(/^Open the project in the IDE\.$/m);
    expect(doc.text).toMatch(/Operating range -40 ?C to \+125 ?C\./);
    expect(doc.metadata['pagesWithUndecodedCharacters']).toBeUndefined();
  });
});

describe('pdfParser fonts without any Unicode mapping', () => {
  it('flags a font of bare glyph ids instead of indexing its shifted letters, and keeps the page text around it', async () => {
    const runs = [
      { x: 72, y: 700, text: 'The regulator is made by' },
      { x: 72 + textWidth('The regulator is made by '), y: 700, text: 'Maximum Integrated Products', font: 'glyph-ids' as const },
      { x: 72, y: 680, text: 'and rated for 1.5 A.' },
    ];
    const pdf = writePdf([{ runs }, { runs: [{ x: 72, y: 700, text: 'Plain page.' }] }]);
    // pdftotext has no font program to read here either: it prints the same shifted letters,
    // which is what a subset TrueType font without ToUnicode gives pdf.js on real datasheets.
    expect(pdftotext(pdf)).toContain('0D[LP');
    const result = await pdfParser.parse({ bytes: pdf, fileName: 'datasheet.pdf' });
    if (!result.ok) throw new Error(result.reason);
    const { text, metadata } = result.doc;
    expect(text).not.toMatch(C0);
    expect(text).not.toMatch(/0D\[LP|QWHJUDWHG/);
    expect(text).toContain('The regulator is made by \ufffd');
    expect(text).toContain('rated for 1.5 A.');
    expect(metadata['pagesWithUndecodedCharacters']).toBe('1');
  });
});

describe('pdfParser footnote markers and wrapped values', () => {
  it('separates a raised footnote marker from the value it marks', async () => {
    const doc = await parseOk([
      {
        runs: [
          { x: 72, y: 700, text: 'Secure boot is enabled' },
          { x: 72 + textWidth('Secure boot is enabled'), y: 703.5, text: '4', size: 6 },
          { x: 72 + textWidth('Secure boot is enabled') + 5, y: 700, text: ' by default and the clock runs at 160 MHz' },
          { x: 72, y: 660, text: '4. Only in production mode.', size: 8 },
        ],
      },
    ]);
    expect(doc.text).toMatch(/enabled \[4\] by default/);
    expect(doc.text).not.toContain('enabled4');
  });

  it('continues a sentence whose next line starts like a lettered list item', async () => {
    const lines = ['The sensor cable can be extended up to 5', 'm. For each additional metre, add one repeater to the line and check the supply.'];
    const doc = await parseOk([{ runs: column(lines, 72, 700) }]);
    expect(doc.text).toContain('up to 5 m. For each additional metre');
    expect(doc.blocks.some((b) => b.kind === 'list')).toBe(false);
  });
});

describe('pdfParser two prose columns above a table (a regulator datasheet front page)', () => {
  // Features (bullets) | Description (justified prose) and, below, a table and figure labels whose
  // gaps line up with the gutter. Baselines written in PDF points from the bottom of the page.
  const description = [
    'This monolithic integrated circuit is an adjustable three-termi-',
    'nal positive-voltage regulator designed to supply more',
    'than 1.5 A of load current with an output voltage adjust-',
    'able over a 1.2 V to 37 V range. It employs internal cur-',
    // A justified line: pdf.js returns its words as items spread wider than a segment gap.
    ['rent', 'limiting,', 'thermal', 'shutdown,', 'and', 'safe', 'area'],
    'compensation.',
  ];
  const features = ['Output current in excess of 1.5 A', 'Output adjustable between 1.2 V and 37 V', 'Internal thermal overload protection', 'Internal short-circuit current limiting', 'Output transistor safe operating area compensation'];
  const left = 77;
  const right = 313;
  const runs = [
    { x: left, y: 720, text: 'LM317 Adjustable Regulator', size: 17 },
    { x: left, y: 680, text: 'Features', size: 12 },
    { x: right, y: 680, text: 'Description', size: 12 },
    // Bullets on a looser pitch than the prose lines, so rows alternate between the columns.
    ...features.map((f, i) => ({ x: left, y: 662 - i * 13.5, text: `\u2022 ${f}`, size: 9 })),
    ...description.flatMap((line, i) => {
      const y = 662 - i * 11;
      if (typeof line === 'string') return [{ x: right, y, text: line, size: 9 }];
      const words = line.map((w) => textWidth(w, 9));
      const gap = (222 - words.reduce((a, b) => a + b, 0)) / (line.length - 1);
      let x = right;
      return line.map((w, k) => {
        const run = { x, y, text: w, size: 9 };
        x += words[k]! + gap;
        return run;
      });
    }),
    { x: right + 5, y: 580, text: 'TO-220', size: 9 },
    { x: left, y: 540, text: 'Ordering Information', size: 12 },
    ...[['Product Number', 'Package', 'Packing Method', 'Operating Temperature'], ['LM317T', 'TO-220 (Single Gauge)', 'Rail', '0 to 125 C'], ['KA317TU', 'TO-220 (Dual Gauge)', 'Rail', '0 to 125 C']].flatMap((row, r) =>
      row.map((cell, c) => ({ x: [96, 203, 326, 424][c]!, y: 515 - r * 15, text: cell, size: 9 })),
    ),
  ];
  const pdf = writePdf([{ runs }]);

  it('keeps the prose column as one paragraph and the bullets as a list, not a table of interleaved lines', async () => {
    const result = await pdfParser.parse({ bytes: pdf, fileName: 'regulator.pdf' });
    if (!result.ok) throw new Error(result.reason);
    const text = result.doc.text;
    expect(text).toContain(
      'This monolithic integrated circuit is an adjustable three-terminal positive-voltage regulator designed to supply more than 1.5 A of load current with an output voltage adjustable over a 1.2 V to 37 V range. It employs internal current limiting, thermal shutdown, and safe area compensation.',
    );
    const slice = (b: { start: number; end: number }): string => text.slice(b.start, b.end);
    const lists = result.doc.blocks.filter((b) => b.kind === 'list').map(slice);
    expect(lists).toEqual([features.map((f) => `- ${f}`).join('\n')]);
    // The only table is the ordering table, whole, with its header.
    const tables = result.doc.blocks.filter((b) => b.kind === 'table').map(slice);
    expect(tables).toHaveLength(1);
    expect(tables[0]).toMatch(/^\| Product Number \| Package \| Packing Method \| Operating Temperature \|/);
    expect(tables[0]).toContain('| KA317TU | TO-220 (Dual Gauge) | Rail | 0 to 125 C |');
    // pdftotext reads the columns in the same order: the bullets, then the prose, then the table.
    const ref = pdftotext(pdf);
    const order = (t: string): number[] => ['Output current in excess', 'safe operating area compensation', 'This monolithic', 'compensation.', 'Ordering Information'].map((s) => t.indexOf(s));
    expect([...order(ref)].sort((a, b) => a - b)).toEqual(order(ref));
    expect([...order(text)].sort((a, b) => a - b)).toEqual(order(text));
  });
});

describe('pdfParser spec tables with spanning labels and two-line headers', () => {
  // Runs placed top-down (`top` in points from the top of a Letter page), as a datasheet sets them.
  const at = (x: number, top: number, text: string, size = 9): { x: number; y: number; text: string; size: number } => ({ x, y: 792 - top, text, size });
  const cols = { symbol: 88, parameter: 136, conditions: 241, min: 402, max: 473, unit: 510 };
  const specTable = [
    at(cols.symbol, 100, 'Symbol'), at(cols.parameter, 100, 'Parameter'), at(cols.conditions, 100, 'Conditions'), at(cols.min, 100, 'Min.'), at(cols.max, 100, 'Max.'), at(cols.unit, 100, 'Unit'),
    // RLINE / Line regulation is centred beside its two condition rows.
    at(cols.conditions, 115, 'TA = 25 C, 3 V to 40 V'), at(cols.min, 115, '0.01'), at(cols.max, 115, '0.04'), at(cols.unit, 115, '%/V'),
    at(cols.symbol, 122.4, 'RLINE', 7), at(cols.parameter, 122.4, 'Line regulation'),
    at(cols.conditions, 129.8, '3 V to 40 V'), at(cols.min, 129.8, '0.02'), at(cols.max, 129.8, '0.07'), at(cols.unit, 129.8, '%/V'),
    at(cols.symbol, 150, 'IADJ', 7), at(cols.parameter, 150, 'Adjust pin current'), at(cols.min, 150, '46'), at(cols.max, 150, '100'), at(cols.unit, 150, 'uA'),
    // A tall row: its conditions cell has two lines, set above and below the row's baseline.
    at(cols.conditions, 164.6, '3 V to 40 V,'),
    at(cols.symbol, 170, 'VREF', 7), at(cols.parameter, 170, 'Reference voltage'), at(cols.min, 170, '1.20'), at(cols.max, 170, '1.30'), at(cols.unit, 170, 'V'),
    at(cols.conditions, 175.4, '10 mA to 1.5 A'),
    at(cols.symbol, 195.5, 'STT', 7), at(cols.parameter, 195.5, 'Temperature stability'), at(cols.max, 195.5, '0.7'), at(cols.unit, 195.5, '%/VO'),
  ];

  it('keeps a table whose labels span several rows as one table, each row carrying its label', async () => {
    const pdf = writePdf([{ runs: [at(72, 80, 'Electrical Characteristics', 13), ...specTable] }]);
    const result = await pdfParser.parse({ bytes: pdf, fileName: 'regulator.pdf' });
    if (!result.ok) throw new Error(result.reason);
    const { text, blocks } = result.doc;
    const tables = blocks.filter((b) => b.kind === 'table').map((b) => text.slice(b.start, b.end));
    expect(tables).toHaveLength(1);
    const rows = tables[0]!.split('\n');
    expect(rows[0]).toBe('| Symbol | Parameter | Conditions | Min. | Max. | Unit |');
    expect(rows).toContain('| RLINE | Line regulation | TA = 25 C, 3 V to 40 V | 0.01 | 0.04 | %/V |');
    expect(rows).toContain('| RLINE | Line regulation | 3 V to 40 V | 0.02 | 0.07 | %/V |');
    expect(rows.filter((r) => r.startsWith('| VREF |'))).toHaveLength(1);
    expect(rows.some((r) => r.startsWith('| STT | Temperature stability |'))).toBe(true);
    // No row is only a label any more, and every word pdftotext reads is in the table.
    expect(rows.some((r) => /^\| RLINE \| Line regulation \|(?:\s*\|)+$/.test(r))).toBe(false);
    const words = (t: string): string[] => t.split(/[\s|]+/).filter((w) => w && w !== '---');
    const ours = new Set(words(tables[0]!));
    const ref = words(pdftotext(pdf));
    expect(ref.length).toBeGreaterThan(40);
    expect(ref.filter((w) => !ours.has(w) && !['Electrical', 'Characteristics'].includes(w))).toEqual([]);
  });

  it('merges a header set on two lines into one header row', async () => {
    const runs = [
      at(80, 100, 'Product'), at(200, 100, 'Output'), at(330, 100, 'Operating'),
      at(80, 109, 'Number'), at(200, 109, 'Voltage'), at(330, 109, 'Temperature'),
      at(80, 124, 'LM7805CT'), at(200, 124, '5 V'), at(330, 124, '-40 to 125 C'),
      at(80, 138, 'LM7812CT'), at(200, 138, '12 V'), at(330, 138, '-40 to 125 C'),
    ];
    const pdf = writePdf([{ runs }]);
    const doc = await parseOk([{ runs }]);
    const table = doc.blocks.filter((b) => b.kind === 'table').map((b) => doc.text.slice(b.start, b.end));
    expect(table).toHaveLength(1);
    expect(table[0]!.split('\n')).toEqual([
      '| Product Number | Output Voltage | Operating Temperature |',
      '| --- | --- | --- |',
      '| LM7805CT | 5 V | -40 to 125 C |',
      '| LM7812CT | 12 V | -40 to 125 C |',
    ]);
    // pdftotext reads the same two header lines, in the same order.
    expect(pdftotext(pdf)).toMatch(/Product\s+Number[\s\S]*Output\s+Voltage/);
  });
});

describe('pdfParser rotated labels', () => {
  // A graph's y-axis label is set upwards in several runs: a symbol, its subscript (smaller and
  // shifted off the baseline), the name, a Greek unit in the Symbol font and the rest of the unit.
  // Each run used to become a paragraph of its own ("- Adjustable Pin Current (" / "μ" / "A)").
  it('joins the runs of one rotated line as pdftotext does, and keeps labels side by side apart', async () => {
    const x = 90;
    let y = 300;
    const runs: PdfPageSpec['runs'] = [];
    const put = (text: string, size: number, advance: number, shift = 0, font?: 'symbol'): void => {
      runs.push({ x: x + shift, y, text, size, rotated: true, ...(font ? { font } : {}) });
      y += advance;
    };
    put('I', 7, textWidth('I', 7));
    put('ADJ', 4.2, textWidth('ADJ', 4.2), 1.5);
    put(' - Adjustable Pin Current (', 7, textWidth(' - Adjustable Pin Current (', 7));
    put('m', 6.3, 0.576 * 6.3, 0, 'symbol');
    put('A)', 7, textWidth('A)', 7));
    // Pin names of a package drawing: one rotated label per pin, 12 pt apart, each its own line.
    for (const [i, pin] of ['VDD', 'GND', 'RESET'].entries()) runs.push({ x: 300 + 12 * i, y: 500, text: pin, size: 7, rotated: true });
    runs.push({ x: 72, y: 720, text: 'Typical performance characteristics of the adjustable regulator.' });
    const pdf = writePdf([{ runs }]);
    const label = normalizeText('IADJ - Adjustable Pin Current (\u03bcA)');
    expect(normalizeText(pdftotext(pdf))).toContain(label);
    const lines = (await parseOk([{ runs }])).text.split('\n').filter((l) => l.trim());
    expect(lines).toContain(label);
    for (const pin of ['VDD', 'GND', 'RESET']) expect(lines).toContain(pin);
  });
});
