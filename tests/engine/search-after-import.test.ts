import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { DocumentEvidence } from '../../src-main/search/document-evidence';
import { tempDir } from '../helpers/temp';

/**
 * The first search after an import, in a library the app has open (real LanceDB in a temp dir):
 * it finds the import's documents as the folded index does, and what the import made stale is
 * built again by the work after the import, not by that search.
 */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of cleanups.splice(0)) await c();
});

async function engineWithManuals(): Promise<{ engine: Engine; dir: string }> {
  const tmp = await tempDir();
  cleanups.push(tmp.cleanup);
  const engine = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none') });
  cleanups.unshift(() => engine.dispose());
  const manuals: [string, string][] = [
    ['fan-f10.md', '# F-10 fan service manual\n\n## Blade\n\nThe F-10 blade is part BL-10. Replace the blade when it is cracked.\n\n## Motor\n\nThe motor takes 230 V.\n'],
    ['fan-f20.md', '# F-20 fan service manual\n\n## Blade\n\nThe F-20 blade is part BL-20.\n\n## Fuse\n\nThe F-20 takes a 2 A fuse.\n'],
    // The import under test: new rows that repeat the searched words ("10" three times in one
    // chunk), which LanceDB's scan of unfolded rows miscounts.
    ['fan-f10-rev2.md', '# F-10 fan service manual, revision 2\n\n## Blade\n\nThe F-10 blade is now part BL-10A; the old BL-10 fits F-10 units made before 2024.\n'],
    ['heater-h5.md', '# H-5 heater manual\n\n## Fuse\n\nThe H-5 takes a 10 A fuse. Check the fuse before the blade guard.\n'],
  ];
  for (const [file, text] of manuals) await writeFile(path.join(tmp.dir, file), text);
  return { engine, dir: tmp.dir };
}

const ranking = async (engine: Engine, query: string) => {
  const res = await engine.handlers['search.query']({ library: 'Fans', query, topK: 10, retriever: 'bm25' });
  if (!res.ok) throw new Error(res.error.message);
  return res.value.results.map((r) => [r.doc, r.chunkId, r.score.toFixed(6)]);
};

describe('the first search after an import', () => {
  it('finds the new documents ranked and scored as after the indexes folded them', async () => {
    const { engine, dir } = await engineWithManuals();
    expect((await engine.importPaths('Fans', [path.join(dir, 'fan-f10.md'), path.join(dir, 'fan-f20.md')])).ok).toBe(true);
    await engine.idle();
    await ranking(engine, 'blade');

    expect((await engine.importPaths('Fans', [path.join(dir, 'fan-f10-rev2.md'), path.join(dir, 'heater-h5.md')])).ok).toBe(true);
    // Asked before the work after the import has run.
    const queries = ['BL-10 blade', 'fuse 10 A', 'F-10'];
    const right = [];
    for (const q of queries) right.push(await ranking(engine, q));
    await engine.idle();
    const folded = [];
    for (const q of queries) folded.push(await ranking(engine, q));

    expect(right).toEqual(folded);
    expect(right[0]!.map(([doc]) => doc)).toContain('fan-f10-rev2.md');
    expect(right[1]!.map(([doc]) => doc)).toContain('heater-h5.md');
  });

  it("is not the one that builds the document-name index again: the work after the import does, in a library the app searches", async () => {
    const { engine, dir } = await engineWithManuals();
    expect((await engine.importPaths('Fans', [path.join(dir, 'fan-f10.md'), path.join(dir, 'fan-f20.md')])).ok).toBe(true);
    await engine.idle();
    await ranking(engine, 'blade');

    const names = vi.spyOn(DocumentEvidence, 'build');
    expect((await engine.importPaths('Fans', [path.join(dir, 'fan-f10-rev2.md'), path.join(dir, 'heater-h5.md')])).ok).toBe(true);
    await engine.idle();
    // Built unawaited after the fold: waited for here, not timed.
    await vi.waitFor(() => expect(names).toHaveBeenCalledTimes(1), { timeout: 30_000, interval: 20 });
    const found = await ranking(engine, 'H-5 heater fuse');
    expect(found[0]?.[0]).toBe('heater-h5.md');
    expect(names).toHaveBeenCalledTimes(1);
  });
});
