import tokenizer, { decode, encode } from 'gpt-tokenizer/encoding/cl100k_base';
import { describe, expect, it } from 'vitest';
import { createChunker } from '../../src-main/chunking/chunker';
import { tokenOffsets } from '../../src-main/chunking/naive.chunker';
import { expectBlockMetadata, expectExactSlices, mdDoc, unwrap } from './chunking.helpers';

const mixed = [
  '# 维修手册 RAC-225B',
  '',
  'The unit takes a 10 A fuse — see table 3. 电源电压为 220V，频率 50Hz。 Emoji: 🔧🔩 ok.',
  '',
  '| 型号 | Fuse |',
  '| --- | --- |',
  '| RAC-225B | 10 A |',
  '',
  'Special text such as <|endoftext|> is ordinary text in a manual.',
].join('\n');

describe('naive chunker', () => {
  it('maps token boundaries of ASCII text to exactly the decoded prefix length', async () => {
    const text = 'Replace fuse F2 (10 A, slow-blow) before powering the RAC-225B.\n\n'.repeat(20);
    const ids = encode(text);
    const { tokens, offsets } = await tokenOffsets(text);
    expect(tokens).toBe(ids.length);
    for (let i = 0; i <= tokens; i++) expect(offsets[i]).toBe(decode(ids.slice(0, i)).length);
  });

  it('maps a boundary inside a multi-byte character to the start of that character', async () => {
    const text = mixed.repeat(5);
    const ids = encode(text, { disallowedSpecial: new Set() });
    const { tokens, offsets } = await tokenOffsets(text);
    expect(tokens).toBe(ids.length);
    // Oracle: each token's UTF-8 bytes from the tokenizer's internal table (tests only; the app
    // does not touch it), turned into character offsets with TextDecoder.
    const core = (tokenizer as unknown as { bytePairEncodingCoreProcessor: { tryDecodeToken(id: number): Uint8Array | string } })
      .bytePairEncodingCoreProcessor;
    const utf8 = new TextEncoder().encode(text);
    let byte = 0;
    let inside = 0;
    for (let i = 0; i <= tokens; i++) {
      let edge = byte;
      while (edge > 0 && edge < utf8.length && (utf8[edge]! & 0xc0) === 0x80) edge--;
      if (edge !== byte) inside++;
      expect(offsets[i]).toBe(new TextDecoder().decode(utf8.slice(0, edge)).length);
      if (i < tokens) {
        const bytes = core.tryDecodeToken(ids[i]!);
        byte += typeof bytes === 'string' ? new TextEncoder().encode(bytes).length : bytes.length;
      }
    }
    expect(byte).toBe(utf8.length);
    expect(inside).toBeGreaterThan(0);
  });

  it('cuts windows of the given size that overlap by the given number of tokens', async () => {
    const sentences = Array.from({ length: 300 }, (_, i) => `Step ${i}: tighten bolt B${i} to ${i % 40} Nm.`).join(' ');
    const doc = mdDoc(`# Assembly\n\n${sentences}\n`);
    const chunks = unwrap(await unwrap(createChunker('naive', { tokens: 120, overlap: 30 })).chunk(doc));
    expectExactSlices(doc, chunks);
    const { tokens, offsets } = await tokenOffsets(doc.text);
    expect(chunks.map((c) => c.start)).toEqual(chunks.map((_, k) => offsets[k * 90]));
    expect(chunks.map((c) => c.end)).toEqual(chunks.map((_, k) => offsets[Math.min(k * 90 + 120, tokens)]));
    expect(chunks[chunks.length - 1]!.end).toBe(doc.text.length);
    for (const c of chunks) expect(c.strategy).toBe('naive');
  });

  it('takes heading path and pages from the blocks a window touches', async () => {
    const pages = [`# Manual\n\n${'Intro words here. '.repeat(60)}\n\n`, `## Fuses\n\n${'Fuse text here. '.repeat(60)}\n`];
    const pageStarts = [0, pages[0]!.length];
    const doc = mdDoc(pages.join(''), { pageStarts });
    const chunks = unwrap(await unwrap(createChunker('naive', { tokens: 100, overlap: 20 })).chunk(doc));
    expectBlockMetadata(doc, chunks);
    expect(chunks.some((c) => c.pageStart === 1 && c.pageEnd === 2)).toBe(true);
    expect(chunks[chunks.length - 1]!.headingPath).toEqual(['Manual', 'Fuses']);
  });

  it('handles CJK, emoji and special-token text with exact slices', async () => {
    const doc = mdDoc(mixed.repeat(30));
    const chunks = unwrap(await unwrap(createChunker('naive', { tokens: 50, overlap: 10 })).chunk(doc));
    expectExactSlices(doc, chunks);
    expect(chunks.length).toBeGreaterThan(10);
  });

  it('returns one window for a short text and none for a blank one', async () => {
    const chunker = unwrap(createChunker('naive'));
    const short = mdDoc('Short manual.\n');
    expect(unwrap(await chunker.chunk(short)).map((c) => c.text)).toEqual(['Short manual.\n']);
    expect(unwrap(await chunker.chunk(mdDoc('\n \n')))).toEqual([]);
  });
});
