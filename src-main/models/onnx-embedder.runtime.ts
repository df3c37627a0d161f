/**
 * The ONNX text embedder: a transformers.js feature-extraction pipeline over a local model folder
 * (`config.json`, `tokenizer.json`, `onnx/model.onnx`), mean-pooled and L2-normalized; a text longer
 * than the model's window is embedded in windows (`windows.ts`), not truncated. Strictly
 * offline: remote models are disabled before anything loads, so a missing file is an error here,
 * never a download.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FeatureExtractionPipeline } from '@huggingface/transformers';
import { CodedError } from '../core/result';
import type { Embedder } from './types';
import { joinWindows, planWindows, textsDone } from './windows';
import type { WindowSpec } from './windows';

/** Options for {@link loadOnnxEmbedder}. */
export interface OnnxEmbedderOptions {
  /** Texts per ONNX run (>= 1, default 16); progress and abort are checked between batches. */
  batchSize?: number;
  /** ONNX Runtime intra-op threads, clamped to 1..2 (default 2): more starves the 2-core target. */
  threads?: number;
  /**
   * Longest input in tokens before a text is embedded in windows; default and upper bound the
   * model's own window (tokenizer `model_max_length`, else `max_position_embeddings`).
   */
  maxTokens?: number;
}

const DEFAULT_BATCH_SIZE = 16;
const MAX_THREADS = 2;
const REQUIRED_FILES = ['config.json', 'tokenizer.json', path.join('onnx', 'model.onnx')];

/**
 * `env.localModelPath` is process-global and read while a pipeline loads, so loads are serialized
 * to keep two folders with different parents from racing on it.
 */
let loadChain: Promise<unknown> = Promise.resolve();

/**
 * Loads the ONNX embedder in `modelDir` (its folder name becomes the id) and runs one probe text
 * to learn the vector dimension. Throws a CodedError naming the folder: `model-missing` when a
 * required file is absent, `model-failed` when the files do not load or run.
 */
export async function loadOnnxEmbedder(modelDir: string, opts: OnnxEmbedderOptions = {}): Promise<Embedder> {
  const dir = path.resolve(modelDir);
  const batchSize = Math.max(1, Math.floor(opts.batchSize ?? DEFAULT_BATCH_SIZE));
  const threads = Math.min(MAX_THREADS, Math.max(1, Math.floor(opts.threads ?? MAX_THREADS)));
  const configDim = await checkFolder(dir);

  const load = loadChain.then(() => openPipeline(dir, threads));
  loadChain = load.catch(() => undefined);
  const extractor = await load;

  let dimension: number;
  try {
    const probe = await extractor(['dimension probe'], { pooling: 'mean', normalize: true });
    dimension = probe.dims[1] ?? configDim ?? 0;
  } catch (err) {
    await extractor.dispose().catch(() => undefined);
    throw new CodedError('model-failed', `The embedding model in "${dir}" loaded but failed to run: ${messageOf(err)}`);
  }
  if (!(dimension > 0)) {
    await extractor.dispose().catch(() => undefined);
    throw new CodedError('model-failed', `The embedding model in "${dir}" produced no vector dimension.`);
  }
  return new OnnxEmbedder(path.basename(dir), dimension, extractor, batchSize, dir, windowOf(extractor, opts.maxTokens));
}

/** Fallback window when neither the tokenizer nor the config states one: BERT's 512. */
const DEFAULT_MAX_TOKENS = 512;

/**
 * The model's input window for text and its tokenizer's count of a text's own tokens: the
 * special tokens the tokenizer adds around every input ([CLS], [SEP]) come off the window once.
 */
