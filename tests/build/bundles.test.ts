import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { repoRoot } from '../helpers/temp';
import { importedPackages } from '../../scripts/package-check';
import type { ParseTask, WorkerMessage } from '../../src-main/ingest/parse-protocol';

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

  it("carries the parse worker's pure-JavaScript packages inside it: only pdf.js and mammoth load from node_modules", async () => {
    // The worker's file and the chunks it imports, followed through their relative imports.
    const seen = new Set<string>();
    const packages = new Set<string>();
    const visit = async (file: string): Promise<void> => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(file, 'utf8');
      for (const name of await importedPackages(code)) packages.add(name);
      for (const m of code.matchAll(/\b(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)) await visit(path.resolve(path.dirname(file), m[1]!));
    };
    await visit(path.join(out, 'main', 'parse-worker.js'));
    expect([...packages].sort()).toEqual(['mammoth', 'pdfjs-dist']);
  });

  it('parses with the built parse worker: an HTML table inside Markdown, and a Latin-1 text file', async () => {
    const worker = new Worker(path.join(out, 'main', 'parse-worker.js'));
    try {
      const results = await new Promise<Map<number, unknown>>((resolve, reject) => {
        const got = new Map<number, unknown>();
        const files = [
          { key: 1, fileName: 'pump.md', bytes: new TextEncoder().encode('# Pump\n\n<table><tr><th>Pin</th><th>Use</th></tr><tr><td>GPIO5</td><td>LED</td></tr></table>\n'), extract: true },
          { key: 2, fileName: 'notes.txt', bytes: Uint8Array.from(Buffer.from('Caf\xe9 cr\xe8me \xe0 la fran\xe7aise: temp\xe9rature 5\xb0C.\n', 'latin1')), extract: false },
        ];
        worker.on('error', reject);
        worker.on('message', (m: WorkerMessage) => {
          if (m.type === 'ready') worker.postMessage({ type: 'parse', files, maxTextChars: 1_000_000 } satisfies ParseTask);
          else if (m.type === 'done') {
            got.set(m.key, m.result);
            if (got.size === files.length) resolve(got);
          }
        });
      });
      const text = (key: number): string => {
        const r = results.get(key) as { ok: boolean; doc?: { text: string } };
        expect(r.ok).toBe(true);
        return r.doc!.text;
      };
      expect(text(1)).toMatch(/\| Pin +\| Use +\|[\s\S]*\| GPIO5 +\| LED +\|/);
      expect(text(2)).toContain('Café crème à la française: température 5°C.');
    } finally {
      await worker.terminate();
    }
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
