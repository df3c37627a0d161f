import { contextBridge, ipcRenderer } from 'electron';
import { CONTRACT_KEYS, EVENT_CHANNEL, ipcChannel } from '../contract/keys';

// The sandboxed preload exposes one function per contract key and an event subscription; no
// generic `invoke`, no Node objects, nothing else crosses into the page.
const api: Record<string, (input: unknown) => Promise<unknown>> = {};
for (const key of CONTRACT_KEYS) {
  const channel = ipcChannel(key);
  api[key] = (input: unknown) => ipcRenderer.invoke(channel, input ?? {});
}

contextBridge.exposeInMainWorld('manualmate', {
  api,
  onEvent(listener: (event: unknown) => void): () => void {
    const wrapped = (_e: unknown, event: unknown) => listener(event);
    ipcRenderer.on(EVENT_CHANNEL, wrapped);
    return () => ipcRenderer.removeListener(EVENT_CHANNEL, wrapped);
  },
});
