import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runEvalCommand } from '../../src-main/eval/eval.command';
import { runEvaluation, type EvalReport, type EvalResult, type QuestionRank } from '../../src-main/eval/eval.runner';
import { METRIC_NAMES } from '../../src-main/eval/metrics';
import type { Question } from '../../src-main/eval/questions';
import { tempDir } from '../helpers/temp';
import { ensureTinyGguf } from '../models/tiny-gguf';
import { ensureTinyOnnx } from '../models/tiny-onnx';
import { capture } from '../helpers/capture';

const DOCS: Record<string, string> = {
  'rac-225b.md':
    '# RAC-225B service manual\n\n## Fuses\n\nThe RAC-225B takes a **10 A** slow-blow fuse on the control board. Replace it only with the same rating.\n\n' +
    '## Filters\n\nClean the RAC-225B air filter every two weeks with lukewarm water and let it dry before refitting.\n',
  'rac-330.md':
    '# RAC-330 service manual\n\n## Fuses\n\nThe RAC-330 takes a 15 A fast-acting fuse on the power board. Replace it only with the same rating.\n\n' +
    '## Filters\n\nClean the RAC-330 air filter once a month; replace it every year.\n',
  'pump-p10.md':
    '# P10 pump manual\n\n## Seals\n\nThe P10 shaft seal is part number SE-4410. Check it at every service.\n\n## Priming\n\nPrime the P10 pump with 2 litres of water before the first start.\n',
};

const QUESTIONS: Question[] = [
  { id: 'q1', query: 'What fuse does the RAC-225B take?', answers: [{ doc: 'manuals/rac-225b.md', contains: '10 A slow-blow fuse' }] },
  { id: 'q2', query: 'How often should the RAC-330 air filter be cleaned?', answers: [{ doc: 'manuals/rac-330.md', contains: 'once a month' }] },
  {
    id: 'q3',
    query: 'P10 pump seal part number and priming water',
    answers: [
      { doc: 'manuals/pump-p10.md', contains: 'SE-4410' },
      { doc: 'manuals/pump-p10.md', contains: '2 litres of water' },
    ],
  },
];

let root: string;
let cleanup: () => Promise<void>;
let corpus: string;
let report: EvalReport;
let modelReport: EvalReport;
const progress: string[] = [];

beforeAll(async () => {
  ({ dir: root, cleanup } = await tempDir('manualmate-eval-test-'));
  corpus = path.join(root, 'manuals');
  await mkdir(corpus);
  for (const [name, text] of Object.entries(DOCS)) await writeFile(path.join(corpus, name), text);
  await mkdir(path.join(root, 'no-models'));
  await mkdir(path.join(root, 'tmp'));
  const res = await runEvaluation({
    corpora: [corpus],
    questions: QUESTIONS,
    configurations: ['structure+cnm', 'naive', 'semantic'],
    enrich: ['heuristic', 'llm'],
    retrievers: ['bm25', 'dense'],
    topK: 10,
    bundledModelsDir: path.join(root, 'no-models'),
    tempRoot: path.join(root, 'tmp'),
    onProgress: (l) => progress.push(l),
  });
  if (!res.ok) throw new Error(res.error.message);
  report = res.value;

  // The tiny generated models: their answers are meaningless, but every path runs for real.
  const models = path.join(root, 'models');
  await ensureTinyGguf(path.join(models, 'tiny-llama.gguf'));
  await ensureTinyOnnx(path.join(models, 'tiny-embedder'));
  const withModels = await runEvaluation({
    corpora: [corpus],
    questions: QUESTIONS,
    configurations: ['structure'],
    enrich: ['heuristic', 'llm'],
    retrievers: ['bm25', 'dense', 'hybrid'],
    topK: 10,
    bundledModelsDir: models,
    threads: 1,
    tempRoot: path.join(root, 'tmp'),
  });
  if (!withModels.ok) throw new Error(withModels.error.message);
  modelReport = withModels.value;
});
afterAll(async () => cleanup());

function ranksOf(r: EvalResult, from: EvalReport = report): QuestionRank[] {
  return from.ranks.filter((x) => x.strategy === r.strategy && x.enrich === r.enrich && x.retriever === r.retriever);
}

