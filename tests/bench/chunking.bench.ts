// Chunking throughput per strategy on radxa-docs (Markdown), warm, best of three runs.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ChunkStrategy } from '../../src-main/core/chunk';
import type { NormalizedDocument } from '../../src-main/core/document';
import { createChunker } from '../../src-main/chunking/chunker';
import { markdownParser } from '../../src-main/ingest/parsers/markdown.parser';
import { markdownFiles } from './corpus';
import { sharedDir } from '../helpers/temp';

export interface ChunkingResult {
  strategy: ChunkStrategy;
  megabytesPerSecond: number;
  chunks: number;
}

export async function benchChunking(): Promise<{ megabytes: number; results: ChunkingResult[] }> {
  const corpus = path.join(sharedDir, 'corpus', 'radxa-docs');
  const docs: NormalizedDocument[] = [];
  for (const f of await markdownFiles(corpus)) {
    const res = await markdownParser.parse({ bytes: await readFile(f), fileName: path.basename(f) });
    if (res.ok) docs.push({ ...res.doc, id: path.relative(path.dirname(corpus), f), contentHash: '' });
  }
  const megabytes = docs.reduce((n, d) => n + Buffer.byteLength(d.text), 0) / 1e6;
  const results: ChunkingResult[] = [];
  // `semantic` needs an embedder and is measured with one in the retrieval bench.
  for (const strategy of ['structure', 'structural', 'naive', 'recursive'] as const) {
    const made = createChunker(strategy, {});
    if (!made.ok) throw new Error(made.error.message);
    let best = Infinity;
    let chunks = 0;
    for (let run = 0; run < 3; run++) {
      const t = performance.now();
      chunks = 0;
      for (const d of docs) {
        const r = await made.value.chunk(d);
        if (r.ok) chunks += r.value.length;
      }
      best = Math.min(best, (performance.now() - t) / 1000);
    }
    results.push({ strategy, megabytesPerSecond: megabytes / best, chunks });
  }
  return { megabytes, results };
}
