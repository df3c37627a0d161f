import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Where a worker pool (parse, prepare) starts its worker thread. From the TypeScript sources
 * (tests, benchmarks, a CLI run through tsx) it is the CLI bundle's compiled worker while that
 * bundle is current, else the pool's boot file, which registers tsx in the thread. A worker run
 * through tsx costs far more than a short task: its own loader thread and every module compiled at
 * its start (pdf.js's 3 MB rewritten with source maps: about 400 MB more memory and 1.5 s more CPU
 * per parse worker than the compiled one on pdf-dev; ~2 s of CPU per prepare worker). From a
 * bundle it is the compiled worker beside the bundle's chunk.
 */

/**
 * The compiled worker `fileName` of the CLI bundle under `root` (out/cli/, `scripts/build-cli.mjs`)
 * when it was built from the sources as they are now, else null: the same rule as `bin/manualmate.mjs`.
 */
export function currentCompiledWorker(root: string, fileName = 'parse-worker.mjs'): URL | null {
  const out = path.join(root, 'out', 'cli');
  let stamp: { builtAt: number; inputs: string[] };
  try {
    stamp = JSON.parse(readFileSync(path.join(out, 'inputs.json'), 'utf8')) as typeof stamp;
  } catch {
    return null;
  }
  for (const input of stamp.inputs) {
    const stat = statSync(path.join(root, input), { throwIfNoEntry: false });
    if (!stat || stat.mtimeMs > stamp.builtAt) return null;
  }
  const worker = path.join(out, fileName);
  return existsSync(worker) ? pathToFileURL(worker) : null;
}

/**
 * The entry of a worker for the pool module at `here` (its `import.meta.url`, one folder below
 * src-main/ in the sources). `files` are the worker's compiled names: the app's bundle
 * (electron-vite) names it `.js`, the CLI's (scripts/build-cli.mjs) `.mjs`; `boot` is the pool's
 * boot file, relative to `here`.
 */
export function workerEntry(here: string, files: { app: string; cli: string }, boot: string): URL {
  if (here.endsWith('.ts')) {
    const root = path.resolve(path.dirname(fileURLToPath(here)), '..', '..');
    return currentCompiledWorker(root, files.cli) ?? new URL(boot, here);
  }
  // A bundler may put the pool's module in a chunk one folder below the entry points.
  const dir = path.dirname(fileURLToPath(here));
  for (const d of [dir, path.dirname(dir)]) {
    for (const file of [files.app, files.cli]) {
      const full = path.join(d, file);
      if (existsSync(full)) return pathToFileURL(full);
    }
  }
  throw new Error(`the ${files.app.replace(/-worker\.js$/, '')} worker (${files.app}) is missing next to ${dir}`);
}
