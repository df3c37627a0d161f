import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ParsedDocument } from '../../../src-main/core/document';
import { markdownParser, transformMarkdown } from '../../../src-main/ingest/parsers/markdown.parser';
import { invariantViolations } from '../doc-invariants';
import { describeMarkdownParserOnCorpus, fixtureMarkdownCount } from '../corpus.suites';
import { corpusRoots } from '../../helpers/temp';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

async function parse(source: string, fileName = 'page.md'): Promise<ParsedDocument> {
  const r = await markdownParser.parse({ bytes: enc(source), fileName });
  if (!r.ok) throw new Error(`expected a document, got ${r.code}: ${r.reason}`);
  expect(invariantViolations(r.doc)).toEqual([]);
  return r.doc;
}

const blockTexts = (doc: ParsedDocument): string[] => doc.blocks.map((b) => doc.text.slice(b.start, b.end));

/** Modelled on radxa-docs rock5a/getting-started/interface-usage/pin-40-test.md. */
const PIN_TEST = `---
sidebar_position: 7
title: 40-PIN Functional Testing
---

import GPIO from '../../../../common/dev/\\_gpio.mdx';
import I2C from '../../../../common/dev/\\_i2c.mdx';

# 40-PIN Functional Testing

## I2C

<I2C product_name="Radxa ROCK 5A" model="rock-5a" i2c_overlay_name="I2C8-M2" sda_pin="PIN_3" scl_pin="PIN_5" i2c_connection="/img/rock5a/rock-5a-i2c-connection.webp" />

## SPI

<SPI spidev="/dev/spidev0.0" rsetup_path="../../radxa-os/rsetup#overlays" flash_by_rkdevtool="./maskrom/windows" guide="https://example.com/spi" />
`;

