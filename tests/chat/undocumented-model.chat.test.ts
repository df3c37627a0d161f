import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatIndexOf, createChatService, type ChatService } from '../../src-main/chat/chat.service';
import { EXTRACTED_LABEL } from '../../src-main/chat/extractive.answerer';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { tempDir } from '../helpers/temp';
import { phoneManual as manual, unwrap } from './fixtures';

/**
 * Through the chat service on a real library where manuals mention models that have no manual of
 * their own (the Foo X2 beside the Foo X2 Pro 5G's manual, as the Galaxy manuals mention the Galaxy
 * S20+ beside the S20+ 5G's): a question naming one whose name the words of exactly one documented
 * model's name begin is answered for that model, and says so first, never silently from another
 * manual. Not when a stored section is about the asked model (a combined manual's "## Foo X3"),
 * nor when the names share only characters ("Foo X4" and the Foo X40), nor when the question's
 * name goes on with words of its own ("Foo X2 Mini"), nor when it begins several names (then the reply asks which).
 */

/** A manual of several older models, one section each: no document is about any of them. */
const legacy = [
  '# Legacy Devices Guide',
  '## Foo X3',
  'To charge the Foo X3, connect it to a USB-C power adapter. The Foo X3 has a 150 mAh battery.',
  '## Foo X5',
  'To charge the Foo X5, connect it to a USB-C power adapter. The Foo X5 has a 170 mAh battery.',
].join('\n\n');

let engine: Engine;
let chat: ChatService;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const tmp = await tempDir('manualmate-undocumented-');
  cleanup = tmp.cleanup;
  const docs = path.join(tmp.dir, 'devices');
  await mkdir(docs);
  await writeFile(path.join(docs, 'Foo_X1.md'), manual('Foo X1', 80, 'The Foo X2 charger also charges the Foo X1 and the Foo X4.'));
  // A name with a number after it (as "Galaxy S20+ 5G") is no member of the shorter one.
  await writeFile(path.join(docs, 'Foo_X2_Pro_5G.md'), manual('Foo X2 Pro 5G', 300, 'Unlike the Foo X2, the Foo X2 Pro 5G charges wirelessly.'));
  // The Foo X3 has a section of its own in the legacy guide, and the Foo X3 5G a manual.
  await writeFile(path.join(docs, 'Legacy.md'), legacy);
  await writeFile(path.join(docs, 'Foo_X3_5G.md'), manual('Foo X3 5G', 350, 'The Foo X3 5G replaces the Foo X3.'));
  // "Foo X4" begins "Foo X40" only as characters: the X4 is another model.
  await writeFile(path.join(docs, 'Foo_X40.md'), manual('Foo X40', 400, 'The Foo X4 charger does not fit the Foo X40.'));
  // A "+" written as "Plus" is the same name: the Baz Q7+ is only mentioned, the Baz Q7+ 5G has a manual.
  await writeFile(path.join(docs, 'Baz_Q7+_5G.md'), manual('Baz Q7+ 5G', 500, 'The Baz Q7+ 5G charges faster than the Baz Q7+.'));
  // Two documented models begin "Bar Z5": a name that begins both says nothing about which.
  await writeFile(path.join(docs, 'Bar_Z5_Mini_5G.md'), manual('Bar Z5 Mini 5G', 40, 'The Bar Z5 Mini 5G is smaller than the Bar Z5.'));
  await writeFile(path.join(docs, 'Bar_Z5_Max_5G.md'), manual('Bar Z5 Max 5G', 90, 'The Bar Z5 Max 5G is larger than the Bar Z5.'));
  engine = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none') });
  expect(unwrap(await engine.importPaths('devices', [docs])).summary.imported).toBe(8);
  const lib = (await engine.libraries.get('devices'))!;
  const index = await engine.indexes.open(lib);
  chat = createChatService({ libraryDir: lib.dir, libraryName: 'devices', index: chatIndexOf(index), getLlm: async () => null, emit: () => undefined });
}, 90_000);

afterAll(async () => {
  await engine?.dispose();
  await cleanup?.();
});

