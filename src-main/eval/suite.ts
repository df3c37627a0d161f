import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { RankStageName } from '../core/vocabulary';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import type { EvalOptions, EvalReport, EvalResult, SkippedConfiguration } from './eval.runner';
import { runEvaluation } from './eval.runner';
import type { MetricName } from './metrics';
import { METRIC_NAMES } from './metrics';
import type { Question } from './questions';
import { parseQuestions } from './questions';
import { rowLabel } from './report';

/**
 * The scorecard: every question file of a bench folder, each over its own corpus, scored with the
 * same configurations, then averaged per configuration (macro: every set weighs the same, however
 * many questions it has). Nothing here knows a set by name: a set is a `*.jsonl` file, and its
 * corpus folders are found from its gold document ids, whose first path segment is the name of
 * the folder that was imported (../shared/bench/README.md).
 */

/** One question file and the corpus folders its document ids come from. */
export interface SuiteSet {
  /** The file name without `.jsonl`. */
  name: string;
  questions: Question[];
  /** Absolute corpus folders, one per first segment of the gold document ids. */
  corpora: string[];
}

/** A set's evaluation: one result per configuration that ran. */
export interface SetReport {
  set: string;
  questions: number;
  results: EvalResult[];
  skipped: SkippedConfiguration[];
  ranks: EvalReport['ranks'];
}

export interface SuiteReport {
  sets: SetReport[];
  /** Per configuration, the mean over the sets where it ran of each metric (and page accuracy where sets have pages). */
  macro: (Pick<EvalResult, 'strategy' | 'enrich' | 'retriever' | 'stage_off'> & { sets: number; metrics: Record<MetricName, number> })[];
}

/** How deep below the corpus root a corpus folder may sit (`corpus/emanual/galaxy` is 2). */
const MAX_CORPUS_DEPTH = 3;

/**
 * Finds the folders named `name` under `root`, breadth first to MAX_CORPUS_DEPTH, skipping hidden
 * folders; the shallowest wins.
 */
async function findFolder(root: string, name: string): Promise<string | null> {
  let level = [root];
  for (let depth = 1; depth <= MAX_CORPUS_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        if (!e.isDirectory() || e.name.startsWith('.')) continue;
        const full = path.join(dir, e.name);
        if (e.name === name) return full;
        next.push(full);
      }
    }
    level = next;
  }
  return null;
}

/**
 * Reads every `*.jsonl` in `benchDir` (or only the sets named in `only`) and finds each one's corpus
 * folders under `corpusRoot` (default: the `corpus` folder beside `benchDir`). Fails with
 * 'invalid-input' naming the file, the set or the folder that is missing.
 */
export async function discoverSuite(benchDir: string, options: { only?: string[]; corpusRoot?: string } = {}): Promise<Result<SuiteSet[]>> {
  const entries = await fs.readdir(benchDir).catch((err: NodeJS.ErrnoException) => err);
  if (!Array.isArray(entries)) return fail('invalid-input', `Cannot read the bench folder ${benchDir}: ${entries.code ?? String(entries)}.`);
  const files = entries.filter((f) => f.endsWith('.jsonl')).sort();
  const names = files.map((f) => f.slice(0, -'.jsonl'.length));
  const unknown = (options.only ?? []).filter((n) => !names.includes(n));
  if (unknown.length > 0) return fail('invalid-input', `No question file for ${unknown.join(', ')} in ${benchDir}; it has ${names.join(', ')}.`);
  const corpusRoot = options.corpusRoot ?? path.join(path.dirname(path.resolve(benchDir)), 'corpus');
  const sets: SuiteSet[] = [];
  for (const [i, file] of files.entries()) {
    const name = names[i]!;
    if (options.only && !options.only.includes(name)) continue;
    const parsed = parseQuestions(await fs.readFile(path.join(benchDir, file), 'utf8'), file);
    if (!parsed.ok) return parsed;
    const roots = [...new Set(parsed.value.flatMap((q) => q.answers.map((a) => a.doc.split('/')[0]!)))];
    const corpora: string[] = [];
    for (const root of roots) {
      const found = await findFolder(corpusRoot, root);
      if (!found) return fail('invalid-input', `${file} names documents under "${root}/", but no folder "${root}" is under ${corpusRoot}.`);
      corpora.push(found);
    }
    sets.push({ name, questions: parsed.value, corpora });
  }
  if (sets.length === 0) return fail('invalid-input', `${benchDir} holds no question files (*.jsonl).`);
  return ok(sets);
}

