import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { CONTRACT_KEYS, EVENT_CHANNEL, ipcChannel } from '../contract/keys';
import { SHELL_CHANNELS } from './shell-channels';

// The sandboxed preload exposes one function per contract key, an event subscription and the
// shell's file functions; no generic `invoke`, no Node objects, nothing else crosses into the page.
const api: Record<string, (input: unknown) => Promise<unknown>> = {};
for (const key of CONTRACT_KEYS) {
  const channel = ipcChannel(key);
  api[key] = (input: unknown) => ipcRenderer.invoke(channel, input ?? {});
}

/** Paths of dropped files; items that are not files on this computer have no path and are skipped. */
function pathsOf(files: unknown): string[] {
  const arrayLike = typeof files === 'object' && files !== null && typeof (files as ArrayLike<unknown>).length === 'number';
  const list: unknown[] = Array.isArray(files) ? files : arrayLike ? Array.from(files as ArrayLike<unknown>) : [];
  const paths: string[] = [];
  for (const file of list.slice(0, 1000)) {
    try {
      // The path comes from the File object itself: the page can name a dropped file, never invent a path.
      const p = webUtils.getPathForFile(file as File);
      if (p) paths.push(p);
    } catch {
      // Not a File: skipped.
    }
  }
  return paths;
}

contextBridge.exposeInMainWorld('manualmate', {
  api,
  onEvent(listener: (event: unknown) => void): () => void {
    const wrapped = (_e: unknown, event: unknown) => listener(event);
    ipcRenderer.on(EVENT_CHANNEL, wrapped);
    return () => ipcRenderer.removeListener(EVENT_CHANNEL, wrapped);
  },
  pickFiles(options?: { folders?: boolean; one?: boolean }): Promise<unknown> {
    return ipcRenderer.invoke(SHELL_CHANNELS.pickPaths, { folders: options?.folders === true, one: options?.one === true });
  },
  pathsForDroppedFiles(files: unknown): Promise<unknown> {
    const paths = pathsOf(files);
    if (paths.length === 0) {
      return Promise.resolve({ ok: false, error: { code: 'invalid-input', message: 'Nothing that was dropped is a file or folder on this computer.' } });
    }
    return ipcRenderer.invoke(SHELL_CHANNELS.grantDropped, { paths });
  },
  onOpenFiles(listener: (paths: string[]) => void): () => void {
    const wrapped = (_e: unknown, paths: string[]) => listener(paths);
    ipcRenderer.on(SHELL_CHANNELS.openedFiles, wrapped);
    // Files the OS handed over at launch, before this listener existed.
    void ipcRenderer.invoke(SHELL_CHANNELS.takeOpenedFiles).then((paths: string[]) => {
      if (paths.length > 0) listener(paths);
    });
    return () => ipcRenderer.removeListener(SHELL_CHANNELS.openedFiles, wrapped);
  },
});
