import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { OpenDialogOptions } from 'electron';
import { openDialogOptions, registerIpcHandlers, registerShellHandlers } from '../../src-main/electron/ipc';
import { guardImportStart, PathGrants } from '../../src-main/electron/path-grants';
import { SHELL_CHANNELS } from '../../src-main/electron/shell-channels';
import type { Handlers } from '../../src-main/contract/api';
import { tempDir } from '../helpers/temp';

type Handler = (event: unknown, input?: unknown) => Promise<unknown>;

let tmp: Awaited<ReturnType<typeof tempDir>>;
let root: string;

beforeAll(async () => {
  tmp = await tempDir('manualmate-shell-ipc-');
  root = await realpath(tmp.dir);
  await mkdir(path.join(root, 'manuals'));
  await writeFile(path.join(root, 'manuals', 'pump.md'), '# Pump');
  await writeFile(path.join(root, 'other.md'), '# Other');
});

afterAll(async () => {
  await tmp.cleanup();
});

function setup(dialogAnswer: { canceled: boolean; filePaths: string[] }) {
  const grants = new PathGrants();
  const registered = new Map<string, Handler>();
  const dialogs: OpenDialogOptions[] = [];
  let trusted = true;
  const channels = registerShellHandlers(
    { handle: (ch: string, fn: never) => void registered.set(ch, fn) },
    {
      grants,
      isTrustedSender: () => trusted,
      extensions: ['pdf', 'md'],
      showOpenDialog: async (_event, options) => (dialogs.push(options), dialogAnswer),
      takeOpenedFiles: () => ['/srv/opened.pdf'],
    },
  );
  return { grants, registered, dialogs, channels, distrust: () => (trusted = false) };
}

