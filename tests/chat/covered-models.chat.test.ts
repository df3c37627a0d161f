import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatIndexOf, createChatService, type ChatService } from '../../src-main/chat/chat.service';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { tempDir } from '../helpers/temp';
import { unwrap } from './fixtures';

/**
 * Through the chat service on a real library: the Galaxy X10's manual lists the X10e, X10 and
 * X10+ as its models (headings with nothing between them, as the Galaxy S10's does), so its lines
 * answer for the X10e under the X10e's name; the X20's manual lists nothing of the kind.
 */

const X10 = [
  '# Samsung Galaxy X10 User Manual',
  '## Getting started',
  '### Galaxy X10e',
  '### Galaxy X10',
  '### Galaxy X10+',
  '### Assemble your device',
  'Your device uses a nano-SIM card. The Galaxy X10e has a side fingerprint key.',
  '#### Wireless charging',
  'Place the device on a wireless charger to charge it. Wireless charging works with Qi chargers.',
  '#### Battery',
  'The Galaxy X10+ has a 4100 mAh battery.',
].join('\n\n');

const X20 = ['# Samsung Galaxy X20 User Manual', '## Getting started', '#### Wireless charging', 'The Galaxy X20 charges on a wireless pad. Place it face up on the pad.'].join('\n\n');

let engine: Engine;
let chat: ChatService;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const tmp = await tempDir('manualmate-listing-');
  cleanup = tmp.cleanup;
  const docs = path.join(tmp.dir, 'phones');
  await mkdir(docs);
  await writeFile(path.join(docs, 'Galaxy_X10.md'), X10);
  await writeFile(path.join(docs, 'Galaxy_X20.md'), X20);
  engine = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none') });
  expect(unwrap(await engine.importPaths('phones', [docs])).summary.imported).toBe(2);
  const lib = (await engine.libraries.get('phones'))!;
  const index = await engine.indexes.open(lib);
  chat = createChatService({ libraryDir: lib.dir, libraryName: 'phones', index: chatIndexOf(index), getLlm: async () => null, emit: () => undefined });
}, 60_000);

afterAll(async () => {
  await engine?.dispose();
  await cleanup?.();
});

describe('a manual that lists the asked model among its own', () => {
  it("answers for the listed model under that model's name, citing the manual that lists it", async () => {
    const turn = unwrap(await chat.answer('How does wireless charging work on the Galaxy X10e?'));
    expect(turn.text).toContain('For Galaxy X10e:\n- Place the device on a wireless charger');
    expect(turn.text).not.toContain('related to');
    expect(turn.citations?.[0]?.doc).toBe('phones/Galaxy_X10.md');
  });

  it('keeps a line that names another of the listed models out of the asked model\'s lines', async () => {
    const turn = unwrap(await chat.answer('What battery does the Galaxy X10e have?'));
    expect(turn.text).toContain('4100 mAh');
    expect(turn.text).not.toMatch(/For Galaxy X10e:\n(- [^\n]*\n)*- The Galaxy X10\+ has a 4100 mAh battery/);
  });
});
