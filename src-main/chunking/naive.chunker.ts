import { z } from 'zod';
import type { Chunk } from '../core/chunk';
import type { NormalizedDocument } from '../core/document';
import { ok } from '../core/result';
import type { Chunker } from './chunker';
import { cancelled } from './chunker.result';
import { isBlank, rangeChunk } from './span.util';

/**
 * The paper baseline Naive-500T (CHOP): fixed windows of `tokens` cl100k tokens overlapping by
 * `overlap` tokens, mapped back to exact character offsets of the normalized text. Windows ignore
 * structure on purpose; this is the baseline structure-aware chunking is measured against.
 */

/** Options: window size and overlap in cl100k tokens; `overlap < tokens`. */
export const naiveOptionsSchema = z
  .strictObject({
    tokens: z.number().int().min(1).default(500),
    overlap: z.number().int().min(0).default(100),
  })
  .refine((o) => o.overlap < o.tokens, { message: 'must be smaller than tokens', path: ['overlap'] });
export type NaiveOptions = z.output<typeof naiveOptionsSchema>;

const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATE_ALL = /\p{Cs}/gu;

/**
 * Character offset of every token boundary: `offsets[i]` is where token `i` starts, `offsets[n]` is
 * `text.length`. A boundary inside a multi-byte character (a token holding part of a UTF-8
 * sequence) moves back to the start of that character, so every offset is a valid slice point.
 */
export async function tokenOffsets(text: string): Promise<{ tokens: number; offsets: Int32Array }> {
  // The cl100k tables are loaded when first needed, not when a library is opened for search.
  const { decodeGenerator, encode } = await import('gpt-tokenizer/encoding/cl100k_base');
  // A lone surrogate becomes U+FFFD (same UTF-16 length) so decoded lengths stay aligned; special
  // tokens like <|endoftext|> in a manual are plain text here.
  const wellFormed = LONE_SURROGATE.test(text) ? text.replace(LONE_SURROGATE_ALL, '\uFFFD') : text;
  const ids = encode(wellFormed, { disallowedSpecial: new Set() });
  const offsets = new Int32Array(ids.length + 1);
  let length = 0;
  // decodeGenerator pulls one token at a time and yields only complete characters, so when it pulls
  // token i, `length` is the text decoded from tokens before i up to the last complete character.
  const recorded = {
    *[Symbol.iterator]() {
      for (let i = 0; i < ids.length; i++) {
        offsets[i] = length;
        yield ids[i]!;
      }
    },
  };
  for (const piece of decodeGenerator(recorded)) length += piece.length;
  offsets[ids.length] = text.length;
  return { tokens: ids.length, offsets };
}

/** Creates the `naive` chunker from validated options. */
export function createNaiveChunker(options: NaiveOptions): Chunker {
  return {
    strategy: 'naive',
    options,
    async chunk(doc: NormalizedDocument, ctx = {}) {
      if (ctx.signal?.aborted) return cancelled();
      if (isBlank(doc)) return ok([]);
      const { tokens, offsets } = await tokenOffsets(doc.text);
      const step = options.tokens - options.overlap;
      const chunks: Chunk[] = [];
      for (let a = 0; ; a += step) {
        const b = Math.min(a + options.tokens, tokens);
        const start = offsets[a]!;
        const end = offsets[b]!;
        if (end > start) chunks.push(rangeChunk(doc, chunks.length, start, end, 'naive'));
        if (b >= tokens) break;
      }
      return ok(chunks);
    },
  };
}
