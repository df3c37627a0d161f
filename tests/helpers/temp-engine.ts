import { afterEach, beforeEach } from 'vitest';
import path from 'node:path';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { tempDir } from './temp';

/** What `useTempEngine` gives each test: a fresh engine over an empty data folder inside `dir`. */
export interface TempEngine {
  readonly engine: Engine;
  /** The test's temp folder (the engine's data folder is `dir/data`; files to import go beside it). */
  readonly dir: string;
}

/**
 * Registers, in the calling `describe` (or file), a fresh engine per test over a temp folder, with
 * no models (an empty bundled-models folder), disposed and deleted after the test. Read the
 * returned object's fields inside the tests, not when the suite is declared.
 */
export function useTempEngine(): TempEngine {
  const current = { engine: null as Engine | null, dir: '', cleanup: async () => undefined as void };
  beforeEach(async () => {
    const t = await tempDir();
    current.dir = t.dir;
    current.cleanup = t.cleanup;
    current.engine = createEngine({ dataDir: path.join(t.dir, 'data'), bundledModelsDir: path.join(t.dir, 'none') });
  });
  afterEach(async () => {
    await current.engine?.dispose();
    current.engine = null;
    await current.cleanup();
  });
  return {
    get engine() {
      if (!current.engine) throw new Error('useTempEngine: the engine exists only while a test runs');
      return current.engine;
    },
    get dir() {
      return current.dir;
    },
  };
}
