import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, realpath, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { checkRawPath, filesFromArgv, guardImportStart, isWithin, PathGrants } from '../../src-main/electron/path-grants';
import type { Handlers } from '../../src-main/contract/api';
import { tempDir } from '../helpers/temp';

let tmp: Awaited<ReturnType<typeof tempDir>>;
let root: string;
let granted: string;

beforeAll(async () => {
  tmp = await tempDir('manualmate-grants-');
  // realpath: the temp folder itself may sit behind a symlink (macOS /var -> /private/var).
  root = await realpath(tmp.dir);
  granted = path.join(root, 'granted');
  await mkdir(path.join(granted, 'sub'), { recursive: true });
  await mkdir(path.join(root, 'granted-evil'));
  await mkdir(path.join(root, 'outside'));
  await writeFile(path.join(granted, 'manual.md'), '# Manual');
  await writeFile(path.join(granted, 'sub', 'a.pdf'), '%PDF-1.4');
  await writeFile(path.join(granted, '..notes.md'), 'a name that starts with two dots');
  await writeFile(path.join(granted, '..%2Fnotes.md'), 'a literal percent name');
  await writeFile(path.join(root, 'granted-evil', 'secret.md'), 'secret');
  await writeFile(path.join(root, 'outside', 'secret.md'), 'secret');
  await writeFile(path.join(root, 'outside', 'other.md'), 'other');
  await symlink(path.join(root, 'outside'), path.join(granted, 'escape'));
  await symlink(path.join(root, 'outside', 'secret.md'), path.join(granted, 'escape.md'));
  await symlink(path.join(granted, 'sub'), path.join(granted, 'inside-link'));
});

afterAll(async () => {
  await tmp.cleanup();
});

async function grantedFolder(): Promise<PathGrants> {
  const grants = new PathGrants();
  const outcome = await grants.grant([granted], 'dialog');
  expect(outcome).toEqual({ granted: [granted], refused: [] });
  return grants;
}

describe('path grants', () => {
  it('accepts a granted folder, the files below it and children whose names merely start with dots', async () => {
    const grants = await grantedFolder();
    for (const p of [granted, path.join(granted, 'manual.md'), path.join(granted, 'sub', 'a.pdf'), path.join(granted, '..notes.md'), `${granted}/`]) {
      expect(await grants.resolve(p), p).toMatchObject({ ok: true });
    }
    expect(await grants.resolve(path.join(granted, 'sub', 'a.pdf'))).toEqual({ ok: true, value: path.join(granted, 'sub', 'a.pdf') });
  });

  it('refuses ".." traversal even when it would land back inside the granted folder', async () => {
    const grants = await grantedFolder();
    for (const p of [`${granted}/../outside/secret.md`, `${granted}/sub/../../outside/secret.md`, `${granted}/sub/../manual.md`, `${granted}/..`]) {
      expect(await grants.resolve(p), p).toMatchObject({ ok: false, error: { code: 'unsafe-path' } });
    }
  });

  it('treats percent-encoded separators as literal names, never decoding them', async () => {
    const grants = await grantedFolder();
    expect(await grants.resolve(`${granted}/..%2F..%2Foutside%2Fsecret.md`)).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await grants.resolve(`${granted}/..%2Fnotes.md`)).toEqual({ ok: true, value: path.join(granted, '..%2Fnotes.md') });
  });

  it('refuses a sibling folder that only shares the granted folder name as a prefix', async () => {
    const grants = await grantedFolder();
    expect(await grants.resolve(path.join(root, 'granted-evil', 'secret.md'))).toMatchObject({ ok: false, error: { code: 'unsafe-path' } });
    expect(await grants.resolve(path.join(root, 'granted-evil'))).toMatchObject({ ok: false, error: { code: 'unsafe-path' } });
  });

  it('judges symlinks by where they point: escapes are refused, links inside the folder accepted', async () => {
    const grants = await grantedFolder();
    expect(await grants.resolve(path.join(granted, 'escape', 'secret.md'))).toMatchObject({ ok: false, error: { code: 'unsafe-path' } });
    expect(await grants.resolve(path.join(granted, 'escape'))).toMatchObject({ ok: false, error: { code: 'unsafe-path' } });
    expect(await grants.resolve(path.join(granted, 'escape.md'))).toMatchObject({ ok: false, error: { code: 'unsafe-path' } });
    expect(await grants.resolve(path.join(granted, 'inside-link', 'a.pdf'))).toEqual({ ok: true, value: path.join(granted, 'sub', 'a.pdf') });
  });

  it('refuses relative paths, NUL bytes, empty and non-text paths', async () => {
    const grants = await grantedFolder();
    const before = process.cwd();
    // From the temp root, the relative names below would resolve to real granted files.
    process.chdir(root);
    try {
      for (const p of ['granted/manual.md', './granted/manual.md', 'manual.md', `${granted}/manual.md\0.pdf`, '', 42, null, ['x']]) {
        expect(await grants.resolve(p), String(p)).toMatchObject({ ok: false, error: { code: 'unsafe-path' } });
      }
    } finally {
      process.chdir(before);
    }
  });

  it('grants a dropped file only itself, and a dropped symlink only its real target', async () => {
    const grants = new PathGrants();
    const outcome = await grants.grant([path.join(granted, 'escape.md')], 'drop');
    expect(outcome.granted).toEqual([path.join(root, 'outside', 'secret.md')]);
    expect(await grants.resolve(path.join(root, 'outside', 'secret.md'))).toMatchObject({ ok: true });
    expect(await grants.resolve(path.join(root, 'outside', 'other.md'))).toMatchObject({ ok: false, error: { code: 'unsafe-path' } });
    expect(await grants.resolve(path.join(root, 'outside'))).toMatchObject({ ok: false, error: { code: 'unsafe-path' } });
    expect(await grants.resolve(path.join(granted, 'manual.md'))).toMatchObject({ ok: false, error: { code: 'unsafe-path' } });
  });

  it('refuses to grant missing, relative or traversing paths, and says why', async () => {
    const grants = new PathGrants();
    const outcome = await grants.grant([path.join(root, 'missing.pdf'), 'relative.pdf', `${granted}/../outside`, granted], 'drop');
    expect(outcome.granted).toEqual([granted]);
    expect(outcome.refused.map((r) => r.path)).toEqual([path.join(root, 'missing.pdf'), 'relative.pdf', `${granted}/../outside`]);
    for (const r of outcome.refused) expect(r.reason).toMatch(/\w+ \w+/);
    expect(grants.size).toBe(1);
  });

  it('refuses a whole import list when one path is not granted', async () => {
    const grants = await grantedFolder();
    expect(await grants.resolveAll([path.join(granted, 'manual.md'), path.join(granted, 'sub')])).toEqual({
      ok: true,
      value: [path.join(granted, 'manual.md'), path.join(granted, 'sub')],
    });
    expect(await grants.resolveAll([path.join(granted, 'manual.md'), path.join(root, 'outside', 'secret.md')])).toMatchObject({
      ok: false,
      error: { code: 'unsafe-path' },
    });
  });

  it('forgets the oldest grants beyond its bound', async () => {
    const grants = new PathGrants({ maxGrants: 2 });
    await grants.grant([path.join(granted, 'manual.md'), path.join(granted, 'sub'), path.join(root, 'outside')], 'dialog');
    expect(grants.size).toBe(2);
    expect(await grants.resolve(path.join(granted, 'manual.md'))).toMatchObject({ ok: false });
    expect(await grants.resolve(path.join(root, 'outside', 'other.md'))).toMatchObject({ ok: true });
  });
});

