import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src-main/contract/api';
import { checkEngineEvent } from '../../src-main/contract/events';
import { chatIndexOf, createChatService, type ChatService } from '../../src-main/chat/chat.service';
import { EXTRACTED_LABEL } from '../../src-main/chat/extractive.answerer';
import { MAX_CANDIDATES, pickedCandidate } from '../../src-main/chat/undocumented-models';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { loadLlm } from '../../src-main/models/llm.runtime';
import type { Llm } from '../../src-main/models/types';
import { ensureTinyGguf } from '../models/tiny-gguf';
import { tempDir } from '../helpers/temp';
import { phoneManual as manual, recordingLlm, unwrap } from './fixtures';

/**
 * Through the chat service on a real library where manuals mention a model with no manual of its
 * own whose name begins several documented models' names (the Bar Z5 beside the Bar Z5 Mini 5G's
 * and the Bar Z5 Max 5G's manuals, as the Galaxy manuals mention the Galaxy S20 beside the S20+
 * 5G's and the S20 Ultra 5G's): the reply asks which model, names the candidates as a typed
 * `clarify`, quotes and cites nothing, and asks no LLM; naming one of them next answers from its
 * manual. A name that begins one documented model, or that a stored section is about, is
 * answered as before.
 */

/** A manual of an older model, one section: no document is about the Qux R3, its section is. */
const legacy = [
  '# Legacy Devices Guide',
  '## Qux R3',
  'To charge the Qux R3, connect it to a USB-C power adapter. The Qux R3 has a 150 mAh battery.',
].join('\n\n');

/** More documented models than a question back names, all beginning "Wid K1". */
const WIDE = ['Mini', 'Max', 'Lite', 'Pro', 'Ultra', 'Neo'];

let engine: Engine;
let chat: ChatService;
let tiny: Llm;
let libraryDir: string;
let chatIndex: ReturnType<typeof chatIndexOf>;
const events: EngineEvent[] = [];
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const tmp = await tempDir('manualmate-ambiguous-');
  cleanup = tmp.cleanup;
  const docs = path.join(tmp.dir, 'devices');
  await mkdir(docs);
  await writeFile(path.join(docs, 'Foo_X1.md'), manual('Foo X1', 80, 'The Bar Z5 charger also charges the Foo X1.'));
  // A guide about no model: what a search for a model no manual is about quotes when not asked back.
  await writeFile(path.join(docs, 'Battery_Care.md'), '# Battery Care Guide\n\n## Battery\n\nStore the battery at room temperature and charge the battery every three months.');
  await writeFile(path.join(docs, 'Bar_Z5_Mini_5G.md'), manual('Bar Z5 Mini 5G', 40, 'The Bar Z5 Mini 5G is smaller than the Bar Z5.'));
  await writeFile(path.join(docs, 'Bar_Z5_Max_5G.md'), manual('Bar Z5 Max 5G', 90, 'The Bar Z5 Max 5G is larger than the Bar Z5.'));
  // One documented model begins "Foo X2": answered for it, as before.
  await writeFile(path.join(docs, 'Foo_X2_Pro_5G.md'), manual('Foo X2 Pro 5G', 300, 'Unlike the Foo X2, the Foo X2 Pro 5G charges wirelessly.'));
  // The Qux R3 has a section of its own in the legacy guide, though two manuals' names begin with it.
  await writeFile(path.join(docs, 'Legacy.md'), legacy);
  await writeFile(path.join(docs, 'Qux_R3_Mini_5G.md'), manual('Qux R3 Mini 5G', 350, 'The Qux R3 Mini 5G replaces the Qux R3.'));
  await writeFile(path.join(docs, 'Qux_R3_Max_5G.md'), manual('Qux R3 Max 5G', 450, 'The Qux R3 Max 5G replaces the Qux R3.'));
  for (const [i, w] of WIDE.entries()) await writeFile(path.join(docs, `Wid_K1_${w}_5G.md`), manual(`Wid K1 ${w} 5G`, 500 + i, `The Wid K1 ${w} 5G follows the Wid K1.`));
  engine = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none') });
  expect(unwrap(await engine.importPaths('devices', [docs])).summary.imported).toBe(8 + WIDE.length);
  const lib = (await engine.libraries.get('devices'))!;
  libraryDir = lib.dir;
  chatIndex = chatIndexOf(await engine.indexes.open(lib));
  chat = createChatService({ libraryDir, libraryName: 'devices', index: chatIndex, getLlm: async () => null, emit: (e) => events.push(e) });
  tiny = await loadLlm(await ensureTinyGguf(), { threads: 1 });
}, 180_000);

