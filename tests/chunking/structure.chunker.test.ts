import { describe, expect, it } from 'vitest';
import { createChunker } from '../../src-main/chunking/chunker';
import { STRUCTURE_MAX_CHARS } from '../../src-main/chunking/structure.chunker';
import type { Chunk } from '../../src-main/core/chunk';
import type { NormalizedDocument } from '../../src-main/core/document';
import {
  blocksIn,
  contentSpan,
  expectAtomicBlocksWhole,
  expectBlockMetadata,
  expectStructureSizes,
  expectTiling,
  mdDoc,
  unwrap,
} from './chunking.helpers';
import { mulberry32 as rng } from '../helpers/prng';

async function structure(doc: NormalizedDocument, options: object = {}): Promise<Chunk[]> {
  return unwrap(await unwrap(createChunker('structure', options)).chunk(doc));
}

const WORDS = ['pump', 'valve', 'fuse', 'RAC-225B', 'voltage', 'reset', 'the', 'model', 'check', 'panel', '电源', '指示灯', 'cable', 'E04', '3.3V'];

function sentence(r: () => number): string {
  const n = 3 + Math.floor(r() * 14);
  const words = Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]!);
  return `${words.join(' ')}${r() < 0.2 ? '。' : '.'}`;
}

/** A random Markdown manual: headings, paragraphs (some very long), lists, tables, code, quotes, HTML. */
function randomManual(seed: number): string {
  const r = rng(seed);
  const parts: string[] = [];
  if (r() < 0.3) parts.push('---\ntitle: Generated\nmodel: RAC-225B\n---');
  const n = 5 + Math.floor(r() * 40);
  for (let i = 0; i < n; i++) {
    const k = r();
    if (k < 0.2) parts.push(`${'#'.repeat(1 + Math.floor(r() * 4))} ${sentence(r).slice(0, 40)}`);
    else if (k < 0.55) {
      const len = r() < 0.15 ? 60 : r() < 0.5 ? 4 : 1;
      parts.push(Array.from({ length: 1 + Math.floor(r() * len * 8) }, () => sentence(r)).join(' '));
    } else if (k < 0.68) parts.push(Array.from({ length: 1 + Math.floor(r() * 25) }, () => `- ${sentence(r)}`).join('\n'));
    else if (k < 0.8) {
      const rows = 1 + Math.floor(r() * (r() < 0.3 ? 120 : 8));
      parts.push(['| Item | Value |', '| --- | --- |', ...Array.from({ length: rows }, (_, j) => `| ${sentence(r).slice(0, 20)} | ${j} V |`)].join('\n'));
    } else if (k < 0.9) parts.push(['```sh', ...Array.from({ length: 1 + Math.floor(r() * 90) }, () => `echo ${sentence(r)}`), '```'].join('\n'));
    else if (k < 0.95) parts.push(`> ${sentence(r)}\n> ${sentence(r)}`);
    else parts.push(`<div class="note">\n${sentence(r)}\n</div>`);
  }
  return `${parts.join(r() < 0.5 ? '\n\n' : '\n\n\n')}${r() < 0.5 ? '\n' : ''}`;
}

