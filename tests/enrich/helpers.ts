import type { Chunk } from '../../src-main/core/chunk';
import type { NormalizedDocument } from '../../src-main/core/document';
import type { ChatMessage, GenerateOptions, GenerateResult, JsonResult, Llm } from '../../src-main/models/types';

/**
 * Splits a normalized document at every heading block: the smallest structure-aware chunking,
 * for logic tests that need to know exactly where chunks start. Chunks tile `doc.text`.
 */
export function chunkAtHeadings(doc: NormalizedDocument): Chunk[] {
  const starts = [0, ...doc.blocks.filter((b) => b.kind === 'heading' && b.start > 0).map((b) => b.start)];
  return starts.map((start, i) => {
    const end = starts[i + 1] ?? doc.text.length;
    const first = doc.blocks.find((b) => b.start >= start && b.start < end);
    return {
      docId: doc.id,
      ordinal: i,
      text: doc.text.slice(start, end),
      start,
      end,
      headingPath: first ? [...first.headingPath] : [],
      pageStart: null,
      pageEnd: null,
      strategy: 'structure',
    };
  });
}

/** One recorded call of the scripted model. */
export interface ScriptedCall {
  messages: ChatMessage[];
  schema: object;
  options: GenerateOptions;
}

/** What the script returns for a call: a value (sent as JSON), raw text, or an Error to throw. */
export type ScriptReply = unknown;

/**
 * A scripted Llm for logic tests: `reply` decides each JSON answer from the prompt and schema;
 * tokens are counted as characters / 4 (rounded up), prompt = all message contents.
 */
export class ScriptedLlm implements Llm {
  readonly id = 'scripted';
  readonly contextSize = 8192;
  readonly calls: ScriptedCall[] = [];

  constructor(private readonly reply: (call: ScriptedCall, index: number) => ScriptReply) {}

  countTokens(text: string): number {
    return Math.ceil(text.length / 4);
  }

  async chat(messages: ChatMessage[], options: GenerateOptions): Promise<GenerateResult> {
    const r = await this.chatJson(messages, {}, options);
    return { text: r.text, promptTokens: r.promptTokens, outputTokens: r.outputTokens, stopped: r.stopped };
  }

  async chatJson(messages: ChatMessage[], schema: object, options: GenerateOptions): Promise<JsonResult> {
    const call = { messages, schema, options };
    this.calls.push(call);
    const out = this.reply(call, this.calls.length - 1);
    if (out instanceof Error) throw out;
    const text = typeof out === 'string' ? out : JSON.stringify(out);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    const promptTokens = this.countTokens(messages.map((m) => m.content).join('\n'));
    return { text, value, promptTokens, outputTokens: this.countTokens(text), stopped: false };
  }

  async dispose(): Promise<void> {}

  /** The user message of a recorded call. */
  static user(call: ScriptedCall): string {
    return call.messages.find((m) => m.role === 'user')?.content ?? '';
  }
}
