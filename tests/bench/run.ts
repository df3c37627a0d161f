// `npm run bench`: measures import, chunking (and later retrieval) on the shared corpora and
// writes the numbers, with the machine they ran on, to tests/bench/RESULTS.md.
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../helpers/temp';
import { machineLine } from './machine';
import { benchChunking } from './chunking.bench';

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

const imp = JSON.parse(
  execFileSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'tests', 'bench', 'import.bench.ts')], { cwd: repoRoot, encoding: 'utf8' }).trim().split('\n').pop()!,
) as {
  files: number;
  megabytes: number;
  importSeconds: number;
  imported: number;
  failed: number;
  markdownItSeconds: number;
  pdfPages: number;
  pdfSeconds: number;
  peakRssMb: number;
};
log('## Import (parse, chunk, heuristic enrichment, index)');
log();
log('| what | value |');
log('|---|---|');
log(`| radxa-docs + esp-dev-kits | ${imp.files} Markdown/MDX files, ${fmt(imp.megabytes)} MB (${imp.imported} documents incl. txt, ${imp.failed} failed) |`);
log(`| whole import | ${fmt(imp.importSeconds)} s = ${fmt(imp.megabytes / imp.importSeconds)} MB/s, ${fmt(imp.imported / imp.importSeconds, 0)} files/s (target < 3 s) |`);
log(`| bare markdown-it parse of the same files | ${fmt(imp.markdownItSeconds)} s |`);
log(`| generated ${imp.pdfPages}-page two-column PDF | ${fmt(imp.pdfSeconds)} s = ${fmt(imp.pdfPages / imp.pdfSeconds, 0)} pages/s |`);
log(`| peak memory (RSS) of the import process | ${fmt(imp.peakRssMb, 0)} MB |`);
log();

const chunking = await benchChunking();
log(`## Chunking throughput (radxa-docs, ${fmt(chunking.megabytes)} MB normalized, best of 3)`);
log();
log('| strategy | MB/s | chunks |');
log('|---|---|---|');
for (const r of chunking.results) log(`| ${r.strategy} | ${fmt(r.megabytesPerSecond, 1)} | ${r.chunks} |`);
log();

await writeFile(path.join(repoRoot, 'tests', 'bench', 'RESULTS.md'), `${lines.join('\n')}\n`);
