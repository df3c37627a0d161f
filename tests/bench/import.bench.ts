// Import throughput, run in its own process so peak memory is the import's alone.
// Prints one JSON object on stdout.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { appendFile, cp, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import MarkdownIt from 'markdown-it';
import { createEngine } from '../../src-main/engine/engine';
import { markdownFiles } from './corpus';
import { repoRoot, sharedDir, tempDir } from '../helpers/temp';
import { peakRssMb } from './machine';
import { writePdf, wrapText, column } from '../fixtures/pdf-writer';

const cpuSeconds = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;

/**
 * CPU time (ns) of each thread of this process by id, with its name, from Linux's
 * `/proc/self/task/<tid>/schedstat`; empty elsewhere. Threads named `node` are this thread, V8's
 * helpers (optimizing compiler, garbage collector), libuv's pool and worker threads; the native
 * libraries name theirs (LanceDB: `tokio-rt-worker`, `lance-cpu`).
 */
function threadTimes(): Map<string, { name: string; ns: number }> {
  const out = new Map<string, { name: string; ns: number }>();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const ns = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'latin1').split(' ')[0]);
      out.set(tid, { name: readFileSync(`/proc/self/task/${tid}/comm`, 'latin1').trim(), ns });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/**
 * Where an import's CPU went, by thread: this one (the import's), the `node` threads started during
 * it (the parse worker), V8's and libuv's threads that were there before (mostly the optimizing
 * compiler: tests/bench/RESULTS.md, Session 8), and the native libraries' own. A thread that ended
 * during the import is not counted.
 */
function threadSplit(before: Map<string, { name: string; ns: number }>, after: Map<string, { name: string; ns: number }>) {
  const split = { importThread: 0, newNodeThreads: 0, v8AndLibuv: 0, native: 0 };
  for (const [tid, t] of after) {
    const ns = t.ns - (before.get(tid)?.ns ?? 0);
    if (tid === String(process.pid)) split.importThread += ns;
    else if (t.name !== 'node') split.native += ns;
    else if (before.has(tid)) split.v8AndLibuv += ns;
    else split.newNodeThreads += ns;
  }
  return Object.fromEntries(Object.entries(split).map(([k, ns]) => [k, ns / 1e9]));
}
const corpora = [path.join(sharedDir, 'corpus', 'radxa-docs'), path.join(sharedDir, 'corpus', 'esp-dev-kits')];
const mdFiles = (await Promise.all(corpora.map(markdownFiles))).flat();
const texts = await Promise.all(mdFiles.map((f) => readFile(f, 'utf8')));
const bytes = (await Promise.all(mdFiles.map((f) => stat(f)))).reduce((n, s) => n + s.size, 0);

// The bare parser time of the same files, for scale.
const md = new MarkdownIt({ html: true });
md.parse(texts[0] ?? '', {});
let cpu = process.cpuUsage();
let t = performance.now();
for (const text of texts) md.parse(text, {});
const markdownItSeconds = (performance.now() - t) / 1000;
const markdownItCpuSeconds = cpuSeconds(process.cpuUsage(cpu));
// A second pass, with markdown-it's code compiled: the scale for the second (warm) import below.
cpu = process.cpuUsage();
t = performance.now();
for (const text of texts) md.parse(text, {});
const markdownItWarmSeconds = (performance.now() - t) / 1000;
const markdownItWarmCpuSeconds = cpuSeconds(process.cpuUsage(cpu));

// The bundle must be current, so the parse pool runs its compiled worker as the app does: through
// tsx (a stale or missing bundle) the worker costs ~350 MB and seconds of CPU more, and runs of
// two versions of the code compare only when both use the same kind (see `ingest/worker-entry.ts`).
execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'build-cli.mjs')], { cwd: repoRoot, stdio: 'ignore' });
const tmp = await tempDir('manualmate-bench-');
const engine = createEngine({ dataDir: tmp.dir, bundledModelsDir: path.join(tmp.dir, 'no-models') });
cpu = process.cpuUsage();
const threadsBefore = threadTimes();
t = performance.now();
const res = await engine.importPaths('bench', corpora);
const importSeconds = (performance.now() - t) / 1000;
// CPU time of every thread of the process (parse worker, LanceDB, libuv included): on a machine
// shared with other work it says what the import cost when wall clock says mostly the load.
const importCpu = process.cpuUsage(cpu);
const importThreadsCpu = threadSplit(threadsBefore, threadTimes());
// Folding the new rows into the full-text and scalar indexes runs after the import returns.
await engine.idle();
const indexedSeconds = (performance.now() - t) / 1000;
if (!res.ok) throw new Error(res.error.message);

