import { describe, expect, it } from 'vitest';
import { buildBlocks } from '../../../src-main/ingest/normalize';
import { escapeBlockStart, isPageNumber, layoutPdf, type PdfPageText, type PdfTextItem } from '../../../src-main/ingest/parsers/pdf.layout';
import { textWidth, wrapText } from '../../fixtures/pdf-writer';

// Synthetic pages in layout space: points, y is the baseline measured down from the page top.
const item = (text: string, x: number, y: number, size = 10, mono = false): PdfTextItem => ({
  text,
  x,
  y,
  width: mono ? 0.6 * size * text.length : textWidth(text, size),
  size,
  mono,
});
const page = (items: PdfTextItem[]): PdfPageText => ({ width: 612, height: 792, items });
const lines = (texts: string[], x: number, y: number, size = 10, leading = 12): PdfTextItem[] =>
  texts.map((t, i) => item(t, x, y + i * leading, size));
const markdown = (pages: PdfPageText[]): string => layoutPdf(pages).markdown;

const PROSE = (tag: string): string =>
  `${tag} begins here and the controller keeps reading the sensor values while the pump runs. ` +
  `When the tank is full the float switch opens and the pump stops after a short delay. ${tag} ends here.`;

describe('layoutPdf reading order', () => {
  it('reads columns left to right even when their paragraph gaps line up across the gutter', () => {
    // Both columns break paragraphs at the same height: a full-width whitespace band a plain XY-cut would cut first.
    const col = (tag: string, x: number): PdfTextItem[] => [
      ...lines(wrapText(PROSE(`${tag}1`), 220), x, 100),
      ...lines(wrapText(PROSE(`${tag}2`), 220), x, 100 + 12 * 12),
    ];
    const md = markdown([page([...col('Left', 72), ...col('Right', 320)])]);
    const order = ['Left1 begins', 'Left1 ends', 'Left2 begins', 'Left2 ends', 'Right1 begins', 'Right2 ends'].map((s) => md.indexOf(s));
    expect(order.every((pos) => pos >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('reads three columns in order and puts a full-width title before and a footer note after them', () => {
    const items = [
      item('Three Column Bulletin', 72, 80, 18),
      ...[0, 1, 2].flatMap((c) => lines(wrapText(PROSE(`Col${c}`), 140), 72 + c * 165, 120)),
      ...lines(['A closing note that spans the full width of the page below all three columns of text.'], 72, 400),
    ];
    const md = markdown([page(items)]);
    const order = ['Three Column Bulletin', 'Col0 begins', 'Col0 ends', 'Col1 begins', 'Col1 ends', 'Col2 begins', 'Col2 ends', 'A closing note'].map((s) =>
      md.indexOf(s),
    );
    expect(order.every((pos) => pos >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('never cuts a table whose first column holds short labels, even when the second holds sentences', () => {
    const rows = [
      ['PWR', 'Lights green while the board has power from the supply.'],
      ['ACT', 'Blinks when the controller reads or writes the memory card.'],
      ['ERR', 'Turns red when the self test fails at start-up of the device.'],
    ];
    const items = rows.flatMap(([a, b], r) => [item(a!, 72, 100 + r * 14), item(b!, 150, 100 + r * 14)]);
    const md = markdown([page(items)]);
    for (const [a, b] of rows) expect(md).toContain(`| ${a} | ${b} |`);
  });

  it('merges a wrapped table cell into its row but keeps rows under a group label', () => {
    const items = [
      item('LED', 72, 100),
      item('Meaning', 150, 100),
      item('PWR', 72, 114),
      item('Lights green while the board has', 150, 114),
      item('power from the supply.', 150, 126),
      item('ACT', 72, 140),
      item('Blinks on card access.', 150, 140),
      item('Group', 72, 170),
      item('Item', 150, 170),
      item('Value', 260, 170),
      item('Electrical', 72, 184),
      item('Voltage', 150, 184),
      item('5 V', 260, 184),
      item('Current', 150, 198),
      item('2 A', 260, 198),
    ];
    const md = markdown([page(items)]);
    expect(md).toContain('| PWR | Lights green while the board has power from the supply. |\n| ACT | Blinks on card access. |');
    expect(md).toContain('| Electrical | Voltage | 5 V |\n|  | Current | 2 A |');
  });

  it('keeps justified lines with one wide word gap as prose, not a table', () => {
    const items = [
      item('The service interval', 72, 100),
      item('depends on the load of the unit and', 72 + textWidth('The service interval') + 12, 100),
      item('on the ambient temperature of the', 72, 112),
      item('room where it is installed.', 72 + textWidth('on the ambient temperature of the') + 11, 112),
    ];
    expect(markdown([page(items)])).toBe(
      'The service interval depends on the load of the unit and on the ambient temperature of the room where it is installed.\n',
    );
  });

  it('keeps a superscript footnote mark on its line, apart from the value, and drops fake-bold duplicates', () => {
    const items = [
      item('Torque the bolts to 12 Nm', 72, 100),
      item('1', 72 + textWidth('Torque the bolts to 12 Nm') + 0.5, 96, 6),
      item('Warning', 72, 130),
      item('Warning', 72.3, 130),
    ];
    expect(markdown([page(items)])).toBe('Torque the bolts to 12 Nm [1]\n\nWarning\n');
  });
});

describe('layoutPdf structure', () => {
  it('turns bullets set apart from their text into list items and joins their wrapped lines', () => {
    const items = [
      item('Before you start:', 72, 100),
      item('•', 80, 114),
      item('Switch off the mains supply at the', 92, 114),
      item('distribution board.', 92, 126),
      item('•', 80, 138),
      item('Wait five minutes.', 92, 138),
      item('1.', 80, 170),
      item('Open the cover.', 92, 170),
      item('2.', 80, 182),
      item('Pull the fuse holder.', 92, 182),
    ];
    const md = markdown([page(items)]);
    expect(md).toBe(
      'Before you start:\n\n- Switch off the mains supply at the distribution board.\n- Wait five minutes.\n\n1. Open the cover.\n2. Pull the fuse holder.\n',
    );
    expect(buildBlocks(md).blocks.map((b) => b.kind)).toEqual(['paragraph', 'list', 'list']);
  });

  it('ranks headings by size, treats section numbers as levels and leaves large print paragraphs alone', () => {
    const items = [
      item('Pump Controller', 72, 60, 24),
      item('Getting Started', 72, 100, 16),
      item('Wiring', 72, 130, 13),
      ...lines(wrapText(PROSE('Body'), 460), 72, 150),
      item('4.1.2 Fuse Ratings', 72, 220),
      ...lines(wrapText(PROSE('Large'), 400, 13), 72, 250, 13, 16),
    ];
    const md = markdown([page(items)]);
    expect(md.split('\n').filter((l) => l.startsWith('#'))).toEqual([
      '# Pump Controller',
      '## Getting Started',
      '### Wiring',
      '### 4.1.2 Fuse Ratings',
    ]);
    expect(md).toContain('\n\nLarge begins here');
    expect(layoutPdf([page(items)]).firstHeading).toBe('Pump Controller');
  });

  it('sizes headings against the running text, not against pin tables set smaller with more characters', () => {
    // A datasheet: prose at 10 pt under a 15 pt chapter title, then pages of a 5 pt pin table whose
    // one-word cells hold more characters than the prose (pdf-dev's Bouffalo datasheets).
    const twoLines = (tag: string, y: number): PdfTextItem[] =>
      lines([`${tag} begins here: the controller reads the sensor values`, `while the pump runs. ${tag} ends here.`], 72, y, 10, 13);
    const prosePage = page([
      item('Functional Description', 72, 80, 15),
      ...twoLines('First', 110),
      ...twoLines('Second', 150),
      item('2.1 CPU', 72, 200, 10.5),
      ...twoLines('Third', 225),
    ]);
    const pinPage = (first: number): PdfPageText =>
      page(
        Array.from({ length: 90 }, (_, r) => {
          const n = first + r;
          return [`PAD_GPIO_${n}`, `GPIO${n}`, `VDDIO_${n % 3}`, `UART${n % 2}_TXD`].map((cell, c) => item(cell, 72 + c * 90, 60 + r * 7, 5));
        }).flat(),
      );
    const pages = [prosePage, pinPage(0), pinPage(90)];
    const md = markdown(pages);
    expect(md.split('\n').filter((l) => l.startsWith('#'))).toEqual(['# Functional Description', '## 2.1 CPU']);
    for (const tag of ['First', 'Second', 'Third']) expect(md).toMatch(new RegExp(`\\n\\n${tag} begins here[^\\n]+${tag} ends here\\.\\n`));
    expect(layoutPdf(pages).firstHeading).toBe('Functional Description');
  });

  it('keeps fixed-pitch lines as a fenced code block with their indentation', () => {
    const items = [
      item('Add this to the configuration file:', 72, 100),
      item('[network]', 72, 120, 10, true),
      item('address = 10.0.0.2', 84, 132, 10, true),
      item('# keep the mask', 84, 144, 10, true),
      item('The change takes effect after a restart.', 72, 170),
    ];
    expect(markdown([page(items)])).toBe(
      'Add this to the configuration file:\n\n```\n[network]\n  address = 10.0.0.2\n  # keep the mask\n```\n\nThe change takes effect after a restart.\n',
    );
  });

  it('puts each table-of-contents entry on its own line', () => {
    const items = lines(['1 Safety . . . . . . . . . . 3', '2 Installation . . . . . . . 7', '3 Maintenance . . . . . . . 12'], 72, 100);
    expect(markdown([page(items)]).trim().split('\n\n')).toHaveLength(3);
  });

  it('removes line-end hyphens between lower-case letters but keeps them in capitals and before capitals and digits', () => {
    const md = markdown([page(lines(['Check the con-', 'nector, the AES-', 'XTS engine, the Wi-', 'Fi module and the RS-', '232 port.'], 72, 100))]);
    expect(md).toBe('Check the connector, the AES-XTS engine, the Wi-Fi module and the RS-232 port.\n');
  });

  it('joins an abbreviation hyphenated at a line end when the words before it spell it, and no other', () => {
    const md = markdown([
      page(lines(['The flash has On-The-Fly AES Decryption (OT-', 'FAD) and an encrypted boot loader in XTS-AES mode (AES-', 'XTS).'], 72, 100)),
    ]);
    expect(md).toBe('The flash has On-The-Fly AES Decryption (OTFAD) and an encrypted boot loader in XTS-AES mode (AES-XTS).\n');
  });

  it('escapes text that Markdown would read as block syntax', () => {
    expect(escapeBlockStart('# of cycles')).toBe('\\# of cycles');
    expect(escapeBlockStart('- 5 V')).toBe('\\- 5 V');
    expect(escapeBlockStart('1. Is not a list here')).toBe('1\\. Is not a list here');
    expect(escapeBlockStart('<tag> text')).toBe('\\<tag> text');
    expect(escapeBlockStart('----')).toBe('\\----');
    expect(escapeBlockStart('Plain text')).toBe('Plain text');
    const md = markdown([page([item('# of cycles before service: 5000', 72, 100)])]);
    expect(buildBlocks(md).blocks.map((b) => b.kind)).toEqual(['paragraph']);
  });
});

describe('layoutPdf running text and pages', () => {
  it('recognizes bare page numbers', () => {
    for (const t of ['12', 'Page 3 of 10', '- 4 -', '3/10', 'iv', 'p. 7']) expect(isPageNumber(t)).toBe(true);
    for (const t of ['12 V', 'Page 3 explains', 'IV', 'MIX', '2023-01-05', 'Step 4']) expect(isPageNumber(t)).toBe(false);
  });

  it('removes alternating odd/even headers and chapter headers, but keeps one-off margin text', () => {
    const pages = Array.from({ length: 6 }, (_, i) =>
      page([
        item(i % 2 ? 'Pump Controller Manual' : 'Revision B, 2024', 72, 40, 9),
        item(i < 3 ? 'Chapter 1: Safety' : 'Chapter 2: Wiring', 400, 40, 9),
        ...(i === 0 ? [item('Draft for review', 250, 30, 9)] : []),
        item(`Content of page ${i + 1} for the field technician.`, 72, 120),
        item(String(i + 41), 300, 760, 9),
      ]),
    );
    const md = markdown(pages);
    expect(md).not.toMatch(/Pump Controller Manual|Revision B|Chapter|\b4[1-6]\b/);
    expect(md).toContain('Draft for review');
    for (let i = 1; i <= 6; i++) expect(md).toContain(`Content of page ${i} for`);
  });

  it('removes a lone page number at the foot of a single page but keeps numbers in table rows', () => {
    const items = [
      item('Fuse', 72, 100),
      item('Rating', 200, 100),
      item('F1', 72, 114),
      item('12', 200, 114),
      item('F2', 72, 128),
      item('7', 200, 128),
      item('7', 300, 700),
    ];
    expect(markdown([page(items)])).toBe('| Fuse | Rating |\n| --- | --- |\n| F1 | 12 |\n| F2 | 7 |\n');
  });

  it('keeps numbers that break the page-number sequence: a row of pin numbers in the top margin, a lone value under its label', () => {
    const pages = [1, 2, 3, 4].map((n) =>
      page([
        ...(n === 2 ? ['40', '39', '38'].map((pin, i) => item(pin, 200 + 30 * i, 50)) : []),
        item(`Page ${n} describes the pin layout of the package.`, 72, 120),
        ...(n === 3 ? [item('Pins', 72, 134), item('48', 72, 148)] : [item(String(n + 20), 300, 760, 9)]),
      ]),
    );
    const md = markdown(pages);
    expect(md).toContain('40 39 38');
    expect(md).toMatch(/Pins\s+48\b/);
    expect(md).not.toMatch(/\b2[1-4]\b/);
  });

  it('removes a chapter number set large and a year repeated in the footer, and keeps the heading levels', () => {
    const pages = [1, 2, 3].map((n) =>
      page([
        ...(n === 2 ? [item('5', 72, 100, 60), item('Wiring', 72, 160, 20)] : []),
        ...lines([`Page ${n} tells the installer how to connect the pump to the mains supply.`, 'Each step is checked by a second person before power is applied.'], 72, 200),
        item('2024', 72, 760, 9),
        item(String(n), 500, 760, 9),
      ]),
    );
    const md = markdown(pages);
    expect(md).toMatch(/^# Wiring$/m);
    expect(md).not.toMatch(/\b2024\b|^\d$/m);
  });

  it('joins a paragraph split by a page break and records where the second page starts inside it', () => {
    const layout = layoutPdf([
      page(lines(['The fan runs until the heat sink cools', 'below forty degrees and'], 72, 100)),
      page(lines(['then stops.', '', 'Next paragraph.'], 72, 100)),
      page([]),
      page([item('Last page.', 72, 100)]),
    ]);
    expect(layout.markdown).toBe('The fan runs until the heat sink cools below forty degrees and then stops.\n\nNext paragraph.\n\nLast page.\n');
    const [p1, p2, p3, p4] = layout.pageStarts;
    expect(p1).toBe(0);
    expect(layout.markdown.slice(p2)).toMatch(/^then stops\./);
    expect(p3).toBeLessThanOrEqual(p4!);
    expect(layout.markdown.slice(p4)).toMatch(/^Last page\./);
    const blocks = buildBlocks(layout.markdown, layout.pageStarts).blocks;
    expect(blocks.map((b) => [b.page, b.pageEnd])).toEqual([
      [1, 2],
      [2, 2],
      [4, 4],
    ]);
  });

  it('keeps rotated text of a page after its horizontal text', () => {
    const md = markdown([{ ...page([item('Main text.', 72, 100)]), extra: ['Side label'] }]);
    expect(md).toBe('Main text.\n\nSide label\n');
  });

  it('reports a vertical margin title repeated on most pages as running text, and keeps it on the page', () => {
    const pages = [1, 2, 3].map((n) => ({ ...page([item(`Body of page ${n}.`, 72, 100)]), extra: ['LM-100 Voltage Regulator'] }));
    const layout = layoutPdf(pages);
    expect(layout.runningText).toContain('LM-100 Voltage Regulator');
    expect(layout.markdown.match(/LM-100 Voltage Regulator/g)).toHaveLength(3);
  });
});
