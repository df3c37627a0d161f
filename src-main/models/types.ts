/**
 * The small interfaces the engine depends on instead of the native runtimes (STYLE.md). Only
 * src-main/models implements them with node-llama-cpp / transformers.js; tests may script them.
 */

export type ModelKind = 'llm' | 'embedder';
export type ModelFormat = 'gguf' | 'onnx';

/** A model file or folder found on disk. */
export interface ModelInfo {
  /** Stable id: file name for GGUF, folder name for ONNX. */
  id: string;
  format: ModelFormat;
  /** Absolute path to the .gguf file or the ONNX model folder. */
  path: string;
  sizeBytes: number;
  /** Where it was found. */
  source: 'bundled' | 'data';
  /** Best guess of its role from metadata/name; GGUF may be both (chat and embedding). */
  kinds: ModelKind[];
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface GenerateOptions {
  /** Upper bound on generated tokens. */
  maxTokens: number;
  temperature?: number;
  signal?: AbortSignal;
  /** Receives each decoded text piece as it streams. */
  onToken?: (piece: string) => void;
}

export interface GenerateResult {
  text: string;
  promptTokens: number;
  outputTokens: number;
  /** True when generation ended because the signal aborted. */
  stopped: boolean;
}

export interface JsonResult extends GenerateResult {
  /** Parsed JSON, or undefined when the text did not parse (callers validate the shape). */
  value: unknown;
}

/** A local chat/completion model. Token counts use the model's own tokenizer. */
export interface Llm {
  readonly id: string;
  /** Context window in tokens. */
  readonly contextSize: number;
  countTokens(text: string): number;
  chat(messages: ChatMessage[], options: GenerateOptions): Promise<GenerateResult>;
  /** Chat constrained by a JSON schema grammar; keep schemas bounded (ENVIRONMENT.md pitfalls). */
  chatJson(messages: ChatMessage[], schema: object, options: GenerateOptions): Promise<JsonResult>;
  dispose(): Promise<void>;
}

/** A text embedder; vectors are L2-normalized, all of length `dimension`. */
export interface Embedder {
  readonly id: string;
  readonly dimension: number;
  embed(texts: string[], options?: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void }): Promise<Float32Array[]>;
  dispose(): Promise<void>;
}

/** Where the engine gets embedders from (the model runtime), loaded lazily and shared. */
export interface EmbedderSource {
  embedder(id: string): Promise<Embedder>;
}
