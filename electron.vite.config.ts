import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// Non-default roots (src-main, src-renderer) need explicit inputs (ENVIRONMENT.md).
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // Native modules and the engine's npm dependencies stay external: they are loaded from
      // node_modules (unpacked from asar for the native ones) at run time.
      externalizeDeps: true,
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