function expectConsistent(r: EvalResult, from: EvalReport): void {
  expect(Object.keys(r.metrics)).toEqual([...METRIC_NAMES]);
  for (const m of METRIC_NAMES) {
    expect(r.metrics[m]).toBeGreaterThanOrEqual(0);
    expect(r.metrics[m]).toBeLessThanOrEqual(1);
  }
  const ranks = ranksOf(r, from);
  expect(ranks).toHaveLength(r.queries);
  const mean = (f: (x: QuestionRank) => number) => ranks.reduce((s, x) => s + f(x), 0) / ranks.length;
  for (const k of [1, 3, 5, 10]) expect(r.metrics[`hit@${k}` as 'hit@1']).toBeCloseTo(mean((x) => (x.rank !== null && x.rank <= k ? 1 : 0)), 3);
  expect(r.metrics['mrr@10']).toBeCloseTo(mean((x) => (x.rank !== null && x.rank <= 10 ? 1 / x.rank : 0)), 3);
  expect(r.metrics['ndcg@10']).toBeCloseTo(mean((x) => x['ndcg@10']), 3);
  expect(r.metrics['recall@5']).toBeCloseTo(mean((x) => x['recall@5']), 3);
  for (const x of ranks) {
    expect(x.rank).toBe(x.relevant_ranks[0] ?? null);
    expect(x.relevant_chunks).toBeGreaterThan(0);
    if (x.rank === null) expect(x['ndcg@10']).toBe(0);
    if (x.rank === 1) expect(x['ndcg@10']).toBeGreaterThanOrEqual(1 / x.answers - 1e-9);
    expect(x.top.length).toBeLessThanOrEqual(3);
  }
}

describe('runEvaluation on a tiny generated corpus', () => {
  it('evaluates each runnable configuration once per question', () => {
    expect(report.results.map((r) => `${r.strategy}/${r.enrich}/${r.retriever}`)).toEqual(['structure+cnm/heuristic/bm25', 'naive/heuristic/bm25']);
    for (const r of report.results) {
      expect(r.queries).toBe(3);
      expect(ranksOf(r).map((x) => x.id)).toEqual(['q1', 'q2', 'q3']);
      expect(r.chunks).toBeGreaterThanOrEqual(3);
      expect(r.index_seconds).toBeGreaterThanOrEqual(0);
      expect(r.llm_calls).toBe(0);
      expect(r.llm_tokens).toBe(0);
      expect(r.failed_documents).toBe(0);
      expect(r.answerable).toBe(1);
    }
  });

  it('reports metrics in [0, 1] that agree with the per-question ranks', () => {
    for (const r of report.results) expectConsistent(r, report);
  });

  it('finds the named model’s passage first for the single-answer questions', () => {
    for (const r of report.results) {
      const byId = new Map(ranksOf(r).map((x) => [x.id, x]));
      expect(byId.get('q1')!.rank).toBe(1);
      expect(byId.get('q1')!.top[0]!.doc).toBe('manuals/rac-225b.md');
      expect(byId.get('q2')!.rank).toBe(1);
    }
  });

  it('skips what needs a model, with the reason, instead of failing', () => {
    const reasons = (strategy: string, enrich: string, retriever: string) =>
      report.skipped.filter((s) => s.strategy === strategy && s.enrich === enrich && s.retriever === retriever).map((s) => s.reason);
    expect(reasons('structure+cnm', 'heuristic', 'dense')[0]).toMatch(/embedding model/);
    // Refused by the contract's libraries.create before any file is imported.
    expect(reasons('semantic', 'heuristic', 'bm25')[0]).toMatch(/^Semantic chunking needs an embedding model/);
    expect(reasons('naive', 'llm', 'bm25')[0]).toMatch(/"llm" enrichment needs a chat model/);
    expect(report.skipped).toHaveLength(2 * 3 + 2 + 2);
    expect(progress.some((l) => l.includes('skipped'))).toBe(true);
  });

  it('runs dense and hybrid search with an embedder and counts the LLM enrichment’s calls and tokens', () => {
    expect(modelReport.skipped).toEqual([]);
    expect(modelReport.results.map((r) => `${r.enrich}/${r.retriever}`)).toEqual([
      'heuristic/bm25',
      'heuristic/dense',
      'heuristic/hybrid',
      'llm/bm25',
      'llm/dense',
      'llm/hybrid',
    ]);
    for (const r of modelReport.results) {
      expectConsistent(r, modelReport);
      if (r.enrich === 'heuristic') expect([r.llm_calls, r.llm_tokens]).toEqual([0, 0]);
      else {
        expect(r.llm_calls).toBeGreaterThanOrEqual(r.chunks);
        expect(r.llm_tokens).toBeGreaterThan(r.llm_calls);
      }
    }
  });

  it('removes its temporary libraries', async () => {
    expect(await readdir(path.join(root, 'tmp'))).toEqual([]);
  });
});


