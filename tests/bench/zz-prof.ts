import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine } from '../../src-main/engine/engine';
import { sharedDir } from '../helpers/temp';
const questions = (await readFile(path.join(sharedDir, 'bench', 'dev.jsonl'), 'utf8')).trim().split('\n').map((l) => (JSON.parse(l) as { query: string }).query);
const engine = createEngine({ dataDir: process.argv[2]!, bundledModelsDir: '/nonexistent' });
await engine.handlers['search.query']({ library: 'bench', query: questions[0]!, topK: 10, retriever: 'bm25' });
const times: number[] = [];
for (let rep = 0; rep < 5; rep++) for (const q of questions) { const s = performance.now(); const r = await engine.handlers['search.query']({ library: 'bench', query: q, topK: 10, retriever: 'bm25' }); times.push(performance.now() - s); if (!r.ok) throw new Error(r.error.message); }
times.sort((a, b) => a - b);
console.log('p50', times[Math.floor(times.length / 2)]!.toFixed(2), 'p95', times[Math.floor(times.length * 0.95)]!.toFixed(2));
await engine.dispose();
