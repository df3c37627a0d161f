// Import throughput on real vendor PDFs (../shared/corpus/pdf-dev), in its own process so peak
// memory is this import's alone. Prints one JSON object on stdout.
import path from 'node:path';
import { createEngine } from '../../src-main/engine/engine';
import { sharedDir, tempDir } from '../helpers/temp';
import { peakRssMb } from './machine';

const corpus = path.join(sharedDir, 'corpus', 'pdf-dev');
const tmp = await tempDir('manualmate-bench-pdf-');
const engine = createEngine({ dataDir: tmp.dir, bundledModelsDir: path.join(tmp.dir, 'no-models') });
const t = performance.now();
const res = await engine.importPaths('pdf-dev', [corpus]);
const importSeconds = (performance.now() - t) / 1000;
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
    peakRssMb: peakRssMb(),
  }),
);
