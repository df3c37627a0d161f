import type { Api, ContractKey, EngineEvent, RendererBridge, Result } from '../../../src-main/contract/api';
import { CONTRACT_KEYS } from '../../../src-main/contract/keys';

/**
 * The renderer's only way to the engine: `window.manualmate` in Electron (built by the preload
 * from the contract keys), the same calls over HTTP + server-sent events in a browser (the web
 * bridge; the per-run token travels in an HttpOnly cookie set when the printed URL was opened).
 */

/** What the Electron preload adds next to the contract: file choosing and dropped-file paths. */
export interface ShellBridge {
  /** Shows the OS open dialog; resolves to the granted paths (empty when cancelled). */
  pickFiles?(options?: { folders?: boolean }): Promise<Result<string[]>>;
  /** Paths of files/folders dropped on the window, granted for import. */
  pathsForDroppedFiles?(files: File[]): Promise<Result<string[]>>;
  /** Files the OS asked the app to open (already granted); returns an unsubscribe function. */
  onOpenFiles?(listener: (paths: string[]) => void): () => void;
}

declare global {
  interface Window {
    manualmate?: RendererBridge & ShellBridge;
  }
}

async function httpCall(key: ContractKey, input: unknown): Promise<Result<unknown>> {
  try {
    const res = await fetch(`/api/${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input ?? {}),
      credentials: 'same-origin',
    });
    if (res.status === 401) {
      return { ok: false, error: { code: 'invalid-input', message: 'This page lost its access token. Open the URL ManualMate printed again.' } };
    }
    if (res.status === 404) {
      return { ok: false, error: { code: 'unavailable', message: 'This version of the engine does not offer that yet.' } };
    }
    return (await res.json()) as Result<unknown>;
  } catch {
    return { ok: false, error: { code: 'unavailable', message: 'ManualMate is not running (the local engine did not answer).' } };
  }
}

function httpBridge(): RendererBridge {
  const api = Object.fromEntries(CONTRACT_KEYS.map((key) => [key, (input: unknown) => httpCall(key, input)])) as unknown as Api;
  const listeners = new Set<(e: EngineEvent) => void>();
  let source: EventSource | null = null;
  return {
    api,
    onEvent(listener) {
      listeners.add(listener);
      if (!source) {
        source = new EventSource('/api/events');
        source.onmessage = (msg: MessageEvent<string>) => {
          let event: EngineEvent;
          try {
            event = JSON.parse(msg.data) as EngineEvent;
          } catch {
            return;
          }
          for (const l of listeners) l(event);
        };
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && source) {
          source.close();
          source = null;
        }
      };
    },
  };
}

export const bridge: RendererBridge = window.manualmate ?? httpBridge();
export const api: Api = bridge.api;
export const transport: 'electron' | 'web' = window.manualmate ? 'electron' : 'web';
/** The Electron shell's file functions; every member is absent in a browser. */
export const shell: ShellBridge = window.manualmate ?? {};
