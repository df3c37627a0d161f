import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../helpers/temp';

/** Checks the output of `electron-vite build` (npm test builds before running vitest). */
const out = path.join(repoRoot, 'out');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

const requiresElectron = (code: string) => /(?:require\(|from\s*|import\()\s*["']electron["']/.test(code);

describe('electron-vite bundles', () => {
  it('produces main, preload and renderer bundles', () => {
    expect(existsSync(path.join(out, 'main', 'index.js')), 'run "npm run build" first').toBe(true);
    expect(existsSync(path.join(out, 'preload', 'index.cjs'))).toBe(true);
    expect(existsSync(path.join(out, 'renderer', 'index.html'))).toBe(true);
  });

  it('ships the parse worker beside the main bundle, needing neither electron nor tsx', () => {
    const worker = readFileSync(path.join(out, 'main', 'parse-worker.js'), 'utf8');
    expect(requiresElectron(worker)).toBe(false);
    expect(worker).not.toMatch(/["']tsx(?:\/[^"']*)?["']/);
    // The parse pool starts the worker by that name (`ingest/parse-pool.ts`).
    expect(readFileSync(path.join(out, 'main', 'index.js'), 'utf8')).toContain('parse-worker.js');
  });

  it('ships the prepare worker beside the main bundle, needing neither electron nor tsx', () => {
    const worker = readFileSync(path.join(out, 'main', 'prepare-worker.js'), 'utf8');
    expect(requiresElectron(worker)).toBe(false);
    expect(worker).not.toMatch(/["']tsx(?:\/[^"']*)?["']/);
    // The prepare pool starts the worker by that name (`index/prepare-pool.ts`).
    const main = filesUnder(path.join(out, 'main')).filter((f) => f.endsWith('.js') && !f.endsWith('-worker.js'));
    expect(main.some((f) => readFileSync(f, 'utf8').includes('prepare-worker.js'))).toBe(true);
  });

  it('requires electron only from the main bundle and the sandboxed preload', () => {
    expect(requiresElectron(readFileSync(path.join(out, 'main', 'index.js'), 'utf8'))).toBe(true);
    const preload = readFileSync(path.join(out, 'preload', 'index.cjs'), 'utf8');
    // A sandboxed preload may require only `electron`; everything else must be bundled.
    const required = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
    expect(new Set(required)).toEqual(new Set(['electron']));
    for (const file of filesUnder(path.join(out, 'renderer')).filter((f) => f.endsWith('.js'))) {
      expect(requiresElectron(readFileSync(file, 'utf8')), file).toBe(false);
    }
  });

  it('keeps native runtimes out of the renderer bundle', () => {
    for (const file of filesUnder(path.join(out, 'renderer')).filter((f) => f.endsWith('.js'))) {
      const code = readFileSync(file, 'utf8');
      expect(code).not.toMatch(/@lancedb\/lancedb|node-llama-cpp|onnxruntime-node/);
    }
  });
});
