import type { IpcMain, IpcMainInvokeEvent, OpenDialogOptions } from 'electron';
import { z } from 'zod';
import type { Handlers } from '../contract/api';
import { CONTRACT_KEYS, ipcChannel } from '../contract/keys';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';
import { dispatch } from '../engine/dispatch';
import { MAX_PATH_CHARS, type PathGrants } from './path-grants';
import { SHELL_CHANNELS } from './shell-channels';

const refused = { ok: false, error: { code: 'invalid-input', message: 'Refused: the request did not come from the ManualMate window.' } } as const;

/**
 * Registers exactly one IPC handler per contract key (GitHub Desktop's pattern: only contract
 * keys can be registered). Each call checks the sender frame is the app's own top frame before
 * the input reaches `dispatch`, which validates it with the contract's zod schema.
 */
export function registerIpcHandlers(
  ipcMain: Pick<IpcMain, 'handle'>,
  handlers: Handlers,
  isTrustedSender: (event: IpcMainInvokeEvent) => boolean,
): string[] {
  const channels: string[] = [];
  for (const key of CONTRACT_KEYS) {
    const channel = ipcChannel(key);
    ipcMain.handle(channel, async (event, input: unknown) => {
      if (!isTrustedSender(event)) return refused;
      return dispatch(handlers, key, input);
    });
    channels.push(channel);
  }
  return channels;
}

/** Trusted: the main frame of a window we created, showing one of our own pages. */
export function makeSenderCheck(isAppUrl: (url: string) => boolean, ownWebContentsIds: () => Set<number>) {
  return (event: Pick<IpcMainInvokeEvent, 'senderFrame' | 'sender'>): boolean => {
    const frame = event.senderFrame;
    if (!frame || frame.parent !== null) return false;
    if (!ownWebContentsIds().has(event.sender.id)) return false;
    return isAppUrl(frame.url);
  };
}

/** What the shell handlers need from Electron, injected so tests run without it. */
export interface ShellHandlerDeps {
  grants: PathGrants;
  /** Shows the OS open dialog for the window that asked; resolves to the chosen paths. */
  showOpenDialog: (event: IpcMainInvokeEvent, options: OpenDialogOptions) => Promise<{ canceled: boolean; filePaths: string[] }>;
  isTrustedSender: (event: IpcMainInvokeEvent) => boolean;
  /** File extensions the import understands (without dots), offered as the dialog's filter. */
  extensions: readonly string[];
  /** Files the OS asked the app to open before the page listened; emptied when taken. */
  takeOpenedFiles?: () => string[];
}

const pickInput = z.object({ folders: z.boolean().optional(), one: z.boolean().optional() }).strict();
const droppedInput = z.object({ paths: z.array(z.string().min(1).max(MAX_PATH_CHARS)).min(1).max(1000) }).strict();

/** The OS dialog's options: files (several, or `one` for a document's new version) or folders (several), manuals first. */
export function openDialogOptions(folders: boolean, extensions: readonly string[], one = false): OpenDialogOptions {
  return folders
    ? { title: 'Import folders', properties: ['openDirectory', 'multiSelections'] }
    : {
        title: one ? 'Choose the new version' : 'Import manuals',
        properties: one ? ['openFile'] : ['openFile', 'multiSelections'],
        filters: [
          { name: 'Manuals', extensions: [...extensions] },
          { name: 'All files', extensions: ['*'] },
        ],
      };
}

/**
 * Registers the shell's own channels: the open dialog and drag-and-drop, the only two ways (plus
 * the OS opening a file with the app) a path becomes importable. Same sender check as the
 * contract; inputs validated with zod.
 */
export function registerShellHandlers(ipcMain: Pick<IpcMain, 'handle'>, deps: ShellHandlerDeps): string[] {
  ipcMain.handle(SHELL_CHANNELS.pickPaths, async (event, input: unknown): Promise<Result<string[]>> => {
    if (!deps.isTrustedSender(event)) return refused;
    const parsed = pickInput.safeParse(input ?? {});
    if (!parsed.success) return fail('invalid-input', 'Invalid request to choose files.');
    const choice = await deps.showOpenDialog(event, openDialogOptions(parsed.data.folders === true, deps.extensions, parsed.data.one === true));
    if (choice.canceled || choice.filePaths.length === 0) return ok([]);
    const outcome = await deps.grants.grant(choice.filePaths, 'dialog');
    return ok(outcome.granted);
  });
  ipcMain.handle(SHELL_CHANNELS.grantDropped, async (event, input: unknown): Promise<Result<string[]>> => {
    if (!deps.isTrustedSender(event)) return refused;
    const parsed = droppedInput.safeParse(input ?? {});
    if (!parsed.success) return fail('invalid-input', 'Nothing that was dropped is a file or folder on this computer.');
    const outcome = await deps.grants.grant(parsed.data.paths, 'drop');
    if (outcome.granted.length === 0) return fail('unsafe-path', outcome.refused.map((r) => r.reason).join(' '));
    return ok(outcome.granted);
  });
  ipcMain.handle(SHELL_CHANNELS.takeOpenedFiles, async (event): Promise<string[]> => {
    if (!deps.isTrustedSender(event)) return [];
    return deps.takeOpenedFiles?.() ?? [];
  });
  return [SHELL_CHANNELS.pickPaths, SHELL_CHANNELS.grantDropped, SHELL_CHANNELS.takeOpenedFiles];
}