describe('import.start guard', () => {
  it('passes only granted paths to the engine, as the real paths that were checked', async () => {
    const grants = await grantedFolder();
    const seen: unknown[] = [];
    const engineHandler: Handlers['import.start'] = async (input) => (seen.push(input), { ok: true, value: { jobId: 'job-1' } });
    const guarded = guardImportStart(engineHandler, grants);

    expect(await guarded({ library: 'Pumps', paths: [path.join(granted, 'inside-link', 'a.pdf')] })).toEqual({ ok: true, value: { jobId: 'job-1' } });
    expect(seen).toEqual([{ library: 'Pumps', paths: [path.join(granted, 'sub', 'a.pdf')] }]);

    expect(await guarded({ library: 'Pumps', paths: ['/etc/passwd'] })).toMatchObject({ ok: false, error: { code: 'unsafe-path' } });
    expect(await guarded({ library: 'Pumps', paths: [path.join(granted, 'escape', 'secret.md')] })).toMatchObject({ ok: false });
    expect(seen).toHaveLength(1);
  });
});

describe('lexical path checks', () => {
  it('accepts absolute POSIX paths and normalizes harmless "." segments', () => {
    expect(checkRawPath('/srv/manuals/./pump.pdf', path.posix)).toEqual({ ok: true, value: '/srv/manuals/pump.pdf' });
    expect(checkRawPath('/srv/manuals/pump.pdf/..', path.posix)).toMatchObject({ ok: false, error: { code: 'unsafe-path' } });
  });

  it('accepts Windows drive and UNC paths, refuses drive-relative, root-relative, device and traversing ones', () => {
    expect(checkRawPath('C:\\Manuals\\pump.pdf', path.win32)).toEqual({ ok: true, value: 'C:\\Manuals\\pump.pdf' });
    expect(checkRawPath('\\\\fileserver\\manuals\\pump.pdf', path.win32)).toMatchObject({ ok: true });
    for (const p of ['C:Manuals\\pump.pdf', '\\Manuals\\pump.pdf', '\\\\?\\C:\\Windows\\win.ini', '\\\\.\\PhysicalDrive0', 'C:\\Manuals\\..\\Windows', 'C:/Manuals/../Windows', 'Manuals\\pump.pdf']) {
      expect(checkRawPath(p, path.win32), p).toMatchObject({ ok: false, error: { code: 'unsafe-path' } });
    }
  });

  it('knows a sibling with a common prefix is not inside a folder', () => {
    expect(isWithin('/srv/granted', '/srv/granted/a', path.posix)).toBe(true);
    expect(isWithin('/srv/granted', '/srv/granted', path.posix)).toBe(true);
    expect(isWithin('/srv/granted', '/srv/granted-evil/a', path.posix)).toBe(false);
    expect(isWithin('/srv/granted', '/srv', path.posix)).toBe(false);
    expect(isWithin('C:\\Granted', 'c:\\granted\\a.pdf', path.win32)).toBe(true);
    expect(isWithin('C:\\Granted', 'D:\\Granted\\a.pdf', path.win32)).toBe(false);
  });
});

describe('files opened with the app', () => {
  const extensions = ['pdf', 'docx', 'md'];

  it('takes supported files after the executable, skipping flags and resolving relative names', () => {
    const argv = ['/opt/ManualMate/manualmate', '--no-sandbox', 'pump.PDF', '/srv/spec.docx', 'notes.txt', '--data-dir=/x'];
    expect(filesFromArgv(argv, { cwd: '/home/tech', isPackaged: true, extensions })).toEqual(['/home/tech/pump.PDF', '/srv/spec.docx']);
  });

  it('skips the app folder argument when running unpackaged', () => {
    expect(filesFromArgv(['/usr/bin/electron', 'readme.md', 'a.md'], { cwd: '/repo', isPackaged: false, extensions })).toEqual(['/repo/a.md']);
  });
});
