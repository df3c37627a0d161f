/**
 * Packaging check: builds the unpacked Linux x64 app with electron-builder against a stub Electron
 * (the real binary cannot be downloaded here) and checks what went in:
 * - app.asar holds the main, preload and renderer bundles, package.json and production
 *   node_modules, and nothing else from the repository (no sources, tests, maps, test models);
 * - every package the main bundle imports is in the archive;
 * - native modules are unpacked: LanceDB and node-llama-cpp for linux-x64 only (no CUDA, Vulkan,
 *   ARM, macOS or Windows builds), onnxruntime for linux/x64 only, no .dll/.dylib/.exe anywhere;
 * - the Electron fuses were flipped (no ELECTRON_RUN_AS_NODE, app loads only from app.asar);
 * - `models/` landed in resources/models.
 *
 *   node --import tsx scripts/package-check.ts [--keep] [--out DIR]
 *
 * Exits 0 when every check passes, 1 with one line per failure otherwise.
 */
import { spawnSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { extractFile, listPackage } from '@electron/asar';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { init as initLexer, parse as parseModule } from 'es-module-lexer';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Bundles electron-vite writes and the packaged app must contain. */
export const REQUIRED_BUNDLES = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'] as const;

/** The fuse wire Electron ships with (`@electron/fuses` reads it after the sentinel). */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const DEFAULT_FUSES = '10110001';
const FUSE_ENABLED = 49;
const FUSE_DISABLED = 48;

export interface PackageReport {
  /** One sentence per failed check; empty when the package is right. */
  failures: string[];
  /** Top-level entries of app.asar. */
  asarTopLevel: string[];
  /** Folders under app.asar.unpacked/node_modules/@node-llama-cpp. */
  llamaBuilds: string[];
  /** LanceDB packages under app.asar.unpacked/node_modules/@lancedb. */
  lanceDbPackages: string[];
  /** Packages the shipped main bundle imports. */
  mainImports: string[];
  /** Files in resources/models. */
  models: string[];
  /** Sizes in bytes of app.asar and app.asar.unpacked. */
  sizes: { asar: number; unpacked: number };
}

/**
 * A stand-in for the Electron binary: electron-builder only copies it, renames it and flips its
 * fuses, so it needs nothing but the fuse wire.
 */
export function makeStubElectron(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'electron');
  const body = Buffer.concat([Buffer.from('#!/bin/sh\necho "stub Electron: not runnable" >&2\nexit 1\n# '), Buffer.from(FUSE_SENTINEL), Buffer.from([1, DEFAULT_FUSES.length]), Buffer.from(`${DEFAULT_FUSES}\n`)]);
  writeFileSync(file, body, { mode: 0o755 });
  return dir;
}

/** Runs `electron-builder --dir --linux --x64` with the stub; returns its output. */
export function runElectronBuilder(stubDir: string, outputDir: string, env: NodeJS.ProcessEnv = process.env): { ok: boolean; output: string } {
  const cli = path.join(repoRoot, 'node_modules', 'electron-builder', 'cli.js');
  const childEnv = { ...env };
  // The check is about the default package; the GPU flag is covered by the config's own tests.
  delete childEnv['MANUALMATE_GPU_BACKENDS'];
  const res = spawnSync(process.execPath, [cli, '--dir', '--linux', '--x64', '--publish', 'never', `-c.electronDist=${stubDir}`, `-c.directories.output=${outputDir}`], {
    cwd: repoRoot,
    env: childEnv,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { ok: res.status === 0, output: `${res.stdout ?? ''}${res.stderr ?? ''}${res.error ? String(res.error) : ''}` };
}

function filesUnder(dir: string, rel = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(path.join(dir, e.name), path.posix.join(rel, e.name)) : [path.posix.join(rel, e.name)],
  );
}

function sizeOf(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.size;
  return readdirSync(p).reduce((n, e) => n + sizeOf(path.join(p, e)), 0);
}

/** An npm package specifier: optional scope, lower-case name, optional subpath. */
const PACKAGE_SPECIFIER = /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(\/[\w./@-]*)?$/;

/**
 * Package names an ES module bundle imports (static, dynamic with a literal, re-exports, and
 * `require("x")` through createRequire); Node built-ins and electron left out. es-module-lexer
 * reads real import statements, so prose like `comes from "x"` in a string is not an import.
 */
export async function importedPackages(code: string): Promise<string[]> {
  await initLexer;
  const [imports] = parseModule(code);
  const specifiers = imports.map((i) => i.n).filter((n): n is string => typeof n === 'string');
  // Bundled packages keep their doc comments, whose examples `require` other packages
  // ("var hljs = require('highlight.js')" in markdown-it's): a comment line is not a call.
  const calls = code
    .split('\n')
    .filter((line) => !/^\s*(?:\*|\/\/|\/\*)/.test(line))
    .join('\n');
  specifiers.push(...[...calls.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!));
  const names = specifiers
    .filter((s) => PACKAGE_SPECIFIER.test(s) && s !== 'electron' && !s.startsWith('electron/'))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!))
    .filter((name) => !builtinModules.includes(name));
  return [...new Set(names)].sort();
}