/** Options of a suite run: those of one evaluation, less the corpora and questions that each set brings. */
export type SuiteOptions = Omit<EvalOptions, 'corpora' | 'questions'>;

/** Evaluates every set in turn; fails only when cancelled or when no temporary folder can be made. */
export async function runSuite(sets: readonly SuiteSet[], options: SuiteOptions): Promise<Result<SuiteReport>> {
  const progress = options.onProgress ?? (() => undefined);
  const out: SetReport[] = [];
  for (const set of sets) {
    progress(`== ${set.name}: ${set.questions.length} questions over ${set.corpora.map((c) => path.basename(c)).join(' + ')}`);
    const res = await runEvaluation({ ...options, corpora: set.corpora, questions: set.questions, onProgress: (l) => progress(`${set.name} ${l}`) });
    if (!res.ok) return res;
    out.push({ set: set.name, questions: set.questions.length, ...res.value });
  }
  return ok({ sets: out, macro: macroAverage(out) });
}

/** A configuration row of the scorecard: chunking configuration, enrichment and retriever. */
type Row = Pick<EvalResult, 'strategy' | 'enrich' | 'retriever' | 'stage_off'>;
const sameRow = (a: Row, b: Row) => a.strategy === b.strategy && a.enrich === b.enrich && a.retriever === b.retriever && a.stage_off === b.stage_off;

/** Mean of each metric over the sets where a row ran, per row in first-seen order. */
export function macroAverage(sets: readonly SetReport[]): SuiteReport['macro'] {
  const rows: { row: Row; results: EvalResult[] }[] = [];
  for (const s of sets) {
    for (const r of s.results) {
      const found = rows.find((x) => sameRow(x.row, r));
      if (found) found.results.push(r);
      else rows.push({ row: { strategy: r.strategy, enrich: r.enrich, retriever: r.retriever, stage_off: r.stage_off }, results: [r] });
    }
  }
  return rows.map(({ row, results }) => ({
    ...row,
    sets: results.length,
    metrics: Object.fromEntries(METRIC_NAMES.map((m) => [m, results.reduce((a, r) => a + r.metrics[m], 0) / results.length])) as Record<MetricName, number>,
  }));
}

const fmt = (v: number | null | undefined) => (v === null || v === undefined ? '–' : v.toFixed(3));

/**
 * The scorecard as Markdown: Hit@1 per set and configuration with the macro average, then per
 * configuration every metric per set, with page accuracy where a set has pages.
 */
