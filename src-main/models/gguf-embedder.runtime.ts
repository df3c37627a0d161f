/**
 * The `Embedder` interface on a GGUF model through node-llama-cpp's embedding context (BERT-style
 * embedding models, or any GGUF whose pooled hidden state is used as a vector).
 */
import path from 'node:path';
import type { Token } from 'node-llama-cpp';
import { CodedError } from '../core/result';
import { loadGgufModel, resolveThreads } from './llm.runtime';
import type { LlamaLoadOptions } from './llm.runtime';
import type { Embedder } from './types';
import { joinWindows, l2Normalize, planWindows, textsDone } from './windows';

/** Default context for embeddings in tokens: chunks are at most a few thousand characters. */
const DEFAULT_EMBED_CONTEXT = 2048;

/**
 * Loads a GGUF model for embeddings. Vectors are L2-normalized with length = the model's
 * embedding size; inputs longer than the context are embedded in windows (`windows.ts`). Throws CodedError
 * `model-missing` / `model-failed`.
 */
export async function loadGgufEmbedder(modelPath: string, opts: LlamaLoadOptions = {}): Promise<Embedder> {
  const { llama, model } = await loadGgufModel(modelPath);
  const id = path.basename(modelPath);
  try {
    const contextSize = Math.min(opts.contextSize ?? DEFAULT_EMBED_CONTEXT, model.trainContextSize);
    // Non-causal (BERT-style) models must see the whole input in one batch.
    const context = await model.createEmbeddingContext({ contextSize, batchSize: contextSize, threads: resolveThreads(llama, opts.threads) });
    // Room for the BOS/EOS tokens node-llama-cpp adds, and it rejects inputs that fill the context.
    const maxInputTokens = Math.max(1, contextSize - 3);
    const fallbackToken = model.tokens.bos ?? model.tokens.eos;
    const dimension = model.embeddingVectorSize;

    const embedOne = async (text: string): Promise<Float32Array> => {
      // planWindows keeps every piece within maxInputTokens; the slice only guards a tokenizer that
      // counts a piece differently on its own than inside the merged window.
      let tokens: Token[] = model.tokenize(text).slice(0, maxInputTokens);
      // Empty text has no tokens and would give an empty vector; embed the boundary token instead.
      if (tokens.length === 0 && fallbackToken != null) tokens = [fallbackToken];
      const { vector } = await context.getEmbeddingFor(tokens);
      if (vector.length !== dimension) {
        throw new CodedError('model-failed', `${id} returned a vector of ${vector.length} values, expected ${dimension}.`);
      }
      return l2Normalize(vector);
    };

    return {
      id,
      dimension,
      async embed(texts, options = {}) {
        const plan = await planWindows(texts, { maxTokens: maxInputTokens, countTokens: (t) => model.tokenize(t).length });
        const out: Float32Array[] = [];
        let reported = 0;
        for (const piece of plan.pieces) {
          if (options.signal?.aborted) throw new CodedError('cancelled', 'Embedding was cancelled.');
          out.push(await embedOne(piece));
          // Once per text, when its last window is embedded.
          const done = textsDone(plan, out.length);
          if (done > reported) options.onProgress?.((reported = done), texts.length);
        }
        return joinWindows(plan, out, texts.length);
      },
      async dispose() {
        await context.dispose();
        await model.dispose();
      },
    };
  } catch (err) {
    await model.dispose();
    if (err instanceof CodedError) throw err;
    throw new CodedError('model-failed', `Could not create an embedding context for ${id}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
