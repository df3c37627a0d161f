import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import type { Handlers } from '../contract/api';
import { CONTRACT_KEYS, ipcChannel } from '../contract/keys';
import { dispatch } from '../engine/dispatch';

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
      if (!isTrustedSender(event)) {
        return { ok: false, error: { code: 'invalid-input', message: 'Refused: the request did not come from the ManualMate window.' } };
      }
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