afterAll(async () => {
  await tiny?.dispose();
  await engine?.dispose();
  await cleanup?.();
});

describe('a model whose name begins several documented models', () => {
  it('is asked back, naming the candidates, with nothing quoted or cited', async () => {
    const turn = unwrap(await chat.answer('What battery does the Bar Z5 have?'));
    expect(turn.text).toBe('This library has no manual for Bar Z5. Which model: Bar Z5 Max 5G or Bar Z5 Mini 5G?');
    expect(turn.mode).toBe('not-found');
    expect(turn.clarify).toEqual([{ name: 'Bar Z5', models: ['Bar Z5 Max 5G', 'Bar Z5 Mini 5G'] }]);
    expect(turn.citations).toEqual([]);
    expect(turn.resolvedModels).toEqual([]);
  });

  it('answers from the candidate the next question names, in a stored conversation', async () => {
    const conv = unwrap(await chat.create());
    const asked = unwrap(await chat.ask(conv.id, 'What battery does the Bar Z5 have?'));
    expect(asked.clarify?.[0]?.models).toEqual(['Bar Z5 Max 5G', 'Bar Z5 Mini 5G']);
    // The question back is a valid chat.done event and is stored with its candidates.
    const done = events.find((e) => e.type === 'chat.done' && e.message.id === asked.id);
    expect(checkEngineEvent(done)).toMatchObject({ ok: true });
    expect(unwrap(await chat.get(conv.id)).messages[1]?.clarify).toEqual(asked.clarify);
    // The name no manual is for travels on the turn, through the event and the store alike.
    expect(asked.unknownModels).toEqual(['Bar Z5']);
    expect(done?.type === 'chat.done' && done.message.unknownModels).toEqual(['Bar Z5']);
    expect(unwrap(await chat.get(conv.id)).messages[1]?.unknownModels).toEqual(['Bar Z5']);

    const picked = unwrap(await chat.ask(conv.id, 'Bar Z5 Max 5G'));
    expect(picked.clarify).toBeUndefined();
    expect(picked.mode).toBe('extracted');
    expect(picked.resolvedModels).toEqual(['Bar Z5 Max 5G']);
    expect(picked.text).toContain('90 mAh');
    expect(picked.text).not.toContain('40 mAh');
    expect(picked.citations?.length ?? 0).toBeGreaterThan(0);
    expect(picked.citations![0]!.doc).toMatch(/Bar_Z5_Max_5G\.md$/);
    expect(picked.citations!.some((c) => /Bar_Z5_Mini_5G|Foo_X1/.test(c.doc))).toBe(false);
  });

  it('answers from the candidate the reply picks by the words setting it apart', async () => {
    const conv = unwrap(await chat.create());
    unwrap(await chat.ask(conv.id, 'What battery does the Bar Z5 have?'));
    const picked = unwrap(await chat.ask(conv.id, 'the Mini'));
    expect(picked.text.startsWith('Read as: “What battery does the Bar Z5 Mini 5G have?”'), picked.text).toBe(true);
    expect(picked.resolvedModels).toEqual(['Bar Z5 Mini 5G']);
    expect(picked.text).toContain('40 mAh');
    expect(picked.text).not.toContain('90 mAh');
  });

  it('asks back before any LLM is asked, and the named candidate is then answered by it', async () => {
    const recorded = recordingLlm(tiny);
    let asked = 0;
    const withLlm = createChatService({
      libraryDir,
      libraryName: 'devices',
      index: chatIndex,
      getLlm: async () => {
        asked++;
        return recorded.llm;
      },
      emit: () => undefined,
    });
    const back = unwrap(await withLlm.answer('What battery does the Bar Z5 have?'));
    expect(back.text).toBe('This library has no manual for Bar Z5. Which model: Bar Z5 Max 5G or Bar Z5 Mini 5G?');
    expect(back.citations).toEqual([]);
    expect(asked).toBe(0);
    expect(recorded.calls).toHaveLength(0);

    const answered = unwrap(await withLlm.answer('What battery does the Bar Z5 Mini 5G have?'));
    expect(answered.mode).toBe('generated');
    expect(answered.resolvedModels).toEqual(['Bar Z5 Mini 5G']);
    expect(recorded.calls.length).toBeGreaterThan(0);
    expect(recorded.calls[0]!.messages.map((m) => m.content).join('\n')).toContain('40 mAh');
  }, 120_000);

  it('is asked back when the name goes on with words every candidate has, and the reply replaces them too', async () => {
    const conv = unwrap(await chat.create());
    const back = unwrap(await chat.ask(conv.id, 'What battery does the Bar Z5 5G have?'));
    // "5G" says nothing about which: the name is the Bar Z5's, written longer.
    expect(back.text).toBe('This library has no manual for Bar Z5 5G. Which model: Bar Z5 Max 5G or Bar Z5 Mini 5G?');
    expect(back.clarify).toEqual([{ name: 'Bar Z5 5G', models: ['Bar Z5 Max 5G', 'Bar Z5 Mini 5G'] }]);
    const picked = unwrap(await chat.ask(conv.id, 'the Mini'));
    expect(picked.text.startsWith('Read as: “What battery does the Bar Z5 Mini 5G have?”'), picked.text).toBe(true);
    expect(picked.resolvedModels).toEqual(['Bar Z5 Mini 5G']);
    expect(picked.text).toContain('40 mAh');
    expect(picked.text).not.toContain('90 mAh');
  });

  it('is answered for the model chip the user picked when it is one of the candidates, saying so', async () => {
    const conv = unwrap(await chat.create());
    unwrap(await chat.setScope(conv.id, { models: ['Bar Z5 Max 5G'] }));
    const turn = unwrap(await chat.ask(conv.id, 'What battery does the Bar Z5 have?'));
    expect(turn.clarify).toBeUndefined();
    expect(turn.text.startsWith('No manual for Bar Z5 in this library (closest: '), turn.text).toBe(true);
    expect(turn.text).toContain(`; answering for Bar Z5 Max 5G.\n\n${EXTRACTED_LABEL}`);
    expect(turn.text).toContain('90 mAh');
    expect(turn.text).not.toContain('40 mAh');
    expect(turn.resolvedModels).toEqual(['Bar Z5 Max 5G']);
  });

  it('is still asked back under a chip of another model, or of every candidate', async () => {
    for (const models of [['Foo X1'], ['Bar Z5 Max 5G', 'Bar Z5 Mini 5G']]) {
      const turn = unwrap(await chat.answer('What battery does the Bar Z5 have?', { scope: { models } }));
      expect(turn.clarify, models.join()).toEqual([{ name: 'Bar Z5', models: ['Bar Z5 Max 5G', 'Bar Z5 Mini 5G'] }]);
    }
  });

  it('is not asked back when the question goes on with a word of the library names', async () => {
    const turn = unwrap(await chat.answer('What battery does the Bar Z5 Mini have?'));
    expect(turn.clarify).toBeUndefined();
    expect(turn.text).not.toContain('Which model');
  });

  it(`is not asked back when its name begins more than ${MAX_CANDIDATES} documented models`, async () => {
    expect(WIDE.length).toBeGreaterThan(MAX_CANDIDATES);
    const turn = unwrap(await chat.answer('What battery does the Wid K1 have?'));
    expect(turn.clarify).toBeUndefined();
    expect(turn.text).not.toContain('Which model');
  });
});

