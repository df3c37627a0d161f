import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatIndexOf, createChatService, type ChatService } from '../../src-main/chat/chat.service';
import { EXTRACTED_LABEL } from '../../src-main/chat/extractive.answerer';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { tempDir } from '../helpers/temp';
import { unwrap } from './fixtures';

/**
 * Through the chat service on a real library of sibling models (Foo X1, Foo X1 Plus, Foo X2; the
 * Bar Pico-C3 and Pico-S3 of one family): a question naming a model the library lacks says so and
 * names the library's closest models, in order, and an answer that still comes says which model
 * it is for. A model the library has is answered as before, and so is a family member only a
 * manual's text mentions (a library of its own).
 */

const manual = (name: string, battery: number): string =>
  [
    `# ${name} User Manual`,
    '## Charging',
    `To charge the ${name}, connect it to a USB-C power adapter. The charging light turns green when the ${name} is full.`,
    '## Battery',
    `The ${name} has a ${battery} mAh battery.`,
  ].join('\n\n');

let engine: Engine;
let chat: ChatService;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const tmp = await tempDir('manualmate-nearest-');
  cleanup = tmp.cleanup;
  const docs = path.join(tmp.dir, 'devices');
  await mkdir(docs);
  await writeFile(path.join(docs, 'Foo_X1.md'), manual('Foo X1', 80));
  await writeFile(path.join(docs, 'Foo_X1_Plus.md'), manual('Foo X1 Plus', 120));
  // A pin the manual writes on its own: "Foo X2 G26" asks about that pin, not another model.
  await writeFile(path.join(docs, 'Foo_X2.md'), `${manual('Foo X2', 200)}\n\n## Pins\n\nThe button of the Foo X2 is on G26.`);
  await writeFile(path.join(docs, 'Bar_Pico-C3.md'), manual('Bar Pico-C3', 50));
  await writeFile(path.join(docs, 'Bar_Pico-S3.md'), manual('Bar Pico-S3', 60));
  engine = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none') });
  expect(unwrap(await engine.importPaths('devices', [docs])).summary.imported).toBe(5);
  const lib = (await engine.libraries.get('devices'))!;
  const index = await engine.indexes.open(lib);
  chat = createChatService({ libraryDir: lib.dir, libraryName: 'devices', index: chatIndexOf(index), getLlm: async () => null, emit: () => undefined });
}, 60_000);

afterAll(async () => {
  await engine?.dispose();
  await cleanup?.();
});

