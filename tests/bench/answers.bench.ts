// Answer benchmark: per shared question set, imports the set's corpus folder(s) into a library,
// asks every question the way `manualmate ask --json` does (no model installed, so the answer is
// extracted), and scores the quoted lines against the gold answers.
//   npm run bench:answers -- [--sets dev,m5stack] [--limit 50] [--fresh] [--misses] [--why] [--causes]
//     [--ids m004,sx057] [--per-question <file>] [--answers] [--off-topic <file>]
// --ids asks only those questions; --answers prints every answer, as --misses prints the misses (each cited passage with its heading path); --per-question writes "set id any first" (1 or 0) per question,
// so two versions can be compared question by question (which were gained and which lost).
// --off-topic asks, per set, the questions a JSON file lists for it ({"sets": {"m5stack": [...]}},
// tests/fixtures/off-topic-questions.json) that its library cannot answer, and counts how many get
// the honest "not found" (each one answered anyway is printed with its first quoted line).
// --why adds where each question's first line misses: a later line holds the gold string, a quoted
// passage holds it but no line does, the search's top 10 holds it but chat did not quote that
// passage (relevance gate, or beyond the passages quoted), or the search's top 10 does not.
// --causes splits every first-line miss by cause (see `MissCause` in answer-causes.ts).
// Every run prints the answers' mean length per set (quoted lines and characters).
// Libraries are kept in <tmp>/manualmate-answer-bench/<set> between runs (the index does not
// depend on the chat code being measured); --fresh re-imports them.
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Citation } from '../../src-main/contract/api';
import { createEngine } from '../../src-main/engine/engine';
import { normalizeForRelevance } from '../../src-main/eval/relevance';
import { sharedDir } from '../helpers/temp';
import type { MissCause } from './answer-causes';
import { CAUSE_COLUMNS, missCause, saysGold } from './answer-causes';

interface Question {
  id: string;
  query: string;
  answers: { doc: string; contains: string }[];
}

/** Each shared set and the corpus folders it is asked over (ids are relative to their parent). */
const SETS: Record<string, string[]> = {
  dev: ['corpus/radxa-docs', 'corpus/esp-dev-kits'],
  'galaxy-s10': ['corpus/emanual/galaxy'],
  'smart-tv': ['corpus/emanual/smart-tv'],
  'pdf-dev': ['corpus/pdf-dev'],
  m5stack: ['corpus/m5stack'],
  'seeed-xiao': ['corpus/seeed-xiao'],
};

const { values } = parseArgs({
  options: {
    sets: { type: 'string' },
    limit: { type: 'string' },
    fresh: { type: 'boolean' },
    misses: { type: 'boolean' },
    why: { type: 'boolean' },
    causes: { type: 'boolean' },
    'data-dir': { type: 'string' },
    ids: { type: 'string' },
    answers: { type: 'boolean' },
    'per-question': { type: 'string' },
    'off-topic': { type: 'string' },
    near: { type: 'boolean' },
  },
});
const sets = values.sets ? values.sets.split(',').map((s) => s.trim()) : Object.keys(SETS);
for (const s of sets) if (!SETS[s]) throw new Error(`Unknown set "${s}"; sets: ${Object.keys(SETS).join(', ')}`);
const limit = values.limit ? Number(values.limit) : Infinity;
const only = values.ids ? new Set(values.ids.split(',').map((s) => s.trim())) : null;
/** One line per question ("set id any first"), to compare two versions question by question. */
const perQuestion: string[] = [];
const root = path.resolve(values['data-dir'] ?? path.join(os.tmpdir(), 'manualmate-answer-bench'));

/**
 * Lines of an answer that quote a passage: those carrying citation markers, with their numbers.
 * "first" is the first of these: a label shown above its items without a source of its own
 * ("- **Power on / off:**") is not a quoted line, so the first item under it is (`labelFirst`
 * counts how often that happens).
 */
