import { promises as fs } from 'node:fs';
import path from 'node:path';
import { escapeMarkup } from '../core/text';
import type { EvalReport, EvalResult, SkippedConfiguration } from './eval.runner';
import type { MetricName } from './metrics';
import { METRIC_NAMES } from './metrics';

/**
 * The evaluation report: a Markdown table, an SVG bar chart (Hit@1 and NDCG@10 per
 * configuration) and the per-question ranks, written into one folder. The chart is a few dozen
 * rectangles and labels, so it is written directly rather than through a plotting library.
 */

const HEADERS: Record<MetricName, string> = {
  'hit@1': 'Hit@1',
  'hit@3': 'Hit@3',
  'hit@5': 'Hit@5',
  'hit@10': 'Hit@10',
  'mrr@10': 'MRR@10',
  'ndcg@10': 'NDCG@10',
  'recall@5': 'Recall@5',
};

/** A row's label: the configuration, plus enrichment and retriever when the report varies them. */
export function rowLabel(r: Pick<EvalResult, 'strategy' | 'enrich' | 'retriever'>, results: readonly Pick<EvalResult, 'enrich' | 'retriever'>[]): string {
  const parts: string[] = [r.strategy];
  if (new Set(results.map((x) => x.enrich)).size > 1) parts.push(r.enrich);
  if (new Set(results.map((x) => x.retriever)).size > 1) parts.push(r.retriever);
  return parts.join(' · ');
}

/**
 * The results as a Markdown table: one row per configuration, every metric to three decimals
 * with the best value of each column in bold, then index time, chunks, LLM work and the share of
 * answerable questions; skipped configurations follow as a list with their reasons.
 */
export function markdownTable(results: readonly EvalResult[], skipped: readonly SkippedConfiguration[] = []): string {
  const lines: string[] = [];
  if (results.length > 0) {
    const best = Object.fromEntries(METRIC_NAMES.map((m) => [m, Math.max(...results.map((r) => r.metrics[m]))])) as Record<MetricName, number>;
    lines.push(
      `| configuration | enrich | retriever | ${METRIC_NAMES.map((m) => HEADERS[m]).join(' | ')} | index s | chunks | LLM calls | LLM tokens | answerable |`,
      `|---|---|---|${METRIC_NAMES.map(() => '---:').join('|')}|---:|---:|---:|---:|---:|`,
    );
    for (const r of results) {
      const cells = METRIC_NAMES.map((m) => {
        const v = r.metrics[m].toFixed(3);
        return results.length > 1 && r.metrics[m] === best[m] ? `**${v}**` : v;
      });
      lines.push(
        `| ${r.strategy} | ${r.enrich} | ${r.retriever} | ${cells.join(' | ')} | ${r.index_seconds.toFixed(1)} | ${r.chunks} | ${r.llm_calls} | ${r.llm_tokens} | ${r.answerable.toFixed(3)} |`,
      );
    }
  } else {
    lines.push('No configuration could run.');
  }
  if (skipped.length > 0) {
    // Grouped by reason: a missing embedder skips every dense row for the same reason.
    const byReason = new Map<string, string[]>();
    for (const s of skipped) byReason.set(s.reason, [...(byReason.get(s.reason) ?? []), `${s.strategy} / ${s.enrich} / ${s.retriever}`]);
    lines.push('', 'Skipped:');
    for (const [reason, rows] of byReason) lines.push(`- ${rows.join(', ')}: ${reason}`);
  }
  return `${lines.join('\n')}\n`;
}