describe('a model the library does not hold', () => {
  it('names the absent model and the closest ones in order, and answers for the first of them', async () => {
    // "Plus2" is one word: the mention reads the shorter Foo X1, yet the Foo X1+ is the model the
    // name extends and the closest.
    for (const [q, name] of [
      ['What battery does the Foo X1 Plus2 have?', 'Foo X1 Plus2'],
      ['What battery is in the Foo X1 Plus 2?', 'Foo X1 Plus 2'],
    ] as const) {
      const turn = unwrap(await chat.answer(q));
      expect(turn.text.startsWith(`No manual for ${name} in this library (closest: Foo X1+, Foo X1, Foo X2); answering for Foo X1+.\n\n${EXTRACTED_LABEL}`), turn.text).toBe(true);
      expect(turn.text).toContain('For Foo X1+:');
      expect(turn.text).toContain('120 mAh');
      expect(turn.text).not.toContain('80 mAh');
      expect(turn.resolvedModels).toEqual(['Foo X1+']);
    }
  });

  it('answers "not found" for a sibling code, naming only the closest models of its own line', async () => {
    const x9 = unwrap(await chat.answer('How do I charge the Foo X9?'));
    expect(x9.mode).toBe('not-found');
    expect(x9.text).toBe('No manual for Foo X9 in this library; closest: Foo X2, Foo X1, Foo X1+.');
    // The family name "Bar Pico" reads both Picos; the whole name is neither.
    const c9 = unwrap(await chat.answer('How do I charge the Bar Pico-C9?'));
    expect(c9.mode).toBe('not-found');
    expect(c9.citations).toEqual([]);
    expect(c9.text).toBe('No manual for Bar Pico-C9 in this library; closest: Bar Pico-C3, Bar Pico-S3.');
  });

  it('names the closest models of each absent model after its own name', async () => {
    const turn = unwrap(await chat.answer('How do I charge the Foo X9 or the Bar Pico-C9?'));
    expect(turn.mode).toBe('not-found');
    expect(turn.text).toBe('No manual for Foo X9 (closest: Foo X2, Foo X1, Foo X1+) and Bar Pico-C9 (closest: Bar Pico-C3, Bar Pico-S3) in this library.');
    // Names with the same closest models share one list.
    const same = unwrap(await chat.answer('How do I charge the Foo X8 or the Foo X9?'));
    expect(same.text).toBe('No manual for Foo X8 and Foo X9 in this library; closest: Foo X2, Foo X1, Foo X1+.');
  });

  it('answers a pin, port or part written after a documented model for that model, with no note', async () => {
    // Pins look like the codes that end the library's names (X1, X2, C3): "IO5" is written
    // "GPIO5" in no manual here, and must not read as a model the library lacks.
    for (const q of ['What is on the Foo X2 G26?', 'What is on the Foo X2 IO5 pin?', 'How do I charge the Foo X2 battery?']) {
      const turn = unwrap(await chat.answer(q));
      expect(turn.text.startsWith(EXTRACTED_LABEL), `${q}: ${turn.text}`).toBe(true);
      expect(turn.resolvedModels).toEqual(['Foo X2']);
    }
  });

  it('answers a model the library has as before, with no note', async () => {
    for (const [q, model, battery] of [
      ['What battery does the Foo X1 Plus have?', 'Foo X1+', '120 mAh'],
      ['What battery does the Foo X1 have?', 'Foo X1', '80 mAh'],
      ['What battery does the Bar Pico-C3 have?', 'Bar Pico-C3', '50 mAh'],
    ] as const) {
      const turn = unwrap(await chat.answer(q));
      expect(turn.text.startsWith(EXTRACTED_LABEL), turn.text).toBe(true);
      expect(turn.text).toContain(battery);
      expect(turn.resolvedModels).toEqual([model]);
    }
  });
});

describe('a family member only a manual mentions', () => {
  let engine2: Engine;
  let family: ChatService;
  let cleanup2: () => Promise<void>;

  beforeAll(async () => {
    const tmp = await tempDir('manualmate-family-');
    cleanup2 = tmp.cleanup;
    const docs = path.join(tmp.dir, 'boards');
    await mkdir(docs);
    await writeFile(path.join(docs, 'Foo_X2.md'), manual('Foo X2', 200));
    await writeFile(path.join(docs, 'Qux_ESP32-C3.md'), `${manual('Qux ESP32-C3', 50)}\n\n## Compatibility\n\nThe Qux ESP32-C9 is not supported.`);
    await writeFile(path.join(docs, 'Qux_ESP32-S3.md'), manual('Qux ESP32-S3', 60));
    engine2 = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none') });
    expect(unwrap(await engine2.importPaths('boards', [docs])).summary.imported).toBe(3);
    const lib = (await engine2.libraries.get('boards'))!;
    const index = await engine2.indexes.open(lib);
    family = createChatService({ libraryDir: lib.dir, libraryName: 'boards', index: chatIndexOf(index), getLlm: async () => null, emit: () => undefined });
  }, 60_000);

  afterAll(async () => {
    await engine2?.dispose();
    await cleanup2?.();
  });

  it('is answered for the members its family name reads, never for the previous model', async () => {
    // "Qux ESP32-C9" reads both Qux boards inside a name the library has no manual for, but the
    // C3's manual mentions it: it is asked about inside the family's manuals, as if they were named.
    const x2 = unwrap(await family.answer('What battery does the Foo X2 have?'));
    expect(x2.resolvedModels).toEqual(['Foo X2']);
    for (const history of [[], [x2]]) {
      const turn = unwrap(await family.answer('How do I charge the Qux ESP32-C9?', { history }));
      expect(turn.text.startsWith(EXTRACTED_LABEL), turn.text).toBe(true);
      expect(turn.text).not.toContain('Foo X2');
      expect(turn.text).toContain('To charge the Qux ESP32-C3');
      expect(turn.resolvedModels).toEqual(['Qux ESP32-C3', 'Qux ESP32-S3']);
    }
  });
});
