import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import { embedderInput } from '../core/prefix';
import type { Embedder, EmbedderSource } from '../models/types';
import type { LibraryConfig } from '../storage/library.store';
import type { ChunkInput, ChunkStore, UnembeddedChunk } from '../storage/chunk-store';
import { ownTurn, type WriteTurn } from './write-turn';

/** The background embedding of a library's chunks, and the vectors a rebuild keeps. */

/** Chunks embedded per call: large enough to amortize the call, small enough to stop promptly. */
const EMBED_BATCH = 32;
/** Vectors written to the store per update. */
const EMBED_WRITE_BATCH = 512;
/** Ids per lookup of the vectors a rebuild keeps (one `IN` list). */
const CARRY_BATCH = 512;

/** What embedding reads: the library's configured embedder, its store (as it is at each step) and the model runtime. */
export interface EmbedTarget {
  readonly embedder: LibraryConfig['embedder'];
  readonly store: () => ChunkStore;
  readonly embedders: EmbedderSource;
}

/**
 * Embeds every chunk that has no vector yet, in batches, reporting progress; search keeps working
 * meanwhile (a chunk without a vector is simply not found by dense search yet). Cancellable. The
 * store is read and written only in `turn`s; the embedder runs between them, while another
 * process may write the library.
 */
export async function embedPending(
  target: EmbedTarget,
  signal: AbortSignal,
  onProgress: (done: number, total: number) => void,
  turn: WriteTurn = ownTurn,
): Promise<Result<number>> {
  const configured = target.embedder;
  if (!configured) return ok(0);
  const { store } = target;
  let embedder: Embedder;
  try {
    embedder = await target.embedders.embedder(configured.id);
  } catch (err) {
    return fail('model-missing', `The embedding model "${configured.id}" of this library could not be loaded: ${err instanceof Error ? err.message : String(err)}`);
  }
  const counted = await turn(() => store().countUnembedded());
  if (!counted.ok) return counted;
  const total = counted.value;
  let done = 0;
  onProgress(0, total);
  while (!signal.aborted) {
    // Each write is a new table version, so vectors are written a few hundred at a time while
    // the embedder is called in small batches (progress, and a prompt stop when cancelled).
    const listed = await turn(() => store().listUnembedded(EMBED_WRITE_BATCH));
    if (!listed.ok) return listed;
    const batch = listed.value;
    if (batch.length === 0) break;
    const vectors: Float32Array[] = [];
    try {
      for (let i = 0; i < batch.length && !signal.aborted; i += EMBED_BATCH) {
        vectors.push(...(await embedder.embed(batch.slice(i, i + EMBED_BATCH).map(embedText), { signal })));
        onProgress(done + vectors.length, Math.max(total, done + vectors.length));
      }
    } catch (err) {
      if (!signal.aborted) throw err;
    }
    const wrote = await turn(async () => {
      // Chunk ids are the document's id and the chunk's place: an import of a changed manual
      // (here or in another process) while the embedder worked made rows under the same ids with
      // other text. Those are left without a vector, for the next batch to embed from their text.
      const now = new Map((await store().getChunks(batch.slice(0, vectors.length).map((b) => b.id))).map((r) => [r.id, embedText(r)]));
      const same = vectors.flatMap((_, i) => (now.get(batch[i]!.id) === embedText(batch[i]!) ? [i] : []));
      await store().updateVectors(
        same.map((i) => batch[i]!.id),
        same.map((i) => vectors[i]!),
      );
      return same.length;
    });
    if (!wrote.ok) return wrote;
    done += wrote.value;
  }
  if (signal.aborted) return fail('cancelled', 'Embedding was cancelled; it resumes with the next import or the next start of the app.');
  const folded = await turn(() => store().ensureIndexes());
  if (!folded.ok) return folded;
  return ok(done);
}

/**
 * Gives rows the vectors `live` holds for the same id, embedder and embedder input, so a rebuild
 * re-embeds only what changed (embedding is by far the slowest part of indexing). Returns how
 * many rows got one.
 */
export async function carryVectors(live: ChunkStore, embedder: LibraryConfig['embedder'], rows: ChunkInput[]): Promise<number> {
  if (!embedder || live.embedderId !== embedder.id || live.vectorDimension !== embedder.dimension) return 0;
  let kept = 0;
  for (let i = 0; i < rows.length; i += CARRY_BATCH) {
    const slice = rows.slice(i, i + CARRY_BATCH);
    const old = new Map((await live.listEmbedded(slice.map((r) => r.id))).map((e) => [e.id, e]));
    for (const row of slice) {
      const prev = old.get(row.id);
      if (prev && embedText(prev) === embedText(row)) {
        row.vector = prev.vector;
        kept++;
      }
    }
  }
  return kept;
}

/**
 * What is embedded: CHOP's `PFX(CNM) || chunk`, whatever the keyword prefix setting. The
 * signature anchors near-identical sibling passages apart in vector space (the method); for
 * keyword search the model-aware ranking already uses the signature columns, and measured on
 * dev.jsonl and galaxy-s10.jsonl the prefix in the keyword index did not help (docs/benchmarks.md).
 */
export function embedText(chunk: UnembeddedChunk): string {
  return embedderInput(chunk, { category: chunk.category, nouns: chunk.nouns, model: chunk.model });
}
