// Import throughput on real vendor PDFs (../shared/corpus/pdf-dev), in its own process so peak
// memory is this import's alone. Prints one JSON object on stdout.
//
// `--bare`: instead of importing, reads every page's text with bare pdf.js (getTextContent, on
// this thread, pdf.js already loaded) and nothing else: the floor the import is compared with in
// the same run, since timings on a loaded machine only mean something as ratios.
import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine } from '../../src-main/engine/engine';
import { loadPdfJs } from '../../src-main/ingest/parsers/pdf.parser';
import { repoRoot, sharedDir, tempDir } from '../helpers/temp';
import { peakRssMb } from './machine';

const corpus = path.join(sharedDir, 'corpus', 'pdf-dev');

const cpuSeconds = (since: NodeJS.CpuUsage): number => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1e6;
};

async function pdfFiles(): Promise<string[]> {
  const entries = await readdir(corpus, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.pdf')).map((e) => path.join(e.parentPath, e.name));
}

/** Every page's text through bare pdf.js, loaded and set up as the parse worker does; returns the page count. */
async function barePdfJs(files: string[], pdfjs: Awaited<ReturnType<typeof loadPdfJs>>): Promise<number> {
  let pages = 0;
  for (const file of files) {
    const task = pdfjs.getDocument({ data: new Uint8Array(await readFile(file)), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 });
    const doc = await task.promise;
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      await page.getTextContent();
      page.cleanup();
      pages++;
    }
    await task.destroy();
  }
  return pages;
}

if (process.argv.includes('--bare')) {
  const files = await pdfFiles();
  // As in the parse worker (`ingest/parse.worker.ts`): pdf.js inflates with its own code.
  delete (globalThis as { DecompressionStream?: unknown }).DecompressionStream;
  const pdfjs = await loadPdfJs();
  const cpu = process.cpuUsage();
  const t = performance.now();
  const pages = await barePdfJs(files, pdfjs);
  const seconds = (performance.now() - t) / 1000;
  console.log(JSON.stringify({ files: files.length, pages, seconds, cpuSeconds: cpuSeconds(cpu), peakRssMb: peakRssMb() }));
} else {
  // The bundle must be current: the parse pool runs its compiled worker, as the app does, and the
  // sources through tsx otherwise (see `ingest/parse-pool.ts`).
  execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'build-cli.mjs')], { cwd: repoRoot, stdio: 'ignore' });
  const tmp = await tempDir('manualmate-bench-pdf-');
  const engine = createEngine({ dataDir: tmp.dir, bundledModelsDir: path.join(tmp.dir, 'no-models') });
  const cpu = process.cpuUsage();
  const t = performance.now();
  const res = await engine.importPaths('pdf-dev', [corpus]);
  const importSeconds = (performance.now() - t) / 1000;
  const importCpuSeconds = cpuSeconds(cpu);
  await engine.idle();
  const indexedSeconds = (performance.now() - t) / 1000;
  if (!res.ok) throw new Error(res.error.message);
  const docs = await engine.handlers['documents.list']({ library: 'pdf-dev' });
  if (!docs.ok) throw new Error(docs.error.message);
  const pages = docs.value.reduce((n, d) => n + (d.pageCount ?? 0), 0);
  await engine.dispose();
  await tmp.cleanup();
  console.log(
    JSON.stringify({
      files: docs.value.length,
      imported: res.value.summary.imported,
      failed: res.value.summary.failed,
      pages,
      importSeconds,
      indexedSeconds,
      /** CPU time of every thread of the process (main, parse workers, V8's helpers) during the import. */
      cpuSeconds: importCpuSeconds,
      peakRssMb: peakRssMb(),
    }),
  );
}
