import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { withCtrlC } from '../cli/interrupt';
import { resolveDataDir } from '../engine/paths';
import { fail, ok } from '../core/result';
import { MAX_TOP_K } from '../core/vocabulary';
import { parseConfigurations, parseEnrichModes, parseRetrievers } from './configurations';
import { runEvaluation } from './eval.runner';
import type { Question } from './questions';
import { parseQuestions } from './questions';
import { markdownTable, writeReport } from './report';
import { discoverSuite, runSuite, scorecardMarkdown, spliceScorecard } from './suite';

/**
 * `manualmate eval --corpus DIR [--corpus DIR2 ...] --questions FILE.jsonl [--strategies LIST]
 * [--enrich LIST] [--retrievers LIST] [--top-k 10] [--out DIR] [--json]`.
 * Exit codes: 0 at least one configuration ran, 1 none could run or cancelled, 2 usage error.
 * Progress goes to stderr; the table (or with --json one JSON object) to stdout.
 */

type Out = { write(s: string): void };

const USAGE =
  'Usage: manualmate eval --corpus DIR [--corpus DIR2 ...] --questions FILE.jsonl [--strategies LIST] [--enrich LIST] [--retrievers LIST] [--top-k 10] [--out DIR] [--json]\n' +
  '       manualmate eval --suite BENCH_DIR [--sets LIST] [--strategies LIST] [--retrievers LIST] [--top-k 10] [--ablate] [--out DIR] [--write-docs FILE.md] [--json]';

/** Configurations of the scorecard when --strategies is absent: the product and the two peers. */
const SUITE_CONFIGURATIONS = 'default,naive,recursive';

