// The PDF parser's whole result (text, blocks, pages, title, facts) for every file of
// ../shared/corpus/pdf-dev, as one JSON file, so two versions of the parser can be compared byte
// for byte: `node --import tsx tests/bench/pdf-parse-dump.ts <out.json>` in each worktree, then `cmp`.
// Runs as the parse worker does (pdf.js's own inflate), on this thread.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pdfParser } from '../../src-main/ingest/parsers/pdf.parser';
import { sharedDir } from '../helpers/temp';

const out = process.argv[2];
if (!out) throw new Error('usage: pdf-parse-dump.ts <out.json>');
delete (globalThis as { DecompressionStream?: unknown }).DecompressionStream;
const corpus = path.join(sharedDir, 'corpus', 'pdf-dev');
const entries = await readdir(corpus, { recursive: true, withFileTypes: true });
const files = entries
  .filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.pdf'))
  .map((e) => path.join(e.parentPath, e.name))
  .sort();
const results: Record<string, unknown> = {};
for (const file of files) {
  results[path.relative(corpus, file).split(path.sep).join('/')] = await pdfParser.parse({ bytes: new Uint8Array(await readFile(file)), fileName: path.basename(file) });
}
await writeFile(out, JSON.stringify(results, null, 1));
console.log(`${files.length} files -> ${out}`);
