import { configDefaults, defineConfig } from 'vitest/config';

/** Tests that read the benchmark corpora in ../shared: `npm run test:corpus`, never `npm test`. */
const corpusTests = 'tests/**/*.corpus.test.ts';
/** Tests that need root (they mount a file system): `npm run test:system`, run by .ci/run. */
const systemTests = 'tests/**/*.system.test.ts';
/** Tests against a real S3 server (moto's, a Python program): `npm run test:s3`, run by .ci/run. */
const s3Tests = 'tests/**/*.s3.test.ts';

// Two projects. `unit` (run by `npm test`) needs nothing outside the repository: unit and
// integration tests mirror the source tree, tests/e2e drives the built renderer in Debian Chromium
// through the web bridge, and tests that need real manuals read the fixture cut in
// tests/fixtures/corpus. `corpus` holds the corpus-wide checks over ../shared; `system` the
// tests that need root to mount a small tmpfs (a full disk), which CI runs; `s3` the team-library
// tests against moto's S3 server (Python), which CI runs.
export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // How long `expect.poll` waits for what the page or the engine does next before failing.
    // Vitest's default (1 s) is shorter than a loaded 2-core machine takes to open a PDF in
    // Chromium while other test files run: e2e polls failed at random in full runs (viewer-pdf-close,
    // library-announce) and passed alone. Only a failing poll waits this long.
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    // Two cores: native runtimes (llama.cpp, onnxruntime, LanceDB) each want a core.
    maxWorkers: 2,
    reporters: ['default', './tests/helpers/summary.reporter.ts'],
    env: {
      LANCEDB_LOG: 'error',
    },
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/**/*.test.ts'], exclude: [...configDefaults.exclude, corpusTests, systemTests, s3Tests] } },
      { extends: true, test: { name: 'corpus', include: [corpusTests], globalSetup: ['./tests/helpers/shared-corpora.ts'] } },
      { extends: true, test: { name: 'system', include: [systemTests] } },
      { extends: true, test: { name: 's3', include: [s3Tests] } },
    ],
  },
});
