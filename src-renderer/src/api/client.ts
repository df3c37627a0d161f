import type { Api, ContractKey, EngineEvent, RendererBridge, Result } from '../../../src-main/contract/api';
import { CONTRACT_KEYS } from '../../../src-main/contract/api';

/**
 * The renderer's only way to the engine: `window.manualmate` in Electron (built by the preload
 * from the contract keys), the same calls over HTTP + server-sent events in a browser (the web
 * bridge; the per-run token travels in an HttpOnly cookie set when the printed URL was opened).
 */

declare global {
  interface Window {
    manualmate?: RendererBridge;
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
          const event = JSON.parse(msg.data) as EngineEvent;
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