export function quotedLines(answer: string): { text: string; cites: number[] }[] {
  const out: { text: string; cites: number[] }[] = [];
  for (const line of answer.split('\n')) {
    const cites = [...line.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    if (cites.length > 0) out.push({ text: line.replace(/\[\d+\]/g, ' '), cites });
  }
  return out;
}

/** Whether the first line the answer shows (a "- " line) carries no source: a label heading its items. */
function labelFirst(answer: string): boolean {
  const shown = answer.split('\n').find((l) => /^\s*- /.test(l));
  return shown !== undefined && !/\[\d+\]/.test(shown);
}

/** Whether a quoted line holds a gold string and cites that answer's document. */
function lineHits(line: { text: string; cites: number[] }, citations: readonly Citation[], q: Question): boolean {
  const norm = normalizeForRelevance(line.text);
  const docs = new Set(line.cites.map((n) => citations.find((c) => c.n === n)?.doc));
  return q.answers.some((a) => docs.has(a.doc) && norm.includes(normalizeForRelevance(a.contains)));
}

const rows: string[] = [];
/** Per set, the answers' mean length: quoted lines (as `quotedLines` counts them, list items included) and characters. */
const lengthRows: string[] = [];
const nearRows: string[] = [];
const offTopicRows: string[] = [];
/** Per set, questions its library cannot answer (`--off-topic`). */
const offTopic: Record<string, string[]> = values['off-topic'] ? (JSON.parse(await readFile(values['off-topic'], 'utf8')) as { sets: Record<string, string[]> }).sets : {};
const whyRows: string[] = [];
const causeRows: string[] = [];

/** Whether a text from a gold document holds a gold string. */
function holdsGold(doc: string, text: string, q: Question): boolean {
  const norm = normalizeForRelevance(text);
  return q.answers.some((a) => a.doc === doc && norm.includes(normalizeForRelevance(a.contains)));
}
for (const set of sets) {
  const dataDir = path.join(root, set);
  if (values.fresh || !existsSync(path.join(dataDir, 'imported.txt'))) await rm(dataDir, { recursive: true, force: true });
  const marker = path.join(dataDir, 'imported.txt');
  const fresh = !existsSync(marker);
  const engine = createEngine({ dataDir, bundledModelsDir: path.join(dataDir, 'no-models') });
  try {
    if (fresh) {
      const t = performance.now();
      const res = await engine.importPaths(set, SETS[set]!.map((p) => path.join(sharedDir, p)));
      if (!res.ok) throw new Error(res.error.message);
      await engine.idle();
      await writeFile(marker, `${res.value.summary.imported}\n`);
      process.stderr.write(`${set}: imported ${res.value.summary.imported} files in ${((performance.now() - t) / 1000).toFixed(0)} s\n`);
    }
    const chat = await engine.chat(set);
    if (!chat.ok) throw new Error(chat.error.message);
    const text = await readFile(path.join(sharedDir, 'bench', `${set}.jsonl`), 'utf8');
    const questions = text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Question)
      .filter((q) => !only || only.has(q.id))
      .slice(0, limit);
    let any = 0;
    let first = 0;
    let nearAny = 0;
    let nearFirst = 0;
    let labelled = 0;
    let quotedCount = 0;
    let chars = 0;
    let notFound = 0;
    const why = { passage: 0, search: 0, missing: 0 };
    const causes = new Map<MissCause | 'search' | 'missing', number>();
    /** Whether the search's top 10 (BM25, as chat searches the bench's embedder-less libraries) holds the gold string. */
    const inSearch = async (q: Question): Promise<boolean> => {
      const found = await engine.handlers['search.query']({ library: set, query: q.query, topK: 10, retriever: 'bm25' });
      return found.ok && found.value.results.some((h) => holdsGold(h.doc, h.text, q));
    };
    for (const q of questions) {
      const res = await chat.value.answer(q.query);
      const lines = res.ok ? quotedLines(res.value.text) : [];
      const citations = res.ok ? (res.value.citations ?? []) : [];
      const hitAny = lines.some((l) => lineHits(l, citations, q));
      const hitFirst = lines.length > 0 && lineHits(lines[0]!, citations, q);
      if (hitAny) any++;
      quotedCount += lines.length;
      chars += res.ok ? res.value.text.length : 0;
      if (hitFirst) first++;
      if (values.near) {
        if (lines.some((l) => saysGold(l, citations, q.answers))) nearAny++;
        if (lines.length > 0 && saysGold(lines[0]!, citations, q.answers)) nearFirst++;
      }
      perQuestion.push(`${set} ${q.id} ${Number(hitAny)} ${Number(hitFirst)}`);
      if (res.ok && labelFirst(res.value.text)) labelled++;
      if (res.ok && res.value.mode === 'not-found') notFound++;
      if (values.why && !hitAny) {
        if (citations.some((c) => holdsGold(c.doc, c.quote, q))) why.passage++;
        else {
          if (await inSearch(q)) why.search++;
          else why.missing++;
        }
      }
      let cause: MissCause | 'search' | 'missing' | undefined;
      if (values.causes && !hitFirst) {
        cause = missCause(lines, citations, q.answers);
        if (cause === 'uncited') cause = (await inSearch(q)) ? 'search' : 'missing';
        causes.set(cause, (causes.get(cause) ?? 0) + 1);
      }
      if ((values.misses && !hitFirst) || values.answers) {
        process.stderr.write(`\n--- ${q.id} ${hitFirst ? '(first line)' : hitAny ? '(later line)' : 'MISS'}${cause ? ` [${cause}]` : ''}: ${q.query}\n  gold: ${q.answers.map((a) => `${a.doc} :: ${a.contains}`).join(' | ')}\n`);
        process.stderr.write(`${res.ok ? res.value.text : res.error.message}\n  cites: ${citations.map((c) => `[${c.n}] ${c.doc}${c.headingPath.length > 0 ? ` (${c.headingPath.join(' > ')})` : ''}`).join(' ')}\n`);
      }
    }
    if (values['off-topic']) {
      const asked = offTopic[set] ?? [];
      let notFound = 0;
      for (const q of asked) {
        const res = await chat.value.answer(q);
        if (res.ok && res.value.mode === 'not-found') notFound++;
        else process.stderr.write(`off-topic ${set} answered: ${q}\n  ${res.ok ? (quotedLines(res.value.text)[0]?.text.trim() ?? res.value.text.split('\n')[0]) : res.error.message}\n`);
      }
      offTopicRows.push(`| ${set} | ${asked.length} | ${notFound} |`);
    }
    const n = Math.max(1, questions.length);
    rows.push(`| ${set} | ${questions.length} | ${(any / n).toFixed(2)} (${any}) | ${(first / n).toFixed(2)} (${first}) |`);
    process.stderr.write(`${rows[rows.length - 1]}\n`);
    lengthRows.push(`| ${set} | ${(quotedCount / n).toFixed(2)} | ${(chars / n).toFixed(0)} |`);
    if (values.near) nearRows.push(`| ${set} | ${questions.length} | ${(nearAny / n).toFixed(2)} (${nearAny}) | ${(nearFirst / n).toFixed(2)} (${nearFirst}) |`);
    process.stderr.write(`${set}: ${notFound} questions answered "not found"\n`);
    process.stderr.write(`${set}: ${labelled} answers show a label without a source first ("first" counts the line under it)\n`);
    if (values.why) whyRows.push(`| ${set} | ${first} | ${any - first} | ${why.passage} | ${why.search} | ${why.missing} |`);
    const cells = [...CAUSE_COLUMNS.filter(([c]) => c !== 'uncited').map(([c]) => c), 'search', 'missing'] as const;
    if (values.causes) causeRows.push(`| ${set} | ${questions.length - first} | ${cells.map((c) => causes.get(c) ?? 0).join(' | ')} |`);
  } finally {
    await engine.dispose();
  }
}
if (values['per-question']) await writeFile(values['per-question'], `${perQuestion.join('\n')}\n`);
console.log('| set | questions | any quoted line | first quoted line |\n|---|---|---|---|');
console.log(rows.join('\n'));
console.log(`\n| set | quoted lines an answer (mean) | characters an answer (mean) |\n|---|---|---|\n${lengthRows.join('\n')}`);
if (values.near) console.log(`\n| set | questions | any line, gold or its near copy | first line, gold or its near copy |\n|---|---|---|---|\n${nearRows.join('\n')}`);
if (values['off-topic']) console.log(`\n| set | off-topic questions | not found |\n|---|---|---|\n${offTopicRows.join('\n')}`);
if (values.why) {
  console.log('\n| set | first line | a later line | quoted passage, no line | search top 10, not quoted | not in search top 10 |\n|---|---|---|---|---|---|');
  console.log(whyRows.join('\n'));
}
if (values.causes) {
  const heads = [...CAUSE_COLUMNS.filter(([c]) => c !== 'uncited').map(([, h]) => h), 'search top 10, not cited', 'not in search top 10'];
  console.log(`\n| set | first-line misses | ${heads.join(' | ')} |\n|---|${heads.map(() => '---|').join('')}---|`);
  console.log(causeRows.join('\n'));
}
