// Query latency (p50/p95) for bm25, dense and hybrid at two library sizes, including query
// analysis and model-aware ranking, plus index build time. Libraries are built from copies of the
// radxa + esp corpora (near-duplicate manuals, as in real libraries), embedded with the tiny
// generated ONNX model: dense/hybrid latency here is LanceDB + ranking, not a real model's cost.
// Prints one JSON object on stdout.
import { cp, mkdir, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { createEngine } from '../../src-main/engine/engine';
import { ensureTinyOnnx } from '../models/tiny-onnx';
import { sharedDir, tempDir } from '../helpers/temp';
import { percentile } from './machine';

const targets = (process.env['BENCH_SIZES'] ?? '10000,100000').split(',').map(Number);
const questions = (await readFile(path.join(sharedDir, 'bench', 'dev.jsonl'), 'utf8'))
  .trim()
  .split('\n')
  .map((l) => (JSON.parse(l) as { query: string }).query);

const onnx = await ensureTinyOnnx();
const tmp = await tempDir('manualmate-qbench-');
const results: unknown[] = [];
try {
  for (const target of targets) {
    const engine = createEngine({ dataDir: path.join(tmp.dir, `data-${target}`), bundledModelsDir: path.dirname(onnx) });
    const corpora: string[] = [];
    let chunks = 0;
    let copy = 0;
    let indexSeconds = 0;
    // Import copies until the library holds the target number of chunks.
    while (chunks < target) {
      const root = path.join(tmp.dir, `copies-${target}`, `c${copy}`);
      await mkdir(root, { recursive: true });
      for (const name of ['radxa-docs', 'esp-dev-kits']) await cp(path.join(sharedDir, 'corpus', name), path.join(root, `${name}-${copy}`), { recursive: true });
      const t = performance.now();
      const res = await engine.importPaths('bench', [path.join(root, `radxa-docs-${copy}`), path.join(root, `esp-dev-kits-${copy}`)]);
      indexSeconds += (performance.now() - t) / 1000;
      if (!res.ok) throw new Error(res.error.message);
      const libs = await engine.handlers['libraries.list']({});
      chunks = libs.ok ? (libs.value[0]?.chunks ?? 0) : 0;
      corpora.push(root);
      copy++;
    }
    const t = performance.now();
    const configured = await engine.handlers['libraries.configure']({ library: 'bench', embedder: 'tiny-embedder' });
    if (!configured.ok) throw new Error(configured.error.message);
    await engine.idle();
    const embedSeconds = (performance.now() - t) / 1000;

    // Raw LanceDB full-text search, for scale: one match query over the same column, top 10, ids
    // only (no analysis, expansion, model-aware candidates, reading or ranking). Each is timed
    // right before the bm25 search of the same question, so a load that changes meanwhile (a
    // shared machine) hits both alike.
    const libraries = path.join(tmp.dir, `data-${target}`, 'libraries');
    const lancedb = await import('@lancedb/lancedb');
    const db = await lancedb.connect(path.join(libraries, (await readdir(libraries))[0]!, 'index'));
    const table = await db.openTable('chunks');
    const raw = (q: string) => table.query().fullTextSearch(new lancedb.MatchQuery(q.replace(/_/g, ' '), 'search_text')).select(['id']).limit(10).toArray();
    await raw(questions[0]!);
    const rawTimes: number[] = [];

    const latency: Record<string, { p50: number; p95: number }> = {};
    for (const retriever of ['bm25', 'dense', 'hybrid'] as const) {
      const run = () => engine.handlers['search.query']({ library: 'bench', query: questions[0]!, topK: 10, retriever });
      await run();
      const times: number[] = [];
      for (let rep = 0; rep < 5; rep++) {
        for (const q of questions) {
          if (retriever === 'bm25') {
            const r = performance.now();
            await raw(q);
            rawTimes.push(performance.now() - r);
          }
          const s = performance.now();
          const res = await engine.handlers['search.query']({ library: 'bench', query: q, topK: 10, retriever });
          times.push(performance.now() - s);
          if (!res.ok) throw new Error(res.error.message);
        }
      }
      times.sort((a, b) => a - b);
      latency[retriever] = { p50: percentile(times, 50), p95: percentile(times, 95) };
    }
    rawTimes.sort((a, b) => a - b);
    latency['rawFts'] = { p50: percentile(rawTimes, 50), p95: percentile(rawTimes, 95) };
    table.close();
    db.close();
    results.push({ chunks, copies: copy, indexSeconds, embedSeconds, latency });
    await engine.dispose();
  }
} finally {
  await tmp.cleanup();
}
console.log(JSON.stringify({ results }));
