import { defineConfig } from 'vitest/config';

// One config, three kinds of tests told apart by folder: unit/integration tests mirror the source
// tree; tests/e2e drives the built renderer in Debian Chromium through the web bridge.
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores: native runtimes (llama.cpp, onnxruntime, LanceDB) each want a core.
    maxWorkers: 2,
    reporters: ['default', './tests/helpers/summary.reporter.ts'],
    env: {
      LANCEDB_LOG: 'error',
    },
  },
});
