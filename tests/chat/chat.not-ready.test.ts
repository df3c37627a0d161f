import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTurn } from '../../src-main/contract/api';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { tempDir } from '../helpers/temp';
import { unwrap } from './fixtures';

// A library whose every file failed to import has nothing to search: the answer must not say that
// its manuals were read and hold nothing about the question.
describe('asking a library with no document ready', () => {
  let engine: Engine;
  let dir: string;
  let cleanup: () => Promise<void>;
  const question = 'What fuse does the RAC-225B take?';

  beforeAll(async () => {
    const tmp = await tempDir('manualmate-not-ready-');
    dir = tmp.dir;
    cleanup = tmp.cleanup;
    await writeFile(path.join(dir, 'empty.txt'), '');
    await writeFile(path.join(dir, 'rac-225b.md'), '# RAC-225B service manual\n\n## Fuses\n\nThe RAC-225B takes a 10 A slow-blow fuse.\n');
    engine = createEngine({ dataDir: path.join(dir, 'data'), bundledModelsDir: path.join(dir, 'none') });
  });

  afterAll(async () => {
    await engine.dispose();
    await cleanup();
  });

  async function ask(library: string, q: string): Promise<ChatTurn> {
    const conversation = unwrap(await engine.api['chat.create']({ library }));
    return unwrap(await engine.api['chat.ask']({ library, id: conversation.id, question: q }));
  }

  it('says no document is ready, not that the manuals hold nothing', async () => {
    const summary = unwrap(await engine.importPaths('bad', [path.join(dir, 'empty.txt')])).summary;
    expect(summary.failed).toBe(1);
    const turn = await ask('bad', question);
    expect(turn.mode).toBe('not-found');
    expect(turn.text).toMatch(/No document of this library is ready/);
    expect(turn.text).not.toMatch(/found nothing/);
  });

  it('once a document is ready, a question it does not answer is "found nothing" as before', async () => {
    unwrap(await engine.importPaths('bad', [path.join(dir, 'rac-225b.md')]));
    const turn = await ask('bad', 'How do I descale the coffee machine boiler?');
    expect(turn.mode).toBe('not-found');
    expect(turn.text).not.toMatch(/is ready/);
  });
});