describe('a question naming an ambiguous model and a documented one', () => {
  const mixed = 'Compare the battery of the Foo X1 and the Bar Z5';
  const backNote = 'This library has no manual for Bar Z5: which model, Bar Z5 Max 5G or Bar Z5 Mini 5G? Answering for Foo X1.';

  it('is answered for the documented model, with the question back said first and its candidates kept', async () => {
    const turn = unwrap(await chat.answer(mixed));
    expect(turn.text.startsWith(`${backNote}\n\n${EXTRACTED_LABEL}`), turn.text).toBe(true);
    expect(turn.mode).toBe('extracted');
    expect(turn.clarify).toEqual([{ name: 'Bar Z5', models: ['Bar Z5 Max 5G', 'Bar Z5 Mini 5G'] }]);
    expect(turn.resolvedModels).toEqual(['Foo X1']);
    expect(turn.text).toContain('80 mAh');
    expect(turn.text).not.toMatch(/40 mAh|90 mAh/);
    expect(turn.citations!.some((c) => /Bar_Z5/.test(c.doc))).toBe(false);
    // Answered as the question without the ambiguous name is.
    const alone = unwrap(await chat.answer('Compare the battery of the Foo X1'));
    expect(turn.text).toBe(`${backNote}\n\n${alone.text}`);
    expect(turn.citations).toEqual(alone.citations);
  });

  it('says the question back whichever place the ambiguous name has', async () => {
    const turn = unwrap(await chat.answer('Compare the battery of the Bar Z5 and the Foo X1'));
    expect(turn.text.startsWith(backNote), turn.text).toBe(true);
    expect(turn.resolvedModels).toEqual(['Foo X1']);
    expect(turn.text).toContain('80 mAh');
  });

  it('a reply picking a candidate answers the earlier question for it and the documented model', async () => {
    const conv = unwrap(await chat.create());
    const first = unwrap(await chat.ask(conv.id, mixed));
    expect(first.clarify?.[0]?.models).toEqual(['Bar Z5 Max 5G', 'Bar Z5 Mini 5G']);
    // Stored with its candidates, and a valid chat.done event.
    expect(unwrap(await chat.get(conv.id)).messages[1]?.clarify).toEqual(first.clarify);
    expect(checkEngineEvent(events.find((e) => e.type === 'chat.done' && e.message.id === first.id))).toMatchObject({ ok: true });

    const picked = unwrap(await chat.ask(conv.id, 'the Mini'));
    expect(picked.text.startsWith('Read as: “Compare the battery of the Foo X1 and the Bar Z5 Mini 5G”'), picked.text).toBe(true);
    expect(picked.clarify).toBeUndefined();
    expect([...picked.resolvedModels!].sort()).toEqual(['Bar Z5 Mini 5G', 'Foo X1']);
    expect(picked.text).toContain('40 mAh');
    expect(picked.text).toContain('80 mAh');
    expect(picked.text).not.toContain('90 mAh');
  });

  it('a candidate button (its chip picked, its name sent) answers the earlier question for it and the documented model', async () => {
    const conv = unwrap(await chat.create());
    unwrap(await chat.ask(conv.id, mixed));
    unwrap(await chat.setScope(conv.id, { models: ['Bar Z5 Max 5G'] }));
    const picked = unwrap(await chat.ask(conv.id, 'Bar Z5 Max 5G'));
    expect(picked.text.startsWith('Read as: “Compare the battery of the Foo X1 and the Bar Z5 Max 5G”'), picked.text).toBe(true);
    expect([...picked.resolvedModels!].sort()).toEqual(['Bar Z5 Max 5G', 'Foo X1']);
    expect(picked.text).toContain('90 mAh');
    expect(picked.text).toContain('80 mAh');
    expect(picked.text).not.toContain('40 mAh');
  });

  it('a reply picking a candidate after a question back to a follow-up answers the earlier topic for it', async () => {
    const conv = unwrap(await chat.create());
    unwrap(await chat.ask(conv.id, 'What battery does the Foo X1 have?'));
    const back = unwrap(await chat.ask(conv.id, 'and the Bar Z5?'));
    expect(back.clarify?.[0]?.models).toEqual(['Bar Z5 Max 5G', 'Bar Z5 Mini 5G']);
    const picked = unwrap(await chat.ask(conv.id, 'the Max'));
    expect(picked.text.startsWith('Read as: “What battery does the Bar Z5 Max 5G have?”'), picked.text).toBe(true);
    expect(picked.resolvedModels).toEqual(['Bar Z5 Max 5G']);
    expect(picked.text).toContain('90 mAh');
    expect(picked.text).not.toMatch(/40 mAh|80 mAh/);
  });

  it('a question naming nothing besides the ambiguous name is still asked back whole', async () => {
    for (const question of ['Compare the battery of the Bar Z5', 'Compare the battery of the Bar Z5 and the Bar Z5']) {
      const turn = unwrap(await chat.answer(question));
      expect(turn.text, question).toBe('This library has no manual for Bar Z5. Which model: Bar Z5 Max 5G or Bar Z5 Mini 5G?');
      expect(turn.mode).toBe('not-found');
      expect(turn.citations).toEqual([]);
    }
  });
});