function windowOf(extractor: FeatureExtractionPipeline, requested: number | undefined): WindowSpec {
  const { tokenizer } = extractor;
  const stated = [tokenizer.model_max_length as unknown, (extractor.model.config as { max_position_embeddings?: unknown }).max_position_embeddings]
    // Tokenizers without a stated limit report a huge sentinel (1e30).
    .filter((n): n is number => typeof n === 'number' && Number.isFinite(n) && n > 2 && n < 1e9);
  const modelMax = stated.length > 0 ? Math.min(...stated) : DEFAULT_MAX_TOKENS;
  const windowTokens = requested !== undefined ? Math.min(modelMax, Math.floor(requested)) : modelMax;
  const special = tokenizer.encode('').length;
  return {
    maxTokens: Math.max(1, windowTokens - special),
    countTokens: (text) => tokenizer.encode(text, { add_special_tokens: false }).length,
  };
}

/** Returns config.json's hidden_size when present; throws `model-missing` naming what is absent. */
async function checkFolder(dir: string): Promise<number | undefined> {
  const missing: string[] = [];
  for (const file of REQUIRED_FILES) {
    const info = await stat(path.join(dir, file)).catch(() => undefined);
    if (!info?.isFile()) missing.push(file);
  }
  if (missing.length > 0) {
    throw new CodedError('model-missing', `No usable embedding model in "${dir}": missing ${missing.join(', ')}.`);
  }
  try {
    const config = JSON.parse(await readFile(path.join(dir, 'config.json'), 'utf8')) as { hidden_size?: unknown };
    return typeof config.hidden_size === 'number' ? config.hidden_size : undefined;
  } catch (err) {
    throw new CodedError('model-failed', `The embedding model in "${dir}" has an unreadable config.json: ${messageOf(err)}`);
  }
}

async function openPipeline(dir: string, threads: number): Promise<FeatureExtractionPipeline> {
  // Imported lazily: onnxruntime-node is heavy and most app runs never embed.
  const { env, pipeline } = await import('@huggingface/transformers');
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.localModelPath = path.dirname(dir);
  try {
    return await pipeline('feature-extraction', path.basename(dir), {
      dtype: 'fp32',
      device: 'cpu',
      local_files_only: true,
      session_options: { intraOpNumThreads: threads, interOpNumThreads: 1 },
    });
  } catch (err) {
    throw new CodedError('model-failed', `Could not load the embedding model in "${dir}": ${messageOf(err)}`);
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

class OnnxEmbedder implements Embedder {
  /** Serializes embed calls: one ONNX run at a time keeps the thread cap meaningful. */
  private queue: Promise<unknown> = Promise.resolve();
  private disposed = false;

  constructor(
    readonly id: string,
    readonly dimension: number,
    private readonly extractor: FeatureExtractionPipeline,
    private readonly batchSize: number,
    private readonly dir: string,
    private readonly window: WindowSpec,
  ) {}

  embed(
    texts: string[],
    options: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
  ): Promise<Float32Array[]> {
    const run = this.queue.then(() => this.embedNow(texts, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async embedNow(
    texts: string[],
    { signal, onProgress }: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void },
  ): Promise<Float32Array[]> {
    onProgress?.(0, texts.length);
    const plan = await planWindows(texts, this.window);
    const { pieces } = plan;
    const vectors: Float32Array[] = [];
    for (let start = 0; start < pieces.length; start += this.batchSize) {
      if (signal?.aborted) throw new CodedError('cancelled', 'Embedding was cancelled.');
      if (this.disposed) throw new CodedError('unavailable', `The embedding model "${this.id}" was unloaded.`);
      const batch = pieces.slice(start, start + this.batchSize);
      let output;
      try {
        output = await this.extractor(batch, { pooling: 'mean', normalize: true });
      } catch (err) {
        throw new CodedError('model-failed', `The embedding model in "${this.dir}" failed: ${messageOf(err)}`);
      }
      const data = output.data as Float32Array;
      if (data.length !== batch.length * this.dimension) {
        throw new CodedError('model-failed', `The embedding model in "${this.dir}" returned vectors of an unexpected size.`);
      }
      for (let i = 0; i < batch.length; i++) {
        vectors.push(data.slice(i * this.dimension, (i + 1) * this.dimension));
      }
      onProgress?.(textsDone(plan, vectors.length), texts.length);
    }
    return joinWindows(plan, vectors, texts.length);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.queue;
    await this.extractor.dispose();
  }
}
