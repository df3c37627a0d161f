#!/usr/bin/env node
// Builds the command line into out/cli/ with esbuild, so `manualmate` starts from plain
// JavaScript instead of compiling TypeScript through tsx at every call. Run by `npm ci` (the
// `prepare` script) and by `npm run build`.
//
// - Code splitting: every `await import(...)` in the engine stays a separate file, so a command
//   loads only what it needs (`--help` loads no engine at all).
// - npm packages stay external: they load from node_modules as they are (native modules, data
//   files next to their code). The workers are the exception: each is built on its own with its
//   pure-JavaScript packages inside (see `PARSE_WORKER_EXTERNAL`, `PREPARE_WORKER_EXTERNAL`).
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
/**
 * Packages the parse worker leaves external: those it loads only for their own formats, on first
 * need (pdf.js with its own worker file and data, mammoth for DOCX). Its other packages (markdown-it,
 * turndown with domino, chardet, iconv-lite: ~120 files) are bundled into it: a parse worker starts
 * for every import that follows a minute without one, and resolving and compiling those files one
 * by one took ~60 ms of its ~150 ms start (ready message 150-155 ms, bundled 90 ms, on the 2-core
 * test machine; tests/bench/RESULTS.md, session 19).
 */
export const PARSE_WORKER_EXTERNAL = ['pdfjs-dist', 'pdfjs-dist/*', 'mammoth'];
/** The prepare worker's module, found by `index/prepare-pool.ts` next to the bundle. */
export const PREPARE_WORKER_ENTRY = path.join('src-main', 'index', 'prepare.worker.ts');
/**
 * Packages bundled into the prepare worker; its others stay external (the tagger, loaded only for a
 * library that reads nouns; the LLM stages' packages, behind dynamic imports it never runs: bundled,
 * their 3.7 MB slowed its start). With zod external, loading its ES modules one by one (for the
 * LLM stages' schemas) took ~0.12 s of the worker's ~0.2 s of CPU to start, and a prepare worker
 * starts as an import's parse ends (tests/bench/RESULTS.md, session 28).
 */
export const PREPARE_WORKER_BUNDLED = ['zod', 'stemmer'];

/** An esbuild plugin that leaves every package external but `bundled` (and their own subpaths). */
function onlyBundle(bundled) {
  return {
    name: 'only-bundle',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
        return bundled.includes(name) || args.path.startsWith('node:') ? undefined : { path: args.path, external: true };
      });
    },
  };
}

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
  const common = {
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir: next,
    outExtension: { '.js': '.mjs' },
    metafile: true,
    logLevel: 'warning',
    legalComments: 'none',
  };
  const result = await esbuild.build({
    ...common,
    entryPoints: { main: CLI_ENTRY },
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    packages: 'external',
  });
  // The bundled CommonJS packages require Node's own modules at run time, which an ES module has
  // no `require` for.
  const banner = { js: "import { createRequire as __mmCreateRequire } from 'node:module'; const require = __mmCreateRequire(import.meta.url);" };
  const worker = await esbuild.build({ ...common, entryPoints: { 'parse-worker': PARSE_WORKER_ENTRY }, external: PARSE_WORKER_EXTERNAL, banner });
  const preparer = await esbuild.build({ ...common, entryPoints: { 'prepare-worker': PREPARE_WORKER_ENTRY }, plugins: [onlyBundle(PREPARE_WORKER_BUNDLED)], banner });
  const built = [result, worker, preparer].flatMap((b) => Object.keys(b.metafile.inputs));
  const inputs = [...new Set(built)].filter((f) => !f.includes('node_modules'));
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
