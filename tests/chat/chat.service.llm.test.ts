import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTurn, EngineEvent } from '../../src-main/contract/api';
import { chatIndexOf, createChatService, type ChatService } from '../../src-main/chat/chat.service';
import { EXTRACTED_LABEL, withoutExtractedLabel } from '../../src-main/core/extracted-label';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { loadLlm } from '../../src-main/models/llm.runtime';
import type { Llm } from '../../src-main/models/types';
import type { LibraryIndex } from '../../src-main/index/library-index';
import { CodedError } from '../../src-main/core/result';
import { ensureTinyGguf } from '../models/tiny-gguf';
import { writeFile } from 'node:fs/promises';
import { column, wrapText, writePdf } from '../fixtures/pdf-writer';
import { tempDir } from '../helpers/temp';
import { importP200, recordingLlm, unwrap, type LlmCall } from './fixtures';

/**
 * The real generation path end to end: a generated four-page PDF imported by the engine (key
 * restructuring on, so pages 2-4 form one merged unit), the tiny GGUF on node-llama-cpp, and the
 * chat service streaming events, stopping, fitting the context and citing stored chunks.
 */

let engine: Engine;
let cleanup: () => Promise<void>;
let index: LibraryIndex;
let libraryDir: string;
let tiny: Llm;

beforeAll(async () => {
  const tmp = await tempDir('manualmate-chat-llm-');
  cleanup = tmp.cleanup;
  engine = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none') });
  index = await importP200(engine, tmp.dir);
  libraryDir = (await engine.libraries.get('Shop'))!.dir;
  // The model's full 4096-token context: room for the merged unit of pages 2-4 (~1900 tokens).
  tiny = await loadLlm(await ensureTinyGguf(), { threads: 1 });
});
afterAll(async () => {
  await tiny?.dispose();
  await engine?.dispose();
  await cleanup?.();
});

interface Harness {
  chat: ChatService;
  events: EngineEvent[];
  calls: LlmCall[];
}

function harness(options: { llm?: Llm | null; answerTokens?: number; onEvent?: (e: EngineEvent, chat: ChatService) => void } = {}): Harness {
  const events: EngineEvent[] = [];
  const recorded = options.llm ? recordingLlm(options.llm) : null;
  const chat: ChatService = createChatService({
    libraryDir,
    libraryName: 'Shop',
    index: chatIndexOf(index),
    getLlm: async () => recorded?.llm ?? null,
    emit: (e) => {
      events.push(e);
      options.onEvent?.(e, chat);
    },
    ...(options.answerTokens !== undefined ? { answerTokens: options.answerTokens } : {}),
  });
  return { chat, events, calls: recorded?.calls ?? [] };
}

/** Every citation names a stored chunk that holds its quote, with pages, at the offsets of the document's text. */
async function expectCitationsResolve(turn: ChatTurn): Promise<void> {
  expect(turn.citations && turn.citations.length).toBeGreaterThan(0);
  const source = unwrap(await engine.handlers['documents.source']({ library: 'Shop', id: 'p200.pdf' }));
  for (const c of turn.citations!) {
    const record = (await index.listChunks(c.doc)).find((r) => r.id === c.chunkId);
    expect(record, `citation [${c.n}] names a stored chunk`).toBeDefined();
    expect(record!.text).toContain(c.quote);
    expect(c.pages.length).toBeGreaterThan(0);
    for (const p of c.pages) {
      expect(p).toBeGreaterThanOrEqual(record!.pageStart!);
      expect(p).toBeLessThanOrEqual(record!.pageEnd!);
    }
    if (record!.members.length > 1 && c.quote === record!.text) {
      // A whole merged unit: its text joins the members, its offsets span them.
      expect([c.start, c.end]).toEqual([record!.start, record!.end]);
    } else expect(source.text.slice(c.start, c.end)).toBe(c.quote);
  }
}