/** XML text and attribute values: `escapeMarkup`, and quotes. */
const escapeXml = (s: string) => escapeMarkup(s).replace(/"/g, '&quot;');

/** Grouped bars of Hit@1 and NDCG@10 per configuration on a 0–1 axis, with values on the bars. */
export function svgChart(results: readonly EvalResult[], title = 'Retrieval quality per configuration'): string {
  const series: { metric: MetricName; label: string; color: string }[] = [
    { metric: 'hit@1', label: 'Hit@1', color: '#3b6ea8' },
    { metric: 'ndcg@10', label: 'NDCG@10', color: '#e08a2c' },
  ];
  const bar = 26;
  const gap = 28;
  const group = series.length * bar + gap;
  const left = 56;
  const top = 48;
  const plotH = 260;
  const bottom = 120;
  const width = Math.max(360, left + results.length * group + 24);
  const height = top + plotH + bottom;
  const y = (v: number) => top + plotH - Math.max(0, Math.min(1, v)) * plotH;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${width / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
  ];
  for (let t = 0; t <= 10; t += 2) {
    const v = t / 10;
    parts.push(
      `<line x1="${left}" y1="${y(v)}" x2="${width - 12}" y2="${y(v)}" stroke="#dddddd"/>`,
      `<text x="${left - 6}" y="${y(v) + 4}" text-anchor="end">${v.toFixed(1)}</text>`,
    );
  }
  parts.push(
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${top + plotH}" stroke="#333333"/>`,
    `<line x1="${left}" y1="${top + plotH}" x2="${width - 12}" y2="${top + plotH}" stroke="#333333"/>`,
    `<text x="14" y="${top + plotH / 2}" text-anchor="middle" transform="rotate(-90 14 ${top + plotH / 2})">score (0–1)</text>`,
  );
  results.forEach((r, i) => {
    const x0 = left + gap / 2 + i * group;
    series.forEach((s, j) => {
      const v = r.metrics[s.metric];
      const x = x0 + j * bar;
      parts.push(
        `<rect x="${x}" y="${y(v)}" width="${bar - 2}" height="${top + plotH - y(v)}" fill="${s.color}"><title>${escapeXml(`${rowLabel(r, results)} ${s.label} ${v.toFixed(3)}`)}</title></rect>`,
        `<text x="${x + (bar - 2) / 2}" y="${y(v) - 3}" text-anchor="middle" font-size="9">${v.toFixed(2)}</text>`,
      );
    });
    const cx = x0 + (series.length * bar) / 2;
    const ly = top + plotH + 14;
    parts.push(`<text x="${cx}" y="${ly}" text-anchor="end" transform="rotate(-35 ${cx} ${ly})">${escapeXml(rowLabel(r, results))}</text>`);
  });
  series.forEach((s, j) => {
    const lx = left + 10 + j * 100;
    parts.push(`<rect x="${lx}" y="30" width="10" height="10" fill="${s.color}"/>`, `<text x="${lx + 14}" y="39">${s.label}</text>`);
  });
  parts.push(`<text x="${left + (width - left) / 2}" y="${height - 8}" text-anchor="middle">configuration</text>`, '</svg>');
  return `${parts.join('\n')}\n`;
}

/** Files written by `writeReport`, as absolute paths. */
export interface ReportFiles {
  results: string;
  table: string;
  chart: string;
  ranks: string;
}

/**
 * Writes `results.json` (the `--json` object), `report.md` (the table), `chart.svg` and
 * `ranks.jsonl` (one line per question and configuration) into `outDir`, creating it; `header`
 * goes above the table, `title` over the chart.
 */
export async function writeReport(outDir: string, report: EvalReport, options: { header?: string; title?: string } = {}): Promise<ReportFiles> {
  await fs.mkdir(outDir, { recursive: true });
  const files: ReportFiles = {
    results: path.join(outDir, 'results.json'),
    table: path.join(outDir, 'report.md'),
    chart: path.join(outDir, 'chart.svg'),
    ranks: path.join(outDir, 'ranks.jsonl'),
  };
  await fs.writeFile(files.results, `${JSON.stringify({ results: report.results, skipped: report.skipped }, null, 2)}\n`);
  await fs.writeFile(files.table, `${options.header ?? ''}${markdownTable(report.results, report.skipped)}`);
  await fs.writeFile(files.chart, svgChart(report.results, options.title));
  await fs.writeFile(files.ranks, report.ranks.map((r) => JSON.stringify(r)).join('\n') + (report.ranks.length > 0 ? '\n' : ''));
  return files;
}
