// A deterministic embedder of the recommended embedder's dimension, for the query benchmark.
//
// Why not the tiny generated ONNX model: it makes 32-dimensional vectors, and a vector search
// (exact or through an index) costs by the dimension, so its dense and hybrid latencies understate a real
// library's; and embedding 100k chunks through it took most of an hour on the 2-core test
// machine (transformers.js tokenizing and running batches), for vectors that mean nothing anyway.
// This one hashes a text's words into 384 dimensions (bge-small-en-v1.5, models/README.md) with a
// sign per word, and normalizes: texts that share words lie close, as with a real model, and a
// chunk embeds in microseconds. What it leaves out is a real model's query embedding time.
import type { Embedder, EmbedderSource } from '../../src-main/models/types';

/** The dimension of the recommended embedder (bge-small-en-v1.5). */
export const HASH_DIMENSION = 384;
export const HASH_EMBEDDER_ID = 'bench-hash-384';

/** 32-bit FNV-1a of a word. */
function fnv1a(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) {
    h ^= word.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The vector of one text: signed word counts hashed into `HASH_DIMENSION` slots, unit length. */
export function hashVector(text: string): Float32Array {
  const v = new Float32Array(HASH_DIMENSION);
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const h = fnv1a(w);
    v[h % HASH_DIMENSION]! += h & 0x80000000 ? -1 : 1;
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  // An empty text still gets a valid (non-zero) vector.
  if (norm === 0) v[0] = norm = 1;
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < v.length; i++) v[i]! *= scale;
  return v;
}

export const hashEmbedder: Embedder = {
  id: HASH_EMBEDDER_ID,
  dimension: HASH_DIMENSION,
  embed: async (texts) => texts.map(hashVector),
  dispose: async () => undefined,
};

/** An embedder source that knows only the hash embedder. */
export const hashEmbedders: EmbedderSource = {
  embedder: async (id) => {
    if (id !== HASH_EMBEDDER_ID) throw new Error(`unknown embedder ${id}`);
    return hashEmbedder;
  },
};
