import { describe, expect, it } from 'vitest';
import type { EvalResult } from '../../src-main/eval/eval.runner';
import { markdownTable, rowLabel, svgChart } from '../../src-main/eval/report';

function result(strategy: EvalResult['strategy'], hit1: number, ndcg: number, retriever: EvalResult['retriever'] = 'bm25'): EvalResult {
  return {
    strategy,
    enrich: 'heuristic',
    retriever,
    stage_off: null,
    queries: 4,
    metrics: { 'hit@1': hit1, 'hit@3': 0.75, 'hit@5': 1, 'hit@10': 1, 'mrr@10': 0.6, 'ndcg@10': ndcg, 'recall@5': 0.9 },
    index_seconds: 1.234,
    chunks: 120,
    llm_calls: 0,
    llm_tokens: 0,
    answerable: 1,
    failed_documents: 0,
    page_accuracy: null,
    page_questions: 0,
  };
}

describe('markdownTable', () => {
  it('has one row per configuration and bolds the best value of each metric', () => {
    const table = markdownTable([result('naive', 0.5, 0.7), result('structure+cnm', 0.75, 0.65)]);
    const rows = table.trim().split('\n');
    expect(rows).toHaveLength(4);
    expect(rows[0]).toContain('| Hit@1 | Hit@3 | Hit@5 | Hit@10 | MRR@10 | NDCG@10 | Recall@5 |');
    expect(rows[2]).toBe('| naive | heuristic | bm25 | 0.500 | **0.750** | **1.000** | **1.000** | **0.600** | **0.700** | **0.900** | 1.2 | 120 | 0 | 0 | 1.000 |');
    expect(rows[3]).toContain('| structure+cnm | heuristic | bm25 | **0.750** |');
    expect(rows[3]).toContain('| 0.650 |');
  });

  it('lists skipped configurations grouped by reason', () => {
    const table = markdownTable([], [
      { strategy: 'naive', enrich: 'heuristic', retriever: 'dense', reason: 'needs an embedder' },
      { strategy: 'structure', enrich: 'heuristic', retriever: 'dense', reason: 'needs an embedder' },
      { strategy: 'semantic', enrich: 'heuristic', retriever: 'bm25', reason: 'no files' },
    ]);
    expect(table).toContain('No configuration could run.');
    expect(table).toContain('- naive / heuristic / dense, structure / heuristic / dense: needs an embedder\n');
    expect(table).toContain('- semantic / heuristic / bm25: no files\n');
  });
});

describe('svgChart', () => {
  it('draws a Hit@1 and an NDCG@10 bar per configuration, with heights proportional to the values', () => {
    const results = [result('naive', 0.5, 0.7), result('structure', 1, 0.25)];
    const svg = svgChart(results, 'Dev set <bm25>');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[\s\S]*<\/svg>\n$/);
    expect(svg).toContain('Dev set &lt;bm25&gt;');
    const bars = [...svg.matchAll(/<rect x="[\d.]+" y="[\d.]+" width="24" height="([\d.]+)" fill="(#[0-9a-f]+)">/g)].map((m) => ({ h: Number(m[1]), fill: m[2] }));
    expect(bars).toHaveLength(4);
    const unit = bars[2]!.h; // structure's Hit@1 is 1.0
    expect(bars.map((b) => b.h / unit)).toEqual([0.5, 0.7, 1, 0.25].map((v) => expect.closeTo(v, 9)));
    expect(bars[0]!.fill).toBe(bars[2]!.fill);
    expect(bars[0]!.fill).not.toBe(bars[1]!.fill);
    for (const label of ['naive', 'structure', 'Hit@1', 'NDCG@10', 'configuration', '0.50', '0.25']) expect(svg).toContain(`>${label}<`);
  });

  it('labels rows with the retriever only when the report compares retrievers', () => {
    const one = [result('naive', 0.5, 0.5)];
    expect(rowLabel(one[0]!, one)).toBe('naive');
    const two = [result('naive', 0.5, 0.5), result('naive', 0.5, 0.5, 'hybrid')];
    expect(rowLabel(two[1]!, two)).toBe('naive · hybrid');
  });
});
