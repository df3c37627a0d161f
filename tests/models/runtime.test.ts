import { copyFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelRuntime } from '../../src-main/models/runtime';
import { tempDir } from '../helpers/temp';
import { ensureTinyGguf } from './tiny-gguf';

describe('ModelRuntime with a model file deleted after it was listed', () => {
  let cleanup: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await cleanup?.();
    cleanup = null;
  });

  it('says the folders hold no such model, not that loading it failed, and finds it again once it is back', async () => {
    const tmp = await tempDir('manualmate-runtime-');
    cleanup = tmp.cleanup;
    const data = path.join(tmp.dir, 'models');
    await mkdir(data);
    const file = path.join(data, 'chat.gguf');
    await copyFile(await ensureTinyGguf(), file);
    const runtime = new ModelRuntime({ bundled: path.join(tmp.dir, 'none'), data }, { threads: 1 });
    try {
      expect((await runtime.list()).map((m) => m.id)).toEqual(['chat.gguf']);
      await rm(file);
      // The list the runtime holds still names it: the file is looked for again before a load.
      await expect(runtime.llm('chat.gguf')).rejects.toThrow('No GGUF model named "chat.gguf" in the model folders.');
      await copyFile(await ensureTinyGguf(), file);
      const llm = await runtime.llm('chat.gguf');
      expect(llm.contextSize).toBeGreaterThan(0);
    } finally {
      await runtime.dispose();
    }
  });
});
