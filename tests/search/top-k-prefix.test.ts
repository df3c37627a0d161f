import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import type { SearchResponse } from '../../src-main/contract/api';
import { tempDir } from '../helpers/temp';

/**
 * Asking for fewer results returns the first ones of a longer list: the ranking is made on a pool
 * of fixed depth, whatever top-k asks. A real LanceDB library of 40 manuals that all talk about
 * resetting, so the first stage finds far more candidates than any pool holds and the ranking
 * stages (headings, term coverage, passage order) have something to reorder.
 */

let engine: Engine;
let cleanup: () => Promise<void>;

const WORDS = ['network', 'settings', 'factory', 'button', 'router', 'display', 'memory', 'firmware', 'cable', 'update'];

/** A manual whose sections mention resetting with a different mix of words, lengths and headings. */
function manual(i: number): string {
  const w = (k: number) => WORDS[(i + k) % WORDS.length]!;
  const filler = 'The unit keeps its configuration in flash and restores it after a power cycle. '.repeat(1 + (i % 7));
  return [
    `# Unit ${i} user guide`,
    `## ${i % 5 === 0 ? 'Reset the network settings' : `Care of the ${w(3)}`}`,
    `To reset the ${w(0)} ${w(1)}, hold the ${w(2)} for ${3 + (i % 9)} seconds. ${filler}`,
    `## ${i % 3 === 0 ? 'Troubleshooting' : `About the ${w(4)}`}`,
    `If the ${w(5)} does not answer, reset the ${w(6)} and check the ${w(7)} again. ${i % 4 === 0 ? 'Network settings return to their defaults after a reset.' : ''}`,
    `## Specifications`,
    `| Item | Value |\n| --- | --- |\n| Reset time | ${i} s |\n| ${w(8)} | ${w(9)} |`,
  ].join('\n\n');
}

beforeAll(async () => {
  const tmp = await tempDir();
  cleanup = tmp.cleanup;
  engine = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none') });
  const dir = path.join(tmp.dir, 'units');
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < 40; i++) await writeFile(path.join(dir, `unit-${i}.md`), manual(i));
  const res = await engine.importPaths('Units', [dir]);
  if (!res.ok || res.value.summary.imported !== 40) throw new Error('import failed');
  // A library where the question matches fewer chunks than the first stage's limit (30) but more
  // than are read and reranked (20): every one of them is a result of a longer top-k.
  const few = path.join(tmp.dir, 'sensors');
  await mkdir(few, { recursive: true });
  for (let i = 0; i < MATCHING; i++) await writeFile(path.join(few, `sensor-${i}.md`), `# Sensor ${i}\n\nTo calibrate sensor ${i}, hold it level for ${i + 2} seconds.`);
  for (let i = 0; i < 10; i++) await writeFile(path.join(few, `cable-${i}.md`), `# Cable ${i}\n\nCable ${i} is ${i + 1} metres long.`);
  const more = await engine.importPaths('Sensors', [few]);
  if (!more.ok || more.value.summary.imported !== MATCHING + 10) throw new Error('import failed');
}, 120_000);
afterAll(async () => {
  await engine.dispose();
  await cleanup();
});

/** How many of the Sensors library's manuals say "calibrate": between the 20 read and the 30 first-stage candidates. */
const MATCHING = 25;

async function search(query: string, topK: number, library = 'Units'): Promise<SearchResponse['results']> {
  const res = await engine.handlers['search.query']({ library, query, topK, retriever: 'bm25' });
  if (!res.ok) throw new Error(res.error.message);
  return res.value.results;
}

const shown = (results: SearchResponse['results']) => results.map((r) => [r.chunkId, r.score]);

describe('top-k', () => {
  for (const query of ['How do I reset the network settings?', 'reset button seconds', 'Unit 12 factory reset']) {
    it(`returns the first results of a longer list, with the same scores: "${query}"`, async () => {
      const longest = await search(query, 100);
      expect(longest.length).toBeGreaterThan(60);
      for (const k of [1, 3, 10, 25, 60]) {
        const results = await search(query, k);
        expect(results).toHaveLength(k);
        expect(shown(results)).toEqual(shown(longest.slice(0, k)));
      }
    });
  }

  it('shows every match when the question matches more chunks than are reranked but fewer than the first stage found', async () => {
    const all = await search('calibrate', 100, 'Sensors');
    expect(all.map((r) => r.title).filter((t) => /sensor/i.test(t))).toHaveLength(MATCHING);
    expect(all).toHaveLength(MATCHING);
    expect(shown(await search('calibrate', 25, 'Sensors'))).toEqual(shown(all.slice(0, 25)));
  });

  it('shows each chunk once however far the list goes', async () => {
    const ids = (await search('reset the firmware', 100)).map((r) => r.chunkId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