/**
 * Checks an unpacked Linux app folder (`linux-unpacked/`). `modelsDir` is the repository's
 * `models/`, whose files must all be in resources/models.
 */
export async function checkUnpackedApp(appDir: string, modelsDir: string): Promise<PackageReport> {
  const failures: string[] = [];
  const resources = path.join(appDir, 'resources');
  const asarPath = path.join(resources, 'app.asar');
  const unpacked = path.join(resources, 'app.asar.unpacked');
  const report: PackageReport = { failures, asarTopLevel: [], llamaBuilds: [], lanceDbPackages: [], mainImports: [], models: [], sizes: { asar: sizeOf(asarPath), unpacked: sizeOf(unpacked) } };

  if (!existsSync(asarPath)) {
    failures.push(`resources/app.asar is missing in ${appDir}.`);
    return report;
  }

  // listPackage marks each entry "pack" or "unpack" (stored in app.asar.unpacked).
  const entries = listPackage(asarPath, { isPack: true }).map((line) => {
    const [state, ...rest] = line.split(' : ');
    return { path: rest.join(' : ').split(path.sep).join('/'), unpacked: state!.trim() === 'unpack' };
  });
  const inAsar = new Set(entries.map((e) => e.path));
  report.asarTopLevel = [...new Set(entries.map((e) => e.path.split('/')[1]!))].sort();

  for (const bundle of REQUIRED_BUNDLES) {
    if (!inAsar.has(`/${bundle}`)) failures.push(`app.asar lacks ${bundle}.`);
  }
  const unexpectedTop = report.asarTopLevel.filter((name) => !['out', 'package.json', 'node_modules'].includes(name));
  if (unexpectedTop.length > 0) failures.push(`app.asar holds files that are not bundles or production modules: ${unexpectedTop.join(', ')}.`);
  const maps = entries.filter((e) => e.path.endsWith('.map'));
  if (maps.length > 0) failures.push(`app.asar holds ${maps.length} source maps (e.g. ${maps[0]!.path}).`);
  const testModels = entries.filter((e) => /\/tests\/\.models(\/|$)/.test(e.path));
  if (testModels.length > 0) failures.push('app.asar holds the generated test models (tests/.models).');
  const packedNative = entries.filter((e) => !e.unpacked && /\.(node|so(\.\d+)*|dll|dylib|exe)$/.test(e.path));
  if (packedNative.length > 0) failures.push(`native binaries packed inside app.asar (cannot be loaded from there): ${packedNative.slice(0, 5).map((e) => e.path).join(', ')}.`);

  if (inAsar.has('/package.json')) {
    const pkg = JSON.parse(extractFile(asarPath, 'package.json').toString('utf8')) as { main?: string };
    if (pkg.main !== 'out/main/index.js') failures.push(`package.json in app.asar has main "${pkg.main}", expected out/main/index.js.`);
  } else {
    failures.push('app.asar lacks package.json.');
  }

  // What the shipped main bundle imports must ship too, or the app dies at start.
  const mainFiles = entries.filter((e) => e.path.startsWith('/out/main/') && e.path.endsWith('.js'));
  const imported = await Promise.all(mainFiles.map((e) => importedPackages(extractFile(asarPath, e.path.slice(1)).toString('utf8'))));
  report.mainImports = [...new Set(imported.flat())].sort();
  for (const name of report.mainImports) {
    if (!inAsar.has(`/node_modules/${name}/package.json`)) failures.push(`the main bundle imports "${name}", which is not in app.asar.`);
  }

  const nm = path.join(unpacked, 'node_modules');
  report.lanceDbPackages = existsSync(path.join(nm, '@lancedb')) ? readdirSync(path.join(nm, '@lancedb')).sort() : [];
  if (!filesUnder(path.join(nm, '@lancedb', 'lancedb-linux-x64-gnu')).some((f) => f.endsWith('.node'))) {
    failures.push('LanceDB for linux-x64 (@lancedb/lancedb-linux-x64-gnu with its .node) is not unpacked.');
  }
  const otherLance = report.lanceDbPackages.filter((p) => p.startsWith('lancedb-') && p !== 'lancedb-linux-x64-gnu');
  if (otherLance.length > 0) failures.push(`LanceDB builds for other platforms were shipped: ${otherLance.join(', ')}.`);

  if (!existsSync(path.join(nm, 'node-llama-cpp', 'package.json'))) failures.push('node-llama-cpp is not unpacked.');
  report.llamaBuilds = existsSync(path.join(nm, '@node-llama-cpp')) ? readdirSync(path.join(nm, '@node-llama-cpp')).sort() : [];
  if (!filesUnder(path.join(nm, '@node-llama-cpp', 'linux-x64')).some((f) => /\.(node|so)$/.test(f))) {
    failures.push('the llama.cpp build for linux-x64 (@node-llama-cpp/linux-x64) is not unpacked.');
  }
  const otherLlama = report.llamaBuilds.filter((b) => b !== 'linux-x64');
  if (otherLlama.length > 0) failures.push(`llama.cpp builds for other platforms or GPU backends were shipped: ${otherLlama.join(', ')}.`);
  const packedLlama = [...inAsar].filter((p) => p.startsWith('/node_modules/@node-llama-cpp/') && !p.startsWith('/node_modules/@node-llama-cpp/linux-x64/') && p !== '/node_modules/@node-llama-cpp/linux-x64');
  if (packedLlama.length > 0) failures.push(`app.asar lists other llama.cpp builds: ${packedLlama.slice(0, 3).join(', ')}.`);

  const onnxBins = filesUnder(path.join(nm, 'onnxruntime-node', 'bin'));
  const foreignOnnx = onnxBins.filter((f) => !/^napi-v\d+\/linux\/x64\//.test(f));
  if (foreignOnnx.length > 0) failures.push(`onnxruntime binaries for other platforms were shipped: ${foreignOnnx.slice(0, 3).join(', ')}.`);
  const foreignBinaries = filesUnder(resources).filter((f) => /\.(dll|dylib|exe)$/i.test(f));
  if (foreignBinaries.length > 0) failures.push(`Windows or macOS binaries were shipped: ${foreignBinaries.slice(0, 3).join(', ')}.`);

  report.models = filesUnder(path.join(resources, 'models')).sort();
  const expectedModels = filesUnder(modelsDir).filter((f) => path.posix.basename(f) !== '.gitkeep');
  const missingModels = expectedModels.filter((f) => !report.models.includes(f));
  if (!existsSync(path.join(resources, 'models'))) failures.push('resources/models is missing (models/ must ship as extra resources).');
  else if (missingModels.length > 0) failures.push(`resources/models lacks ${missingModels.join(', ')}.`);

  const executable = path.join(appDir, 'manualmate');
  if (!existsSync(executable)) {
    failures.push('the executable "manualmate" is missing.');
  } else {
    try {
      const wire = await getCurrentFuseWire(executable);
      const expect = (fuse: FuseV1Options, state: number, what: string) => {
        if (wire[fuse] !== state) failures.push(`Electron fuse ${FuseV1Options[fuse]} is not ${state === FUSE_ENABLED ? 'enabled' : 'disabled'} (${what}).`);
      };
      expect(FuseV1Options.RunAsNode, FUSE_DISABLED, 'ELECTRON_RUN_AS_NODE would turn the app into a Node interpreter');
      expect(FuseV1Options.EnableNodeOptionsEnvironmentVariable, FUSE_DISABLED, 'NODE_OPTIONS could inject code');
      expect(FuseV1Options.EnableNodeCliInspectArguments, FUSE_DISABLED, '--inspect would open a debugger');
      expect(FuseV1Options.OnlyLoadAppFromAsar, FUSE_ENABLED, 'the app must load only from app.asar');
      expect(FuseV1Options.EnableEmbeddedAsarIntegrityValidation, FUSE_ENABLED, 'app.asar integrity is checked on Windows and macOS');
    } catch (err) {
      failures.push(`cannot read the Electron fuses of the executable: ${err instanceof Error ? err.message : String(err)}.`);
    }
  }
  return report;
}

/** Makes sure `out/` holds the bundles; builds them with electron-vite when one is missing. */
export function ensureBundles(log: (line: string) => void = console.log): { ok: boolean; message?: string } {
  if (REQUIRED_BUNDLES.every((b) => existsSync(path.join(repoRoot, b)))) return { ok: true };
  log('out/ is incomplete: building with electron-vite…');
  const res = spawnSync(process.execPath, [path.join(repoRoot, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: repoRoot, encoding: 'utf8' });
  const missing = REQUIRED_BUNDLES.filter((b) => !existsSync(path.join(repoRoot, b)));
  if (res.status !== 0 || missing.length > 0) {
    return { ok: false, message: `"electron-vite build" failed or left out ${missing.join(', ')}:\n${res.stdout}${res.stderr}` };
  }
  return { ok: true };
}

/** Icons the electron-builder config points at. */
export const ICON_FILES = ['build/icons/512x512.png', 'build/icon.png', 'build/icon.ico', 'build/icon.icns'] as const;

/** Builds the unpacked app in `workDir` (a new temp folder by default) and checks it. */
export async function packageCheck(options: { workDir?: string; log?: (line: string) => void } = {}): Promise<PackageReport & { workDir: string; builderOutput: string }> {
  const log = options.log ?? console.log;
  const workDir = options.workDir ?? mkdtempSync(path.join(os.tmpdir(), 'manualmate-package-'));
  const empty: PackageReport = { failures: [], asarTopLevel: [], llamaBuilds: [], lanceDbPackages: [], mainImports: [], models: [], sizes: { asar: 0, unpacked: 0 } };
  const bundles = ensureBundles(log);
  if (!bundles.ok) return { ...empty, failures: [bundles.message!], workDir, builderOutput: '' };
  const missingIcons = ICON_FILES.filter((f) => !existsSync(path.join(repoRoot, f)));
  const stub = makeStubElectron(path.join(workDir, 'electron-stub'));
  const outputDir = path.join(workDir, 'dist');
  rmSync(outputDir, { recursive: true, force: true });
  log(`Packaging with electron-builder --dir --linux --x64 into ${outputDir} …`);
  const built = runElectronBuilder(stub, outputDir);
  if (!built.ok) return { ...empty, failures: [`electron-builder failed:\n${built.output.split('\n').slice(-30).join('\n')}`], workDir, builderOutput: built.output };
  const report = await checkUnpackedApp(path.join(outputDir, 'linux-unpacked'), path.join(repoRoot, 'models'));
  if (missingIcons.length > 0) report.failures.push(`icons missing (run "node scripts/make-icons.mjs"): ${missingIcons.join(', ')}.`);
  return { ...report, workDir, builderOutput: built.output };
}

async function cli(): Promise<number> {
  const args = process.argv.slice(2);
  const outIndex = args.indexOf('--out');
  const workDir = outIndex >= 0 ? path.resolve(args[outIndex + 1] ?? 'dist/package-check') : undefined;
  const keep = args.includes('--keep') || workDir !== undefined;
  const report = await packageCheck(workDir ? { workDir } : {});
  const mb = (n: number) => `${(n / 1e6).toFixed(0)} MB`;
  if (report.failures.length === 0) {
    console.log(`Package check passed: app.asar ${mb(report.sizes.asar)} (${report.asarTopLevel.join(', ')}), unpacked native modules ${mb(report.sizes.unpacked)}`);
    console.log(`  llama.cpp builds: ${report.llamaBuilds.join(', ')}; LanceDB: ${report.lanceDbPackages.join(', ')}; models: ${report.models.join(', ') || '(none)'}`);
  } else {
    console.error(`Package check failed (${report.failures.length}):`);
    for (const f of report.failures) console.error(`  - ${f}`);
  }
  if (keep) console.log(`Unpacked app kept in ${path.join(report.workDir, 'dist', 'linux-unpacked')}`);
  else rmSync(report.workDir, { recursive: true, force: true });
  return report.failures.length === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  cli().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`Package check crashed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      process.exit(1);
    },
  );
}