export function scorecardMarkdown(report: SuiteReport): string {
  const rows = report.macro.filter((r) => r.stage_off === null);
  const label = (r: Row) => rowLabel(r, rows);
  const find = (s: SetReport, row: Row) => s.results.find((r) => sameRow(r, row));
  const lines: string[] = [];
  lines.push(`| set (questions) | ${rows.map((r) => `${label(r)} Hit@1`).join(' | ')} | page accuracy (${rows[0] ? label(rows[0]) : '–'}) |`);
  lines.push(`|---|${rows.map(() => '---:').join('|')}|---:|`);
  for (const s of report.sets) {
    const first = rows[0] ? find(s, rows[0]) : undefined;
    const page = first?.page_accuracy === null || first === undefined ? '–' : `${fmt(first.page_accuracy)} (${first.page_questions})`;
    lines.push(`| ${s.set} (${s.questions}) | ${rows.map((r) => fmt(find(s, r)?.metrics['hit@1'])).join(' | ')} | ${page} |`);
  }
  lines.push(`| **macro average** | ${rows.map((m) => `**${fmt(m.metrics['hit@1'])}**`).join(' | ')} | |`);
  for (const row of rows) {
    lines.push('', `**${label(row)}**`, '', `| set | ${METRIC_NAMES.join(' | ')} | page acc. | chunks | index s |`, `|---|${METRIC_NAMES.map(() => '---:').join('|')}|---:|---:|---:|`);
    for (const s of report.sets) {
      const r = find(s, row);
      if (!r) continue;
      lines.push(`| ${s.set} | ${METRIC_NAMES.map((m) => fmt(r.metrics[m])).join(' | ')} | ${fmt(r.page_accuracy)} | ${r.chunks} | ${r.index_seconds.toFixed(1)} |`);
    }
    lines.push(`| macro (${row.sets} sets) | ${METRIC_NAMES.map((m) => fmt(row.metrics[m])).join(' | ')} | | | |`);
  }
  lines.push(...ablationMarkdown(report));
  const skipped = report.sets.flatMap((s) => s.skipped.map((k) => `- ${s.set}: ${k.strategy} / ${k.enrich} / ${k.retriever}: ${k.reason}`));
  if (skipped.length > 0) lines.push('', 'Skipped:', ...skipped);
  return `${lines.join('\n')}\n`;
}

const signed = (v: number) => (v > 0 ? `+${v.toFixed(3)}` : v < 0 ? `−${(-v).toFixed(3)}` : '±0');

/**
 * The ablation (`--ablate`): per set, Hit@1 with every ranking stage, then the change in Hit@1
 * when each stage is left out (a negative number is what the stage is worth there; a positive one
 * is a set the stage makes worse). Empty when no run left a stage out.
 */
export function ablationMarkdown(report: SuiteReport): string[] {
  const off = report.macro.filter((r) => r.stage_off !== null);
  if (off.length === 0) return [];
  const stages = [...new Set(off.map((r) => r.stage_off!))];
  const lines = ['', '**Ablation: Hit@1 with every stage, and its change with one stage left out (BM25)**', ''];
  lines.push(`| set | all stages | ${stages.map((s) => `without ${s}`).join(' | ')} |`, `|---|---:|${stages.map(() => '---:').join('|')}|`);
  const base = off[0]!;
  // One line per set and one for the macro average, from the same kind of rows.
  const line = (label: string, rows: readonly (Row & { metrics: Record<MetricName, number> })[], bold = false): void => {
    const hit = (stage: RankStageName | null) => rows.find((r) => sameRow(r, { ...base, stage_off: stage }))?.metrics['hit@1'];
    const all = hit(null);
    if (all === undefined) return;
    const changes = stages.map((st) => {
      const v = hit(st);
      return v === undefined ? '–' : signed(v - all);
    });
    lines.push(bold ? `| **${label}** | **${fmt(all)}** | ${changes.join(' | ')} |` : `| ${label} | ${fmt(all)} | ${changes.join(' | ')} |`);
  };
  for (const s of report.sets) line(s.set, s.results);
  line('macro', report.macro, true);
  return lines;
}

/** Markers around the scorecard in a Markdown file; the text between them is replaced on each run. */
export const SCORECARD_START = '<!-- scorecard:start -->';
export const SCORECARD_END = '<!-- scorecard:end -->';

/**
 * Replaces the text between the scorecard markers of `markdown` with `table` (appending a section
 * with the markers when the file has none).
 */
export function spliceScorecard(markdown: string, table: string): string {
  const block = `${SCORECARD_START}\n${table}${SCORECARD_END}`;
  const start = markdown.indexOf(SCORECARD_START);
  const end = markdown.indexOf(SCORECARD_END);
  if (start >= 0 && end > start) return markdown.slice(0, start) + block + markdown.slice(end + SCORECARD_END.length);
  return `${markdown.replace(/\s*$/, '\n')}\n## Scorecard over every shared set\n\n${block}\n`;
}
