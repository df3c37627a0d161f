import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { validateInput } from '../../src-main/contract/api';
import { ensureTinyOnnx } from '../models/tiny-onnx';
import { tempDir } from '../helpers/temp';

/** `libraries.create` with settings, through the contract (`engine.api`, i.e. `dispatch`), on real folders and LanceDB. */

let engine: Engine;
let dir: string;
let onnx: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  onnx = await ensureTinyOnnx();
  ({ dir, cleanup } = await tempDir());
  engine = createEngine({ dataDir: path.join(dir, 'data'), bundledModelsDir: path.dirname(onnx) });
});
afterEach(async () => {
  await engine.dispose();
  await cleanup();
});

/** The library.json files under the data folder, parsed. */
async function storedConfigs(): Promise<Record<string, unknown>[]> {
  const root = path.join(dir, 'data', 'libraries');
  const entries = await readdir(root).catch(() => [] as string[]);
  const configs: Record<string, unknown>[] = [];
  for (const e of entries.filter((n) => !n.startsWith('.'))) configs.push(JSON.parse(await readFile(path.join(root, e, 'library.json'), 'utf8')));
  return configs;
}

describe('libraries.create with settings', () => {
  it('validates the settings at the edge: unknown prefix parts, strategies and fields are refused in words', () => {
    expect(validateInput('libraries.create', { name: 'A', prefix: { signature: true, model: true } })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(validateInput('libraries.create', { name: 'A', strategy: 'sentences' })).toMatchObject({ ok: false, error: { code: 'invalid-input', message: expect.stringContaining('(strategy)') } });
    expect(validateInput('libraries.create', { name: 'A', restructure: 'yes' })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(validateInput('libraries.create', { name: 'A', prefix: { keys: true }, restructure: true, enrich: 'llm' })).toMatchObject({ ok: true });
  });

  it('records the chosen chunking, enrichment, prefix and packing; prefix parts left out are off', async () => {
    const created = await engine.api['libraries.create']({ name: 'Packed', strategy: 'structure', enrich: 'llm-single', prefix: { keys: true }, restructure: true });
    expect(created).toMatchObject({ ok: true, value: { name: 'Packed', strategy: 'structure', enrich: 'llm-single', embedder: null } });
    const [config] = await storedConfigs();
    expect(config).toMatchObject({ prefix: { signature: false, headingPath: false, keys: true }, restructure: true, enrich: 'llm-single' });
  });

  it('indexes with the prefix it was created with', async () => {
    await engine.api['libraries.create']({ name: 'Prefixed', prefix: { headingPath: true } });
    await writeFile(path.join(dir, 'p-100.md'), '# P-100 pump\n\n## Seals\n\nReplace the shaft seal of the P-100 with part SK-11 after 2000 hours of running.\n');
    const imported = await engine.importPaths('Prefixed', [path.join(dir, 'p-100.md')]);
    expect(imported.ok).toBe(true);
    const chunks = await engine.api['documents.chunks']({ library: 'Prefixed', id: 'p-100.md' });
    if (!chunks.ok) throw new Error(chunks.error.message);
    const seals = chunks.value.find((c) => c.text.includes('SK-11'));
    expect(seals?.indexedText).toBe(`[Section: ${seals!.headingPath.join(' > ')}]\n${seals!.text}`);
  });

  it('tags heuristic nouns when a keyword prefix with the signature reads them', async () => {
    await engine.api['libraries.create']({ name: 'Signed', prefix: { signature: true } });
    await writeFile(path.join(dir, 'p-200.md'), '# P-200 pump\n\n## Seals\n\nReplace the shaft seal of the P-200 with part SK-22 after 2000 hours of running.\n');
    expect((await engine.importPaths('Signed', [path.join(dir, 'p-200.md')])).ok).toBe(true);
    const chunks = await engine.api['documents.chunks']({ library: 'Signed', id: 'p-200.md' });
    if (!chunks.ok) throw new Error(chunks.error.message);
    const seals = chunks.value.find((c) => c.text.includes('SK-22'))!;
    expect(seals.signature.nouns).toContain('seal');
    expect(seals.indexedText).toContain(`Nouns: ${seals.signature.nouns.join(', ')}`);
    expect(chunks.value.some((c) => c.nounsOmitted)).toBe(false);
    expect((await engine.libraries.get('Signed'))!.config.nounsOmitted).toBeUndefined();
  });

  it('loads an embedder once to record its dimension', async () => {
    const id = path.basename(onnx);
    const created = await engine.api['libraries.create']({ name: 'Dense', embedder: id });
    expect(created).toMatchObject({ ok: true, value: { embedder: id } });
    const [config] = await storedConfigs();
    const dimension = (await engine.models.embedder(id)).dimension;
    expect(config).toMatchObject({ embedder: { id, dimension } });
    expect(dimension).toBeGreaterThan(0);
  });

  it('creates nothing when the embedder is missing or semantic chunking has none', async () => {
    const missing = await engine.api['libraries.create']({ name: 'Nope', embedder: 'no-such-model' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'model-failed', message: expect.stringContaining('no-such-model') } });
    const semantic = await engine.api['libraries.create']({ name: 'Nope', strategy: 'semantic' });
    expect(semantic).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringContaining('Semantic chunking needs an embedding model') } });
    expect(await storedConfigs()).toEqual([]);
    const listed = await engine.api['libraries.list']({});
    expect(listed).toEqual({ ok: true, value: [] });
  });
});