describe('names answered as before', () => {
  it('a name that begins exactly one documented model is answered for it, saying so', async () => {
    const turn = unwrap(await chat.answer('What battery does the Foo X2 have?'));
    expect(turn.clarify).toBeUndefined();
    expect(turn.text.startsWith('No manual for Foo X2 in this library (closest: Foo X2 Pro 5G'), turn.text).toBe(true);
    expect(turn.text).toContain(`; answering for Foo X2 Pro 5G.\n\n${EXTRACTED_LABEL}`);
    expect(turn.text).toContain('300 mAh');
    expect(turn.resolvedModels).toEqual(['Foo X2 Pro 5G']);
  });

  it('a model with its own section of a combined manual is answered from it', async () => {
    const turn = unwrap(await chat.answer('What battery does the Qux R3 have?'));
    expect(turn.clarify).toBeUndefined();
    expect(turn.text).not.toContain('Which model');
    expect(turn.text.startsWith(`${EXTRACTED_LABEL}\n\nFor Qux R3:`), turn.text).toBe(true);
    expect(turn.text).toContain('150 mAh');
    expect(turn.resolvedModels).toEqual(['Qux R3']);
  });

  it('a documented model named whole is answered with no question back', async () => {
    const turn = unwrap(await chat.answer('What battery does the Bar Z5 Mini 5G have?'));
    expect(turn.clarify).toBeUndefined();
    expect(turn.text.startsWith(EXTRACTED_LABEL), turn.text).toBe(true);
    expect(turn.text).toContain('40 mAh');
    expect(turn.resolvedModels).toEqual(['Bar Z5 Mini 5G']);
  });
});

describe('pickedCandidate', () => {
  const choices = [{ name: 'Galaxy S20', models: ['Galaxy S20 Ultra 5G', 'Galaxy S20+ 5G'] }];

  it('is the one candidate whose name holds every word of the reply', () => {
    expect(pickedCandidate('the Ultra', choices)).toBe('Galaxy S20 Ultra 5G');
    expect(pickedCandidate('Ultra 5G', choices)).toBe('Galaxy S20 Ultra 5G');
    // "Plus" is the name's "+".
    expect(pickedCandidate('the Plus', choices)).toBe('Galaxy S20+ 5G');
    expect(pickedCandidate('Plus 5G', choices)).toBe('Galaxy S20+ 5G');
  });

  it('is none for words every candidate has, or words of none', () => {
    expect(pickedCandidate('the 5G', choices)).toBeNull();
    expect(pickedCandidate('the', choices)).toBeNull();
    expect(pickedCandidate('the Ultra one has how much battery?', choices)).toBeNull();
  });
});
