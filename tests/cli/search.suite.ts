import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src-main/cli/main';
import { isRelevant, type GoldAnswer } from '../../src-main/eval/relevance';
import { capture } from '../helpers/capture';
import { tempDir } from '../helpers/temp';

interface DevQuestion {
  id: string;
  query: string;
  answers: GoldAnswer[];
  /** Sibling documents that state the same kind of fact for another model. */
  distractors?: string[];
}

interface SearchJson {
  query: string;
  resolvedModels: string[];
  results: { doc: string; text: string; score: number }[];
}

/**
 * End to end through the CLI a technician (or a script) uses: radxa-docs and esp-dev-kits under
 * `corpusRoot` imported with `manualmate import`, then every question of `questionFile` asked with
 * `manualmate search --json` (bm25, the heuristic backend, no model). A relevant chunk (DESIGN.md's
 * rule) must be at rank 1 for at least `minHitAt1` of them; with `noDistractorFirst`, no question
 * may get one of its `distractors` (a sibling model's document) first.
 */
export function describeCliSearch(
  corpusRoot: string,
  questionFile: string,
  questionCount: number,
  minHitAt1: number,
  { noDistractorFirst = false }: { noDistractorFirst?: boolean } = {},
): void {
  const questions: DevQuestion[] = readFileSync(questionFile, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as DevQuestion);

  let dataDir: string;
  let cleanup: () => Promise<void>;

  async function cli(args: string[]): Promise<string> {
    const c = capture();
    const code = await runCli([...args, '--data-dir', dataDir], c.io);
    if (code !== 0) throw new Error(`manualmate ${args[0]} exited ${code}: ${c.err()}`);
    return c.out();
}

  beforeAll(async () => {
    const tmp = await tempDir('manualmate-dev-search-');
    dataDir = tmp.dir;
    cleanup = tmp.cleanup;
    const summary = JSON.parse(
      await cli(['import', path.join(corpusRoot, 'radxa-docs'), path.join(corpusRoot, 'esp-dev-kits'), '--library', 'boards', '--json']),
    ) as { summary: { imported: number; failed: number } };
    expect(summary.summary.failed).toBe(0);
  });

  afterAll(async () => {
    await cleanup();
  });

  describe(`manualmate search on ${path.basename(questionFile)} (bm25, heuristic backend)`, () => {
    it(`puts a relevant chunk at rank 1 for at least ${minHitAt1 * 100}% of the questions`, async () => {
      expect(questions).toHaveLength(questionCount);
      const misses: string[] = [];
      for (const q of questions) {
        const res = JSON.parse(await cli(['search', q.query, '--library', 'boards', '--retriever', 'bm25', '--json'])) as SearchJson;
        expect(res.query).toBe(q.query);
        const top = res.results[0];
        if (!top || !isRelevant(top, q.answers)) misses.push(`${q.id} (top: ${top?.doc ?? 'nothing'})`);
      }
      const hitAt1 = (questions.length - misses.length) / questions.length;
      expect(hitAt1, `Hit@1 ${hitAt1}; misses: ${misses.join(', ')}`).toBeGreaterThanOrEqual(minHitAt1);
    });

    // Registered only where asked for, so the other caller has no skipped test.
    if (noDistractorFirst) {
      it('never puts a sibling model’s document first', async () => {
        const wrongSibling: string[] = [];
        for (const q of questions) {
          const top = (JSON.parse(await cli(['search', q.query, '--library', 'boards', '--retriever', 'bm25', '--json'])) as SearchJson).results[0];
          if (top && (q.distractors ?? []).includes(top.doc)) wrongSibling.push(`${q.id} (top: ${top.doc})`);
        }
        expect(questions.some((q) => (q.distractors ?? []).length > 0)).toBe(true);
        expect(wrongSibling).toEqual([]);
      });
    }

    it('gives the same first result whether one result or ten are asked for', async () => {
      const differ: string[] = [];
      for (const q of questions) {
        const [one, ten] = await Promise.all(
          ['1', '10'].map(async (k) => JSON.parse(await cli(['search', q.query, '--library', 'boards', '--top-k', k, '--json'])) as SearchJson),
        );
        expect(one!.results).toHaveLength(1);
        if (one!.results[0]!.text !== ten!.results[0]?.text) differ.push(q.id);
      }
      expect(differ).toEqual([]);
    });
  });
}
