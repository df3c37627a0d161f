import { afterEach, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import path from 'node:path';
import { repoRoot } from '../helpers/temp';

/**
 * The electron-builder config's file patterns, judged by electron-builder's own matchers (the
 * same code that decides what gets packed), for targets and flags this machine cannot build.
 */

const require = createRequire(import.meta.url);
const configPath = path.join(repoRoot, 'electron-builder.cjs');

interface PlatformOptions {
  files: string[];
  target: unknown;
}
interface BuilderConfig {
  appId: string;
  productName: string;
  files?: unknown;
  asarUnpack: string[];
  extraResources: { from: string; to: string }[];
  linux: PlatformOptions & { mimeTypes: string[] };
  win: PlatformOptions;
  mac: PlatformOptions & { fileAssociations: { rank: string }[] };
  nsis: { deleteAppDataOnUninstall: boolean };
}
type Filter = (file: string, stat: { isDirectory(): boolean }) => boolean;
interface Matcher {
  createFilter(): Filter;
}
// Internal electron-builder functions (not in its typings): how it filters app files and node_modules.
const fileMatcher = require('app-builder-lib/out/fileMatcher') as {
  getNodeModuleFileMatcher(appDir: string, dest: string, expand: (s: string) => string, platformOptions: unknown, packager: unknown): Matcher;
  getMainFileMatchers(appDir: string, dest: string, expand: (s: string) => string, platformOptions: unknown, platformPackager: unknown, outDir: string, isElectronCompile: boolean): Matcher[];
};

function loadConfig(gpu: boolean): BuilderConfig {
  const before = process.env['MANUALMATE_GPU_BACKENDS'];
  if (gpu) process.env['MANUALMATE_GPU_BACKENDS'] = '1';
  else delete process.env['MANUALMATE_GPU_BACKENDS'];
  try {
    delete require.cache[require.resolve(configPath)];
    return require(configPath) as BuilderConfig;
  } finally {
    if (before === undefined) delete process.env['MANUALMATE_GPU_BACKENDS'];
    else process.env['MANUALMATE_GPU_BACKENDS'] = before;
  }
}

const file = { isDirectory: () => false };
const expander = (os: string, arch: string) => (s: string) => s.replace(/\$\{arch\}/g, arch).replace(/\$\{os\}/g, os);

/** Which of `paths` (relative to the repo) electron-builder copies from node_modules for a target. */
function shippedModules(config: BuilderConfig, os: 'linux' | 'win' | 'mac', arch: string, paths: string[]): string[] {
  const matcher = fileMatcher.getNodeModuleFileMatcher(repoRoot, '/app', expander(os, arch), config[os], { config: { files: [] }, debugLogger: { isEnabled: false } });
  const filter = matcher.createFilter();
  return paths.filter((p) => filter(path.join(repoRoot, p), file));
}

const LLAMA = ['linux-x64', 'linux-x64-cuda', 'linux-x64-cuda-ext', 'linux-x64-vulkan', 'linux-arm64', 'linux-armv7l', 'win-x64', 'win-x64-cuda', 'win-x64-vulkan', 'win-arm64', 'mac-arm64-metal', 'mac-x64'];
const llamaFiles = LLAMA.map((b) => `node_modules/@node-llama-cpp/${b}/bins/${b}/libllama.so`);
const kept = (files: string[]) => files.map((f) => f.split('/')[2]);

afterEach(() => {
  delete require.cache[require.resolve(configPath)];
});

describe('electron-builder config', () => {
  it('names the app and ships models as extra resources', () => {
    const config = loadConfig(false);
    expect(config.appId).toBe('app.manualmate.desktop');
    expect(config.productName).toBe('ManualMate');
    expect(config.extraResources).toContainEqual(expect.objectContaining({ from: 'models', to: 'models' }));
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['**/node_modules/@lancedb/**', '**/node_modules/node-llama-cpp/**', '**/node_modules/@node-llama-cpp/**', '**/node_modules/onnxruntime-node/**', '**/*.node']));
    expect(config.nsis.deleteAppDataOnUninstall).toBe(false);
  });

  it('never becomes the default app for PDFs: "Open with" entries only', () => {
    const config = loadConfig(false);
    expect(config.mac.fileAssociations.every((a) => a.rank === 'Alternate')).toBe(true);
    expect(config.linux.mimeTypes).toContain('application/pdf');
    expect(config).not.toHaveProperty('fileAssociations');
    expect(config.win).not.toHaveProperty('fileAssociations');
  });

  it('packs only the bundles and package.json from the repository', () => {
    const config = loadConfig(false);
    // A top-level `files` list would be merged with the platform lists in a way that packs everything.
    expect(config.files).toBeUndefined();
    const info = { projectDir: repoRoot, buildResourcesDir: 'build', config: { files: [] }, isPrepackedAppAsar: false, debugLogger: { isEnabled: false } };
    const matchers = fileMatcher.getMainFileMatchers(repoRoot, '/app', expander('linux', 'x64'), config.linux, { info }, path.join(repoRoot, 'dist'), false);
    const filters = matchers.map((m) => m.createFilter());
    const packed = (p: string) => filters.some((f) => f(path.join(repoRoot, p), file));
    for (const p of ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'package.json']) expect(packed(p), p).toBe(true);
    for (const p of ['src-main/electron/main.ts', 'tests/.models/tiny-llama.gguf', 'tests/electron/window.test.ts', 'src-renderer/index.html', 'docs/installers.md', 'out/main/index.js.map', 'electron-builder.cjs', 'build/icon.png', 'models/README.md']) {
      expect(packed(p), p).toBe(false);
    }
  });

  it('ships only the CPU llama.cpp build of the target by default', () => {
    const config = loadConfig(false);
    expect(kept(shippedModules(config, 'linux', 'x64', llamaFiles))).toEqual(['linux-x64']);
    expect(kept(shippedModules(config, 'linux', 'arm64', llamaFiles))).toEqual(['linux-arm64']);
    expect(kept(shippedModules(config, 'win', 'x64', llamaFiles))).toEqual(['win-x64']);
    expect(kept(shippedModules(config, 'mac', 'arm64', llamaFiles))).toEqual(['mac-arm64-metal']);
  });

  it("adds the target's CUDA and Vulkan builds when MANUALMATE_GPU_BACKENDS=1", () => {
    const config = loadConfig(true);
    expect(kept(shippedModules(config, 'linux', 'x64', llamaFiles))).toEqual(['linux-x64', 'linux-x64-cuda', 'linux-x64-cuda-ext', 'linux-x64-vulkan']);
    expect(kept(shippedModules(config, 'win', 'x64', llamaFiles))).toEqual(['win-x64', 'win-x64-cuda', 'win-x64-vulkan']);
    expect(kept(shippedModules(config, 'mac', 'arm64', llamaFiles))).toEqual(['mac-arm64-metal']);
  });

  it("keeps only the target's onnxruntime and LanceDB binaries and drops unused heavy modules", () => {
    const config = loadConfig(false);
    const candidates = [
      'node_modules/onnxruntime-node/bin/napi-v6/linux/x64/onnxruntime_binding.node',
      'node_modules/onnxruntime-node/bin/napi-v6/linux/arm64/onnxruntime_binding.node',
      'node_modules/onnxruntime-node/bin/napi-v6/darwin/arm64/onnxruntime_binding.node',
      'node_modules/onnxruntime-node/bin/napi-v6/win32/x64/onnxruntime_binding.node',
      'node_modules/onnxruntime-node/dist/index.js',
      'node_modules/@lancedb/lancedb/dist/index.js',
      'node_modules/@lancedb/lancedb-linux-x64-gnu/lancedb.linux-x64-gnu.node',
      'node_modules/@lancedb/lancedb-win32-x64-msvc/lancedb.win32-x64-msvc.node',
      'node_modules/@lancedb/lancedb-darwin-arm64/lancedb.darwin-arm64.node',
      'node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.jsep.wasm',
      'node_modules/node-llama-cpp/llama/gitRelease.bundle',
      'node_modules/node-llama-cpp/llama/grammars/json.gbnf',
      'node_modules/pdfjs-dist/legacy/build/pdf.mjs.map',
      'node_modules/tsx/dist/cli.mjs',
    ];
    expect(shippedModules(config, 'linux', 'x64', candidates)).toEqual([
      'node_modules/onnxruntime-node/bin/napi-v6/linux/x64/onnxruntime_binding.node',
      'node_modules/onnxruntime-node/dist/index.js',
      'node_modules/@lancedb/lancedb/dist/index.js',
      'node_modules/@lancedb/lancedb-linux-x64-gnu/lancedb.linux-x64-gnu.node',
      'node_modules/node-llama-cpp/llama/grammars/json.gbnf',
    ]);
    expect(shippedModules(config, 'win', 'x64', candidates)).toEqual(expect.arrayContaining(['node_modules/onnxruntime-node/bin/napi-v6/win32/x64/onnxruntime_binding.node', 'node_modules/@lancedb/lancedb-win32-x64-msvc/lancedb.win32-x64-msvc.node']));
    expect(shippedModules(config, 'mac', 'arm64', candidates)).toEqual(expect.arrayContaining(['node_modules/onnxruntime-node/bin/napi-v6/darwin/arm64/onnxruntime_binding.node', 'node_modules/@lancedb/lancedb-darwin-arm64/lancedb.darwin-arm64.node']));
  });
});
