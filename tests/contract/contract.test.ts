import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { contract, CONTRACT_KEYS, validateInput } from '../../src-main/contract/api';
import { ipcChannel } from '../../src-main/contract/keys';
import { registerIpcHandlers } from '../../src-main/electron/ipc';
import { startWebBridge } from '../../src-main/bridge/web-bridge';
import { createEngine } from '../../src-main/engine/engine';
import { tempDir } from '../helpers/temp';

describe('API contract', () => {
  it('lists the same keys in the dependency-free key list as in the contract map', () => {
    expect([...CONTRACT_KEYS].sort()).toEqual(Object.keys(contract).sort());
  });

  it('has exactly one handler per key in the engine, the IPC transport and the web bridge', async () => {
    const tmp = await tempDir();
    const engine = createEngine({ dataDir: tmp.dir, bundledModelsDir: path.join(tmp.dir, 'none') });
    try {
      expect(Object.keys(engine.handlers).sort()).toEqual([...CONTRACT_KEYS].sort());

      const registered: string[] = [];
      registerIpcHandlers({ handle: (channel: string) => void registered.push(channel) }, engine.handlers, () => true);
      expect(registered.sort()).toEqual(CONTRACT_KEYS.map(ipcChannel).sort());
      expect(new Set(registered).size).toBe(registered.length);

      const bridge = await startWebBridge({ handlers: engine.handlers, subscribe: engine.subscribe, rendererDir: null });
      try {
        expect([...bridge.routes].sort()).toEqual(CONTRACT_KEYS.map((k) => `/api/${k}`).sort());
        expect(new Set(bridge.routes).size).toBe(bridge.routes.length);
      } finally {
        await bridge.close();
      }
    } finally {
      await engine.dispose();
      await tmp.cleanup();
    }
  });

  it('rejects unknown fields and explains invalid input in words', () => {
    const extra = validateInput('libraries.create', { name: 'A', admin: true });
    expect(extra.ok).toBe(false);
    const slash = validateInput('libraries.create', { name: 'a/b' });
    expect(slash).toEqual({ ok: false, error: { code: 'invalid-input', message: 'Library names cannot contain slashes. (name)' } });
    const search = validateInput('search.query', { library: 'L', query: 'fuse' });
    expect(search).toMatchObject({ ok: true, value: { topK: 10, retriever: 'bm25' } });
  });
});
