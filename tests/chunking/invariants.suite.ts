import { encode } from 'gpt-tokenizer/encoding/cl100k_base';
import { describe, expect, it } from 'vitest';
import type { Chunk } from '../../src-main/core/chunk';
import type { NormalizedDocument } from '../../src-main/core/document';
import { createChunker } from '../../src-main/chunking/chunker';
import { STRUCTURE_MAX_CHARS } from '../../src-main/chunking/structure.chunker';
import type { ChunkContext } from '../../src-main/chunking/chunker';
import type { StructuralChunk } from '../../src-main/chunking/structural.chunker';
import { builtinSectionSchema } from '../../src-main/chunking/section.schema';
import {
  corpusDocs,
  expectAtomicBlocksWhole,
  expectBlockMetadata,
  expectExactSlices,
  expectStructureSizes,
  expectTiling,
  hashedEmbedder,
  unwrap,
} from './chunking.helpers';

async function chunkAll(strategy: Parameters<typeof createChunker>[0], docs: NormalizedDocument[], options: object = {}, ctx: ChunkContext = {}) {
  const chunker = unwrap(createChunker(strategy, options));
  const out: { doc: NormalizedDocument; chunks: Chunk[] }[] = [];
  for (const doc of docs) out.push({ doc, chunks: unwrap(await chunker.chunk(doc, ctx)) });
  return out;
}

/**
 * The chunking invariants of every strategy, checked on every Markdown file of radxa-docs and
 * esp-dev-kits under `corpusRoot` (one of `corpusRoots`); each corpus must hold more than `minDocs`.
 */
export function describeChunkingInvariants(corpusRoot: string, minDocs: number): void {
  const corpora = ['radxa-docs', 'esp-dev-kits'].map((name) => ({ name, docs: corpusDocs(name, corpusRoot) }));

  describe.each(corpora)('every Markdown file of $name', ({ docs }) => {
    it('has documents to test', () => {
      expect(docs.length).toBeGreaterThan(minDocs);
    });

    it('structure: tiles the text, keeps atomic blocks whole, and respects the size rules', async () => {
      for (const { doc, chunks } of await chunkAll('structure', docs)) {
        expectTiling(doc, chunks);
        expectAtomicBlocksWhole(doc, chunks);
        expectBlockMetadata(doc, chunks);
        expectStructureSizes(doc, chunks, 100, STRUCTURE_MAX_CHARS);
        for (const c of chunks) {
          expect(c.strategy).toBe('structure');
          expect(c.pageStart).toBeNull();
        }
      }
    });

    it('structure: the same rules hold for other min/max pairs', async () => {
      for (const [min, max] of [
        [50, 400],
        [300, 3000],
      ] as const) {
        for (const { doc, chunks } of await chunkAll('structure', docs, { minChars: min, maxChars: max })) {
          expectTiling(doc, chunks);
          expectAtomicBlocksWhole(doc, chunks);
          expectStructureSizes(doc, chunks, min, max);
        }
      }
    });

    it('naive: 500-token windows with 100 overlap at exact offsets cover the whole text', async () => {
      for (const { doc, chunks } of await chunkAll('naive', docs)) {
        expectExactSlices(doc, chunks);
        expectBlockMetadata(doc, chunks);
        expect(chunks[0]!.start).toBe(0);
        expect(chunks[chunks.length - 1]!.end).toBe(doc.text.length);
        for (let i = 1; i < chunks.length; i++) {
          // Overlapping and moving forward: each window starts inside the previous one.
          expect(chunks[i]!.start).toBeGreaterThan(chunks[i - 1]!.start);
          expect(chunks[i]!.start).toBeLessThan(chunks[i - 1]!.end);
        }
        // Re-encoding a slice can merge a token or two across its edges, never many.
        for (const c of chunks) expect(encode(c.text, { disallowedSpecial: new Set() }).length).toBeLessThanOrEqual(503);
      }
    });

    it('recursive: LangChain pieces map to exact, ordered offsets and drop only whitespace', async () => {
      for (const { doc, chunks } of await chunkAll('recursive', docs)) {
        expectExactSlices(doc, chunks);
        expectBlockMetadata(doc, chunks);
        let covered = 0;
        for (const c of chunks) {
          expect(c.text.length).toBeLessThanOrEqual(1000);
          expect(doc.text.slice(covered, Math.max(covered, c.start)).trim()).toBe('');
          covered = Math.max(covered, c.end);
        }
        expect(doc.text.slice(covered).trim()).toBe('');
      }
    });

    it('semantic: tiles the text and keeps tables, code and lists whole', async () => {
      for (const { doc, chunks } of await chunkAll('semantic', docs, {}, { embedder: hashedEmbedder() })) {
        expectTiling(doc, chunks);
        expectAtomicBlocksWhole(doc, chunks);
        expectBlockMetadata(doc, chunks);
      }
    });

    it('structural (manual schema): tiles the text, keeps atomic blocks whole, labels every chunk', async () => {
      const types = new Set([...builtinSectionSchema('manual').sections.map((s) => s.type), 'other']);
      for (const { doc, chunks } of await chunkAll('structural', docs, { schema: 'manual' })) {
        expectTiling(doc, chunks);
        expectAtomicBlocksWhole(doc, chunks);
        expectBlockMetadata(doc, chunks);
        for (const c of chunks as StructuralChunk[]) {
          expect(types.has(c.sectionType)).toBe(true);
          expect(c.structured.section_type).toBe(c.sectionType);
          expect(c.structured.content).toBe(c.text.trim());
          expect(c.structured.source).toEqual({ file: doc.id, page: [] });
        }
      }
    });
  });
}
