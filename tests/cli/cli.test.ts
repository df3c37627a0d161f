import { describe, expect, it, vi } from 'vitest';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { runCli } from '../../src-main/cli/main';
import { repoRoot, tempDir } from '../helpers/temp';
import { capture } from '../helpers/capture';

const exec = promisify(execFile);


describe('manualmate CLI', () => {
  it('lists every command in --help', async () => {
    const c = capture();
    expect(await runCli(['--help'], c.io)).toBe(0);
    for (const cmd of ['import', 'libraries', 'documents', 'reindex', 'search', 'ask', 'eval', 'serve', 'models']) {
      expect(c.out()).toMatch(new RegExp(`^  ${cmd}\\b`, 'm'));
    }
  });

  it('exits 2 with a clear message on an unknown command', async () => {
    const c = capture();
    expect(await runCli(['nosuch'], c.io)).toBe(2);
    expect(c.err()).toContain('unknown command "nosuch"');
  });

  it('exits 2 on an unknown flag and on a missing --library', async () => {
    const a = capture();
    expect(await runCli(['libraries', '--bogus'], a.io)).toBe(2);
    expect(a.err()).toMatch(/Unknown option '--bogus'/);
    const b = capture();
    expect(await runCli(['documents'], b.io)).toBe(2);
    expect(b.err()).toContain('needs --library NAME');
  });

  it('runs as the package bin through npx-style node invocation', async () => {
    const tmp = await tempDir();
    try {
      const bin = path.join(repoRoot, 'bin', 'manualmate.mjs');
      const version = await exec(process.execPath, [bin, '--version']);
      expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
      const libs = await exec(process.execPath, [bin, 'libraries', '--json', '--data-dir', tmp.dir]);
      expect(JSON.parse(libs.stdout)).toEqual({ libraries: [] });
      const bad = await exec(process.execPath, [bin, 'nosuch']).catch((e: { code: number; stderr: string }) => e);
      expect(bad).toMatchObject({ code: 2 });
    } finally {
      await tmp.cleanup();
    }
  });
});

describe('manualmate import through the contract', () => {
  it('refuses a library name the contract cannot address, exits 2 and creates nothing', async () => {
    const tmp = await tempDir();
    try {
      const { readdir, writeFile } = await import('node:fs/promises');
      const file = path.join(tmp.dir, 'manual.md');
      await writeFile(file, '# Manual\n\nText.\n');
      const data = path.join(tmp.dir, 'data');
      const c = capture();
      expect(await runCli(['import', file, '--library', 'a/b', '--data-dir', data], c.io)).toBe(2);
      expect(c.err()).toContain('Library names cannot contain slashes.');
      const listed = capture();
      expect(await runCli(['libraries', '--json', '--data-dir', data], listed.io)).toBe(0);
      expect(JSON.parse(listed.out())).toEqual({ libraries: [] });
      const libraryFolders = await readdir(path.join(data, 'libraries')).catch(() => []);
      expect(libraryFolders).toEqual([]);
    } finally {
      await tmp.cleanup();
    }
  });
});

describe('manualmate import of files named by path', () => {
  it('skips system junk named by itself with the words a browser drop uses, never as a damaged file', async () => {
    const tmp = await tempDir();
    try {
      const { mkdir, writeFile } = await import('node:fs/promises');
      await mkdir(path.join(tmp.dir, 'a'));
      // What macOS writes beside a manual copied to a non-Mac disk: resource-fork metadata, no PDF.
      const appleDouble = path.join(tmp.dir, 'a', '._manual.pdf');
      await writeFile(appleDouble, Buffer.from([0, 5, 22, 7, 0, 2, 0, 0, 77, 97, 99, 32, 79, 83, 32, 88]));
      const manual = path.join(tmp.dir, 'a', 'manual.md');
      await writeFile(manual, '# RAC-225B manual\n\nThe RAC-225B takes a 5 A slow-blow fuse.\n');
      const data = path.join(tmp.dir, 'data');
      const c = capture();
      expect(await runCli(['import', appleDouble, manual, '--library', 'Pumps', '--data-dir', data], c.io)).toBe(0);
      expect(c.out()).toContain('skipped: ._manual.pdf — macOS metadata for "manual.pdf" (an AppleDouble file), not a manual\n');
      expect(c.out()).not.toMatch(/failed:|damaged/);
      expect(c.out()).toContain('1 imported, 0 already in library, 0 replaced, 0 failed, 1 skipped (library "Pumps").');
      const docs = capture();
      expect(await runCli(['documents', '--library', 'Pumps', '--json', '--data-dir', data], docs.io)).toBe(0);
      expect((JSON.parse(docs.out()) as { documents: { id: string }[] }).documents.map((d) => d.id)).toEqual(['manual.md']);
    } finally {
      await tmp.cleanup();
    }
  });
});

