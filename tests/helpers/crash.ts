import { expect } from 'vitest';
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import type { DocumentRecord, Library } from '../../src-main/storage/library.store';
import { mulberry32 } from './prng';
import { repoRoot } from './temp';

/** What the crash tests share: the CLI killed with SIGKILL at chosen moments, and the library checked afterwards. */

const bin = path.join(repoRoot, 'bin', 'manualmate.mjs');
const dieInsideScript = path.join(repoRoot, 'tests', 'helpers', 'die-inside.ts');

/** Deterministic "random" shares of a whole run's time to kill at, so a failure can be replayed. */
export function killShares(seed: number, n: number, min: number, max: number): number[] {
  const next = mulberry32(seed);
  return Array.from({ length: n }, () => min + next() * (max - min));
}

/** Runs `manualmate ...args` and kills it after `afterMs`; `ms` is how long it ran (the whole run when not killed). */
export function runCliThenKill(args: string[], afterMs: number): Promise<{ killed: boolean; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, ...args], { stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), afterMs);
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve({ killed: signal === 'SIGKILL', ms: performance.now() - started });
    });
  });
}

/**
 * Runs one engine call (`key`, `input`) in a real process that kills itself with SIGKILL on entering
 * `where` (`Class.method[#N]`, see `die-inside.ts`); resolves with whether it was killed there.
 */
export function dieInside(dataDir: string, where: string, key: string, input: unknown): Promise<{ killed: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', dieInsideScript, dataDir, where, key, JSON.stringify(input)], { stdio: ['ignore', 'ignore', 'inherit'], cwd: repoRoot });
    child.on('error', reject);
    child.on('exit', (_code, signal) => resolve({ killed: signal === 'SIGKILL' }));
  });
}

/** What `checkConsistent` opened, for checks of its caller's own while the engine is open. */
export interface OpenedLibrary {
  engine: Engine;
  lib: Library;
  docs: DocumentRecord[];
}

/**
 * Opens the data folder in a fresh engine and checks what every interrupted write must leave: the
 * library opens, every document is ready or failed, a ready one has exactly its chunks in the index
 * (a failed one none), no temp file is left outside the index once it is open, and a bm25 search
 * works. `more` runs further checks before the engine is disposed. Returns how many documents are
 * ready (0 when the library does not exist).
 */
export async function checkConsistent(dataDir: string, library: string, more?: (opened: OpenedLibrary) => Promise<void>): Promise<{ ready: number }> {
  const engine = createEngine({ dataDir, bundledModelsDir: path.join(dataDir, 'no-models') });
  try {
    const libs = await engine.handlers['libraries.list']({});
    expect(libs.ok).toBe(true);
    const lib = await engine.libraries.get(library);
    if (!lib) return { ready: 0 };
    const index = await engine.indexes.open(lib);
    const docs = await lib.documents();
    for (const d of docs) {
      expect(['ready', 'failed'], `${d.id} is listed as ${d.status}`).toContain(d.status);
      const rows = await index.listChunks(d.id);
      if (d.status === 'ready') expect(rows.length, `${d.id} chunks`).toBe(d.chunks);
      else expect(rows.length, `${d.id} (failed) has no chunks`).toBe(0);
    }
    // Temp files of the killed writer are swept when the library opens.
    const entries = await readdir(lib.dir, { recursive: true, withFileTypes: true });
    const temps = entries.filter((e) => e.isFile() && e.name.endsWith('.tmp') && !path.relative(lib.dir, e.parentPath).startsWith('index'));
    expect(temps.map((e) => path.relative(lib.dir, path.join(e.parentPath, e.name)))).toEqual([]);
    const search = await engine.handlers['search.query']({ library, query: 'power supply', topK: 3, retriever: 'bm25' });
    expect(search.ok).toBe(true);
    await more?.({ engine, lib, docs });
    return { ready: docs.filter((d) => d.status === 'ready').length };
  } finally {
    await engine.dispose();
  }
}