describe('chat with the tiny GGUF (real generation path)', () => {
  it('streams chat.token events in order that add up to the answer, then chat.done with the stored turn', async () => {
    const { chat, events, calls } = harness({ llm: tiny, answerTokens: 48 });
    const conv = unwrap(await chat.create());
    const turn = unwrap(await chat.ask(conv.id, 'What fuse does the P-200 pump take?'));

    expect(turn.mode).toBe('generated');
    expect(turn.resolvedModels).toEqual(['P-200']);
    expect(calls).toHaveLength(1);
    const tokens = events.filter((e): e is Extract<EngineEvent, { type: 'chat.token' }> => e.type === 'chat.token');
    expect(tokens.length).toBeGreaterThan(1);
    expect(events.at(-1)!.type).toBe('chat.done');
    expect(events.slice(0, -1).every((e) => e.type === 'chat.token')).toBe(true);
    for (const t of tokens) expect(t).toMatchObject({ library: 'Shop', conversationId: conv.id, messageId: turn.id });
    expect(tokens.map((t) => t.text).join('')).toBe(turn.text);
    expect(turn.text).toBe(calls[0]!.result.text);
    expect(events.at(-1)).toEqual({ type: 'chat.done', library: 'Shop', conversationId: conv.id, message: turn });

    const stored = unwrap(await chat.get(conv.id));
    expect(stored.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(stored.messages[1]).toEqual(turn);
    expect(stored.title).toBe('What fuse does the P-200 pump take?');
    await expectCitationsResolve(turn);
  });

  it('stops mid-stream on chat.stop and keeps the partial answer', async () => {
    let stopped = false;
    const { chat, events, calls } = harness({
      llm: tiny,
      answerTokens: 200,
      onEvent: (e, c) => {
        if (e.type === 'chat.token' && !stopped) {
          stopped = true;
          void c.stop(e.conversationId);
        }
      },
    });
    const conv = unwrap(await chat.create());
    const turn = unwrap(await chat.ask(conv.id, 'How often is the seal kit replaced on the P-200?'));
    expect(turn.stopped).toBe(true);
    expect(calls[0]!.result.stopped).toBe(true);
    expect(calls[0]!.result.outputTokens).toBeLessThan(200);
    const text = events.filter((e) => e.type === 'chat.token').map((e) => (e as { text: string }).text).join('');
    expect(text).toBe(turn.text);
    expect(unwrap(await chat.get(conv.id)).messages[1]).toMatchObject({ stopped: true, text: turn.text });
    expect(unwrap(await chat.stop(conv.id))).toEqual({ stopped: false });
  });

  it('stores nothing and reports cancelled when stopped before the model writes a word', async () => {
    const events: EngineEvent[] = [];
    let convId = '';
    // The stop lands after the passages are read, as the model is handed the question.
    const chat: ChatService = createChatService({
      libraryDir,
      libraryName: 'Shop',
      index: chatIndexOf(index),
      getLlm: async () => {
        await chat.stop(convId);
        return tiny;
      },
      emit: (e) => events.push(e),
      answerTokens: 200,
    });
    const conv = unwrap(await chat.create());
    convId = conv.id;
    const result = await chat.ask(conv.id, 'How often is the seal kit replaced on the P-200?');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('cancelled');
    expect(unwrap(await chat.get(conv.id)).messages).toEqual([]);
    expect(events.some((e) => e.type === 'chat.done')).toBe(false);
  });

  it('takes a stop sent right after the question, before the conversation is read', async () => {
    const { chat, events } = harness({ llm: null });
    const conv = unwrap(await chat.create());
    const asked = chat.ask(conv.id, 'What fuse does the P-200 pump take?');
    expect(unwrap(await chat.stop(conv.id))).toEqual({ stopped: true });
    const result = await asked;
    expect(!result.ok && result.error.code).toBe('cancelled');
    expect(unwrap(await chat.get(conv.id)).messages).toEqual([]);
    expect(events).toEqual([]);
  });

  it('stops when the caller’s AbortSignal aborts', async () => {
    const controller = new AbortController();
    const { chat, calls } = harness({ llm: tiny, answerTokens: 200, onEvent: (e) => e.type === 'chat.token' && controller.abort() });
    const conv = unwrap(await chat.create());
    const turn = unwrap(await chat.ask(conv.id, 'What does the P-200 motor run on?', { signal: controller.signal }));
    expect(turn.stopped).toBe(true);
    expect(calls[0]!.result.outputTokens).toBeLessThan(200);
  });

  it('refuses a second question in the same conversation while one is being answered', async () => {
    let second: Promise<unknown> | null = null;
    const { chat } = harness({
      llm: tiny,
      answerTokens: 200,
      onEvent: (e, c) => {
        if (e.type === 'chat.token' && !second) {
          second = c.ask(e.conversationId, 'And the fuse?');
          void c.stop(e.conversationId);
        }
      },
    });
    const conv = unwrap(await chat.create());
    unwrap(await chat.ask(conv.id, 'What does the P-200 motor run on?'));
    const refused = (await second!) as { ok: boolean; error?: { code: string } };
    expect(refused.ok).toBe(false);
    expect(refused.error!.code).toBe('unavailable');
    expect(unwrap(await chat.get(conv.id)).messages).toHaveLength(2);
  });

  it('never exceeds the context: prompt tokens plus answer room stay within contextSize over a growing conversation', async () => {
    const { chat, calls } = harness({ llm: tiny, answerTokens: 256 });
    const conv = unwrap(await chat.create());
    for (const q of ['What fuse does the P-200 take?', 'How often is the seal kit replaced?', 'How often is the inlet strainer cleaned?', 'What power does the motor need?']) {
      const turn = unwrap(await chat.ask(conv.id, q));
      expect(turn.mode).toBe('generated');
      await expectCitationsResolve(turn);
    }
    expect(calls).toHaveLength(4);
    for (const call of calls) {
      const contentTokens = call.messages.reduce((n, m) => n + tiny.countTokens(m.content), 0);
      expect(contentTokens).toBeLessThanOrEqual(tiny.contextSize - call.maxTokens);
      expect(call.result.promptTokens + call.maxTokens).toBeLessThanOrEqual(tiny.contextSize);
    }
    // Later questions carry earlier turns as history.
    expect(calls.at(-1)!.messages.length).toBeGreaterThan(2);
  });

  it('gives the model earlier extracted answers without their label, also when a note comes first', () => {
    expect(withoutExtractedLabel(`Kept P-200 from the previous question.\n\n${EXTRACTED_LABEL}\n\n- Use a 10 A fuse. [1]`)).toBe('Kept P-200 from the previous question.\n\n- Use a 10 A fuse. [1]');
    expect(withoutExtractedLabel(`${EXTRACTED_LABEL}\n\n- Use a 10 A fuse. [1]`)).toBe('- Use a 10 A fuse. [1]');
    expect(withoutExtractedLabel('A written answer [1]')).toBe('A written answer [1]');
  });

  it('quotes instead of generating when not even the best passage fits the model’s context', async () => {
    const cramped: Llm = { ...recordingLlm(tiny).llm, contextSize: 600 };
    const { chat, calls } = harness({ llm: cramped });
    const conv = unwrap(await chat.create());
    const turn = unwrap(await chat.ask(conv.id, 'What fuse does the P-200 take?'));
    expect(turn.mode).toBe('extracted');
    expect(calls).toHaveLength(0);
    await expectCitationsResolve(turn);
  });

  it('answers "not found" for a model the library has no manual for, without calling the model', async () => {
    const { chat, events, calls } = harness({ llm: tiny, answerTokens: 32 });
    const conv = unwrap(await chat.create());
    const turn = unwrap(await chat.ask(conv.id, 'What fuse does the P-999 take?'));
    expect(turn.mode).toBe('not-found');
    expect(turn.text).toBe('No manual for P-999 in this library; closest: P-200.');
    expect(turn.citations).toEqual([]);
    expect(calls).toHaveLength(0);
    expect(events.map((e) => e.type)).toEqual(['chat.token', 'chat.done']);
  });

  it('fails with model-failed, storing nothing, when the chat model cannot be loaded', async () => {
    const chat = createChatService({
      libraryDir,
      libraryName: 'Shop',
      index: chatIndexOf(index),
      getLlm: async () => {
        throw new CodedError('model-failed', 'Could not load model broken.gguf');
      },
      emit: () => undefined,
    });
    const conv = unwrap(await chat.create());
    const res = await chat.ask(conv.id, 'What fuse does the P-200 take?');
    expect(res.ok).toBe(false);
    expect(!res.ok && res.error).toEqual({ code: 'model-failed', message: 'Could not load model broken.gguf' });
    expect(unwrap(await chat.get(conv.id)).messages).toEqual([]);
  });
});

describe('chat without an LLM on a paged PDF', () => {
  it('stores nothing for a reply written at once (nothing found) when stopped while the passages were read', async () => {
    const events: EngineEvent[] = [];
    const controller = new AbortController();
    const inner = chatIndexOf(index);
    const searched: string[] = [];
    const chat = createChatService({
      libraryDir,
      libraryName: 'Shop',
      // The stop lands while the library is searched, before any reply is written.
      index: Object.assign(Object.create(inner) as typeof inner, {
        search: (query: string, options: Parameters<typeof inner.search>[1]) => {
          searched.push(query);
          controller.abort();
          return inner.search(query, options);
        },
      }),
      getLlm: async () => null,
      emit: (e) => events.push(e),
    });
    const conv = unwrap(await chat.create());
    const question = 'How do I descale the espresso boiler?';
    // Unstopped, the same question is a "found nothing" reply, stored.
    const { chat: unstopped } = harness({ llm: null });
    expect(unwrap(await unstopped.ask(unwrap(await unstopped.create()).id, question)).mode).toBe('not-found');
    const result = await chat.ask(conv.id, question, { signal: controller.signal });
    expect(searched.length).toBeGreaterThan(0);
    expect(!result.ok && result.error.code).toBe('cancelled');
    expect(unwrap(await chat.get(conv.id)).messages).toEqual([]);
    expect(events).toEqual([]);
  });

  it('rejects an empty or overlong question and an unknown conversation as values', async () => {
    const { chat, events } = harness({ llm: null });
    const conv = unwrap(await chat.create());
    const empty = await chat.ask(conv.id, '   ');
    expect(empty.ok || empty.error.code).toBe('invalid-input');
    const long = await chat.ask(conv.id, 'x'.repeat(2001));
    expect(long.ok || long.error.code).toBe('invalid-input');
    const missing = await chat.ask('00000000-0000-4000-8000-000000000000', 'What fuse?');
    expect(missing.ok || missing.error.code).toBe('not-found');
    const exported = await chat.exportMarkdown('../../etc/passwd');
    expect(exported.ok || exported.error.code).toBe('invalid-input');
    expect(events).toEqual([]);
    expect(unwrap(await chat.get(conv.id)).messages).toEqual([]);
  });

  it('cites the member of a merged unit that holds the quoted sentence, with its own page', async () => {
    const { chat } = harness({ llm: null });
    const conv = unwrap(await chat.create());
    const turn = unwrap(await chat.ask(conv.id, 'How often must the inlet strainer be cleaned?'));
    expect(turn.mode).toBe('extracted');
    const first = turn.citations![0]!;
    expect(first.chunkId).toContain('+');
    expect(first.pages).toEqual([4]);
    expect(first.quote).toContain('Clean the P-200 inlet strainer every week.');
    // The sentence is quoted with the rest of its paragraph, under the same citation.
    expect(turn.text).toMatch(/- Clean the P-200 inlet strainer every week\.[^\n]* \[1\]/);
    await expectCitationsResolve(turn);
  });

  it('exports the conversation as Markdown with numbered citations: document, section, pages and quote', async () => {
    const { chat } = harness({ llm: null });
    const conv = unwrap(await chat.create({ title: 'Strainer' }));
    const turn = unwrap(await chat.ask(conv.id, 'How often must the inlet strainer be cleaned?'));
    const { fileName, markdown } = unwrap(await chat.exportMarkdown(conv.id));
    expect(fileName).toBe('strainer.md');
    expect(markdown).toContain('# Strainer');
    expect(markdown).toContain('## Q: How often must the inlet strainer be cleaned?');
    expect(markdown).toContain('Extracted verbatim from the manuals');
    for (const c of turn.citations!) {
      expect(markdown).toContain(`**[${c.n}]** \`p200.pdf\``);
      expect(markdown).toContain(`page ${c.pages[0]}`);
    }
    expect(markdown).toContain('> Clean the P-200 inlet strainer every week.');
  });
});

describe('pages of a quoted line', () => {
  it('cites the page its line is on, not the first page of a chunk that spans two', async () => {
    const tmp = await tempDir('manualmate-chat-pages-');
    const own = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none') });
    try {
      // Two short pages: one chunk holds both.
      const pages = ['The X9 pump takes a 5 A slow-blow fuse on its control board.', 'Lubricate the X9 pump bearings every month with lithium grease.'];
      const file = path.join(tmp.dir, 'x9.pdf');
      await writeFile(file, writePdf(pages.map((text, i) => ({ runs: [...(i === 0 ? [{ x: 72, y: 760, text: 'X9 pump service manual', size: 22, bold: true }] : []), ...column(wrapText(text, 460), 72, 700)] })), { title: 'X9 pump service manual' }));
      unwrap(await own.libraries.create('Pages'));
      unwrap(await own.importPaths('Pages', [file]));
      const lib = (await own.libraries.get('Pages'))!;
      const index = await own.indexes.open(lib);
      const across = (await index.listChunks('x9.pdf')).find((c) => c.text.includes('Lubricate the X9 pump bearings'));
      expect([across?.pageStart, across?.pageEnd]).toEqual([1, 2]);
      const chat = createChatService({ libraryDir: lib.dir, libraryName: 'Pages', index: chatIndexOf(index), getLlm: async () => null, emit: () => undefined });
      const turn = unwrap(await chat.answer('How often must the bearings be lubricated?'));
      const n = (words: string): number => Number(/\[(\d+)\]$/.exec(turn.text.split('\n').find((l) => l.includes(words)) ?? '')?.[1]);
      const cited = turn.citations!.find((c) => c.n === n('Lubricate the X9 pump bearings'));
      expect(cited?.chunkId).toBe(across!.id);
      expect(cited?.pages).toEqual([2]);
      // The passage's other line, on page 1, gets a source of its own that opens there.
      const both = unwrap(await chat.answer('What fuse does the X9 pump take, and how often are the bearings lubricated?'));
      const m = (words: string): number => Number(/\[(\d+)\]$/.exec(both.text.split('\n').find((l) => l.includes(words)) ?? '')?.[1]);
      expect(both.citations!.find((c) => c.n === m('5 A slow-blow'))?.pages).toEqual([1]);
      expect(both.citations!.find((c) => c.n === m('Lubricate the X9'))?.pages).toEqual([2]);
    } finally {
      await own.dispose();
      await tmp.cleanup();
    }
  });
});