describe('manualmate import of two files of one name', () => {
  it('imports both, the second under a name of its own, and says so', async () => {
    const tmp = await tempDir();
    try {
      const { mkdir, writeFile } = await import('node:fs/promises');
      for (const dir of ['a', 'b']) await mkdir(path.join(tmp.dir, dir));
      const first = path.join(tmp.dir, 'a', 'manual.md');
      const second = path.join(tmp.dir, 'b', 'manual.md');
      await writeFile(first, '# RAC-225B manual\n\nThe RAC-225B takes a 5 A slow-blow fuse.\n');
      await writeFile(second, '# XR-10 manual\n\nMount the XR-10 bracket with four M6 bolts.\n');
      const data = path.join(tmp.dir, 'data');
      const c = capture();
      expect(await runCli(['import', first, second, '--library', 'Pumps', '--data-dir', data], c.io)).toBe(0);
      expect(c.out()).toContain(`renamed: Imported as "manual (2).md" from ${second}: another file named "manual.md" is in this import.\n`);
      expect(c.out()).toContain('2 imported, 0 already in library, 0 replaced, 0 failed (library "Pumps").');
      const docs = capture();
      expect(await runCli(['documents', '--library', 'Pumps', '--json', '--data-dir', data], docs.io)).toBe(0);
      expect((JSON.parse(docs.out()) as { documents: { id: string }[] }).documents.map((d) => d.id).sort()).toEqual(['manual (2).md', 'manual.md']);
      // Each name holds its own file's text.
      const found = capture();
      expect(await runCli(['search', 'XR-10 bracket bolts', '--library', 'Pumps', '--json', '--data-dir', data], found.io)).toBe(0);
      expect((JSON.parse(found.out()) as { results: { doc: string }[] }).results[0]!.doc).toBe('manual (2).md');
      // --json gives the note with the file it is about.
      const again = capture();
      expect(await runCli(['import', first, second, '--library', 'Pumps', '--json', '--data-dir', data], again.io)).toBe(0);
      const results = (JSON.parse(again.out()) as { results: { file: string; status: string; note?: string }[] }).results;
      expect(results.map((r) => [r.file, r.status, r.note ?? null])).toEqual([
        ['manual.md', 'already', null],
        ['manual (2).md', 'already', `Imported as "manual (2).md" from ${second}: another file named "manual.md" is in this import.`],
      ]);
    } finally {
      await tmp.cleanup();
    }
  });
});

