import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runEvalCommand } from '../../src-main/eval/eval.command';
import { pageCorrect } from '../../src-main/eval/metrics';
import { normalizeForRelevance } from '../../src-main/eval/relevance';
import { discoverSuite, macroAverage, SCORECARD_END, SCORECARD_START, spliceScorecard, type SetReport } from '../../src-main/eval/suite';
import { RANK_STAGE_NAMES } from '../../src-main/core/vocabulary';
import { capture } from '../helpers/capture';
import { tempDir } from '../helpers/temp';
import { column, writePdf } from '../fixtures/pdf-writer';

/**
 * A bench folder laid out like ../shared: `bench/*.jsonl` and `corpus/`, one set's corpus one level
 * down (`corpus/group/pumps`), as the shared e-manual sets are.
 */
let root: { dir: string; cleanup: () => Promise<void> };
let bench: string;

const line = (o: unknown) => `${JSON.stringify(o)}\n`;

beforeAll(async () => {
  root = await tempDir('manualmate-suite-');
  bench = path.join(root.dir, 'bench');
  const fans = path.join(root.dir, 'corpus', 'fans');
  const pumps = path.join(root.dir, 'corpus', 'group', 'pumps');
  await Promise.all([mkdir(bench, { recursive: true }), mkdir(fans, { recursive: true }), mkdir(pumps, { recursive: true })]);
  await writeFile(path.join(fans, 'fx-10.md'), '# FX-10 fan\n\n## Fuse\n\nThe FX-10 takes a 2 A fuse.\n\n## Bearings\n\nOil the FX-10 bearings yearly.\n');
  await writeFile(path.join(fans, 'fx-20.md'), '# FX-20 fan\n\n## Fuse\n\nThe FX-20 takes a 4 A fuse.\n\n## Bearings\n\nThe FX-20 bearings are sealed.\n');
  // A two-page PDF: the seal part number is on page 2 only.
  const pdf = writePdf(
    [
      { runs: column(['P7 pump manual', 'Priming: fill the P7 with 2 litres of water before the first start.'], 72, 720) },
      { runs: column(['P7 seals', 'The P7 shaft seal is part number SE-4410. Check it at every service.'], 72, 720) },
    ],
    { title: 'P7 pump manual' },
  );
  await writeFile(path.join(pumps, 'p7.pdf'), pdf);
  await writeFile(
    path.join(bench, 'fans.jsonl'),
    line({ id: 'f1', query: 'FX-20 fuse rating', answers: [{ doc: 'fans/fx-20.md', contains: '4 A fuse' }] }) +
      line({ id: 'f2', query: 'FX-10 bearings oil', answers: [{ doc: 'fans/fx-10.md', contains: 'bearings yearly' }] }),
  );
  await writeFile(
    path.join(bench, 'pumps.jsonl'),
    line({ id: 'p1', query: 'P7 shaft seal part number', answers: [{ doc: 'pumps/p7.pdf', contains: 'SE-4410', page: 2 }] }),
  );
});

afterAll(async () => {
  await root.cleanup();
});

describe('discoverSuite', () => {
  it('reads every question file and finds each corpus folder from the document ids, at any depth', async () => {
    const sets = await discoverSuite(bench);
    expect(sets.ok).toBe(true);
    if (!sets.ok) return;
    expect(sets.value.map((s) => s.name)).toEqual(['fans', 'pumps']);
    expect(sets.value[0]!.corpora).toEqual([path.join(root.dir, 'corpus', 'fans')]);
    expect(sets.value[1]!.corpora).toEqual([path.join(root.dir, 'corpus', 'group', 'pumps')]);
    expect(sets.value[1]!.questions[0]!.answers[0]!.page).toBe(2);
  });

  it('keeps only the sets asked for, and names an unknown set and the ones there are', async () => {
    const one = await discoverSuite(bench, { only: ['pumps'] });
    expect(one.ok && one.value.map((s) => s.name)).toEqual(['pumps']);
    const bad = await discoverSuite(bench, { only: ['pumps', 'nope'] });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.message).toMatch(/nope.*fans, pumps/);
  });

  it('says which corpus folder is missing', async () => {
    const other = await tempDir('manualmate-suite-missing-');
    try {
      await mkdir(path.join(other.dir, 'bench'));
      await writeFile(path.join(other.dir, 'bench', 'x.jsonl'), line({ id: 'x', query: 'q', answers: [{ doc: 'gone/a.md', contains: 'a' }] }));
      const res = await discoverSuite(path.join(other.dir, 'bench'));
      expect(res.ok).toBe(false);
      if (!res.ok) expect(res.error.message).toMatch(/no folder "gone"/);
    } finally {
      await other.cleanup();
    }
  });
});

