import { describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { createEngine } from '../../src-main/engine/engine';
import { corpusRoots, repoRoot, tempDir } from '../helpers/temp';

/**
 * An import onto a full disk: a real tmpfs too small for the library (mounting needs root, as CI
 * runs). Every file fails by itself with the reason, the CLI still prints its JSON summary and
 * exits 1; once there is room again the library opens, holds nothing half-written, and the same
 * import completes.
 */

const exec = promisify(execFile);
const bin = path.join(repoRoot, 'bin', 'manualmate.mjs');
const corpora = [path.join(corpusRoots.fixture, 'radxa-docs'), path.join(corpusRoots.fixture, 'esp-dev-kits')];

function cli(args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout }));
  });
}

type Summary = { results: { file: string; status: string; reason?: string }[]; summary: Record<string, number> };
const lastJson = (stdout: string): Summary => JSON.parse(stdout.trim().split('\n').pop()!) as Summary;

/** Every file below `dir` (relative), for checks on what a library folder holds. */
async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe('an import onto a full disk', () => {
  it('fails file by file with the JSON summary, then the library opens and re-imports cleanly', { timeout: 180_000 }, async () => {
    const tmp = await tempDir();
    const mountPoint = path.join(tmp.dir, 'small-disk');
    await mkdir(mountPoint);
    await exec('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint]).catch((err: Error) => {
      throw new Error(`This test mounts a 1 MB tmpfs and needs root (as CI runs): ${err.message}`);
    });
    try {
      const full = await cli(['import', ...corpora, '--library', 'Full', '--data-dir', mountPoint, '--json']);
      expect(full.code).toBe(1);
      const first = lastJson(full.stdout);
      expect(first.summary.failed).toBeGreaterThan(0);
      for (const r of first.results) {
        if (r.status === 'failed') expect(r.reason, r.file).toMatch(/disk is full \(ENOSPC\)/);
        else expect(r.status, r.file).toBe('imported');
      }

      await exec('mount', ['-o', 'remount,size=256m', mountPoint]);
      const again = await cli(['import', ...corpora, '--library', 'Full', '--data-dir', mountPoint, '--json']);
      expect(again.code, again.stdout).toBe(0);
      const second = lastJson(again.stdout);
      expect(second.summary.failed).toBe(0);
      const total = first.results.length;
      expect((second.summary.imported ?? 0) + (second.summary.already ?? 0)).toBe(total);

      const engine = createEngine({ dataDir: mountPoint, bundledModelsDir: path.join(tmp.dir, 'no-models') });
      try {
        const lib = await engine.libraries.get('Full');
        if (!lib) throw new Error('library Full is missing');
        const index = await engine.indexes.open(lib);
        const docs = await lib.documents();
        expect(docs.filter((d) => d.status === 'ready')).toHaveLength(total);
        for (const d of docs) expect((await index.listChunks(d.id)).length, d.id).toBe(d.chunks);
        // Every listed document's original and normalized text reads back whole (a pack cut short
        // by the full disk would name ranges past its end).
        for (const d of docs) {
          expect(await lib.originalSize(d), d.id).toBe(d.sizeBytes);
          expect((await lib.loadNormalized(d))?.contentHash, d.id).toBe(d.contentHash);
        }
        // Nothing half-written is left: no temp files, and every original and normalized text is a listed document's.
        const originals = await filesBelow(path.join(lib.dir, 'originals'));
        const normalized = await filesBelow(path.join(lib.dir, 'normalized'));
        expect([...originals, ...normalized].filter((f) => f.endsWith('.tmp'))).toEqual([]);
        expect(originals.sort()).toEqual([...new Set(docs.map((d) => path.relative('originals', d.original!)))].sort());
        expect(normalized.sort()).toEqual([...new Set(docs.map((d) => (d.normalized ? path.posix.basename(d.normalized.file) : `${d.contentHash}.json`)))].sort());
        const hits = await engine.handlers['search.query']({ library: 'Full', query: 'power supply', topK: 3, retriever: 'bm25' });
        expect(hits.ok && hits.value.results.length).toBeGreaterThan(0);
      } finally {
        await engine.dispose();
      }
    } finally {
      // Lazy: LanceDB may still map a file of the closed store for a moment.
      await exec('umount', ['-l', mountPoint]).catch(() => undefined);
      await tmp.cleanup();
    }
  });
});
