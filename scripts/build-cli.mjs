#!/usr/bin/env node
// Builds the command line into out/cli/ with esbuild, so `manualmate` starts from plain
// JavaScript instead of compiling TypeScript through tsx at every call. Run by `npm ci` (the
// `prepare` script) and by `npm run build`.
//
// - Code splitting: every `await import(...)` in the engine stays a separate file, so a command
//   loads only what it needs (`--help` loads no engine at all).
// - npm packages stay external: they load from node_modules as they are (native modules, data
//   files next to their code).
// - out/cli/inputs.json lists the sources the bundle was built from; bin/manualmate.mjs runs the
//   bundle only while none of them changed, and the sources through tsx otherwise.
//
// The build goes to a fresh folder that replaces out/cli/ when complete: a CLI started meanwhile
// finds no inputs.json and runs from the sources.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where the bundle lives, relative to the repository root (bin/manualmate.mjs reads it). */
export const CLI_OUT = path.join('out', 'cli');
export const CLI_ENTRY = path.join('src-main', 'cli', 'main.ts');
/** The parse worker's module: its own entry, found by `ingest/parse-pool.ts` next to the bundle. */
export const PARSE_WORKER_ENTRY = path.join('src-main', 'ingest', 'parse.worker.ts');
/** The prepare worker's module, found by `index/prepare-pool.ts` next to the bundle. */
export const PREPARE_WORKER_ENTRY = path.join('src-main', 'index', 'prepare.worker.ts');

/** Builds the CLI bundle; returns the number of source files it holds. */
export async function buildCli({ log = console.log } = {}) {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    log('manualmate: esbuild is not installed; the CLI will run from its TypeScript sources (slower start).');
    return 0;
  }
  const started = Date.now();
  const final = path.join(root, CLI_OUT);
  const next = `${final}.next-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  mkdirSync(next, { recursive: true });
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { main: CLI_ENTRY, 'parse-worker': PARSE_WORKER_ENTRY, 'prepare-worker': PREPARE_WORKER_ENTRY },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir: next,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    packages: 'external',
    metafile: true,
    logLevel: 'warning',
    legalComments: 'none',
  });
  const inputs = Object.keys(result.metafile.inputs).filter((f) => !f.includes('node_modules'));
  writeFileSync(path.join(next, 'inputs.json'), `${JSON.stringify({ builtAt: started, inputs })}\n`);
  rmSync(final, { recursive: true, force: true });
  renameSync(next, final);
  return inputs.length;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t = performance.now();
  const files = await buildCli();
  if (files > 0) console.log(`CLI bundle: ${files} source files -> ${CLI_OUT} in ${((performance.now() - t) / 1000).toFixed(2)} s`);
}
