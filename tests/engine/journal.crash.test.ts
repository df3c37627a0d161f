import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine } from '../../src-main/engine/engine';
import { checkConsistent, dieInside } from '../helpers/crash';
import { tempDir } from '../helpers/temp';

/**
 * An app with a library open while an import into it in another process is killed mid-commit
 * (rows written, the document not listed yet): the app's next write into the library repairs
 * that commit first, rather than writing its own journal over it.
 */

const manual = (model: string) => `# ${model} pump manual\n\n## Seals\n\nReplace the ${model} shaft seal after 2000 hours.\n`;

describe('a commit killed in another process while the app has the library open', () => {
  it("is repaired by the app's next write, so no row of an unlisted document stays searchable", { timeout: 60_000 }, async () => {
    const tmp = await tempDir();
    try {
      const file = async (model: string) => {
        const f = path.join(tmp.dir, `${model}.md`);
        await writeFile(f, manual(model));
        return f;
      };
      const dataDir = path.join(tmp.dir, 'data');
      const app = createEngine({ dataDir, bundledModelsDir: path.join(tmp.dir, 'none') });
      try {
        expect((await app.importPaths('Pumps', [await file('P-100')])).ok).toBe(true);
        await app.idle();
        // Another process imports P-200 and is killed as it lists it, its rows written.
        const killed = await dieInside(dataDir, 'Library.putDocuments', 'import.start', { library: 'Pumps', paths: [await file('P-200')] });
        expect(killed.killed).toBe(true);
        expect((await app.importPaths('Pumps', [await file('P-300')])).ok).toBe(true);
        await app.idle();
      } finally {
        await app.dispose();
      }
      await checkConsistent(dataDir, 'Pumps', async ({ engine, lib, docs }) => {
        expect(docs.map((d) => d.id)).toEqual(['P-100.md', 'P-300.md']);
        expect((await (await engine.indexes.open(lib)).listChunks('P-200.md')).length, 'rows of the unlisted P-200.md').toBe(0);
      });
    } finally {
      await tmp.cleanup();
    }
  });
});
