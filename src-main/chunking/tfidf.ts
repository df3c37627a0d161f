/**
 * TF-IDF vectors and cosine similarity: the model-free stand-in for embeddings in the structural
 * soft merge. Hand-written because it is forty lines and no maintained package tokenizes mixed
 * English/Chinese text the way the classifier does (words for Latin scripts, bigrams for CJK).
 */

/** Document frequencies over a set of texts (a library, or one document's paragraphs). */
export interface CorpusStats {
  /** Number of texts counted. */
  documentCount: number;
  /** For each term, in how many texts it occurs. */
  documentFrequency: ReadonlyMap<string, number>;
}

/** A sparse, L2-normalized term-weight vector. */
export type SparseVector = ReadonlyMap<string, number>;

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const WORD = /[\p{L}\p{N}]+(?:[._+#-][\p{L}\p{N}]+)*[+#]*/gu;

/** Terms of a text: lowercased words of Latin-like scripts, and character bigrams of CJK runs. */
export function tfidfTerms(text: string): string[] {
  const terms: string[] = [];
  for (const run of text.matchAll(CJK_RUN)) {
    const s = run[0];
    if (s.length === 1) terms.push(s);
    for (let i = 0; i + 1 < s.length; i++) terms.push(s.slice(i, i + 2));
  }
  for (const m of text.replace(CJK_RUN, ' ').matchAll(WORD)) terms.push(m[0].toLowerCase());
  return terms;
}

/** Counts document frequencies over `texts`; pass the library's chunk texts to share IDF across documents. */
export function buildCorpusStats(texts: Iterable<string>): CorpusStats {
  const df = new Map<string, number>();
  let n = 0;
  for (const text of texts) {
    n++;
    for (const t of new Set(tfidfTerms(text))) df.set(t, (df.get(t) ?? 0) + 1);
  }
  return { documentCount: n, documentFrequency: df };
}

/** Sublinear-tf, smoothed-idf vector of `text`, L2-normalized (empty map for a text with no terms). */
export function tfidfVector(text: string, stats: CorpusStats): SparseVector {
  const tf = new Map<string, number>();
  for (const t of tfidfTerms(text)) tf.set(t, (tf.get(t) ?? 0) + 1);
  const v = new Map<string, number>();
  let norm = 0;
  for (const [t, c] of tf) {
    const idf = Math.log((1 + stats.documentCount) / (1 + (stats.documentFrequency.get(t) ?? 0))) + 1;
    const w = (1 + Math.log(c)) * idf;
    v.set(t, w);
    norm += w * w;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (const [t, w] of v) v.set(t, w / norm);
  return v;
}

/** Cosine of two L2-normalized sparse vectors, in [0, 1]. */
export function cosineSparse(a: SparseVector, b: SparseVector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [t, w] of small) dot += w * (large.get(t) ?? 0);
  return dot;
}

/** Cosine similarity of two dense vectors of equal length; 0 when either is all zeros. */
export function cosineDense(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}