describe('pageCorrect', () => {
  const answers = [{ page: 3 }, { page: 7 }];
  it('is true when the first relevant result cites the page of an answer it covers', () => {
    expect(pageCorrect([[], [1]], [[1], [6, 7]], answers)).toBe(true);
  });
  it('is false when the first relevant result is on another page, even if a later one is right', () => {
    expect(pageCorrect([[0], [0]], [[4], [3]], answers)).toBe(false);
  });
  it('is false when the cited page belongs to an answer the result does not cover', () => {
    expect(pageCorrect([[0]], [[7]], answers)).toBe(false);
  });
  it('is null without pages or without a relevant result', () => {
    expect(pageCorrect([[0]], [[1]], [{}])).toBeNull();
    expect(pageCorrect([[], []], [[3], [3]], answers)).toBeNull();
  });
});

describe('the relevance rule', () => {
  it('applies NFKC to both sides: a micro sign equals a Greek mu', () => {
    expect(normalizeForRelevance('10 \u00b5F')).toBe(normalizeForRelevance('10 \u03bcF'));
    expect(normalizeForRelevance('\uff15V')).toBe('5v');
  });
});

describe('macroAverage', () => {
  it('weighs every set the same, whatever its number of questions', () => {
    const set = (name: string, questions: number, hit: number): SetReport => ({
      set: name,
      questions,
      skipped: [],
      ranks: [],
      results: [
        {
          strategy: 'default',
          enrich: 'heuristic',
          retriever: 'bm25',
          stage_off: null,
          queries: questions,
          metrics: { 'hit@1': hit, 'hit@3': hit, 'hit@5': hit, 'hit@10': hit, 'mrr@10': hit, 'ndcg@10': hit, 'recall@5': hit },
          index_seconds: 0,
          chunks: 1,
          llm_calls: 0,
          llm_tokens: 0,
          answerable: 1,
          failed_documents: 0,
          page_accuracy: null,
          page_questions: 0,
        },
      ],
    });
    const macro = macroAverage([set('big', 600, 0.5), set('small', 10, 1)]);
    expect(macro).toHaveLength(1);
    expect(macro[0]!.sets).toBe(2);
    expect(macro[0]!.metrics['hit@1']).toBeCloseTo(0.75, 12);
  });
});

