/**
 * Texts longer than an embedder's input window, embedded whole instead of cut at the window.
 *
 * BERT-style embedders (bge-small: 512 tokens) silently truncate longer input, so a chunk's tail
 * would be invisible to dense search. A text over the window is split into windows that fit, at
 * paragraph, line and word boundaries (LangChain's RecursiveCharacterTextSplitter, measuring with
 * the model's own tokenizer), each window is embedded, and the text's vector is the mean of its
 * windows' vectors weighted by their length, normalized again: the recipe of OpenAI's cookbook
 * "Embedding texts that are longer than the model's maximum context length". Texts that fit are
 * embedded exactly as before.
 */
import type { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';

/** How one text was cut: its windows go to the model in order, `owner` says whose they are. */
export interface WindowPlan {
  /** Every window of every text, in text order; a text that fits is its own single window. */
  pieces: string[];
  /** For each piece, the index of the text it came from. */
  owners: number[];
}

/** What the plan needs from the model: its window in tokens and its tokenizer's count. */
export interface WindowSpec {
  /** Most tokens of text one input holds, after the special tokens the model adds to every input. */
  maxTokens: number;
  /** Token count of `text` itself, without the special tokens added around an input. */
  countTokens(text: string): number;
}

/**
 * Cuts every text longer than the window into windows that fit; texts that fit stay whole. The
 * splitter module is loaded only when some text is too long (LangChain is slow to load).
 */
export async function planWindows(texts: readonly string[], spec: WindowSpec): Promise<WindowPlan> {
  const pieces: string[] = [];
  const owners: number[] = [];
  let splitter: RecursiveCharacterTextSplitter | undefined;
  for (const [owner, text] of texts.entries()) {
    if (spec.countTokens(text) <= spec.maxTokens) {
      pieces.push(text);
      owners.push(owner);
      continue;
    }
    splitter ??= await makeSplitter(spec);
    const windows = (await splitter.splitText(text)).filter((w) => w.trim().length > 0);
    for (const window of windows.length > 0 ? windows : [text]) {
      pieces.push(window);
      owners.push(owner);
    }
  }
  return { pieces, owners };
}

async function makeSplitter(spec: WindowSpec): Promise<RecursiveCharacterTextSplitter> {
  const { RecursiveCharacterTextSplitter } = await import('@langchain/textsplitters');
  // The splitter merges pieces by the sum of their counts; with a word-level tokenizer (BERT's
  // WordPiece) that is the merged window's count exactly, with BPE it may differ by a token at a
  // seam, which the runtimes' own truncation absorbs.
  return new RecursiveCharacterTextSplitter({ chunkSize: spec.maxTokens, chunkOverlap: 0, lengthFunction: (t) => spec.countTokens(t) });
}

/**
 * One unit vector per text from the vectors of its windows (`vectors[i]` belongs to
 * `plan.pieces[i]`): a text with one window keeps that window's vector; several are averaged,
 * weighted by their length in characters, then normalized.
 */
export function joinWindows(plan: WindowPlan, vectors: readonly Float32Array[], textCount: number): Float32Array[] {
  const groups: { vector: Float32Array; weight: number }[][] = Array.from({ length: textCount }, () => []);
  for (const [i, vector] of vectors.entries()) {
    groups[plan.owners[i] ?? -1]?.push({ vector, weight: plan.pieces[i]?.length ?? 0 });
  }
  return groups.map((windows, owner) => {
    const [first] = windows;
    if (!first) throw new Error(`No window was embedded for text ${owner}.`);
    if (windows.length === 1) return first.vector;
    const sum = new Float32Array(first.vector.length);
    for (const { vector, weight } of windows) {
      for (let d = 0; d < sum.length; d++) sum[d] = (sum[d] ?? 0) + (vector[d] ?? 0) * weight;
    }
    return l2Normalize(sum);
  });
}

/** Unit-length copy of `vector`; a zero vector stays zero (nothing to normalize). */
export function l2Normalize(vector: ArrayLike<number>): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += (vector[i] ?? 0) ** 2;
  const norm = Math.sqrt(sum);
  const out = new Float32Array(vector.length);
  if (norm === 0) return out;
  for (let i = 0; i < vector.length; i++) out[i] = (vector[i] ?? 0) / norm;
  return out;
}

/** Texts done once the first `piecesDone` windows of the plan are embedded: a text is done with its last window. */
export function textsDone(plan: WindowPlan, piecesDone: number): number {
  if (piecesDone <= 0) return 0;
  const last = plan.owners[piecesDone - 1] ?? -1;
  return piecesDone === plan.pieces.length || plan.owners[piecesDone] !== last ? last + 1 : last;
}
