#!/usr/bin/env node
// The CLI runs from the bundle that `npm ci` (prepare) and `npm run build` write to out/cli/
// (scripts/build-cli.mjs). While developing, a source changed since that build makes the bundle
// stale: the CLI then runs the TypeScript sources through tsx (slower to start, never out of
// date) until the next build.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The bundle's entry when it is built from the sources as they are now, else null. */
function freshBundle() {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(path.join(root, 'out', 'cli', 'inputs.json'), 'utf8'));
  } catch {
    return null;
  }
  for (const input of stamp.inputs) {
    try {
      if (statSync(path.join(root, input)).mtimeMs > stamp.builtAt) return null;
    } catch {
      // A source that is gone: changed since the build (in a checkout), or not shipped (in a package).
      if (statSync(path.join(root, 'src-main'), { throwIfNoEntry: false })) return null;
    }
  }
  return pathToFileURL(path.join(root, 'out', 'cli', 'main.mjs')).href;
}

let entry = freshBundle();
if (entry === null) {
  const { register } = await import('tsx/esm/api');
  register();
  entry = pathToFileURL(path.join(root, 'src-main', 'cli', 'main.ts')).href;
}
const { runCli } = await import(entry);
try {
  const code = await runCli(process.argv.slice(2));
  // `serve` keeps running until a signal; every other command ends here.
  process.exitCode = code;
} catch (err) {
  process.stderr.write(`manualmate: unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
}
