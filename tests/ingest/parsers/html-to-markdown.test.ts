import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src-main/ingest/parsers/html-to-markdown';

const lines = (md: string) => md.trim().split('\n');
/** Cells of a GFM table row, trimmed (the plugin pads short cells). */
const cells = (row: string) => row.split('|').slice(1, -1).map((c) => c.trim());

describe('htmlToMarkdown tables', () => {
  it('writes one header and one divider whatever the alignment and header markup of the rows', () => {
    const html = `<table>
      <thead><tr><th align="right">Pin</th><th style="text-align:center">Signal</th></tr></thead>
      <tbody><tr><td align="right">1</td><td>GND</td></tr><tr><td>2</td><td>UART2_TX_M0</td></tr></tbody>
    </table>`;
    const md = lines(htmlToMarkdown(html).markdown);
    expect(md).toHaveLength(4);
    expect(md[1]).toBe('| --- | --- |');
    expect([md[0], md[2], md[3]].map((r) => cells(r!))).toEqual([['Pin', 'Signal'], ['1', 'GND'], ['2', 'UART2_TX_M0']]);
  });

  it('keeps the rows of a long table in order with every cell', () => {
    const rows = Array.from({ length: 200 }, (_, i) => `<tr><td>GPIO${i}</td><td>pin ${i + 1}</td></tr>`).join('');
    const md = lines(htmlToMarkdown(`<table><tr><th>Name</th><th>Pin</th></tr>${rows}</table>`).markdown);
    expect(md).toHaveLength(202);
    expect(md[1]).toBe('| --- | --- |');
    expect(cells(md[2]!)).toEqual(['GPIO0', 'pin 1']);
    expect(cells(md[201]!)).toEqual(['GPIO199', 'pin 200']);
  });

  it('gives a two-column table with no header cell an empty header, so its first label and value stay data', () => {
    const md = lines(htmlToMarkdown('<table><tr><td>RGB Led</td><td>G27</td></tr><tr><td>Btn</td><td>G39</td></tr></table>').markdown);
    expect(md.map(cells)).toEqual([['', ''], ['---', '---'], ['RGB Led', 'G27'], ['Btn', 'G39']]);
    // A first row marked as a header, bold, or of words above rows of numbers names the columns.
    const header = (html: string) => cells(lines(htmlToMarkdown(html).markdown)[0]!);
    expect(header('<table><tr><td>Resources</td><td>Parameter</td></tr><tr><td>ESP32</td><td>240MHz dual core</td></tr></table>')).toEqual(['Resources', 'Parameter']);
    expect(header('<table><tr><td>Pin</td><td>Function</td></tr><tr><td>1</td><td>GND</td></tr></table>')).toEqual(['Pin', 'Function']);
    expect(header('<table><thead><tr><td>Pin</td><td>Function</td></tr></thead><tr><td>A</td><td>GND</td></tr></table>')).toEqual(['Pin', 'Function']);
    expect(header('<table><tr><td><b>Key</b></td><td><b>Value</b></td></tr><tr><td>Color</td><td>Black</td></tr></table>')).toEqual(['**Key**', '**Value**']);
    // Labels and values with no number anywhere are data too.
    expect(header('<table><tr><td>Color</td><td>Black</td></tr><tr><td>Material</td><td>Plastic</td></tr></table>')).toEqual(['', '']);
    // With more columns the first row names the cells and stays the header.
    const wide = lines(htmlToMarkdown('<table><tr><td>Pin</td><td>Name</td><td>Type</td></tr><tr><td>1</td><td>GND</td><td>P</td></tr></table>').markdown);
    expect(cells(wide[0]!)).toEqual(['Pin', 'Name', 'Type']);
    expect(wide).toHaveLength(3);
  });

  it('writes a cell that spans columns into each of them, so no column reads as empty', () => {
    const html = `<table>
      <tr><td>Model</td><td>ROCK 5B</td><td>ROCK 5B+</td></tr>
      <tr><td>Power Supply</td><td colspan="2">USB-C PD 9V/2A<br/>5V on GPIO</td></tr>
      <tr><td>Camera</td><td>1 port</td><td>2 ports</td></tr>
      <tr><th colspan="3">Notes | shared</th></tr>
    </table>`;
    const md = lines(htmlToMarkdown(html).markdown);
    expect(md.slice(0, 4).map(cells)).toEqual([
      ['Model', 'ROCK 5B', 'ROCK 5B+'],
      ['---', '---', '---'],
      ['Power Supply', 'USB-C PD 9V/2A<br>5V on GPIO', 'USB-C PD 9V/2A<br>5V on GPIO'],
      ['Camera', '1 port', '2 ports'],
    ]);
    // A pipe inside the cell stays escaped in every copy.
    expect(md[4]).toBe('| Notes \\| shared | Notes \\| shared | Notes \\| shared |');
  });

  it('copies a spanning cell no further than the table is wide, however large its colspan', () => {
    const md = lines(htmlToMarkdown('<table><tr><td>A</td><td>B</td><td>C</td></tr><tr><td>Size</td><td colspan="99999999">100 x 75 mm</td></tr></table>').markdown);
    expect(md.map(cells)).toEqual([['A', 'B', 'C'], ['---', '---', '---'], ['Size', '100 x 75 mm', '100 x 75 mm']]);
  });

  it('shares the width among several spanning cells of one row', () => {
    // Each colspan alone fits; together they are wider than the table: the later ones give way.
    const md = lines(htmlToMarkdown('<table><tr><th>A</th><th>B</th><th>C</th><th>D</th></tr><tr><td colspan="3">x</td><td colspan="3">y</td></tr></table>').markdown);
    expect(md.map(cells)).toEqual([['A', 'B', 'C', 'D'], ['---', '---', '---', '---'], ['x', 'x', 'x', 'y']]);
    const three = lines(htmlToMarkdown('<table><tr><th>A</th><th>B</th><th>C</th><th>D</th></tr><tr><td colspan="2">x</td><td colspan="2">y</td><td>z</td></tr></table>').markdown);
    expect(three.slice(2).map(cells)).toEqual([['x', 'x', 'y', 'z']]);
  });

  it('carries a rowspan="0" cell to the end of its row group, as HTML says', () => {
    const html = '<table><thead><tr><th>Pin</th><th>Name</th></tr></thead><tbody><tr><td rowspan="0">J1</td><td>VCC</td></tr><tr><td>GND</td></tr><tr><td>TX</td></tr></tbody></table>';
    expect(lines(htmlToMarkdown(html).markdown).map(cells)).toEqual([['Pin', 'Name'], ['---', '---'], ['J1', 'VCC'], ['J1', 'GND'], ['J1', 'TX']]);
  });

  it('writes a cell that spans rows into each row, so the rows below keep their values under their columns', () => {
    // A comparison table: a row header spanning three rows, one of them a value spanning all boards.
    const html = `<table>
      <tr><th>Product</th><th>C6</th><th>C3</th><th>S3</th></tr>
      <tr><th rowspan="3">Wireless</th><td>Wi-Fi 6</td><td>Wi-Fi</td><td>Wi-Fi</td></tr>
      <tr><td colspan="3">Bluetooth 5.0</td></tr>
      <tr><td>Zigbee</td><td>/</td><td>/</td></tr>
      <tr><th>Size</th><td colspan="3">21 x 17.8mm</td></tr>
    </table>`;
    expect(lines(htmlToMarkdown(html).markdown).map(cells)).toEqual([
      ['Product', 'C6', 'C3', 'S3'],
      ['---', '---', '---', '---'],
      ['Wireless', 'Wi-Fi 6', 'Wi-Fi', 'Wi-Fi'],
      ['Wireless', 'Bluetooth 5.0', 'Bluetooth 5.0', 'Bluetooth 5.0'],
      ['Wireless', 'Zigbee', '/', '/'],
      ['Size', '21 x 17.8mm', '21 x 17.8mm', '21 x 17.8mm'],
    ]);
    // A span in a middle column, two columns wide and two rows deep.
    const middle = `<table><tr><th>A</th><th>B</th><th>C</th><th>D</th></tr>
      <tr><td>1</td><td rowspan="2" colspan="2">shared</td><td>4</td></tr>
      <tr><td>5</td><td>8</td></tr></table>`;
    expect(lines(htmlToMarkdown(middle).markdown).slice(2).map(cells)).toEqual([
      ['1', 'shared', 'shared', '4'],
      ['5', 'shared', 'shared', '8'],
    ]);
  });

  it('carries a cell down no further than the table goes, however large its rowspan', () => {
    const md = lines(htmlToMarkdown('<table><tr><th>K</th><th>V</th><th>W</th></tr><tr><td rowspan="99999999">x</td><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr></table>').markdown);
    expect(md.map(cells)).toEqual([['K', 'V', 'W'], ['---', '---', '---'], ['x', '1', '2'], ['x', '3', '4']]);
  });

  it('ends a rowspan with its row group, as a browser does', () => {
    // A header cell whose rowspan reaches past a one-row <thead>, and a body group shorter than its span.
    const head = '<table><thead><tr><th rowspan="2">Pin</th><th>Name</th></tr></thead><tbody><tr><td>1</td><td>VCC</td></tr><tr><td>2</td><td>GND</td></tr></tbody></table>';
    expect(lines(htmlToMarkdown(head).markdown).map(cells)).toEqual([['Pin', 'Name'], ['---', '---'], ['1', 'VCC'], ['2', 'GND']]);
    const groups = '<table><tr><th>Group</th><th>Item</th></tr><tbody><tr><td rowspan="3">A</td><td>a1</td></tr></tbody><tbody><tr><td>B</td><td>b1</td></tr></tbody></table>';
    expect(lines(htmlToMarkdown(groups).markdown).map(cells)).toEqual([['Group', 'Item'], ['---', '---'], ['A', 'a1'], ['B', 'b1']]);
  });

  it('bounds what spans add to a table, so a small hostile file cannot make a huge document', () => {
    // A cell spanning a 300 x 300 grid: a browser shows its text once.
    const wide = (w: number, r: number, cell: string) =>
      `<table><tr>${'<td>h</td>'.repeat(w)}</tr><tr><td colspan="${w}" rowspan="${r}">${cell}</td></tr>${'<tr><td>y</td></tr>'.repeat(r - 1)}</table>`;
    const grid = wide(300, 300, 'x'.repeat(1000));
    expect(htmlToMarkdown(grid).markdown.length).toBeLessThan(20 * grid.length);
    // A few positions, but a cell whose Markdown is far longer than its text (a link's address).
    const link = wide(30, 30, `<a href="https://example.com/${'a'.repeat(100_000)}">x</a>`);
    expect(htmlToMarkdown(link).markdown.length).toBeLessThan(20 * link.length);
  });

  it('counts the cells spanning down into a row in the table width, so a header spanning columns above them keeps its span', () => {
    // No row has three cells of its own: "Item" spans both header rows, each value both columns.
    const html = `<table><tr><th rowspan="2">Item</th><th colspan="2">Voltage</th></tr><tr><th>Min</th><th>Max</th></tr>
      <tr><td>VCC</td><td colspan="2">3.3 V</td></tr><tr><td>VDD</td><td colspan="2">1.8 V</td></tr></table>`;
    expect(lines(htmlToMarkdown(html).markdown).map(cells)).toEqual([
      ['Item', 'Voltage', 'Voltage'],
      ['---', '---', '---'],
      ['Item', 'Min', 'Max'],
      ['VCC', '3.3 V', '3.3 V'],
      ['VDD', '1.8 V', '1.8 V'],
    ]);
  });

  it('gives a row shorter than the table its empty cells, so its values stay under their headers', () => {
    // The last row of a side-by-side legend (radxa's ROCK 5 ITX interface table) has no fourth cell.
    const html = '<table><tr><th>No.</th><th>Interface</th><th>No.</th><th>Interface</th></tr><tr><td>1</td><td>HDMI</td><td>3</td><td>USB</td></tr><tr><td>2</td><td>DC IN</td></tr></table>';
    const md = lines(htmlToMarkdown(html).markdown);
    expect(md.map(cells)).toEqual([['No.', 'Interface', 'No.', 'Interface'], ['---', '---', '---', '---'], ['1', 'HDMI', '3', 'USB'], ['2', 'DC IN', '', '']]);
    // The header is padded as before, when a data row is the widest.
    expect(lines(htmlToMarkdown('<table><tr><th>A</th></tr><tr><td>1</td><td>2</td></tr></table>').markdown).map(cells)).toEqual([['A', ''], ['---', '---'], ['1', '2']]);
  });

  it('bounds the empty cells given to short rows, so a small hostile file cannot make a huge document', () => {
    // One row 2,000 cells wide over 2,000 rows of one cell: padded, 4 million cells of 6 characters.
    const html = `<table><tr>${'<td>h</td>'.repeat(2000)}</tr>${'<tr><td>y</td></tr>'.repeat(2000)}</table>`;
    const md = htmlToMarkdown(html).markdown;
    expect(md.length).toBeLessThan(5 * html.length);
    const rows = lines(md).map(cells);
    expect(rows).toHaveLength(2002);
    // The first rows are padded until the allowance is spent; every row keeps its value.
    expect(rows[2]).toHaveLength(2000);
    expect(rows[rows.length - 1]).toEqual(['y']);
    expect(rows.slice(2).every((r) => r[0] === 'y')).toBe(true);
  });

  it('keeps single-cell and layout tables as flat text rather than tables', () => {
    const single = htmlToMarkdown('<table><tr><td>Note: power off first.</td></tr></table>').markdown;
    expect(single).not.toContain('|');
    expect(single).toContain('Note: power off first.');
    const layout = htmlToMarkdown('<table><tr><td><table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table></td><td>side</td></tr></table>').markdown;
    expect(layout).toContain('side');
    expect(lines(layout).filter((l) => /^\| --- \| --- \|$/.test(l))).toHaveLength(1);
  });

  it('reads a cell outside any table (in an SVG drawing) as its text instead of failing the page', () => {
    const md = htmlToMarkdown('<p>Wiring below.</p><math><td>GND</td></math><p>Pin 6 <span><svg><td>x</td></svg></span>is ground.</p>').markdown;
    expect(md).toContain('Wiring below.');
    expect(md).toContain('GND');
    expect(md).toContain('is ground.');
    expect(md).not.toContain('|');
  });

  it('reads a colspan that is no whole number as a browser does, by its leading digits', () => {
    // colspan="1.5" spans one column: GND stands under Name, and Note is left empty.
    const md = lines(htmlToMarkdown('<table><tr><th>Pin</th><th>Name</th><th>Note</th></tr><tr><td colspan="1.5">1</td><td>GND</td></tr></table>').markdown);
    expect(md.map(cells)).toEqual([['Pin', 'Name', 'Note'], ['---', '---', '---'], ['1', 'GND', '']]);
    const wide = lines(htmlToMarkdown('<table><tr><th>Pin</th><th>Name</th><th>Note</th></tr><tr><td colspan="2.9">1</td><td>GND</td></tr></table>').markdown);
    expect(wide.slice(2).map(cells)).toEqual([['1', '1', 'GND']]);
  });

  it('keeps a small hostile table small whatever number its colspan is written as', () => {
    // Read as a number, "1e6" was a million columns: 18 million characters from 87 bytes.
    for (const span of ['1e6', '1e308', 'Infinity', '0x7fffffff', '-5', '']) {
      const html = `<table><tr><th>A</th><th>B</th></tr><tr><td colspan="${span}">x</td><td>y</td></tr></table>`;
      const md = htmlToMarkdown(html).markdown;
      expect(md.length, span).toBeLessThan(2 * html.length);
      expect(lines(md).map(cells), span).toEqual([['A', 'B'], ['---', '---'], ['x', 'y']]);
    }
  });
});
