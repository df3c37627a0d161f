import type { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import { z } from 'zod';
import type { Chunk } from '../core/chunk';
import type { NormalizedDocument } from '../core/document';
import { fail, ok } from '../core/result';
import type { Chunker } from './chunker';
import { cancelled } from './chunker.result';
import { isBlank, rangeChunk } from './span.util';

/**
 * The peer baseline: LangChain's own RecursiveCharacterTextSplitter with its defaults (1000
 * characters, 200 overlap, separators "\n\n", "\n", " ", ""), i.e. what most RAG stacks ship.
 * LangChain returns strings only; each piece is located in `doc.text` from a moving cursor to get
 * exact offsets, then pages and heading path come from the blocks the piece overlaps.
 */

/** Options: `chunkSize` and `chunkOverlap` in characters; `chunkOverlap < chunkSize`. */
export const recursiveOptionsSchema = z
  .strictObject({
    chunkSize: z.number().int().min(1).default(1000),
    chunkOverlap: z.number().int().min(0).default(200),
  })
  .refine((o) => o.chunkOverlap < o.chunkSize, {
    message: 'must be smaller than chunkSize',
    path: ['chunkOverlap'],
  });
export type RecursiveOptions = z.output<typeof recursiveOptionsSchema>;

/** Creates the `recursive` chunker from validated options. */
export function createRecursiveChunker(options: RecursiveOptions): Chunker {
  // LangChain (with its tracing client) takes longer to load than a whole search: it is loaded
  // when the first document is chunked, not when a library using this strategy is opened.
  let splitter: Promise<RecursiveCharacterTextSplitter> | null = null;
  const splitterOf = () =>
    (splitter ??= import('@langchain/textsplitters').then(
      ({ RecursiveCharacterTextSplitter }) => new RecursiveCharacterTextSplitter({ chunkSize: options.chunkSize, chunkOverlap: options.chunkOverlap }),
    ));
  return {
    strategy: 'recursive',
    options,
    async chunk(doc: NormalizedDocument, ctx = {}) {
      if (ctx.signal?.aborted) return cancelled();
      if (isBlank(doc)) return ok([]);
      const pieces = await (await splitterOf()).splitText(doc.text);
      if (ctx.signal?.aborted) return cancelled();
      const chunks: Chunk[] = [];
      let prevStart = -1;
      let prevEnd = 0;
      for (const piece of pieces) {
        // Pieces are trimmed substrings (keepSeparator joins with ""), in order; the next one starts
        // at most `chunkOverlap` characters before the previous end and reaches past it. Both bounds
        // keep a short repeated piece ("</div>") from matching inside the previous one.
        let start = doc.text.indexOf(piece, Math.max(prevStart + 1, prevEnd - options.chunkOverlap));
        while (start >= 0 && start + piece.length <= prevEnd) start = doc.text.indexOf(piece, start + 1);
        if (start < 0) return fail('internal', `The recursive splitter returned text not found in ${doc.id}.`);
        const end = start + piece.length;
        chunks.push(rangeChunk(doc, chunks.length, start, end, 'recursive'));
        prevStart = start;
        prevEnd = end;
      }
      return ok(chunks);
    },
  };
}