// A generated 200-page two-column manual.
const pages = Array.from({ length: 200 }, (_, i) => {
  const para = `Section ${i + 1}. The RAC-225B compressor relay must be checked after ${i + 3} hours of operation; replace the fuse with a 10 A slow-blow type if the indicator stays red. `;
  const lines = wrapText(para.repeat(6), 250, 10);
  return { runs: [...column(lines.slice(0, 30), 56, 740), ...column(lines.slice(30, 60), 320, 740)] };
});
const pdfPath = path.join(tmp.dir, 'service-manual-200p.pdf');
await writeFile(pdfPath, writePdf(pages, { title: 'RAC-225B service manual' }));
t = performance.now();
const pdfRes = await engine.importPaths('bench-pdf', [pdfPath]);
const pdfSeconds = (performance.now() - t) / 1000;
if (!pdfRes.ok || pdfRes.value.summary.imported !== 1) throw new Error('PDF import failed');
// Peak memory of the first import and the PDF's, as before the warm import below.
const peakMb = peakRssMb();

// The same files into a second library of the same engine: the code is compiled and the parse
// worker running, as for a user's second import in one session. The first import's extra CPU over
// this one is start-up and V8's warm-up (compiling the hot code on its helper threads), which a
// fresh process pays once; its scale is the second markdown-it pass.
cpu = process.cpuUsage();
t = performance.now();
const warm = await engine.importPaths('bench-warm', corpora);
const warmImportSeconds = (performance.now() - t) / 1000;
const warmImportCpu = process.cpuUsage(cpu);
await engine.idle();
if (!warm.ok) throw new Error(warm.error.message);

// A new version of every file (a line added at the end), imported again into the warm library:
// each document's rows are replaced, as when a vendor ships a revised manual set.
const changedRoot = path.join(tmp.dir, 'changed');
const changedCorpora = corpora.map((c) => path.join(changedRoot, path.basename(c)));
for (const [k, c] of corpora.entries()) await cp(c, changedCorpora[k]!, { recursive: true });
for (const f of (await Promise.all(changedCorpora.map(markdownFiles))).flat()) await appendFile(f, '\n\nRevised for the benchmark.\n');
t = performance.now();
const changed = await engine.importPaths('bench-warm', changedCorpora);
const changedImportSeconds = (performance.now() - t) / 1000;
await engine.idle();
if (!changed.ok) throw new Error(changed.error.message);
const replaced = changed.value.results.filter((r) => r.status === 'replaced').length;
if (replaced < mdFiles.length * 0.9) throw new Error(`Only ${replaced} of ${mdFiles.length} changed files replaced a document.`);

await engine.dispose();
await tmp.cleanup();
console.log(
  JSON.stringify({
    files: mdFiles.length,
    megabytes: bytes / 1e6,
    importSeconds,
    indexedSeconds,
    imported: res.value.summary.imported,
    failed: res.value.summary.failed,
    markdownItSeconds,
    markdownItCpuSeconds,
    markdownItWarmSeconds,
    markdownItWarmCpuSeconds,
    importCpuSeconds: cpuSeconds(importCpu),
    importSystemSeconds: importCpu.system / 1e6,
    importThreadsCpu,
    // Share of the machine's cores the import kept busy: at 1.0 only less CPU makes it faster.
    importCoreUse: cpuSeconds(importCpu) / (importSeconds * os.availableParallelism()),
    warmImportSeconds,
    warmImportCpuSeconds: cpuSeconds(warmImportCpu),
    changedImportSeconds,
    replaced,
    pdfPages: 200,
    pdfSeconds,
    peakRssMb: peakMb,
  }),
);
