import { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import { describe, expect, it } from 'vitest';
import { createChunker } from '../../src-main/chunking/chunker';
import { corpusRoots } from '../helpers/temp';
import { corpusDocs, expectBlockMetadata, expectExactSlices, mdDoc, unwrap } from './chunking.helpers';

describe('recursive chunker', () => {
  it('returns exactly the pieces of LangChain RecursiveCharacterTextSplitter, located at exact offsets', async () => {
    const docs = ['radxa-docs', 'esp-dev-kits'].flatMap((name) => corpusDocs(name, corpusRoots.fixture));
    const chunker = unwrap(createChunker('recursive'));
    const splitter = new RecursiveCharacterTextSplitter({ chunkSize: 1000, chunkOverlap: 200 });
    for (const doc of docs) {
      const chunks = unwrap(await chunker.chunk(doc));
      expect(chunks.map((c) => c.text)).toEqual(await splitter.splitText(doc.text));
      expectExactSlices(doc, chunks);
      for (const c of chunks) expect(c.strategy).toBe('recursive');
    }
  });

  it('locates repeated short pieces in order, never inside the previous piece', async () => {
    const block = `<div class="note">\n${'Keep the vents clear of dust and lint at all times. '.repeat(8)}\n</div>`;
    const doc = mdDoc(Array.from({ length: 6 }, () => block).join('\n\n'));
    const chunks = unwrap(await unwrap(createChunker('recursive', { chunkSize: 300, chunkOverlap: 60 })).chunk(doc));
    expectExactSlices(doc, chunks);
    for (let i = 1; i < chunks.length; i++) {
      expect(chunks[i]!.start).toBeGreaterThan(chunks[i - 1]!.start);
      expect(chunks[i]!.end).toBeGreaterThan(chunks[i - 1]!.end);
    }
    expect(chunks[chunks.length - 1]!.end).toBe(doc.text.trimEnd().length);
  });

  it('takes pages and heading path from the blocks each piece overlaps', async () => {
    const pages = [`# Manual\n\n${'Page one words. '.repeat(50)}\n\n`, `## Care\n\n${'Page two words. '.repeat(50)}\n`];
    const doc = mdDoc(pages.join(''), { pageStarts: [0, pages[0]!.length] });
    const chunks = unwrap(await unwrap(createChunker('recursive', { chunkSize: 400, chunkOverlap: 50 })).chunk(doc));
    expectBlockMetadata(doc, chunks);
    expect(chunks[0]!.pageStart).toBe(1);
    expect(chunks[chunks.length - 1]!.pageEnd).toBe(2);
    expect(chunks[chunks.length - 1]!.headingPath).toEqual(['Manual', 'Care']);
  });
});
