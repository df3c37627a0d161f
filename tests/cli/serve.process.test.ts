import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot, tempDir } from '../helpers/temp';

/**
 * `manualmate serve` as a real process: what the web UI does must never end it. Searching a
 * library with no documents once did, a second later (the store's stub index was built from a
 * scan without row ids, and the throw became an unhandled rejection), taking every library and
 * any running import with it.
 */

async function call(url: URL, token: string, method: string, input: unknown): Promise<{ status: number; body: { ok: boolean } }> {
  const res = await fetch(new URL(`/api/${method}`, url), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  return { status: res.status, body: (await res.json()) as { ok: boolean } };
}

describe('manualmate serve (a real process)', () => {
  it('keeps serving after an empty library is searched', async () => {
    const tmp = await tempDir();
    const rendererDir = path.join(tmp.dir, 'renderer');
    await mkdir(rendererDir, { recursive: true });
    await writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
    const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'manualmate.mjs'), 'serve', '--data-dir', path.join(tmp.dir, 'data'), '--renderer', rendererDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const address = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /serving its UI at (\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        void exited.then((code) => reject(new Error(`serve exited (${code}) before serving: ${stderr}`)));
      });
      const url = new URL(address);
      const token = url.searchParams.get('token')!;
      expect((await call(url, token, 'libraries.create', { name: 'Fresh' })).body.ok).toBe(true);
      const searched = await call(url, token, 'search.query', { library: 'Fresh', query: 'fuse rating', topK: 10 });
      expect(searched).toMatchObject({ status: 200, body: { ok: true, value: { results: [] } } });
      // The stub index is built a second after a library's first search: wait past it.
      await new Promise((r) => setTimeout(r, 2500));
      expect(child.exitCode).toBeNull();
      expect((await call(url, token, 'search.query', { library: 'Fresh', query: 'fuse rating', topK: 10 })).body.ok).toBe(true);
      expect((await call(url, token, 'libraries.list', {})).status).toBe(200);
      expect(stderr).not.toMatch(/TypeError|unhandled/i);
    } finally {
      child.kill('SIGTERM');
      await exited;
      await tmp.cleanup();
    }
  }, 60_000);
});