/** Runs the eval command with parsed option values (node:util parseArgs); returns the exit code. */
export async function runEvalCommand(values: Record<string, unknown>, io: { stdout: Out; stderr: Out }): Promise<number> {
  const usage = (message: string): number => {
    io.stderr.write(`manualmate eval: ${message}\n${USAGE}\n`);
    return 2;
  };

  if (values['suite'] !== undefined) return runSuiteCommand(values, io, usage);

  const corpusValue = values['corpus'];
  const corpora = (Array.isArray(corpusValue) ? corpusValue : typeof corpusValue === 'string' ? [corpusValue] : []).filter(
    (c): c is string => typeof c === 'string' && c.trim() !== '',
  );
  if (corpora.length === 0) return usage('needs at least one --corpus DIR (a folder of manuals).');
  const corpusDirs: string[] = [];
  for (const c of corpora) {
    const abs = path.resolve(c);
    const stat = await fs.stat(abs).catch(() => null);
    if (!stat?.isDirectory()) return usage(`--corpus ${c} is not a folder.`);
    corpusDirs.push(abs);
  }

  const questionsPath = values['questions'];
  if (typeof questionsPath !== 'string' || questionsPath.trim() === '') return usage('needs --questions FILE.jsonl.');
  let text: string;
  try {
    text = await fs.readFile(path.resolve(questionsPath), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return usage(`cannot read the question file ${questionsPath}: ${code === 'ENOENT' ? 'it does not exist' : code === 'EISDIR' ? 'it is a folder' : (code ?? 'error')}.`);
  }
  const questions = parseQuestions(text, path.basename(questionsPath));
  if (!questions.ok) return usage(questions.error.message);

  const common = commonOptions(values);
  if (!common.ok) return usage(common.error.message);
  const { outDir } = common.value;
  const { topK } = common.value.run;
  const json = values['json'] === true;

  const outside = questionsOutside(questions.value, corpusDirs);
  if (outside.length > 0) {
    io.stderr.write(
      `manualmate eval: warning: ${outside.length} question(s) name documents under none of the corpus folders (e.g. ${outside[0]}); ` +
        'document ids start with the corpus folder name, so those questions will score 0.\n',
    );
  }

  const started = new Date();
  const res = await withCtrlC((signal) =>
    runEvaluation({ ...common.value.run, corpora: corpusDirs, questions: questions.value, signal, onProgress: (line) => io.stderr.write(`${line}\n`) }),
  );
  if (!res.ok) {
    io.stderr.write(`manualmate eval: ${res.error.message}\n`);
    return 1;
  }
  const report = res.value;

  if (outDir) {
    const header =
      `Questions: ${path.basename(questionsPath)} (${questions.value.length}); corpora: ${corpusDirs.map((c) => path.basename(c)).join(', ')}; ` +
      `top-k ${topK}; ${started.toISOString()}\n\n`;
    const title = `Hit@1 and NDCG@10 on ${path.basename(questionsPath)} (${questions.value.length} questions)`;
    const files = await writeReport(outDir, report, { header, title });
    io.stderr.write(`Wrote ${path.basename(files.table)}, ${path.basename(files.chart)}, ${path.basename(files.results)} and ${path.basename(files.ranks)} to ${outDir}\n`);
  }
  if (json) io.stdout.write(`${JSON.stringify({ results: report.results, skipped: report.skipped })}\n`);
  else io.stdout.write(markdownTable(report.results, report.skipped));
  if (report.results.length === 0) {
    io.stderr.write('manualmate eval: no configuration could run (see the reasons above).\n');
    return 1;
  }
  return 0;
}

/** Flags shared by both forms of the command, parsed the same way. */
function commonOptions(values: Record<string, unknown>, defaultStrategies?: string) {
  const configurations = parseConfigurations((values['strategies'] as string | undefined) ?? defaultStrategies);
  if (!configurations.ok) return configurations;
  const enrich = parseEnrichModes(values['enrich'] as string | undefined);
  if (!enrich.ok) return enrich;
  const retrievers = parseRetrievers(values['retrievers'] as string | undefined);
  if (!retrievers.ok) return retrievers;
  const topKValue = values['top-k'];
  const topK = topKValue === undefined ? 10 : Number(topKValue);
  if (!Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K) return fail('invalid-input', `--top-k must be a whole number from 1 to ${MAX_TOP_K}.`);
  const outDir = typeof values['out'] === 'string' && values['out'].trim() !== '' ? path.resolve(values['out']) : null;
  const userModelsDir = path.join(resolveDataDir(values['data-dir'] as string | undefined), 'models');
  return ok({ run: { configurations: configurations.value, enrich: enrich.value, retrievers: retrievers.value, topK, userModelsDir }, outDir });
}

/**
 * `eval --suite BENCH_DIR`: the scorecard over every question file in the folder (each set's corpus
 * found from its document ids), printed as Markdown (or JSON) and, with --write-docs, spliced
 * into that Markdown file between the scorecard markers.
 */
async function runSuiteCommand(values: Record<string, unknown>, io: { stdout: Out; stderr: Out }, usage: (m: string) => number): Promise<number> {
  const benchDir = values['suite'];
  if (typeof benchDir !== 'string' || benchDir.trim() === '') return usage('--suite needs a folder of question files.');
  if (values['corpus'] !== undefined || values['questions'] !== undefined) return usage('--suite finds each set\'s corpus itself; leave out --corpus and --questions.');
  const only = typeof values['sets'] === 'string' ? values['sets'].split(',').map((s) => s.trim()).filter((s) => s !== '') : undefined;
  const common = commonOptions(values, SUITE_CONFIGURATIONS);
  if (!common.ok) return usage(common.error.message);
  const sets = await discoverSuite(path.resolve(benchDir), only ? { only } : {});
  if (!sets.ok) return usage(sets.error.message);

  const started = new Date();
  const ablate = values['ablate'] === true;
  const res = await withCtrlC((signal) => runSuite(sets.value, { ...common.value.run, ablate, signal, onProgress: (line) => io.stderr.write(`${line}\n`) }));
  if (!res.ok) {
    io.stderr.write(`manualmate eval: ${res.error.message}\n`);
    return 1;
  }
  const table = scorecardMarkdown(res.value);
  if (common.value.outDir) {
    for (const s of res.value.sets) {
      await writeReport(path.join(common.value.outDir, s.set), s, { title: `Hit@1 and NDCG@10 on ${s.set} (${s.questions} questions)` });
    }
    await fs.writeFile(path.join(common.value.outDir, 'scorecard.md'), table);
    io.stderr.write(`Wrote scorecard.md and one report folder per set to ${common.value.outDir}\n`);
  }
  const docs = values['write-docs'];
  if (typeof docs === 'string' && docs.trim() !== '') {
    const file = path.resolve(docs);
    const before = await fs.readFile(file, 'utf8').catch(() => '');
    const revision = await revisionOf(file);
    const at = revision ? ` at commit \`${revision}\`` : '';
    const header = `Run ${started.toISOString().slice(0, 10)}${at}, top-k ${common.value.run.topK}, ${res.value.sets.map((s) => s.set).join(', ')}; \`manualmate eval --suite ../shared/bench\`.\n\n`;
    await fs.writeFile(file, spliceScorecard(before, header + table));
    io.stderr.write(`Updated the scorecard in ${docs}\n`);
  }
  if (values['json'] === true) io.stdout.write(`${JSON.stringify({ sets: res.value.sets.map(({ ranks: _ranks, ...s }) => s), macro: res.value.macro })}\n`);
  else io.stdout.write(table);
  return res.value.sets.some((s) => s.results.length > 0) ? 0 : 1;
}

/**
 * The commit of the git checkout holding `file` (`git describe --always --dirty`: "-dirty" when
 * tracked files differ from it), so a scorecard names the code it measured; null outside a
 * checkout or without git.
 */
async function revisionOf(file: string): Promise<string | null> {
  try {
    const { stdout } = await promisify(execFile)('git', ['describe', '--always', '--dirty', '--abbrev=7'], { cwd: path.dirname(file), timeout: 10_000 });
    return stdout.trim() || null;
  } catch {
    return null;
  }
}

/** Gold document ids whose first folder is none of the corpus folders' names. */
function questionsOutside(questions: Question[], corpusDirs: string[]): string[] {
  const roots = new Set(corpusDirs.map((c) => path.basename(c)));
  const out: string[] = [];
  for (const q of questions) {
    const bad = q.answers.find((a) => !roots.has(a.doc.split('/')[0] ?? ''));
    if (bad) out.push(`${q.id}: ${bad.doc}`);
  }
  return out;
}
