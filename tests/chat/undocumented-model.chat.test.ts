import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatIndexOf, createChatService, type ChatService } from '../../src-main/chat/chat.service';
import { EXTRACTED_LABEL } from '../../src-main/chat/extractive.answerer';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { tempDir } from '../helpers/temp';
import { unwrap } from './fixtures';

/**
 * Through the chat service on a real library where manuals mention models that have no manual of
 * their own (the Foo X2 beside the Foo X2 Pro, as the Galaxy manuals mention the Galaxy S20+
 * beside the S20+ 5G's manual): a question naming one whose name begins exactly one documented
 * model is answered for that model, and says so first, never silently from another manual.
 */

const manual = (name: string, battery: number, extra = ''): string =>
  [
    `# ${name} User Manual`,
    '## Charging',
    `To charge the ${name}, connect it to a USB-C power adapter. ${extra}`,
    '## Battery',
    `The ${name} has a ${battery} mAh battery.`,
  ].join('\n\n');

let engine: Engine;
let chat: ChatService;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const tmp = await tempDir('manualmate-undocumented-');
  cleanup = tmp.cleanup;
  const docs = path.join(tmp.dir, 'devices');
  await mkdir(docs);
  await writeFile(path.join(docs, 'Foo_X1.md'), manual('Foo X1', 80, 'The Foo X2 charger also charges the Foo X1.'));
  await writeFile(path.join(docs, 'Foo_X2_Pro.md'), manual('Foo X2 Pro', 300, 'Unlike the Foo X2, the Foo X2 Pro charges wirelessly.'));
  // Two documented models begin "Bar Z5": a name that begins both says nothing about which.
  await writeFile(path.join(docs, 'Bar_Z5_Mini.md'), manual('Bar Z5 Mini', 40, 'The Bar Z5 Mini is smaller than the Bar Z5.'));
  await writeFile(path.join(docs, 'Bar_Z5_Max.md'), manual('Bar Z5 Max', 90, 'The Bar Z5 Max is larger than the Bar Z5.'));
  engine = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none') });
  expect(unwrap(await engine.importPaths('devices', [docs])).summary.imported).toBe(4);
  const lib = (await engine.libraries.get('devices'))!;
  const index = await engine.indexes.open(lib);
  chat = createChatService({ libraryDir: lib.dir, libraryName: 'devices', index: chatIndexOf(index), getLlm: async () => null, emit: () => undefined });
}, 60_000);

afterAll(async () => {
  await engine?.dispose();
  await cleanup?.();
});

describe('a model only other manuals mention', () => {
  it('is answered for the one documented model its name begins, saying so first', async () => {
    const turn = unwrap(await chat.answer('What battery does the Foo X2 have?'));
    expect(turn.text.startsWith(`No manual for Foo X2 in this library (closest: Foo X2 Pro, `), turn.text).toBe(true);
    expect(turn.text).toContain(`; answering for Foo X2 Pro.\n\n${EXTRACTED_LABEL}`);
    expect(turn.text).toContain('300 mAh');
    expect(turn.text).not.toContain('80 mAh');
    expect(turn.resolvedModels).toEqual(['Foo X2 Pro']);
  });

  it('answers the documented model itself with no note', async () => {
    const turn = unwrap(await chat.answer('What battery does the Foo X2 Pro have?'));
    expect(turn.text.startsWith(EXTRACTED_LABEL), turn.text).toBe(true);
    expect(turn.text).toContain('300 mAh');
    expect(turn.resolvedModels).toEqual(['Foo X2 Pro']);
  });

  it('is not read as one documented model when its name begins several', async () => {
    const turn = unwrap(await chat.answer('What battery does the Bar Z5 have?'));
    expect(turn.text).not.toContain('No manual for');
    expect(turn.text).not.toContain('answering for');
  });
});
