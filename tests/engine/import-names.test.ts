import { describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ImportSummary } from '../../src-main/contract/api';
import { importAndWait } from '../../src-main/engine/contract-jobs';
import { useTempEngine } from '../helpers/temp-engine';

/**
 * `import.start`'s `names`: the document id each path is imported under. A Retry imports a failed
 * file again by its path, and its path alone does not say the id it failed under.
 */

const t = useTempEngine();

async function write(rel: string, data: string | Uint8Array): Promise<string> {
  const file = path.join(t.dir, 'in', rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, data);
  return file;
}

async function importOk(paths: string[], names?: string[]): Promise<ImportSummary> {
  const res = await importAndWait(t.engine, 'Shop', paths, names ? { names } : {});
  if (!res.ok) throw new Error(res.error.message);
  return res.value;
}

async function documents() {
  const res = await t.engine.api['documents.list']({ library: 'Shop' });
  if (!res.ok) throw new Error(res.error.message);
  return Object.fromEntries(res.value.map((d) => [d.id, d.status]));
}

async function docsAbout(query: string): Promise<string[]> {
  const res = await t.engine.api['search.query']({ library: 'Shop', query, topK: 5, retriever: 'bm25' });
  if (!res.ok) throw new Error(res.error.message);
  return res.value.results.map((h) => h.doc);
}

describe('import.start under the names the request gives', () => {
  it('imports a renamed file again under its own id, replacing its failed record and not the first of its name', async () => {
    const first = await write('a/manual.md', '# Pump P-4\n\nThe P-4 impeller is part IM-4.\n');
    // Not there when the import runs: it fails, under the name the engine gave it.
    const second = path.join(t.dir, 'in', 'b', 'manual.md');
    const failed = await importOk([first, second]);
    expect(failed.results.find((r) => r.file === 'manual (2).md')).toMatchObject({ status: 'failed' });

    await write('b/manual.md', '# Fan F-9\n\nThe F-9 blade is part BL-9.\n');
    const retried = await importOk([second], ['manual (2).md']);
    expect(retried.results.map((r) => [r.file, r.status])).toEqual([['manual (2).md', 'imported']]);
    // A name the request gave is the document's own: no word about a renaming.
    expect(retried.results[0]!.note).toBeUndefined();
    // The failed record became the document: the library holds two, both ready.
    expect(await documents()).toEqual({ 'manual.md': 'ready', 'manual (2).md': 'ready' });
    expect(await docsAbout('impeller')).toEqual(['manual.md']);
    expect(await docsAbout('blade')).toEqual(['manual (2).md']);
  });

  it('imports a file of a folder again by its own path under its id in the folder, not as a new document', async () => {
    const folder = path.join(t.dir, 'in', 'docs');
    await write('docs/intro.md', '# Valve V-3\n\nThe V-3 seat is part S-3.\n');
    const x = await write('docs/sub/x.md', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]));
    expect((await importOk([folder])).results.find((r) => r.file === 'docs/sub/x.md')).toMatchObject({ status: 'failed' });

    await writeFile(x, '# Valve V-3 seals\n\nReplace the V-3 seal kit SK-3 yearly.\n');
    const retried = await importOk([x], ['docs/sub/x.md']);
    expect(retried.results.map((r) => [r.file, r.status])).toEqual([['docs/sub/x.md', 'imported']]);
    expect(await documents()).toEqual({ 'docs/intro.md': 'ready', 'docs/sub/x.md': 'ready' });
    expect(await docsAbout('seal kit')).toEqual(['docs/sub/x.md']);
  });

  it('imports a folder under the name given, its files below it', async () => {
    const folder = path.join(t.dir, 'in', 'b', 'docs');
    await write('b/docs/pump.md', '# Pump P-5\n\nPrime the P-5 before first use.\n');
    expect((await importOk([folder], ['docs (2)'])).results.map((r) => [r.file, r.status])).toEqual([['docs (2)/pump.md', 'imported']]);
  });

  it('refuses, in words and before anything is imported, names that leave the library, collide or do not match the paths', async () => {
    const a = await write('c/a.md', '# A\n\nAlpha.\n');
    const b = await write('c/b.md', '# B\n\nBravo.\n');
    const start = (names: unknown) => t.engine.api['import.start']({ library: 'Shop', paths: [a, b], names } as never);
    for (const bad of [['../a.md', 'b.md'], ['a.md', '/etc/b.md'], ['a.md', 'x/../../b.md'], ['a.md', 'C:/b.md'], ['a.md', 'x'.repeat(1025)], ['a.md', '']]) {
      expect(await start(bad), JSON.stringify(bad).slice(0, 40)).toMatchObject({ ok: false, error: { code: 'unsafe-path', message: expect.stringContaining('inside the library') } });
    }
    expect(await start(['a.md'])).toMatchObject({ ok: false, error: { code: 'invalid-input', message: expect.stringContaining('one name for each path') } });
    expect(await start(['manual.md', 'Manual.md'])).toMatchObject({ ok: false, error: { code: 'already-exists', message: expect.stringContaining('both be imported as "Manual.md"') } });
    expect(await start(['docs', 'docs/b.md'])).toMatchObject({ ok: false, error: { code: 'already-exists', message: expect.stringContaining('inside "docs"') } });
    await t.engine.idle();
    expect(await t.engine.libraries.get('Shop')).toBeUndefined();
  });
});

describe('the path each file of an import of paths is read from', () => {
  it('reports it with the id the engine gives the file, for a second dotted folder of one name too', async () => {
    await write('a/v1.2/setup.md', '# Board B-1\n\nThe B-1 takes 5 V.\n');
    await write('b/v1.2/setup.md', '# Board B-2\n\nThe B-2 takes 12 V.\n');
    await write('b/v1.2/sub/wiring.md', '# Board B-2 wiring\n\nPin 3 is ground.\n');
    const first = path.join(t.dir, 'in', 'a', 'v1.2');
    const second = path.join(t.dir, 'in', 'b', 'v1.2');
    const reported: Record<string, string | undefined> = {};
    const res = await importAndWait(t.engine, 'Shop', [first, second], { onProgress: (p) => p.stage === 'queued' && (reported[p.file] = p.path) });
    expect(res.ok).toBe(true);
    // A folder's number goes after its whole name ("v1.2 (2)"), not before what looks like an extension.
    expect(reported).toEqual({
      'v1.2/setup.md': path.join(first, 'setup.md'),
      'v1.2 (2)/setup.md': path.join(second, 'setup.md'),
      'v1.2 (2)/sub/wiring.md': path.join(second, 'sub', 'wiring.md'),
    });
  });
});
