// The first search after an import, beside a warm one, in a library of realistic size. A library
// of copies of radxa + esp (as in query.bench.ts) is built to BENCH_SIZE chunks (default 100k);
// then, ROUNDS times, a fresh copy of esp-dev-kits (78 documents) is imported through the engine
// and a bm25 search is timed at once (the technician's first query), then warm searches; and
// another copy is imported, and the first search timed 2 s after the work after the import is
// done (the query typed meanwhile), then warm searches. Each search asks a question
// not asked before, so no cache answers it. Prints one JSON object on stdout; ratios are to the
// warm p50 of the same run (a shared machine's load moves absolute times).
import { cp, mkdir, readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { createEngine } from '../../src-main/engine/engine';
import { sharedDir, tempDir } from '../helpers/temp';
import { machineLine, percentile } from './machine';

const target = Number(process.env['BENCH_SIZE'] ?? '100000');
const rounds = Number(process.env['ROUNDS'] ?? '4');
const questions = (await readFile(path.join(sharedDir, 'bench', 'dev.jsonl'), 'utf8'))
  .trim()
  .split('\n')
  .map((l) => (JSON.parse(l) as { query: string }).query);
let asked = 0;
const nextQuestion = () => questions[asked++ % questions.length]!;

const tmp = await tempDir('manualmate-fsbench-');
try {
  const dataDir = path.join(tmp.dir, 'data');
  const engine = createEngine({ dataDir, bundledModelsDir: path.join(tmp.dir, 'no-models') });
  const copyOf = async (copy: number, names: string[]) => {
    const root = path.join(tmp.dir, 'copies', `c${copy}`);
    await mkdir(root, { recursive: true });
    for (const name of names) await cp(path.join(sharedDir, 'corpus', name), path.join(root, `${name}-${copy}`), { recursive: true });
    return names.map((name) => path.join(root, `${name}-${copy}`));
  };
  const chunkCount = async () => {
    const libs = await engine.handlers['libraries.list']({});
    return libs.ok ? (libs.value[0]?.chunks ?? 0) : 0;
  };
  let copy = 0;
  while ((await chunkCount()) < target) {
    const res = await engine.importPaths('bench', await copyOf(copy++, ['radxa-docs', 'esp-dev-kits']));
    if (!res.ok) throw new Error(res.error.message);
  }
  await engine.idle();
  const search = async (q: string) => {
    const s = performance.now();
    const res = await engine.handlers['search.query']({ library: 'bench', query: q, topK: 10, retriever: 'bm25' });
    if (!res.ok) throw new Error(res.error.message);
    return performance.now() - s;
  };
  // Warm the engine's code and the library's stub index before anything is timed.
  for (let i = 0; i < 5; i++) await search(nextQuestion());
  await new Promise((resolve) => setTimeout(resolve, 1500));
  for (let i = 0; i < 5; i++) await search(nextQuestion());

  const load = { start: loadavg()[0]!, end: 0 };
  const importBatch = async () => {
    const res = await engine.importPaths('bench', await copyOf(copy++, ['esp-dev-kits']));
    if (!res.ok) throw new Error(res.error.message);
  };
  const warmP50 = async () => {
    // The stub index is rebuilt a moment after a search (as in an open app): warm searches have it.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const warm: number[] = [];
    for (let i = 0; i < 15; i++) warm.push(await search(nextQuestion()));
    return percentile(warm.sort((a, b) => a - b), 50);
  };
  const perRound: { immediateMs: number; immediateWarmP50: number; laterMs: number; laterWarmP50: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    // The technician searches as soon as the import is done...
    await importBatch();
    const immediateMs = await search(nextQuestion());
    await engine.idle();
    const immediateWarmP50 = await warmP50();
    // ... or a few seconds later (the work after the import is done by then), the first search since.
    await importBatch();
    await engine.idle();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    if (process.env['DIAG']) {
      const lib = await engine.libraries.require('bench');
      if (!lib.ok) throw new Error(lib.error.message);
      const index = await engine.indexes.open(lib.value);
      let s = performance.now();
      await index.store.prepareSearch();
      const stubsMs = performance.now() - s;
      s = performance.now();
      await index.prepareSearch();
      const restMs = performance.now() - s;
      console.error(JSON.stringify({ stubsMs, restMs }));
    }
    const laterMs = await search(nextQuestion());
    const laterWarmP50 = await warmP50();
    perRound.push({ immediateMs, immediateWarmP50, laterMs, laterWarmP50 });
  }
  load.end = loadavg()[0]!;
  const chunks = await chunkCount();
  await engine.dispose();
  const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
  const summary = {
    machine: machineLine(),
    chunks,
    rounds: perRound,
    medianImmediateToWarm: median(perRound.map((r) => r.immediateMs / r.immediateWarmP50)),
    medianLaterToWarm: median(perRound.map((r) => r.laterMs / r.laterWarmP50)),
    load,
  };
  console.log(JSON.stringify(summary, null, 1));
} finally {
  await tmp.cleanup();
}
