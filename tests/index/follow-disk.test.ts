import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createEngine } from '../../src-main/engine/engine';
import { tempDir } from '../helpers/temp';

/**
 * `followDisk` with `repairLeft` (a writer of the app that has just taken the library's lock file)
 * repairs a journal it finds left, as a killed process's. A journaled write of this same index
 * under way is not one: the reopening and the repair wait for it (they take a turn among the
 * index's journaled writes) instead of dropping its documents' rows and clearing its journal
 * while it runs.
 */

const manual = (model: string) => `# ${model} pump manual\n\n## Seals\n\nReplace the ${model} shaft seal after 2000 hours.\n`;

describe('followDisk beside a journaled write of its own index', () => {
  it('waits for the write to end before it reopens the store and repairs a left journal', { timeout: 60_000 }, async () => {
    const tmp = await tempDir();
    const app = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none') });
    try {
      await writeFile(path.join(tmp.dir, 'P-100.md'), manual('P-100'));
      expect((await app.importPaths('Pumps', [path.join(tmp.dir, 'P-100.md')])).ok).toBe(true);
      await app.idle();
      const lib = (await app.libraries.get('Pumps'))!;
      const index = await app.indexes.open(lib);

      const order: string[] = [];
      let entered!: () => void;
      const inTurn = new Promise<void>((resolve) => (entered = resolve));
      let finish!: () => void;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      const write = index.journaled(['P-100.md'], async () => {
        entered();
        await finished;
        order.push('write');
      });
      await inTurn;
      const follow = index.followDisk({ repairLeft: true }).then(() => order.push('followDisk'));
      // Long enough for followDisk to reopen and repair, had it not waited for the write.
      await Promise.race([follow, sleep(2000)]);
      const journalMeanwhile = await lib.journal();
      finish();
      await Promise.all([write, follow]);

      expect(journalMeanwhile, 'the journal while the write runs').toEqual(['P-100.md']);
      expect(order).toEqual(['write', 'followDisk']);
      expect(await lib.journal()).toEqual([]);
      const rec = (await lib.document('P-100.md'))!;
      expect((await index.listChunks('P-100.md')).length).toBe(rec.chunks);
    } finally {
      await app.dispose();
      await tmp.cleanup();
    }
  });
});