describe('a model only other manuals mention', () => {
  it('is answered for the one documented model its name begins, saying so first', async () => {
    const turn = unwrap(await chat.answer('What battery does the Foo X2 have?'));
    expect(turn.text.startsWith('No manual for Foo X2 in this library (closest: Foo X2 Pro 5G'), turn.text).toBe(true);
    expect(turn.text).toContain(`; answering for Foo X2 Pro 5G.\n\n${EXTRACTED_LABEL}`);
    expect(turn.text).toContain('300 mAh');
    expect(turn.text).not.toContain('80 mAh');
    expect(turn.resolvedModels).toEqual(['Foo X2 Pro 5G']);
    expect(turn.citations?.length ?? 0).toBeGreaterThan(0);
  });

  it('reads "Plus" and "+" as one word of the name', async () => {
    for (const [q, name] of [
      ['What battery does the Baz Q7 Plus have?', 'Baz Q7 Plus'],
      ['What battery does the Baz Q7+ have?', 'Baz Q7+'],
    ] as const) {
      const turn = unwrap(await chat.answer(q));
      expect(turn.text.startsWith(`No manual for ${name} in this library (closest: Baz Q7+ 5G`), turn.text).toBe(true);
      expect(turn.text).toContain('; answering for Baz Q7+ 5G.');
      expect(turn.text).toContain('500 mAh');
      expect(turn.resolvedModels).toEqual(['Baz Q7+ 5G']);
    }
  });

  it('answers the documented model itself with no note', async () => {
    const turn = unwrap(await chat.answer('What battery does the Foo X2 Pro 5G have?'));
    expect(turn.text.startsWith(EXTRACTED_LABEL), turn.text).toBe(true);
    expect(turn.unknownModels).toBeUndefined();
    expect(turn.text).toContain('300 mAh');
    expect(turn.resolvedModels).toEqual(['Foo X2 Pro 5G']);
  });

  it('is answered from its own section of a combined manual, not from a longer-named model', async () => {
    const turn = unwrap(await chat.answer('What battery does the Foo X3 have?'));
    expect(turn.text).not.toContain('No manual for');
    expect(turn.text).not.toContain('answering for');
    expect(turn.text.startsWith(`${EXTRACTED_LABEL}\n\nFor Foo X3:\n- To charge the Foo X3`), turn.text).toBe(true);
    expect(turn.text).toContain('150 mAh');
    expect(turn.text).not.toContain('350 mAh');
    expect(turn.resolvedModels).toEqual(['Foo X3']);
  });

  it('is not read as a model whose name only begins with the same characters', async () => {
    const turn = unwrap(await chat.answer('What battery does the Foo X4 have?'));
    expect(turn.text).not.toContain('answering for');
    expect(turn.resolvedModels).not.toContain('Foo X40');
  });

  it('is not spliced into a longer name the question writes', async () => {
    const turn = unwrap(await chat.answer('What battery does the Foo X2 Mini have?'));
    expect(turn.text).not.toContain('answering for Foo X2 Pro 5G');
    expect(turn.text).not.toContain('Foo X2 Pro 5G Mini');
    expect(turn.resolvedModels).not.toContain('Foo X2 Pro 5G');
  });

  it('says no manual is for the longer name the question writes, as for a name the library never writes', async () => {
    // "Lite" goes on with the name: written with a capital, or in lower case where no manual
    // writes it; "Mini" is a word of the library's model names (the Bar Z5 Mini 5G), "2" a number.
    for (const [q, name] of [
      ['What battery does the Foo X2 Lite have?', 'Foo X2 Lite'],
      ['what battery does the foo x2 lite have?', 'foo x2 lite'],
      ['What battery does the Foo X2 Mini have?', 'Foo X2 Mini'],
      ['How do I charge the Foo X2 2?', 'Foo X2 2'],
      ['How Do I Charge The Foo X2 Lite?', 'Foo X2 Lite'],
    ] as const) {
      const turn = unwrap(await chat.answer(q));
      expect(turn.text.startsWith(`No manual for ${name} in this library; closest: Foo X2 Pro 5G`), `${q}\n${turn.text}`).toBe(true);
      expect(turn.mode).toBe('not-found');
      expect(turn.resolvedModels, q).toEqual([]);
      expect(turn.unknownModels, q).toEqual([name]);
    }
  });

  it('names a longer name the question writes twice once, as first written', async () => {
    const turn = unwrap(await chat.answer('Does the foo x2 lite charge fast? Is the Foo X2 Lite waterproof?'));
    expect(turn.text.startsWith('No manual for foo x2 lite in this library; closest: Foo X2 Pro 5G'), turn.text).toBe(true);
    expect(turn.text).not.toMatch(/lite and /i);
    expect(turn.unknownModels).toEqual(['foo x2 lite']);
  });

  it('reads a word after the name that says what is asked about it as the question\'s', async () => {
    // A word the manuals write, a slip of typing of one, one written with a capital that they
    // write ("Battery"), an inflected word no manual writes ("overheats"; in a question written in
    // title case too), and a lower-case word after a name written with capitals ("overheat").
    for (const [q, name] of [
      ['foo x2 battery capacity?', 'foo x2'],
      ['foo x2 batery capacity?', 'foo x2'],
      ['Does the Foo X2 Battery hold 300 mAh?', 'Foo X2'],
      ['foo x2 overheats when charging', 'foo x2'],
      ['Why does the Foo X2 overheat when charging?', 'Foo X2'],
      ['Foo X2 Overheating When Charging?', 'Foo X2'],
    ] as const) {
      const turn = unwrap(await chat.answer(q));
      expect(turn.text.startsWith(`No manual for ${name} in this library (closest: Foo X2 Pro 5G`), `${q}\n${turn.text}`).toBe(true);
      expect(turn.text, q).toContain('; answering for Foo X2 Pro 5G.');
      expect(turn.resolvedModels, q).toEqual(['Foo X2 Pro 5G']);
      expect(turn.unknownModels, q).toEqual([name]);
    }
  });

  it('is read as the documented model when the name goes on with words that model has after it', async () => {
    const turn = unwrap(await chat.answer('What battery does the Foo X2 5G have?'));
    expect(turn.text.startsWith('No manual for Foo X2 5G in this library (closest: Foo X2 Pro 5G'), turn.text).toBe(true);
    expect(turn.text).toContain('; answering for Foo X2 Pro 5G.');
    expect(turn.text).toContain('300 mAh');
    expect(turn.resolvedModels).toEqual(['Foo X2 Pro 5G']);
  });

  it('is not read as the documented model when the question names that one too', async () => {
    const turn = unwrap(await chat.answer('Compare the battery of the Foo X2 and the Foo X2 Pro 5G.'));
    expect(turn.text).not.toContain('answering for');
    expect(turn.resolvedModels).toEqual(['Foo X2', 'Foo X2 Pro 5G']);
  });

  it('is not read as one documented model when its name begins several: the reply asks which', async () => {
    const turn = unwrap(await chat.answer('What battery does the Bar Z5 have?'));
    expect(turn.text).not.toContain('answering for');
    // The question back itself: ambiguous-model.chat.test.ts.
    expect(turn.clarify).toEqual([{ name: 'Bar Z5', models: ['Bar Z5 Max 5G', 'Bar Z5 Mini 5G'] }]);
  });

  it('is read as its one documented model beside a name that begins several, which is asked back first', async () => {
    const turn = unwrap(await chat.answer('Compare the battery of the Foo X2 and the Bar Z5'));
    expect(turn.text.startsWith('This library has no manual for Bar Z5: which model, Bar Z5 Max 5G or Bar Z5 Mini 5G? Answering for Foo X2 Pro 5G.\n\nNo manual for Foo X2 in this library (closest: Foo X2 Pro 5G'), turn.text).toBe(true);
    expect(turn.text).toContain('; answering for Foo X2 Pro 5G.');
    expect(turn.text).toContain('300 mAh');
    expect(turn.text).not.toMatch(/40 mAh|90 mAh/);
    expect(turn.clarify).toEqual([{ name: 'Bar Z5', models: ['Bar Z5 Max 5G', 'Bar Z5 Mini 5G'] }]);
    expect(turn.resolvedModels).toEqual(['Foo X2 Pro 5G']);
    // Both names have no manual: the one asked back first, as the answer says them.
    expect(turn.unknownModels).toEqual(['Bar Z5', 'Foo X2']);
  });
});
