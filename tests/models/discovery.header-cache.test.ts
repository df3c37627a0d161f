import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as NodeLlamaCpp from 'node-llama-cpp';
import { discoverModels } from '../../src-main/models/discovery';
import { headerOnlyGguf } from './header-gguf';

/**
 * Model discovery keeps what each GGUF's header said while the file stays the same file: listings
 * come often, a header read opens and parses the file. The real reader runs; it is only counted.
 */
const reads = vi.hoisted(() => ({ files: [] as string[] }));
vi.mock('node-llama-cpp', async (importOriginal) => {
  const real = await importOriginal<typeof NodeLlamaCpp>();
  return {
    ...real,
    readGgufFileInfo: (file: string, ...rest: unknown[]) => {
      reads.files.push(path.basename(file));
      return (real.readGgufFileInfo as (...a: unknown[]) => unknown)(file, ...rest);
    },
  };
});

let dir: string;
const kinds = async () => Object.fromEntries((await discoverModels([{ path: dir, source: 'data' }])).map((m) => [m.id, m.kinds]));

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'discovery-cache-'));
});
beforeEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  reads.files.length = 0;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('GGUF headers across listings', () => {
  it('reads an unchanged file once, and again once it is rewritten, even to the same size and times', async () => {
    const file = path.join(dir, 'model.gguf');
    // Headers of one length: "gpt2" is a chat model, "bert" an embedder.
    expect(headerOnlyGguf('gpt2').length).toBe(headerOnlyGguf('bert').length);
    await writeFile(file, headerOnlyGguf('gpt2'));
    const then = new Date(Date.now() - 60_000);
    await utimes(file, then, then);
    expect(await kinds()).toEqual({ 'model.gguf': ['llm'] });
    expect(await kinds()).toEqual({ 'model.gguf': ['llm'] });
    expect(reads.files).toEqual(['model.gguf']);
    // As a copy that keeps times (`cp -p`) leaves it: same size, same modification time.
    await writeFile(file, headerOnlyGguf('bert'));
    await utimes(file, then, then);
    expect(await kinds()).toEqual({ 'model.gguf': ['embedder'] });
    expect(reads.files).toEqual(['model.gguf', 'model.gguf']);
  });

  it('keeps what a read header said (not a text model), and tries a file it could not read again', async () => {
    await writeFile(path.join(dir, 'projector.gguf'), headerOnlyGguf('clip'));
    // Not (yet) a GGUF: the reader fails on it.
    await writeFile(path.join(dir, 'partial.gguf'), 'still downloading');
    expect(await kinds()).toEqual({});
    expect(await kinds()).toEqual({});
    expect(reads.files.filter((f) => f === 'projector.gguf')).toHaveLength(1);
    expect(reads.files.filter((f) => f === 'partial.gguf')).toHaveLength(2);
    // The download finishes: listed at the next look.
    await writeFile(path.join(dir, 'partial.gguf'), headerOnlyGguf('llama'));
    expect(await kinds()).toEqual({ 'partial.gguf': ['llm'] });
  });
});
