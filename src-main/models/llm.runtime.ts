/**
 * The `Llm` interface on node-llama-cpp: a local GGUF chat model on the CPU, with streaming,
 * cancellation and JSON-schema-constrained output. Nothing else in the engine imports
 * node-llama-cpp (eslint boundary), so a scripted fake can stand in for it in logic tests.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { getLlama, LlamaChat } from 'node-llama-cpp';
import type { ChatHistoryItem, GbnfJsonSchema, Llama, LlamaContext, LlamaContextSequence, LlamaGrammar, LlamaModel } from 'node-llama-cpp';
import { CodedError } from '../core/result';
import type { ChatMessage, GenerateOptions, GenerateResult, JsonResult, Llm } from './types';

/** Options shared by the GGUF loaders. */
export interface LlamaLoadOptions {
  /** CPU threads per evaluation; capped at the machine's math cores (default: that cap). */
  threads?: number;
  /** Context window in tokens (default: the model's training context, at most 8192). */
  contextSize?: number;
  /** Only the CPU backend is used: no GPU build ships with the app. */
  gpu?: false;
}

let llamaPromise: Promise<Llama> | undefined;

/**
 * The process-wide llama.cpp binding, created on first use and shared by every loaded model.
 * CPU only, and `build: 'never'`: compiling llama.cpp on a user's machine is never an option.
 */
export function getSharedLlama(): Promise<Llama> {
  llamaPromise ??= getLlama({ gpu: false, build: 'never' }).catch((err: unknown) => {
    llamaPromise = undefined;
    throw new CodedError('model-failed', `The local model runtime could not start: ${errorMessage(err)}`);
  });
  return llamaPromise;
}

/**
 * Threads for one context: at most `llama.cpuMathCores`, at least 1. More threads than math cores
 * makes llama.cpp threads spin against each other (~1000x slower on 2 cores, ENVIRONMENT.md).
 */
export function resolveThreads(llama: Llama, requested?: number): number {
  const cap = Math.max(1, llama.cpuMathCores);
  return Math.max(1, Math.min(requested ?? cap, cap));
}

/** Loads a GGUF model file; throws CodedError `model-missing` / `model-failed`. */
export async function loadGgufModel(modelPath: string): Promise<{ llama: Llama; model: LlamaModel }> {
  try {
    await access(modelPath);
  } catch {
    throw new CodedError('model-missing', `Model file not found: ${path.basename(modelPath)}`);
  }
  const llama = await getSharedLlama();
  try {
    const model = await llama.loadModel({ modelPath, gpuLayers: 0 });
    return { llama, model };
  } catch (err) {
    throw new CodedError('model-failed', `Could not load model ${path.basename(modelPath)}: ${errorMessage(err)}`);
  }
}

/**
 * Loads a GGUF chat model. Calls are serialized on one context sequence and each starts from a
 * fresh chat history; throws CodedError `model-missing` / `model-failed`.
 */
export async function loadLlm(modelPath: string, opts: LlamaLoadOptions = {}): Promise<Llm> {
  const { llama, model } = await loadGgufModel(modelPath);
  try {
    const contextSize = Math.min(opts.contextSize ?? 8192, model.trainContextSize);
    const context = await model.createContext({ contextSize, threads: resolveThreads(llama, opts.threads), sequences: 1 });
    return new LlamaCppLlm(path.basename(modelPath), llama, model, context);
  } catch (err) {
    await model.dispose();
    throw new CodedError('model-failed', `Could not create a context for ${path.basename(modelPath)}: ${errorMessage(err)}`);
  }
}

class LlamaCppLlm implements Llm {
  private readonly sequence: LlamaContextSequence;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly grammars = new Map<string, Promise<LlamaGrammar>>();

  constructor(
    readonly id: string,
    private readonly llama: Llama,
    private readonly model: LlamaModel,
    private readonly context: LlamaContext,
  ) {
    this.sequence = context.getSequence();
  }

  get contextSize(): number {
    return this.context.contextSize;
  }

  countTokens(text: string): number {
    return this.model.tokenize(text).length;
  }

  chat(messages: ChatMessage[], options: GenerateOptions): Promise<GenerateResult> {
    return this.serialized(() => this.generate(messages, options, undefined));
  }

  async chatJson(messages: ChatMessage[], schema: object, options: GenerateOptions): Promise<JsonResult> {
    const grammar = await this.grammarFor(schema);
    const result = await this.serialized(() => this.generate(messages, options, grammar));
    return { ...result, value: parseJson(result.text) };
  }

  async dispose(): Promise<void> {
    await this.queue.catch(() => undefined);
    await this.context.dispose();
    await this.model.dispose();
  }

  private serialized<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private grammarFor(schema: object): Promise<LlamaGrammar> {
    const key = JSON.stringify(schema);
    let grammar = this.grammars.get(key);
    if (!grammar) {
      grammar = this.llama.createGrammarForJsonSchema<GbnfJsonSchema>(schema as GbnfJsonSchema);
      grammar.catch(() => this.grammars.delete(key));
      // A few fixed schemas are used per process; the bound only guards against callers that
      // build schemas dynamically.
      if (this.grammars.size >= 32) this.grammars.clear();
      this.grammars.set(key, grammar);
    }
    return grammar;
  }

  private async generate(messages: ChatMessage[], options: GenerateOptions, grammar: LlamaGrammar | undefined): Promise<GenerateResult> {
    const { signal, onToken } = options;
    let streamed = '';
    let outputTokens = 0;
    let promptTokens = 0;
    const stopped = (): GenerateResult => ({ text: streamed, promptTokens, outputTokens, stopped: true });
    if (signal?.aborted) return stopped();

    // A new LlamaChat and history per call keeps calls stateless; the sequence's KV cache keeps
    // whatever prefix matches the new prompt (a shared system prompt), which LlamaChat reuses.
    const chat = new LlamaChat({ contextSequence: this.sequence });
    try {
      const history = toChatHistory(messages);
      promptTokens = chat.chatWrapper.generateContextState({ chatHistory: history }).contextText.tokenize(this.model.tokenizer).length;
      const response = await chat.generateResponse(history, {
        maxTokens: options.maxTokens,
        temperature: options.temperature,
        signal,
        stopOnAbortSignal: true,
        grammar,
        onToken: (tokens) => {
          outputTokens += tokens.length;
        },
        onTextChunk: (piece) => {
          if (piece === '') return;
          streamed += piece;
          onToken?.(piece);
        },
      });
      // Text held back while it might have begun a stop trigger can be released only in the final
      // response; stream it so the pieces always add up to the returned text.
      // (Not when continuing an assistant message: then the response also holds that prefix.)
      const continuing = messages.at(-1)?.role === 'assistant';
      if (!continuing && response.response.startsWith(streamed) && response.response.length > streamed.length) {
        const rest = response.response.slice(streamed.length);
        streamed = response.response;
        onToken?.(rest);
      }
      return { text: streamed, promptTokens, outputTokens, stopped: response.metadata.stopReason === 'abort' };
    } catch (err) {
      if (signal?.aborted) return stopped();
      throw err;
    } finally {
      chat.dispose({ disposeSequence: false });
    }
  }
}

function toChatHistory(messages: ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = messages.map((m): ChatHistoryItem => {
    if (m.role === 'system') return { type: 'system', text: m.content };
    if (m.role === 'user') return { type: 'user', text: m.content };
    return { type: 'model', response: [m.content] };
  });
  // A trailing assistant message is a reply prefix to continue; otherwise open an empty reply.
  if (history.at(-1)?.type !== 'model') history.push({ type: 'model', response: [] });
  return history;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
