import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine } from '../../src-main/engine/engine';
import { checkConsistent } from '../helpers/crash';
import { runNode } from '../helpers/run-node';
import { repoRoot, tempDir } from '../helpers/temp';

/**
 * An app's import and its removal of another document in the same library overlap (the import
 * queue lets removals run beside an import), and the app is killed (SIGKILL, a real process) in
 * the middle of the one that started first: the next open repairs that write, whatever the other
 * wrote into the library's journal meanwhile.
 */

const fixture = path.join(repoRoot, 'tests', 'engine', 'fixtures', 'overlap-writers.ts');
const manual = (model: string) => `# ${model} pump manual\n\n## Seals\n\nReplace the ${model} shaft seal after 2000 hours.\n`;

async function killedOverlap(scenario: 'import-first' | 'removal-first', check: (ids: string[], rowsOf: (id: string) => Promise<number>) => void | Promise<void>) {
  const tmp = await tempDir();
  try {
    const dataDir = path.join(tmp.dir, 'data');
    for (const model of ['P-100', 'P-200']) await writeFile(path.join(tmp.dir, `${model}.md`), manual(model));
    const app = createEngine({ dataDir, bundledModelsDir: path.join(tmp.dir, 'none') });
    try {
      expect((await app.importPaths('Pumps', [path.join(tmp.dir, 'P-100.md')])).ok).toBe(true);
      await app.idle();
    } finally {
      await app.dispose();
    }
    const run = await runNode(['--import', 'tsx', fixture, dataDir, scenario, path.join(tmp.dir, 'P-200.md')]);
    expect(run.code, `not killed: ${run.stdout} ${run.stderr}`).toBeNull();
    await checkConsistent(dataDir, 'Pumps', async ({ engine, lib, docs }) => {
      const index = await engine.indexes.open(lib);
      await check(
        docs.map((d) => d.id),
        async (id) => (await index.listChunks(id)).length,
      );
    });
  } finally {
    await tmp.cleanup();
  }
}

describe('an import and a removal of the app overlapping in one library, killed part-way', () => {
  it('drops the rows of the batch the import was listing when a removal ran during its commit', { timeout: 120_000 }, async () => {
    await killedOverlap('import-first', async (ids, rowsOf) => {
      expect(ids).not.toContain('P-200.md');
      expect(await rowsOf('P-200.md'), 'rows of the unlisted P-200.md').toBe(0);
    });
  });

  it('keeps the document the removal was dropping, with its rows, when an import committed during the removal', { timeout: 120_000 }, async () => {
    await killedOverlap('removal-first', async (ids, rowsOf) => {
      // checkConsistent has checked that a listed document has all its chunks.
      if (!ids.includes('P-100.md')) expect(await rowsOf('P-100.md'), 'rows of the removed P-100.md').toBe(0);
      expect(ids).not.toContain('P-200.md');
      expect(await rowsOf('P-200.md'), 'rows of the unlisted P-200.md').toBe(0);
    });
  });
});
