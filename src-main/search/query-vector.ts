import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import type { Embedder, EmbedderSource } from '../models/types';

/** What dense search needs to know about a library's vectors. */
export interface VectorSetup {
  /** The library's configured embedder, or null (keyword search only). */
  configured: { id: string; dimension: number } | null;
  /** The embedder the stored vectors come from (null: none stored yet). */
  storedEmbedderId: string | null;
  embedders: EmbedderSource;
}

/** The query vector, or why dense search is not possible for this library. */
export async function queryVector(query: string, setup: VectorSetup): Promise<Result<Float32Array>> {
  const { configured } = setup;
  if (!configured) {
    return fail('unavailable', 'This library has no embedding model, so it uses keyword (BM25) search. Choose an embedder in Settings › Models to enable dense and hybrid search.');
  }
  if (setup.storedEmbedderId !== null && setup.storedEmbedderId !== configured.id) {
    return fail('model-mismatch', `This library's vectors come from "${setup.storedEmbedderId}", not "${configured.id}". Re-embed the library (Settings › Models) before using dense search.`);
  }
  let embedder: Embedder;
  try {
    embedder = await setup.embedders.embedder(configured.id);
  } catch {
    return fail('model-missing', `The embedding model "${configured.id}" used by this library is not installed. Put it back in the models folder, or choose another embedder and re-embed.`);
  }
  if (embedder.dimension !== configured.dimension) {
    return fail('model-mismatch', `"${configured.id}" now makes ${embedder.dimension}-dimensional vectors, but the library holds ${configured.dimension}. Re-embed the library.`);
  }
  const [vec] = await embedder.embed([query]);
  return ok(vec!);
}
