import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// Non-default roots (src-main, src-renderer) need explicit inputs (ENVIRONMENT.md).
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // Native modules and the engine's npm dependencies stay external: they are loaded from
      // node_modules (unpacked from asar for the native ones) at run time. The parse worker's
      // pure-JavaScript packages are bundled instead (into the main bundle too, which imports
      // them as well): a worker resolving and compiling their ~120 files one by one was ready
      // ~290 ms after its start, bundled ~135 ms, and one starts for the first import after a
      // minute without one. pdf.js and mammoth stay external, loaded on first need, as in the
      // CLI's worker (`PARSE_WORKER_EXTERNAL` in scripts/build-cli.mjs); tests/build/bundles.test.ts
      // checks that the worker imports nothing else.
      externalizeDeps: { exclude: ['markdown-it', 'entities', 'turndown', '@joplin/turndown-plugin-gfm', 'chardet', 'iconv-lite', 'stemmer'] },
      // The parse and prepare workers are entries of their own: `ingest/parse-pool.ts` and
      // `index/prepare-pool.ts` start `parse-worker.js` and `prepare-worker.js` next to the bundle.
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src-main/electron/main.ts'),
          'parse-worker': resolve(__dirname, 'src-main/ingest/parse.worker.ts'),
          'prepare-worker': resolve(__dirname, 'src-main/index/prepare.worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload can only require `electron`: bundle everything else into one CJS file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src-main/electron/preload.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      rollupOptions: { input: { index: resolve(__dirname, 'src-renderer/index.html') } },
    },
  },
});
