import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Engine } from '../../src-main/engine/engine';
import type { LibraryIndex } from '../../src-main/index/library-index';
import type { Passage } from '../../src-main/chat/passages';
import type { ChatMessage, GenerateResult, Llm } from '../../src-main/models/types';
import { column, wrapText, writePdf } from '../fixtures/pdf-writer';

/** What each page of the P-200 manual is about; page n holds TOPICS[n - 1]. */
export const P200_TOPICS = [
  'The P-200 pump takes a 10 A slow-blow fuse on the control board. Check the fuse holder for corrosion before replacing the fuse.',
  'Replace the seal kit SK-45 on the P-200 pump every 2000 operating hours. Drain the pump housing before opening the seal cover.',
  'The P-200 motor runs on 400 V three-phase power at 50 Hz. Never connect the motor to a single-phase supply.',
  'Clean the P-200 inlet strainer every week. A clogged strainer causes cavitation noise and lowers the flow rate.',
] as const;

const filler = (n: number): string =>
  ` Routine inspection note ${n}: record the operating pressure, the bearing temperature and the vibration level in the maintenance log, and compare them with the values of the previous inspection.`.repeat(4);

/**
 * A four-page PDF service manual: a title and a "Maintenance" section on page 1, then pages 2-4
 * each opening a "Service intervals" section: each page is a chunk of its own (a heading closes a
 * chunk), and with key restructuring pages 2-4, sharing one key, become one merged unit of three
 * members.
 */
export function p200Pdf(): Uint8Array {
  return writePdf(
    P200_TOPICS.map((topic, i) => ({
      runs: [
        ...(i === 0
          ? [
              { x: 72, y: 760, text: 'P-200 pump service manual', size: 22, bold: true },
              { x: 72, y: 730, text: 'Maintenance', size: 15, bold: true },
            ]
          : // Below the top 8% of the page, where a line repeated on most pages is a running header.
            [{ x: 72, y: 700, text: 'Service intervals', size: 15, bold: true }]),
        ...column(wrapText(topic + filler(i + 1), 460), 72, i === 0 ? 700 : 670),
      ],
    })),
    { title: 'P-200 pump service manual' },
  );
}

/** Imports the P-200 PDF into library `name` with key restructuring on; returns its index. */
export async function importP200(engine: Engine, dir: string, name = 'Shop'): Promise<LibraryIndex> {
  const file = path.join(dir, 'p200.pdf');
  await writeFile(file, p200Pdf());
  const made = await engine.libraries.create(name);
  if (!made.ok) throw new Error(made.error.message);
  await made.value.saveConfig({ restructure: true });
  const imported = await engine.importPaths(name, [file]);
  if (!imported.ok || imported.value.summary.imported !== 1) throw new Error('P-200 import failed');
  return engine.indexes.open(made.value);
}

export interface LlmCall {
  messages: ChatMessage[];
  maxTokens: number;
  result: GenerateResult;
}

/** Wraps a real Llm and records every chat call (messages, maxTokens, the runtime's result). */
export function recordingLlm(llm: Llm): { llm: Llm; calls: LlmCall[] } {
  const calls: LlmCall[] = [];
  return {
    calls,
    llm: {
      id: llm.id,
      get contextSize() {
        return llm.contextSize;
      },
      countTokens: (text) => llm.countTokens(text),
      async chat(messages, options) {
        const result = await llm.chat(messages, options);
        calls.push({ messages, maxTokens: options.maxTokens, result });
        return result;
      },
      chatJson: (messages, schema, options) => llm.chatJson(messages, schema, options),
      dispose: () => llm.dispose(),
    },
  };
}

export function unwrap<T>(r: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

/** A retrieved passage of one chunk (no merged members) on page 1 of a manual, of `model` (none by default). */
export function passage(id: string, text: string, model: string | null = null): Passage {
  return {
    hit: { chunkId: id, doc: id.split('#')[0]!, title: 'Manual', text, score: 1, pages: [1], headingPath: [], start: 0, end: text.length, signature: { category: null, nouns: [], model }, snippet: '' },
    members: [],
  };
}

/** An answer's quoted lines (its "- " bullets), in order. */
export const quotedLines = (a: { text: string }): string[] => a.text.split('\n').filter((l) => l.startsWith('- '));

/** An answer's quoted lines with the items a lead brings (indented "  - " bullets), in order. */
export const quotedLinesWithItems = (a: { text: string }): string[] => a.text.split('\n').filter((l) => /^\s*- /.test(l));

/** A small phone manual, a Charging and a Battery section, as the model-name chat tests import them. */
export const phoneManual = (name: string, battery: number, extra = ''): string =>
  [
    `# ${name} User Manual`,
    '## Charging',
    `To charge the ${name}, connect it to a USB-C power adapter. ${extra}`,
    '## Battery',
    `The ${name} has a ${battery} mAh battery.`,
  ].join('\n\n');