describe('markdown parser: MDX pages', () => {
  it('drops ESM imports, keeps front matter, and keeps component string attributes as searchable text', async () => {
    const doc = await parse(PIN_TEST);
    expect(doc.text).not.toMatch(/^import /m);
    expect(doc.text).toContain('i2c_overlay_name: I2C8-M2');
    expect(doc.text).toContain('product_name: Radxa ROCK 5A');
    // Image paths are wiring, not content; so are link targets (the page they point to has it).
    expect(doc.text).not.toContain('rock-5a-i2c-connection.webp');
    expect(doc.text).not.toMatch(/rsetup_path|flash_by_rkdevtool/);
    // A device node is what the reader types; a URL may be a file to download.
    expect(doc.text).toContain('spidev: /dev/spidev0.0');
    expect(doc.text).toContain('guide: https://example.com/spi');
    expect(doc.text).not.toMatch(/<I2C/);
    expect(doc.title).toBe('40-PIN Functional Testing');
    expect(doc.metadata['sidebar_position']).toBe('7');
    const fact = doc.blocks.find((b) => doc.text.slice(b.start, b.end).includes('I2C8-M2'))!;
    expect(fact).toMatchObject({ kind: 'paragraph', headingPath: ['40-PIN Functional Testing', 'I2C'] });
  });

  it('removes Tabs/TabItem tags, keeps their content, and emits the tab label as text', async () => {
    const doc = await parse(`# Install

<Tabs queryString="model">
    <TabItem value="debian" label="Debian 12">

    ### Flash the image

    Use 5V/3A power.

    </TabItem>
    <TabItem value="Radxa CM3 IO Board">
        Only the IO board has HDMI.
    </TabItem>
</Tabs>
`);
    expect(doc.text).not.toMatch(/<\/?Tab/);
    expect(doc.text).not.toContain('queryString');
    expect(blockTexts(doc)).toEqual(['# Install', 'Debian 12', '### Flash the image', 'Use 5V/3A power.', 'Radxa CM3 IO Board', 'Only the IO board has HDMI.']);
    // Indentation inside a JSX container is not code in MDX: the heading is a heading.
    expect(doc.blocks[2]).toMatchObject({ kind: 'heading', level: 3, headingPath: ['Install', 'Flash the image'] });
    expect(doc.blocks.some((b) => b.kind === 'code')).toBe(false);
  });

  it('never touches fenced code: imports, components and comments inside fences stay verbatim', async () => {
    const fence = ['```jsx', "import Tabs from '@theme/Tabs';", 'export const x = 1;', '<Tabs><TabItem value="a">A</TabItem></Tabs>', '{/* kept */}', '<table><tr><td>raw</td></tr></table>', '', '', '', '    indented line', '```'].join('\n');
    const doc = await parse(`import Tabs from '@theme/Tabs';\n\n# Code\n\n<NewCodeBlock tip="radxa@device$" type="device">\n${fence}\n</NewCodeBlock>\n\n{/* a comment */}\n`);
    expect(doc.text).toContain(fence);
    const code = doc.blocks.filter((b) => b.kind === 'code');
    expect(code).toHaveLength(1);
    expect(doc.text.slice(code[0]!.start, code[0]!.end)).toBe(fence);
    expect(doc.text).not.toContain('a comment');
    expect(doc.text).toContain('tip: radxa@device$');
    expect(doc.text.match(/import Tabs/g)).toHaveLength(1);
  });

  it('drops a multi-line export (a component definition) but keeps shell `export VAR=` prose', async () => {
    const doc = await parse(`export default function DynamicList({ items }) {
  const fixedItems = ['Anti-static bag'];

return (

<ul>
  {items.map((m) => (<li key={m}>{m}</li>))}
</ul>
); }

Set the toolchain path:

export IDF_PATH=~/esp/esp-idf

import the firmware with the flashing tool.

export default settings before flashing a new image.
`);
    expect(doc.text).not.toContain('DynamicList');
    expect(doc.text).not.toContain('Anti-static bag');
    expect(doc.text).toContain('export IDF_PATH=~/esp/esp-idf');
    expect(doc.text).toContain('import the firmware with the flashing tool.');
    expect(doc.text).toContain('export default settings before flashing a new image.');
  });

  it('turns <details>/<summary> into a bold summary followed by the body text', async () => {
    const doc = await parse(`<details>
  <summary>What is Maskrom mode?</summary>

    Maskrom mode is a special boot mode for recovering devices.

</details>

### How to enter Maskrom state
`, '_maskrom.mdx');
    expect(blockTexts(doc)).toEqual(['**What is Maskrom mode?**', 'Maskrom mode is a special boot mode for recovering devices.', '### How to enter Maskrom state']);
    expect(doc.blocks[1]!.kind).toBe('paragraph');
  });

  it('converts embedded HTML tables (also inside TabItems) into GFM tables with every cell', async () => {
    const doc = await parse(`## Parameter Configuration

<Tabs queryString="model">
    <TabItem value="CM3I Core Board">
        <table>
            <tr>
                <td align="center">Model</td>
                <td align="center">CM3I Core Board</td>
            </tr>
            <tr>
                <td>Storage</td>
                <td>eMMC on Board：0/8/16/32/64 GB<br/>microSD Card</td>
            </tr>
            <tr>
                <td>SoC</td>
                <td colspan="2">Rockchip RK3566</td>
            </tr>
        </table>
    </TabItem>
</Tabs>
`);
    const table = doc.blocks.find((b) => b.kind === 'table')!;
    expect(table).toBeDefined();
    expect(table.headingPath).toEqual(['Parameter Configuration']);
    const lines = doc.text.slice(table.start, table.end).split('\n');
    // Two columns of labels and values (the SoC cell spans no column beyond the table's two):
    // an empty header, then the rows as data.
    expect(lines[1]).toBe('| --- | --- |');
    expect(lines[2]).toMatch(/^\| Model \| CM3I Core Board \|$/);
    expect(lines).toContain('| SoC | Rockchip RK3566 |');
    expect(lines.filter((l) => /^\|( --- \|)+$/.test(l))).toHaveLength(1);
    expect(doc.text).toContain('eMMC on Board：0/8/16/32/64 GB<br>microSD Card');
    expect(doc.text).toContain('Rockchip RK3566');
    expect(doc.text).not.toMatch(/<\/?t[dr]/);
    expect(doc.text).toContain('CM3I Core Board');
  });

  it('makes a table indented inside an HTML <div> of a plain Markdown page a table, not indented code', async () => {
    // Modelled on m5stack core/m5stickc.md, "Version Change": the indentation formats the HTML.
    const doc = await parse(`## Version Change

<div class="table-wrapper">
    <table class="fl-table">
        <thead>
        <tr><th>Release Date</th><th>Product Change</th></tr>
        </thead>
        <tbody>
        <tr><td>2019.8</td><td>SH200Q changed to MPU6886</td></tr>
        </tbody>
    </table>
</div>

- Inside a list item:

  <div>
      <table><tr><td>Pin</td><td>G26</td></tr></table>
  </div>
`);
    expect(doc.blocks.map((b) => b.kind)).not.toContain('code');
    const tables = doc.blocks.filter((b) => b.kind === 'table');
    expect(tables).toHaveLength(1);
    expect(doc.text.slice(tables[0]!.start, tables[0]!.end).split('\n')).toEqual(['| Release Date | Product Change |', '| --- | --- |', '| 2019.8 | SH200Q changed to MPU6886 |']);
    // In a list item the table keeps the item's indentation (its HTML block's), not the HTML's,
    // and stays in the item's list block.
    expect(doc.text).toMatch(/^ {2}\| Pin \| G26 \|$/m);
    expect(doc.blocks.at(-1)).toMatchObject({ kind: 'list' });
  });

  it('keeps inline code intact, even when it looks like a component tag', async () => {
    const doc = await parse('<Tabs>\n\nReplace `<PID>` with the process ID and run `kill <PID>`.\n\n</Tabs>\n');
    expect(doc.text).toContain('Replace `<PID>` with the process ID and run `kill <PID>`.');
  });

  it('treats a plain CommonMark file as CommonMark: capitalised tags in prose and indented code are kept', async () => {
    const doc = await parse('# Keys\n\nPress <Enter> to confirm.\n\n    <Config value="1"/>\n    indented code\n');
    expect(doc.text).toContain('Press <Enter> to confirm.');
    expect(doc.blocks.map((b) => b.kind)).toEqual(['heading', 'paragraph', 'code']);
  });

  it('strips JSX-only attribute syntax from HTML tags in MDX pages', async () => {
    const doc = await parse('# Board\n\n<div style={{textAlign: \'center\'}}>\n   <img src="/img/x5.webp" className="pic" alt="X5 board" />\n</div>\n');
    expect(doc.text).not.toContain('textAlign');
    expect(doc.text).toContain('<img src="/img/x5.webp" class="pic" alt="X5 board" />');
  });

  it('reports an MDX partial with no prose as having no text, not as a parse error', async () => {
    const r = await markdownParser.parse({ bytes: enc("export default function X() {\n  return (<div>{' '}</div>);\n}\n"), fileName: '_package.mdx' });
    expect(r).toMatchObject({ ok: false, code: 'empty' });
  });

  it('applies the JSX rules to every .mdx file even without other MDX signs', () => {
    expect(transformMarkdown('Press <Enter> now.\n', true).markdown).toBe('Press   now.\n');
    expect(transformMarkdown('Press <Enter> now.\n', false).markdown).toBe('Press <Enter> now.\n');
  });

  it("drops a heading's trailing attribute block from the title, the heading path and the text", async () => {
    const doc = await parse('# PIR {docsify-ignore-all}\n\nDetects motion.\n\n## SATA 3.0 {#sata}\n\nOne port.\n\n## Pins {#pins .wide data-x="a b"}\n\n### Wiring {: #wiring}\n\nSee below.\n');
    expect(doc.title).toBe('PIR');
    expect(doc.text).not.toContain('{');
    expect(blockTexts(doc).filter((t) => t.startsWith('#'))).toEqual(['# PIR', '## SATA 3.0', '## Pins', '### Wiring']);
    expect(doc.blocks.find((b) => doc.text.slice(b.start, b.end) === 'See below.')?.headingPath).toEqual(['PIR', 'Pins', 'Wiring']);
  });

  it('keeps braces that are text: in a heading that is only braces, in prose, in code and in words', async () => {
    const source = '# Price {5 USD}\n\n## Set {a, b}\n\n## ROCK {Plus}\n\n## {#only-attrs}\n\nText {#not-a-heading}\n\n```\n# Title {#kept-in-code}\n```\n';
    expect(transformMarkdown(source).markdown).toBe(source);
  });

  it('falls back to the file name for the title and returns failures for binary or empty input', async () => {
    expect((await parse('no heading here\n', 'notes.md')).title).toBe('notes');
    expect(await markdownParser.parse({ bytes: enc('  \n\n'), fileName: 'a.md' })).toMatchObject({ ok: false, code: 'empty' });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expect(await markdownParser.parse({ bytes: png, fileName: 'a.md' })).toMatchObject({ ok: false, code: 'binary' });
  });

  it('stops with a cancelled failure when the signal is already aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    expect(await markdownParser.parse({ bytes: enc('# x\n'), fileName: 'a.md', signal: ac.signal })).toMatchObject({ ok: false, code: 'cancelled' });
  });
});

describeMarkdownParserOnCorpus(corpusRoots.fixture, path.join(corpusRoots.fixture, 'questions.jsonl'), fixtureMarkdownCount());