describe('manualmate ask', () => {
  it('answers with citations listed after the answer, and says plainly when a model has no manual', async () => {
    const tmp = await tempDir();
    try {
      const { writeFile } = await import('node:fs/promises');
      const file = path.join(tmp.dir, 'rac-225b.md');
      await writeFile(file, '# RAC-225B service manual\n\n## Fuses\n\nThe RAC-225B takes a 10 A slow-blow fuse on the control board.\n');
      const data = path.join(tmp.dir, 'data');
      const imp = capture();
      expect(await runCli(['import', file, '--library', 'Shop', '--data-dir', data], imp.io)).toBe(0);
      const a = capture();
      expect(await runCli(['ask', 'What fuse does the RAC-225B take?', '--library', 'Shop', '--data-dir', data], a.io)).toBe(0);
      expect(a.out()).toContain('10 A slow-blow fuse');
      expect(a.out()).toMatch(/Extracted from the manuals/);
      expect(a.out()).toMatch(/Sources:\n\[1\] rac-225b\.md/);
      const b = capture();
      expect(await runCli(['ask', 'What fuse does the RAC-999Z take?', '--library', 'Shop', '--data-dir', data], b.io)).toBe(0);
      expect(b.out()).toMatch(/No manual for RAC-999Z in this library; closest: RAC-225B/);
      const bj = capture();
      expect(await runCli(['ask', 'What fuse does the RAC-999Z take?', '--library', 'Shop', '--json', '--data-dir', data], bj.io)).toBe(0);
      expect((JSON.parse(bj.out()) as { unknownModels: string[] }).unknownModels).toEqual(['RAC-999Z']);
      const aj = capture();
      expect(await runCli(['ask', 'What fuse does the RAC-225B take?', '--library', 'Shop', '--json', '--data-dir', data], aj.io)).toBe(0);
      expect((JSON.parse(aj.out()) as { unknownModels: string[] }).unknownModels).toEqual([]);
      const c = capture();
      expect(await runCli(['ask', 'What fuse?', '--data-dir', data], c.io)).toBe(2);
      // A name that begins two manuals' models, which no manual is about: asked back, in the JSON too.
      const manual = (name: string, mah: number, extra = ''): string => `# ${name} User Manual\n\n## Battery\n\nThe ${name} has a ${mah} mAh battery. ${extra}\n`;
      for (const [file, text] of [
        ['Foo_X1.md', manual('Foo X1', 80, 'The Bar Z5 charger also charges the Foo X1.')],
        ['Bar_Z5_Mini_5G.md', manual('Bar Z5 Mini 5G', 120)],
        ['Bar_Z5_Max_5G.md', manual('Bar Z5 Max 5G', 180)],
      ] as const) {
        await writeFile(path.join(tmp.dir, file), text);
        expect(await runCli(['import', path.join(tmp.dir, file), '--library', 'Phones', '--data-dir', data], capture().io)).toBe(0);
      }
      const d = capture();
      expect(await runCli(['ask', 'What battery does the Bar Z5 have?', '--library', 'Phones', '--json', '--data-dir', data], d.io)).toBe(0);
      const asked = JSON.parse(d.out()) as { mode: string; citations: unknown[]; clarify?: { name: string; models: string[] }[]; unknownModels: string[] };
      expect(asked.mode).toBe('not-found');
      expect(asked.unknownModels).toEqual(['Bar Z5']);
      expect(asked.citations).toEqual([]);
      expect(asked.clarify).toEqual([{ name: 'Bar Z5', models: expect.arrayContaining(['Bar Z5 Max 5G', 'Bar Z5 Mini 5G']) }]);
    } finally {
      await tmp.cleanup();
    }
  });
});

describe('manualmate ask stopped by Ctrl+C', () => {
  it('stops the answer when Ctrl+C comes as the question is handed to the engine: "Stopped before answering.", exit code 1', async () => {
    const tmp = await tempDir();
    const original = process.once.bind(process);
    const once = vi.spyOn(process, 'once');
    try {
      const { writeFile } = await import('node:fs/promises');
      const file = path.join(tmp.dir, 'rac-225b.md');
      await writeFile(file, '# RAC-225B service manual\n\n## Fuses\n\nThe RAC-225B takes a 10 A slow-blow fuse on the control board.\n');
      const data = path.join(tmp.dir, 'data');
      expect(await runCli(['import', file, '--library', 'Shop', '--data-dir', data], capture().io)).toBe(0);
      // Ctrl+C the moment the command listens for it: it calls chat.ask in the same tick, so the
      // stop reaches the engine while it still reads the library (no real signal: the test runner's own listeners stay out of it).
      once.mockImplementation(function (this: NodeJS.Process, event: string | symbol, listener: (...args: unknown[]) => void) {
        // Ctrl+C is pressed as the listener goes on; any other event is registered as usual.
        if (event !== 'SIGINT') return original(event, listener);
        queueMicrotask(() => listener('SIGINT'));
        return this;
      } as typeof process.once);
      const a = capture();
      expect(await runCli(['ask', 'What fuse does the RAC-225B take?', '--library', 'Shop', '--data-dir', data], a.io)).toBe(1);
      expect(once).toHaveBeenCalledWith('SIGINT', expect.any(Function));
      expect(a.err()).toContain('Stopped before answering.');
      expect(a.out()).not.toContain('10 A slow-blow fuse');
      once.mockRestore();
      // Nothing left behind: the next question is answered in full.
      const b = capture();
      expect(await runCli(['ask', 'What fuse does the RAC-225B take?', '--library', 'Shop', '--data-dir', data], b.io)).toBe(0);
      expect(b.out()).toContain('10 A slow-blow fuse');
    } finally {
      once.mockRestore();
      await tmp.cleanup();
    }
  });
});

