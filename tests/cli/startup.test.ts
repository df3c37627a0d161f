import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { cp, mkdir, readFile, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot, tempDir } from '../helpers/temp';

const exec = promisify(execFile);
const bin = path.join(repoRoot, 'bin', 'manualmate.mjs');
const recorder = path.join(repoRoot, 'tests', 'cli', 'fixtures', 'record-packages.mjs');

/** Packages no command but the one that needs them may load: engines, parsers, NLP, tokenizers. */
const HEAVY = ['@aws-sdk/client-s3', '@lancedb/lancedb', 'node-llama-cpp', '@huggingface/transformers', 'onnxruntime-node', 'pdfjs-dist', 'mammoth', 'turndown', 'markdown-it', 'wink-nlp', '@langchain/textsplitters', 'gpt-tokenizer'];

/** Runs the CLI as a user does and returns the npm packages the process loaded. */
async function packagesLoaded(args: string[], dir: string): Promise<Set<string>> {
  const file = path.join(dir, `packages-${Date.now()}-${Math.random().toString(36).slice(2)}.txt`);
  await writeFile(file, '');
  await exec(process.execPath, ['--import', recorder, bin, ...args], { env: { ...process.env, RECORD_PACKAGES_TO: file } });
  return new Set((await readFile(file, 'utf8')).split('\n').filter(Boolean));
}

describe('CLI start-up', () => {
  it('answers --help without loading the engine, its parsers or any model runtime', async () => {
    const tmp = await tempDir();
    try {
      const loaded = await packagesLoaded(['--help'], tmp.dir);
      for (const p of HEAVY) expect(loaded, p).not.toContain(p);
    } finally {
      await tmp.cleanup();
    }
  });

  it('searches with LanceDB but without parsers, the part-of-speech tagger or model runtimes', { timeout: 120_000 }, async () => {
    const tmp = await tempDir();
    try {
      const data = path.join(tmp.dir, 'data');
      const manual = path.join(tmp.dir, 'rac-225b.md');
      await writeFile(manual, '# RAC-225B service manual\n\n## Fuses\n\nThe RAC-225B takes a 10 A slow-blow fuse on the control board.\n');
      await exec(process.execPath, [bin, 'import', manual, '--library', 'l', '--data-dir', data]);
      const loaded = await packagesLoaded(['search', 'fuse', '--library', 'l', '--data-dir', data, '--json'], tmp.dir);
      // The recorder works: the search did load the store.
      expect(loaded).toContain('@lancedb/lancedb');
      for (const p of HEAVY.filter((p) => p !== '@lancedb/lancedb')) expect(loaded, p).not.toContain(p);
    } finally {
      await tmp.cleanup();
    }
  });
});

describe('bin/manualmate.mjs', () => {
  /** A copy of the bin beside a bundle and sources that each say which one ran. */
  async function checkout(dir: string): Promise<{ bin: string; source: string }> {
    await mkdir(path.join(dir, 'bin'));
    await cp(bin, path.join(dir, 'bin', 'manualmate.mjs'));
    await symlink(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    await writeFile(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    const say = (what: string) => `export async function runCli() { process.stdout.write('${what}'); return 0; }\n`;
    const source = path.join(dir, 'src-main', 'cli', 'main.ts');
    await mkdir(path.dirname(source), { recursive: true });
    await writeFile(source, say('sources'));
    await mkdir(path.join(dir, 'out', 'cli'), { recursive: true });
    await writeFile(path.join(dir, 'out', 'cli', 'main.mjs'), say('bundle'));
    const builtAt = Date.now();
    await writeFile(path.join(dir, 'out', 'cli', 'inputs.json'), JSON.stringify({ builtAt, inputs: ['src-main/cli/main.ts'] }));
    const before = new Date(builtAt - 60_000);
    await utimes(source, before, before);
    return { bin: path.join(dir, 'bin', 'manualmate.mjs'), source };
  }

  it('runs the bundle while its sources are unchanged, and the sources once one changed', { timeout: 60_000 }, async () => {
    const tmp = await tempDir();
    try {
      const c = await checkout(tmp.dir);
      expect((await exec(process.execPath, [c.bin])).stdout).toBe('bundle');
      const later = new Date(Date.now() + 60_000);
      await utimes(c.source, later, later);
      expect((await exec(process.execPath, [c.bin])).stdout).toBe('sources');
    } finally {
      await tmp.cleanup();
    }
  });
});
