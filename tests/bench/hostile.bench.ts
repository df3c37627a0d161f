// Hostile and unusual files: how long each takes to import into a fresh library and how long that
// library then takes to answer its first search after a restart, beside an ordinary manual of the same size measured in the
// same run (the ratio is what to watch: a quadratic step shows as a ratio of 10x-1000x, as a
// parts list of 50,000 headings once did with 171 s to import and > 100 s per search). Needs no
// shared corpus. `node --import tsx tests/bench/hostile.bench.ts`, or part of `npm run bench`.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine } from '../../src-main/engine/engine';
import { tempDir } from '../helpers/temp';

/** Each case's Markdown, ~300-450 KB: big enough that a quadratic step costs seconds, not ms. */
const CASES: Record<string, () => string> = {
  'ordinary manual': () =>
    Array.from({ length: 3600 }, (_, i) => `## Section ${i}\n\nThe pump P-${i % 40} takes a 5 V supply and a 2 A fuse. Check the seal before use.\n\n- Step one\n- Step two\n`).join('\n'),
  'one 400 KB line': () => 'word '.repeat(80_000),
  'unclosed link syntax': () => '[a]('.repeat(100_000),
  '50,000 bare headings': () => Array.from({ length: 50_000 }, (_, i) => `# H${i}\n`).join(''),
  '60,000 part codes': () => Array.from({ length: 60_000 }, (_, i) => `AB${i}-X${i}Z`).join(' '),
  '5,000-column table': () => {
    const row = (cell: (i: number) => string) => `|${Array.from({ length: 5000 }, (_, i) => cell(i)).join('|')}|\n`;
    return row((i) => `c${i}`) + row(() => '---') + row(() => '5V').repeat(20);
  },
  'deep quote markers': () => `${'>'.repeat(100_000)} deep\n`,
  'emphasis runs': () => '*'.repeat(400_000),
  'random markup': () => {
    let seed = 7;
    const chars = '*_[]()|#>`-!<\\ \n';
    return Array.from({ length: 400_000 }, () => chars[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % chars.length]).join('');
  },
};

export interface HostileResult {
  name: string;
  kilobytes: number;
  importSeconds: number;
  searchSeconds: number;
  status: string;
}

export async function benchHostile(): Promise<HostileResult[]> {
  const tmp = await tempDir('manualmate-hostile-');
  const results: HostileResult[] = [];
  try {
    for (const [name, make] of Object.entries(CASES)) {
      const file = path.join(tmp.dir, `${name.replace(/[^a-z0-9]+/gi, '-')}.md`);
      const text = make();
      await writeFile(file, text);
      // A fresh engine and library per case: each is measured alone, as the first file a user drops.
      const options = { dataDir: path.join(tmp.dir, `data-${results.length}`), bundledModelsDir: path.join(tmp.dir, 'none'), log: () => undefined };
      const engine = createEngine(options);
      let t = performance.now();
      const imported = await engine.importPaths('Hostile', [file]);
      const importSeconds = (performance.now() - t) / 1000;
      await engine.dispose();
      // The first search of a fresh engine, as after restarting the app: it opens the library
      // (the model vocabulary is derived again there), which an engine that just imported skips.
      const reopened = createEngine(options);
      t = performance.now();
      await reopened.api['search.query']({ library: 'Hostile', query: 'pump fuse supply H1234 AB123', topK: 10 });
      const searchSeconds = (performance.now() - t) / 1000;
      await reopened.dispose();
      const status = imported.ok ? (imported.value.results[0]?.status ?? 'none') : imported.error.code;
      results.push({ name, kilobytes: Buffer.byteLength(text) / 1024, importSeconds, searchSeconds, status });
    }
  } finally {
    await tmp.cleanup();
  }
  return results;
}

/** Markdown table lines of the results, ratios to the ordinary manual's import and search. */
export function hostileTable(results: readonly HostileResult[]): string[] {
  const base = results[0]!;
  const lines = ['| file | size (KB) | result | import (s) | x ordinary | first search (s) | x ordinary |', '|---|---|---|---|---|---|---|'];
  for (const r of results) {
    lines.push(
      `| ${r.name} | ${r.kilobytes.toFixed(0)} | ${r.status} | ${r.importSeconds.toFixed(2)} | ${(r.importSeconds / base.importSeconds).toFixed(1)}x | ${r.searchSeconds.toFixed(2)} | ${(r.searchSeconds / base.searchSeconds).toFixed(1)}x |`,
    );
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of hostileTable(await benchHostile())) console.log(line);
  process.exit(0);
}