describe('manualmate reindex', () => {
  it('says when a library predates the current index version, and rebuilds it from its stored documents', async () => {
    const tmp = await tempDir();
    try {
      const { readFile, writeFile } = await import('node:fs/promises');
      const file = path.join(tmp.dir, 'rac-225b.md');
      await writeFile(file, '# RAC-225B service manual\n\n## Fuses\n\nThe RAC-225B takes a 10 A slow-blow fuse on the control board.\n');
      const data = path.join(tmp.dir, 'data');
      expect(await runCli(['import', file, '--library', 'Shop', '--data-dir', data], capture().io)).toBe(0);
      const current = capture();
      expect(await runCli(['search', 'fuse', '--library', 'Shop', '--data-dir', data], current.io)).toBe(0);
      expect(current.err()).toBe('');
      // Written by a version before index versioning: library.json has no indexVersion.
      const libs = capture();
      await runCli(['libraries', '--json', '--data-dir', data], libs.io);
      expect(JSON.parse(libs.out()).libraries[0]).toMatchObject({ name: 'Shop', indexOutdated: false });
      const { readdir } = await import('node:fs/promises');
      const [libDir] = await readdir(path.join(data, 'libraries'));
      const configFile = path.join(data, 'libraries', libDir!, 'library.json');
      const config = JSON.parse(await readFile(configFile, 'utf8')) as Record<string, unknown>;
      delete config['indexVersion'];
      await writeFile(configFile, JSON.stringify(config));
      const old = capture();
      expect(await runCli(['search', 'fuse', '--library', 'Shop', '--data-dir', data], old.io)).toBe(0);
      expect(old.out()).toContain('10 A slow-blow fuse');
      expect(old.err()).toContain('manualmate reindex --library "Shop"');
      // The note is for the library the name resolves to, whatever its case.
      const lower = capture();
      expect(await runCli(['search', 'fuse', '--library', 'shop', '--data-dir', data], lower.io)).toBe(0);
      expect(lower.err()).toContain('manualmate reindex --library "Shop"');
      const re = capture();
      expect(await runCli(['reindex', '--library', 'Shop', '--json', '--data-dir', data], re.io)).toBe(0);
      expect(JSON.parse(re.out())).toMatchObject({ library: 'Shop', documents: 1 });
      const after = capture();
      expect(await runCli(['search', 'fuse', '--library', 'Shop', '--data-dir', data], after.io)).toBe(0);
      expect(after.err()).toBe('');
      const missing = capture();
      expect(await runCli(['reindex', '--library', 'Nope', '--data-dir', data], missing.io)).toBe(1);
      expect(missing.err()).toContain('There is no library named "Nope"');
    } finally {
      await tmp.cleanup();
    }
  });
});

describe('manualmate documents', () => {
  it('lists a few models per document and how many more, all of them with --json', async () => {
    const tmp = await tempDir();
    try {
      const { writeFile } = await import('node:fs/promises');
      const file = path.join(tmp.dir, 'parts.md');
      // A parts list: each section a part of its own.
      const part = (i: number) => `# PX${100 + i}\n\nThe PX${100 + i} pump takes a ${i + 1} A slow-blow fuse; replace it only with the same rating and check the seal.\n`;
      await writeFile(file, Array.from({ length: 20 }, (_, i) => part(i)).join('\n'));
      const data = path.join(tmp.dir, 'data');
      expect(await runCli(['import', file, '--library', 'Parts', '--data-dir', data], capture().io)).toBe(0);
      const json = capture();
      expect(await runCli(['documents', '--library', 'Parts', '--json', '--data-dir', data], json.io)).toBe(0);
      const models = (JSON.parse(json.out()) as { documents: { models: string[] }[] }).documents[0]!.models;
      expect(models.length).toBeGreaterThan(8);
      const text = capture();
      expect(await runCli(['documents', '--library', 'Parts', '--data-dir', data], text.io)).toBe(0);
      expect(text.out()).toContain(`[${models.slice(0, 8).join(', ')}, +${models.length - 8} more]`);
    } finally {
      await tmp.cleanup();
    }
  });
});
