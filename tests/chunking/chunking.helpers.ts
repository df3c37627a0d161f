import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Chunk } from '../../src-main/core/chunk';
import type { Block, NormalizedDocument } from '../../src-main/core/document';
import { ATOMIC_BLOCK_KINDS } from '../../src-main/core/document';
import { normalizeMarkdown } from '../../src-main/ingest/normalize';
import type { Embedder } from '../../src-main/models/types';

/** A normalized Markdown document; pass `pageStarts` (offsets where pages 1, 2, … begin) for a paged one. */
export function mdDoc(markdown: string, opts: { id?: string; pageStarts?: number[] } = {}): NormalizedDocument {
  const parsed = normalizeMarkdown({
    markdown,
    format: opts.pageStarts ? 'pdf' : 'markdown',
    fallbackTitle: opts.id ?? 'doc',
    ...(opts.pageStarts ? { pageStarts: opts.pageStarts } : {}),
  });
  return { ...parsed, id: opts.id ?? 'doc.md', contentHash: '0'.repeat(64) };
}

/** Every Markdown file of a corpus folder under `corpusRoot` (one of `corpusRoots`), normalized, with ids relative to `corpusRoot`. */
export function corpusDocs(name: string, corpusRoot: string): NormalizedDocument[] {
  const root = path.resolve(corpusRoot, name);
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const f of readdirSync(dir).sort()) {
      const p = path.join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith('.md')) files.push(p);
    }
  };
  walk(root);
  return files.map((f) => mdDoc(readFileSync(f, 'utf8'), { id: `${name}/${path.relative(root, f).split(path.sep).join('/')}` }));
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * A deterministic bag-of-words embedder for logic tests (the real ONNX embedder is tested in
 * models/): words (and single CJK characters) hashed into `dimension` buckets, L2-normalized.
 */
export function hashedEmbedder(dimension = 512): Embedder & { calls: number } {
  const e = {
    id: 'hashed-bow',
    dimension,
    calls: 0,
    async embed(texts: string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]> {
      e.calls++;
      if (options?.signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
      return texts.map((t) => {
        const v = new Float32Array(dimension);
        const words = t.toLowerCase().match(/\p{Script=Han}|[\p{L}\p{N}]+/gu) ?? [];
        for (const w of words) v[fnv1a(w) % dimension]! += 1;
        let n = 0;
        for (const x of v) n += x * x;
        n = Math.sqrt(n);
        if (n > 0) for (let i = 0; i < v.length; i++) v[i] = v[i]! / n;
        return v;
      });
    },
    async dispose() {},
  };
  return e;
}

/** Unwraps a Result in a test, failing with its message. */
export function unwrap<T>(r: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

/** Offsets and text match; ordinals run 0..n-1; docId is the document's. */
export function expectExactSlices(doc: NormalizedDocument, chunks: readonly Chunk[]): void {
  chunks.forEach((c, i) => {
    expect(c.ordinal).toBe(i);
    expect(c.docId).toBe(doc.id);
    expect(c.start).toBeLessThan(c.end);
    expect(c.text).toBe(doc.text.slice(c.start, c.end));
  });
}

/** Non-overlapping strategies: contiguous, first at 0, last at text.length, concatenation restores the text. */
export function expectTiling(doc: NormalizedDocument, chunks: readonly Chunk[]): void {
  expectExactSlices(doc, chunks);
  if (doc.text.trim() === '') {
    expect(chunks).toHaveLength(0);
    return;
  }
  expect(chunks[0]!.start).toBe(0);
  expect(chunks[chunks.length - 1]!.end).toBe(doc.text.length);
  for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.start).toBe(chunks[i - 1]!.end);
  expect(chunks.map((c) => c.text).join('')).toBe(doc.text);
}

/** Blocks overlapping a character range. */
export function blocksIn(doc: NormalizedDocument, start: number, end: number): Block[] {
  return doc.blocks.filter((b) => b.start < end && b.end > start);
}

/** Every atomic block (heading, list, table, code, blockquote, front matter) lies whole inside exactly one chunk. */
export function expectAtomicBlocksWhole(doc: NormalizedDocument, chunks: readonly Chunk[]): void {
  for (const b of doc.blocks) {
    if (!ATOMIC_BLOCK_KINDS.has(b.kind)) continue;
    const holders = chunks.filter((c) => c.start < b.end && c.end > b.start);
    expect(holders, `${doc.id}: ${b.kind} at ${b.start} is split`).toHaveLength(1);
    expect(holders[0]!.start <= b.start && b.end <= holders[0]!.end).toBe(true);
  }
}

/** Heading path of the first block in the chunk's content; pages from the first to the last block it overlaps. */
export function expectBlockMetadata(doc: NormalizedDocument, chunks: readonly Chunk[]): void {
  for (const c of chunks) {
    const blocks = blocksIn(doc, c.start, c.end);
    if (blocks.length === 0) continue;
    expect(c.headingPath).toEqual(blocks[0]!.headingPath);
    const pages = blocks.flatMap((b) => [b.page, b.pageEnd]).filter((p): p is number => p !== null);
    expect(c.pageStart).toBe(pages.length > 0 ? Math.min(...pages) : null);
    expect(c.pageEnd).toBe(pages.length > 0 ? Math.max(...pages) : null);
  }
}

/** Content span of a tiling chunk: first block start (for chunk 0) or chunk start, to the last non-whitespace character. */
export function contentSpan(doc: NormalizedDocument, c: Chunk): { start: number; end: number } {
  const start = c.ordinal === 0 ? (doc.blocks[0]?.start ?? 0) : c.start;
  return { start, end: c.start + c.text.trimEnd().length };
}

/**
 * The `structure` size rules (see structure.chunker.ts): a chunk over `max` holds exactly one
 * non-heading block (or paragraph piece); a chunk under `min` is the only chunk or could not merge
 * with either neighbour within `max`; only the last chunk may end with a heading.
 */
export function expectStructureSizes(doc: NormalizedDocument, chunks: readonly Chunk[], min: number, max: number): void {
  chunks.forEach((c, i) => {
    const span = contentSpan(doc, c);
    const size = span.end - span.start;
    const blocks = blocksIn(doc, span.start, span.end);
    if (size > max) {
      const bodies = blocks.filter((b) => b.kind !== 'heading');
      expect(bodies, `${doc.id} chunk ${i} (${size} chars) over max with several blocks`).toHaveLength(1);
    }
    if (size < min && chunks.length > 1) {
      const prev = chunks[i - 1];
      const next = chunks[i + 1];
      if (prev) expect(span.end - contentSpan(doc, prev).start, `${doc.id} chunk ${i} could merge backward`).toBeGreaterThan(max);
      if (next) expect(contentSpan(doc, next).end - span.start, `${doc.id} chunk ${i} could merge forward`).toBeGreaterThan(max);
    }
    const last = blocks[blocks.length - 1];
    if (last?.kind === 'heading' && i < chunks.length - 1) {
      throw new Error(`${doc.id} chunk ${i} ends with a heading`);
    }
  });
}