describe('shell IPC: choosing and dropping files', () => {
  it('registers the dialog, drop and opened-files channels', () => {
    const { channels, registered } = setup({ canceled: true, filePaths: [] });
    expect(channels.sort()).toEqual(Object.values(SHELL_CHANNELS).filter((c) => c !== SHELL_CHANNELS.openedFiles).sort());
    expect([...registered.keys()].sort()).toEqual(channels.sort());
  });

  it('hands files the OS opened at launch to the page that asks for them', async () => {
    const { registered } = setup({ canceled: true, filePaths: [] });
    expect(await registered.get(SHELL_CHANNELS.takeOpenedFiles)!({})).toEqual(['/srv/opened.pdf']);
  });

  it('grants what the user picked in the OS dialog, and only that', async () => {
    const picked = path.join(root, 'manuals');
    const { grants, registered, dialogs } = setup({ canceled: false, filePaths: [picked] });
    expect(await registered.get(SHELL_CHANNELS.pickPaths)!({}, { folders: true })).toEqual({ ok: true, value: [picked] });
    expect(dialogs[0]!.properties).toEqual(['openDirectory', 'multiSelections']);
    expect(await grants.resolve(path.join(picked, 'pump.md'))).toMatchObject({ ok: true });
    expect(await grants.resolve(path.join(root, 'other.md'))).toMatchObject({ ok: false, error: { code: 'unsafe-path' } });
  });

  it('offers the importable extensions when picking files, and grants nothing on cancel', async () => {
    const { grants, registered, dialogs } = setup({ canceled: true, filePaths: [] });
    expect(await registered.get(SHELL_CHANNELS.pickPaths)!({}, {})).toEqual({ ok: true, value: [] });
    expect(dialogs[0]).toEqual(openDialogOptions(false, ['pdf', 'md']));
    expect(dialogs[0]!.properties).toEqual(['openFile', 'multiSelections']);
    expect(dialogs[0]!.filters![0]).toEqual({ name: 'Manuals', extensions: ['pdf', 'md'] });
    expect(grants.size).toBe(0);
  });

  it('asks for one file when a new version of a document is chosen', async () => {
    const picked = path.join(root, 'other.md');
    const { registered, dialogs } = setup({ canceled: false, filePaths: [picked] });
    expect(await registered.get(SHELL_CHANNELS.pickPaths)!({}, { one: true })).toEqual({ ok: true, value: [picked] });
    expect(dialogs[0]!.properties).toEqual(['openFile']);
    expect(await registered.get(SHELL_CHANNELS.pickPaths)!({}, { one: 'yes' })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });

  it('grants dropped files and explains refused drops', async () => {
    const { grants, registered } = setup({ canceled: true, filePaths: [] });
    const drop = registered.get(SHELL_CHANNELS.grantDropped)!;
    const file = path.join(root, 'other.md');
    expect(await drop({}, { paths: [file] })).toEqual({ ok: true, value: [file] });
    expect(await grants.resolve(file)).toMatchObject({ ok: true });
    expect(await drop({}, { paths: [path.join(root, 'missing.md')] })).toMatchObject({ ok: false, error: { code: 'unsafe-path', message: expect.stringContaining('does not exist') } });
    expect(await drop({}, { paths: [] })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(await drop({}, { paths: 'x' })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(await drop({}, { paths: [file], extra: true })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });

  it('refuses untrusted senders before showing a dialog or granting anything', async () => {
    const { grants, registered, dialogs, distrust } = setup({ canceled: false, filePaths: [path.join(root, 'manuals')] });
    distrust();
    expect(await registered.get(SHELL_CHANNELS.pickPaths)!({}, {})).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(await registered.get(SHELL_CHANNELS.grantDropped)!({}, { paths: [path.join(root, 'other.md')] })).toMatchObject({ ok: false });
    expect(await registered.get(SHELL_CHANNELS.takeOpenedFiles)!({})).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(grants.size).toBe(0);
  });

  it('reaches the engine through IPC only for paths the user granted, after zod validation', async () => {
    const { grants, registered } = setup({ canceled: true, filePaths: [] });
    const calls: unknown[] = [];
    const engine = new Proxy({}, { get: () => async (input: unknown) => (calls.push(input), { ok: true, value: { jobId: 'j' } }) }) as Handlers;
    const handlers: Handlers = { ...engine, 'import.start': guardImportStart(engine['import.start'], grants) };
    const contract = new Map<string, Handler>();
    registerIpcHandlers({ handle: (ch: string, fn: never) => void contract.set(ch, fn) }, handlers, () => true);
    const start = contract.get('mm:import.start')!;
    const file = path.join(root, 'manuals', 'pump.md');

    expect(await start({}, { library: 'Pumps', paths: [file] })).toMatchObject({ ok: false, error: { code: 'unsafe-path' } });
    expect(await start({}, { library: 'Pumps', paths: [] })).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    await registered.get(SHELL_CHANNELS.grantDropped)!({}, { paths: [file] });
    expect(await start({}, { library: 'Pumps', paths: [file] })).toEqual({ ok: true, value: { jobId: 'j' } });
    expect(calls).toEqual([{ library: 'Pumps', paths: [file] }]);
  });

  it('passes the names a Retry gives its paths through to the engine, and refuses in words one that leaves the library or collides', async () => {
    const { grants, registered } = setup({ canceled: true, filePaths: [] });
    const calls: unknown[] = [];
    const engine = new Proxy({}, { get: () => async (input: unknown) => (calls.push(input), { ok: true, value: { jobId: 'j' } }) }) as Handlers;
    const handlers: Handlers = { ...engine, 'import.start': guardImportStart(engine['import.start'], grants) };
    const contract = new Map<string, Handler>();
    registerIpcHandlers({ handle: (ch: string, fn: never) => void contract.set(ch, fn) }, handlers, () => true);
    const start = contract.get('mm:import.start')!;
    const file = path.join(root, 'manuals', 'pump.md');
    await registered.get(SHELL_CHANNELS.grantDropped)!({}, { paths: [file] });

    expect(await start({}, { library: 'Pumps', paths: [file], names: ['../../outside.md'] })).toMatchObject({ ok: false, error: { code: 'unsafe-path', message: expect.stringContaining('inside the library') } });
    expect(await start({}, { library: 'Pumps', paths: [file, file], names: ['docs', 'docs/pump.md'] })).toMatchObject({ ok: false, error: { code: 'already-exists' } });
    expect(calls).toEqual([]);
    expect(await start({}, { library: 'Pumps', paths: [file], names: ['manuals/pump (2).md'] })).toEqual({ ok: true, value: { jobId: 'j' } });
    expect(calls).toEqual([{ library: 'Pumps', paths: [file], names: ['manuals/pump (2).md'] }]);
  });
});
