import { afterAll, describe, expect, it } from 'vitest';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createPackage } from '@electron/asar';
import { checkUnpackedApp, importedPackages, packageCheck } from '../../scripts/package-check';
import { tempDir } from '../helpers/temp';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

async function put(root: string, rel: string, content = 'x'): Promise<void> {
  await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
  await writeFile(path.join(root, rel), content);
}

describe('packaged app (electron-builder --dir with a stub Electron)', () => {
  it('holds the bundles and production modules in app.asar and unpacks LanceDB and node-llama-cpp for linux-x64 only', { timeout: 300_000 }, async () => {
    const report = await packageCheck({ log: () => undefined });
    cleanups.push(() => rm(report.workDir, { recursive: true, force: true }));
    expect(report.failures, report.failures.join('\n')).toEqual([]);
    expect(report.asarTopLevel).toEqual(['node_modules', 'out', 'package.json']);
    expect(report.llamaBuilds).toEqual(['linux-x64']);
    expect(report.lanceDbPackages.filter((p) => p.startsWith('lancedb-'))).toEqual(['lancedb-linux-x64-gnu']);
    expect(report.mainImports).toEqual(expect.arrayContaining(['@lancedb/lancedb', 'node-llama-cpp', '@huggingface/transformers']));
    expect(report.models).toContain('README.md');
    expect(report.sizes.asar).toBeGreaterThan(0);
  });
});

describe('package check', () => {
  it('reports every way a package can be wrong, in words', async () => {
    const tmp = await tempDir('manualmate-bad-package-');
    cleanups.push(tmp.cleanup);
    const src = path.join(tmp.dir, 'src');
    await put(src, 'package.json', JSON.stringify({ name: 'manualmate', main: 'index.js' }));
    await put(src, 'out/main/index.js', 'import fs from "node:fs";\nimport { app } from "electron";\nimport pad from "left-pad";\nimport { z } from "zod";\n');
    await put(src, 'out/main/index.js.map', '{}');
    await put(src, 'node_modules/zod/package.json', '{}');
    await put(src, 'node_modules/native-thing/build/thing.node', 'binary');
    await put(src, 'src-main/electron/main.ts', 'export {}');
    await put(src, 'tests/.models/tiny-llama.gguf', 'GGUF');
    const app = path.join(tmp.dir, 'linux-unpacked');
    await mkdir(path.join(app, 'resources'), { recursive: true });
    await createPackage(src, path.join(app, 'resources', 'app.asar'));
    const nm = path.join(app, 'resources', 'app.asar.unpacked', 'node_modules');
    await put(nm, '@node-llama-cpp/linux-x64-cuda/bins/linux-x64-cuda/libggml-cuda.so');
    await put(nm, 'onnxruntime-node/bin/napi-v6/darwin/arm64/libonnxruntime.dylib');
    const models = path.join(tmp.dir, 'models');
    await put(models, 'README.md', '# Models');
    await put(app, 'manualmate', '#!/bin/sh\n');
    await chmod(path.join(app, 'manualmate'), 0o755);

    const report = await checkUnpackedApp(app, models);
    const text = report.failures.join('\n');
    for (const expected of [
      'app.asar lacks out/preload/index.cjs',
      'app.asar lacks out/renderer/index.html',
      'not bundles or production modules: src-main, tests',
      'source maps',
      'tests/.models',
      'native binaries packed inside app.asar',
      'main "index.js"',
      'imports "left-pad"',
      'LanceDB for linux-x64',
      'node-llama-cpp is not unpacked',
      '@node-llama-cpp/linux-x64) is not unpacked',
      'GPU backends were shipped: linux-x64-cuda',
      'onnxruntime binaries for other platforms',
      'Windows or macOS binaries',
      'resources/models is missing',
      'cannot read the Electron fuses',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('"zod"');
    expect(text).not.toContain('"electron"');
  });

  it('finds the packages a bundle imports, ignoring Node built-ins, electron and prose in strings', async () => {
    const code = [
      'import { app } from "electron";',
      'import path from "node:path";',
      'import fs from "fs";',
      'import { connect } from "@lancedb/lancedb";',
      'import x from "pdfjs-dist/legacy/build/pdf.mjs";',
      'const m = await import("node-llama-cpp");',
      'const r = require("iconv-lite");',
      'import "./chunks/a.js";',
      'import "side-effect-pkg";',
      'export { a } from "re-exported";',
      'const msg = `vectors come from "${id}", not from "bge-small"`;',
      'const m2 = await import(`./chunks/${name}.js`);',
      // A bundled package's doc comment, as markdown-it's: an example, not a call.
      '/**',
      " * var hljs = require('highlight.js') // https://highlightjs.org/",
      ' */',
      "// const old = require('left-pad');",
    ].join('\n');
    expect(await importedPackages(code)).toEqual(['@lancedb/lancedb', 'iconv-lite', 'node-llama-cpp', 'pdfjs-dist', 're-exported', 'side-effect-pkg']);
  });
});