describe('runEvalCommand', () => {
  it('prints the --json object and writes the table, chart and ranks to --out', async () => {
    const questions = path.join(root, 'qs.jsonl');
    await writeFile(questions, QUESTIONS.map((q) => JSON.stringify(q)).join('\n') + '\n');
    const out = path.join(root, 'report');
    const c = capture();
    const code = await runEvalCommand(
      { corpus: [corpus], questions, strategies: 'structure,recursive', 'top-k': '5', out, json: true, 'data-dir': path.join(root, 'data') },
      c.io,
    );
    expect(code).toBe(0);
    const json = JSON.parse(c.out()) as { results: EvalResult[]; skipped: unknown[] };
    expect(json.results.map((r) => r.strategy)).toEqual(['structure', 'recursive']);
    for (const r of json.results) {
      expect(Object.keys(r)).toEqual(
        expect.arrayContaining(['strategy', 'enrich', 'retriever', 'queries', 'metrics', 'index_seconds', 'chunks', 'llm_calls', 'llm_tokens']),
      );
      expect(r).toMatchObject({ enrich: 'heuristic', retriever: 'bm25', queries: 3 });
    }
    expect(c.err()).toContain('[structure / heuristic] importing manuals');
    expect((await readdir(out)).sort()).toEqual(['chart.svg', 'ranks.jsonl', 'report.md', 'results.json']);
    const ranks = (await readFile(path.join(out, 'ranks.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as QuestionRank);
    expect(ranks).toHaveLength(6);
    expect(JSON.parse(await readFile(path.join(out, 'results.json'), 'utf8'))).toEqual(json);
    expect(await readFile(path.join(out, 'report.md'), 'utf8')).toContain('| structure | heuristic | bm25 |');
    expect(await readFile(path.join(out, 'chart.svg'), 'utf8')).toMatch(/^<svg[\s\S]*<\/svg>\n$/);
  });

  it('prints the Markdown table without --json', async () => {
    const questions = path.join(root, 'qs2.jsonl');
    await writeFile(questions, JSON.stringify(QUESTIONS[0]) + '\n');
    const c = capture();
    expect(await runEvalCommand({ corpus: [corpus], questions, strategies: 'structure', 'data-dir': path.join(root, 'data') }, c.io)).toBe(0);
    expect(c.out()).toMatch(/^\| configuration \| enrich \| retriever \| Hit@1 /);
    expect(c.out()).toContain('| structure | heuristic | bm25 | 1.000 |');
  });

  it('exits 2 with a clear message on usage errors', async () => {
    const questions = path.join(root, 'qs.jsonl');
    const bad = path.join(root, 'bad.jsonl');
    await writeFile(bad, `${JSON.stringify(QUESTIONS[0])}\n{"id":"q2","query":"x","answers":[{"doc":"manuals/a.md"}]}\n`);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ questions }, /needs at least one --corpus DIR/],
      [{ corpus: [corpus] }, /needs --questions FILE\.jsonl/],
      [{ corpus: [path.join(root, 'nope')], questions }, /--corpus .*nope is not a folder/],
      [{ corpus: [corpus], questions: path.join(root, 'missing.jsonl') }, /cannot read the question file .*missing\.jsonl: it does not exist/],
      [{ corpus: [corpus], questions: bad }, /bad\.jsonl, line 2: "contains" must be a string/],
      [{ corpus: [corpus], questions, strategies: 'structure,chop' }, /--strategies has "chop"; choose from default, naive, recursive/],
      [{ corpus: [corpus], questions, retrievers: 'bm25,splade' }, /--retrievers has "splade"/],
      [{ corpus: [corpus], questions, 'top-k': '0' }, /--top-k must be a whole number from 1 to 100/],
    ];
    for (const [values, message] of cases) {
      const c = capture();
      expect(await runEvalCommand(values, c.io)).toBe(2);
      expect(c.err()).toMatch(message);
      expect(c.err()).toContain('Usage: manualmate eval --corpus DIR');
      expect(c.out()).toBe('');
    }
  });
});

describe('runEvaluation with an embedder that does not load', () => {
  it('says so once, runs BM25, and skips dense search with the reason', async () => {
    const tmp = await tempDir('manualmate-eval-broken-');
    try {
      const corpusDir = path.join(tmp.dir, 'manuals');
      await mkdir(corpusDir);
      for (const [name, text] of Object.entries(DOCS)) await writeFile(path.join(corpusDir, name), text);
      const models = path.join(tmp.dir, 'models');
      await ensureTinyOnnx(path.join(models, 'broken-embedder'));
      await writeFile(path.join(models, 'broken-embedder', 'onnx', 'model.onnx'), 'not an onnx graph');
      const lines: string[] = [];
      const res = await runEvaluation({
        corpora: [corpusDir],
        questions: QUESTIONS,
        configurations: ['structure', 'naive'],
        enrich: ['heuristic'],
        retrievers: ['bm25', 'dense'],
        topK: 10,
        bundledModelsDir: models,
        tempRoot: tmp.dir,
        onProgress: (l) => lines.push(l),
      });
      if (!res.ok) throw new Error(res.error.message);
      expect(res.value.results.map((r) => `${r.strategy}/${r.retriever}`)).toEqual(['structure/bm25', 'naive/bm25']);
      expect(res.value.skipped.map((s) => `${s.strategy}/${s.retriever}`)).toEqual(['structure/dense', 'naive/dense']);
      expect(lines.filter((l) => l.includes('"broken-embedder" could not be loaded'))).toHaveLength(1);
    } finally {
      await tmp.cleanup();
    }
  });
});