describe('spliceScorecard', () => {
  it('replaces only the text between the markers, and appends a section when there are none', () => {
    const doc = `# Benchmarks\n\nintro\n\n${SCORECARD_START}\nold table\n${SCORECARD_END}\n\n## Later\nkept\n`;
    const next = spliceScorecard(doc, 'new table\n');
    expect(next).toContain('new table');
    expect(next).not.toContain('old table');
    expect(next.startsWith('# Benchmarks\n\nintro\n\n')).toBe(true);
    expect(next.endsWith('## Later\nkept\n')).toBe(true);
    const appended = spliceScorecard('# Benchmarks\n', 'table\n');
    expect(appended).toMatch(/^# Benchmarks\n\n## Scorecard[^\n]*\n\n<!-- scorecard:start -->\ntable\n<!-- scorecard:end -->\n$/);
  });
});

describe('eval --suite', () => {
  it('scores every set with the default configuration, page accuracy on the PDF set, and writes the docs file', async () => {
    const docs = path.join(root.dir, 'benchmarks.md');
    await writeFile(docs, `# Benchmarks\n\n${SCORECARD_START}\n${SCORECARD_END}\n`);
    const c = capture();
    const code = await runEvalCommand({ suite: bench, strategies: 'default,naive', 'write-docs': docs, json: true }, c.io);
    expect(code, c.err()).toBe(0);
    const out = JSON.parse(c.out()) as { sets: SetReport[]; macro: { strategy: string; metrics: Record<string, number> }[] };
    expect(out.sets.map((s) => s.set)).toEqual(['fans', 'pumps']);
    expect(out.macro.map((m) => m.strategy)).toEqual(['default', 'naive']);
    const fans = out.sets[0]!.results.find((r) => r.strategy === 'default')!;
    expect(fans.metrics['hit@1']).toBe(1);
    expect(fans.page_accuracy).toBeNull();
    const pumps = out.sets[1]!.results.find((r) => r.strategy === 'default')!;
    expect(pumps.metrics['hit@1']).toBe(1);
    expect(pumps.page_questions).toBe(1);
    expect(pumps.page_accuracy).toBe(1);
    const written = await readFile(docs, 'utf8');
    expect(written).toMatch(/\| fans \(2\) \| 1\.000 \| [0-9.]+ \| – \|/);
    expect(written).toMatch(/\| pumps \(1\) \| 1\.000 \| [0-9.]+ \| 1\.000 \(1\) \|/);
    // Outside a git checkout the run line names no commit.
    expect(written).toMatch(/^Run \d{4}-\d{2}-\d{2}, top-k 10,/m);
  });

  it('names the commit it measured when the docs file is in a git checkout', async () => {
    const repo = path.join(root.dir, 'checkout');
    await mkdir(repo, { recursive: true });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: repo, encoding: 'utf8' }).trim();
    git('init', '-q');
    const docs = path.join(repo, 'benchmarks.md');
    await writeFile(docs, `# Benchmarks\n\n${SCORECARD_START}\n${SCORECARD_END}\n`);
    git('add', '.');
    git('commit', '-qm', 'docs');
    const head = git('rev-parse', '--short=7', 'HEAD');
    const c = capture();
    expect(await runEvalCommand({ suite: bench, strategies: 'default', sets: 'fans', 'write-docs': docs, json: true }, c.io), c.err()).toBe(0);
    expect(await readFile(docs, 'utf8')).toMatch(new RegExp(`^Run \\d{4}-\\d{2}-\\d{2} at commit \`${head}\`, top-k 10, fans;`, 'm'));
  });

  it('with --ablate, runs every question once more per ranking stage left out and tables the change', async () => {
    const docs = path.join(root.dir, 'ablation.md');
    await writeFile(docs, `# Benchmarks\n\n${SCORECARD_START}\n${SCORECARD_END}\n`);
    const c = capture();
    const code = await runEvalCommand({ suite: bench, strategies: 'default', ablate: true, 'write-docs': docs, json: true }, c.io);
    expect(code, c.err()).toBe(0);
    const out = JSON.parse(c.out()) as { sets: SetReport[] };
    for (const set of out.sets) {
      expect(set.results.map((r) => r.stage_off)).toEqual([null, ...RANK_STAGE_NAMES]);
      for (const r of set.results) expect(r.queries).toBe(set.questions);
    }
    const written = await readFile(docs, 'utf8');
    expect(written).toContain('**Ablation');
    expect(written).toContain(`| set | all stages | ${RANK_STAGE_NAMES.map((s) => `without ${s}`).join(' | ')} |`);
    expect(written).toMatch(/\| fans \| 1\.000 \| /);
    expect(written).toMatch(/\| \*\*macro\*\* \|/);
  });

  it('exits 2 when --suite is given with --corpus, or names a missing folder', async () => {
    const c = capture();
    expect(await runEvalCommand({ suite: bench, corpus: ['x'] }, c.io)).toBe(2);
    expect(c.err()).toMatch(/leave out --corpus/);
    const d = capture();
    expect(await runEvalCommand({ suite: path.join(root.dir, 'nowhere') }, d.io)).toBe(2);
    expect(d.err()).toMatch(/Cannot read the bench folder/);
  });
});
