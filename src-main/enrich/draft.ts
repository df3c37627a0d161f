import type { Chunk } from '../core/chunk';
import type { NormalizedDocument } from '../core/document';
import { draftChunkText, type ChunkText } from './chunk-view';
import { pretagChunk } from './cnm.heuristic';
import { createContinuityHeuristic } from './continuity.heuristic';

/**
 * The part of a document's heuristic enrichment that no vocabulary changes, done ahead: each
 * chunk's text part of its view (`draftChunkText`: prose, term counts for the keywords, entities
 * found by pattern, headings and labels) and, for a chunk whose signature will be
 * extracted rather than inherited, the tagging of its heading and opening (`pretagChunk`). An
 * import runs it for documents already learned while it waits for the next file's parse; the
 * enrichment then reads what was drafted, so the rows are the same as without it.
 *
 * Which chunks inherit depends on the vocabulary; a chunk the text alone says cannot continue the
 * previous one (`mayContinue`) is extracted with any vocabulary, so only those are tagged ahead:
 * tagging the others could be work the enrichment never needed.
 */

const continuity = createContinuityHeuristic();

/** Drafts the chunks of `doc` in order, one chunk per step; `tag: false` when the library reads no nouns. */
export function* draftChunks(doc: NormalizedDocument, chunks: readonly Chunk[], options: { tag?: boolean } = {}): Generator<void, void, undefined> {
  const tag = options.tag ?? true;
  // The order the enricher reads them in: each chunk continues (or not) the one before it.
  const ordered = [...chunks].sort((a, b) => a.ordinal - b.ordinal);
  let prev: ChunkText | null = null;
  for (const chunk of ordered) {
    const text = draftChunkText(chunk, doc);
    if (tag && (prev === null || !continuity.mayContinue(prev, text, chunk, doc))) pretagChunk(chunk, text);
    prev = text;
    yield;
  }
}
