// Entry of a prepare worker when the engine runs from its TypeScript sources (the CLI through tsx,
// tests, benchmarks). Bundled builds start the compiled `prepare-worker.js` directly (see
// `prepare-pool.ts`).
//
// While the CLI bundle (out/cli, written by `npm ci` and `npm run build`) is built from the
// sources as they are now, its compiled worker is the same code: it is started instead, which
// spares the worker a TypeScript loader of its own (on the 2-core test machine tsx's loader thread
// and on-the-fly module loading cost a worker ~2 s of CPU, the bundle ~0.3 s). The freshness test
// is bin/manualmate.mjs's; a source changed since the build runs the sources through tsx.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The bundle's prepare worker when the bundle is built from the sources as they are now, else null. */
function freshWorker() {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(path.join(root, 'out', 'cli', 'inputs.json'), 'utf8'));
  } catch {
    return null;
  }
  const worker = path.join(root, 'out', 'cli', 'prepare-worker.mjs');
  if (!statSync(worker, { throwIfNoEntry: false })) return null;
  for (const input of stamp.inputs) {
    const st = statSync(path.join(root, input), { throwIfNoEntry: false });
    if (!st || st.mtimeMs > stamp.builtAt) return null;
  }
  return pathToFileURL(worker).href;
}

const bundled = freshWorker();
if (bundled) await import(bundled);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('./prepare.worker.ts', import.meta.url).href);
}