describe('structure chunker', () => {
  it('keeps every invariant on 300 generated manuals and several min/max pairs', async () => {
    for (let seed = 1; seed <= 300; seed++) {
      const doc = mdDoc(randomManual(seed), { id: `gen-${seed}.md` });
      for (const [min, max] of [
        [100, 1500],
        [100, STRUCTURE_MAX_CHARS],
        [20, 200],
        [400, 800],
      ] as const) {
        const chunks = await structure(doc, { minChars: min, maxChars: max });
        expectTiling(doc, chunks);
        expectAtomicBlocksWhole(doc, chunks);
        expectBlockMetadata(doc, chunks);
        expectStructureSizes(doc, chunks, min, max);
      }
    }
  });

  it('keeps a table larger than the soft max whole, together with its heading', async () => {
    const rows = Array.from({ length: 160 }, (_, i) => `| F${i} | fuse ${i} A | slow-blow |`).join('\n');
    const md = `# RAC-225B\n\nThe fuse table lists every fuse of the unit and its rating in amperes.\n\n## Fuses\n\n| Fuse | Rating | Type |\n| --- | --- | --- |\n${rows}\n\nReplace fuses only with the same rating.\n`;
    const doc = mdDoc(md);
    const chunks = await structure(doc);
    const table = doc.blocks.find((b) => b.kind === 'table')!;
    expect(table.end - table.start).toBeGreaterThan(STRUCTURE_MAX_CHARS);
    const holder = chunks.find((c) => c.start <= table.start && table.end <= c.end)!;
    expect(holder.text).toContain('## Fuses');
    expect(holder.headingPath).toEqual(['RAC-225B', 'Fuses']);
    expect(blocksIn(doc, contentSpan(doc, holder).start, contentSpan(doc, holder).end).map((b) => b.kind)).toEqual(['heading', 'table']);
    expectTiling(doc, chunks);
  });

  it('splits a paragraph longer than the soft max at sentence boundaries, each piece within the max', async () => {
    const sentences = Array.from({ length: 160 }, (_, i) => `Sentence ${i} explains how to bleed the hydraulic line of pump P-${i}.`);
    const doc = mdDoc(`## Bleeding\n\n${sentences.join(' ')}\n`);
    const chunks = await structure(doc);
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) {
      const { start, end } = contentSpan(doc, c);
      // The piece of the paragraph stays within the max (a heading before it may carry it over).
      expect(doc.text.slice(start, end).replace(/^## Bleeding\n+/, '').length).toBeLessThanOrEqual(STRUCTURE_MAX_CHARS);
      expect(doc.text.slice(start, end)).toMatch(/\.$/);
    }
    // Every piece of the split paragraph knows its section.
    for (const c of chunks) expect(c.headingPath).toEqual(['Bleeding']);
    expectTiling(doc, chunks);
  });

  it('cuts a "sentence" longer than the soft max at spaces (a list of part codes), each piece within the max', async () => {
    const codes = Array.from({ length: 3000 }, (_, i) => `AB${i}-X${i}Z`).join(' ');
    const doc = mdDoc(`Intro paragraph that is long enough to stand on its own as a chunk of text here.\n\n${codes}\n`);
    expect(codes.length).toBeGreaterThan(10 * STRUCTURE_MAX_CHARS);
    const chunks = await structure(doc);
    expect(chunks.length).toBeGreaterThan(10);
    for (const c of chunks) expect(c.text.trim().length).toBeLessThanOrEqual(STRUCTURE_MAX_CHARS);
    // Cut between codes, never inside one: every code is whole in exactly one chunk.
    const pieces = chunks.flatMap((c) => c.text.split(/\s+/)).filter((w) => /^AB/.test(w));
    expect(pieces).toEqual(codes.split(' '));
    expectStructureSizes(doc, chunks, 100, STRUCTURE_MAX_CHARS);
    expectTiling(doc, chunks);
  });

  it('cuts a single word longer than the soft max (a base64 blob) into pieces within the max', async () => {
    const word = 'QUJD'.repeat(Math.ceil((3 * STRUCTURE_MAX_CHARS) / 4));
    const doc = mdDoc(`Intro paragraph that is long enough to stand on its own as a chunk of text here. ${word} and a short tail.\n`);
    const chunks = await structure(doc);
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    for (const c of chunks) expect(c.text.trim().length).toBeLessThanOrEqual(STRUCTURE_MAX_CHARS);
    // The word is all there, in order, and the words around it stay whole.
    expect(chunks.map((c) => c.text.trim()).join('')).toContain(word);
    expect(chunks[chunks.length - 1]!.text).toMatch(/(?:^|\s)and a short tail\.\s*$/);
    expectStructureSizes(doc, chunks, 100, STRUCTURE_MAX_CHARS);
    expectTiling(doc, chunks);
  });

  it('never leaves a heading at the end of a chunk: it travels with the body that follows', async () => {
    const a = 'Alpha text about the compressor. '.repeat(40).trim();
    const b = 'Beta text about the condenser fan. '.repeat(40).trim();
    const doc = mdDoc(`${a}\n\n## Condenser\n\n${b}\n`);
    const chunks = await structure(doc);
    expect(chunks).toHaveLength(2);
    expect(chunks[0]!.text.trimEnd()).toBe(a);
    expect(chunks[1]!.text.startsWith('## Condenser')).toBe(true);
    expect(chunks[1]!.headingPath).toEqual(['Condenser']);
  });

  it('merges small sections forward into the next section', async () => {
    const doc = mdDoc('# Model X\n\nShort intro.\n\n## Power\n\nUse 5V/3A.\n\n## Display\n\n' + 'The display shows the state of the unit and any active error code. '.repeat(3) + '\n');
    const chunks = await structure(doc);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.headingPath).toEqual(['Model X']);
  });

  it('merges a too-small last chunk backward into the previous one', async () => {
    const body = 'The filter must be cleaned every month to keep the airflow. '.repeat(20).trim();
    const doc = mdDoc(`## Cleaning\n\n${body}\n\n## Notes\n\nSee page 4.\n`);
    const chunks = await structure(doc);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.text.endsWith('See page 4.\n')).toBe(true);
  });

  it('keeps a small chunk on its own when both neighbours are oversized atomic blocks', async () => {
    const code = ['```', ...Array.from({ length: 160 }, (_, i) => `set register ${i} = 0x${i.toString(16)}`), '```'].join('\n');
    const doc = mdDoc(`${code}\n\nThen reboot.\n\n${code}\n`);
    const chunks = await structure(doc);
    expect(chunks.map((c) => c.text.trim())).toEqual([code, 'Then reboot.', code]);
    expectStructureSizes(doc, chunks, 100, STRUCTURE_MAX_CHARS);
  });

  it('reports the pages each chunk spans in a multi-page document', async () => {
    const pages = [
      `# Service manual\n\n${'Page one describes the unit. '.repeat(30).trim()}\n\n`,
      `## Specifications\n\n| Item | Value |\n| --- | --- |\n| Voltage | 230 V |\n| Fuse | 10 A |\n\n${'Page two text continues. '.repeat(40).trim()}\n\n`,
      `${'Page three starts mid-section. '.repeat(30).trim()}\n\n## Warranty\n\nTwo years.\n`,
    ];
    const pageStarts = pages.map((_, i) => pages.slice(0, i).join('').length);
    const doc = mdDoc(pages.join(''), { pageStarts });
    const pageOf = (offset: number): number => pageStarts.filter((s) => s <= offset).length;
    const chunks = await structure(doc, { minChars: 100, maxChars: 900 });
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) {
      const { start, end } = contentSpan(doc, c);
      expect(c.pageStart).toBe(pageOf(start));
      expect(c.pageEnd).toBe(pageOf(end - 1));
    }
    expect(new Set(chunks.map((c) => c.pageEnd))).toEqual(new Set([1, 2, 3]));
  });

  it('keeps front matter, lists, code and quotes whole and tiles documents with odd spacing', async () => {
    const md = '\n\n---\ntitle: T\n---\n\n\n- a\n- b\n\n   \n```\ncode\n```\n> quote\n\n\tindented code\n\ntext   \n\n\n';
    const doc = mdDoc(md);
    const chunks = await structure(doc, { minChars: 1, maxChars: 2 });
    expectTiling(doc, chunks);
    expectAtomicBlocksWhole(doc, chunks);
  });

  it('returns no chunks for a blank document and one chunk for a lone heading', async () => {
    expect(await structure(mdDoc(''))).toEqual([]);
    expect(await structure(mdDoc('  \n\n '))).toEqual([]);
    const doc = mdDoc('# Only a title\n');
    const chunks = await structure(doc);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.headingPath).toEqual(['Only a title']);
    expectTiling(doc, chunks);
  });

  it('covers a document whose parser produced no blocks, with its pages', async () => {
    const doc: NormalizedDocument = { ...mdDoc('x'), text: '\n  scanned text without structure \n', blocks: [], pageCount: 2 };
    const chunks = await structure(doc);
    expectTiling(doc, chunks);
    expect(chunks).toHaveLength(1);
    expect([chunks[0]!.pageStart, chunks[0]!.pageEnd]).toEqual([1, 2]);
  });

  it('stops with a cancelled result when the signal is already aborted', async () => {
    const chunker = unwrap(createChunker('structure'));
    const controller = new AbortController();
    controller.abort();
    const r = await chunker.chunk(mdDoc('# A\n\ntext\n'), { signal: controller.signal });
    expect(r).toEqual({ ok: false, error: { code: 'cancelled', message: expect.any(String) } });
  });
});
