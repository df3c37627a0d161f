import { describe, expect, it, vi } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine } from '../../src-main/engine/engine';
import type * as upgradeJob from '../../src-main/index/llm-upgrade.job';
import { owesUpgrade } from '../../src-main/index/llm-upgrade.job';
import { ensureTinyGguf } from '../models/tiny-gguf';
import { tempDir } from '../helpers/temp';

// The engine's question "does this record await its upgrade?", answered as ever, and counted.
vi.mock('../../src-main/index/llm-upgrade.job', async (importOriginal) => {
  const actual = await importOriginal<typeof upgradeJob>();
  return { ...actual, owesUpgrade: vi.fn(actual.owesUpgrade) };
});

/**
 * At its start the app opens an LLM library only when a document awaits its upgrade, and then
 * resumes that upgrade (here: says it needs a chat model). It looks over the library's records
 * for that once: the decision to open it, the resumption and the chat model's check each listed
 * and looked over every record again.
 */

const manual = (model: string) => `# ${model} pump manual\n\n## Seals\n\nReplace the ${model} shaft seal after 2000 hours.\n`;

describe('the app resuming the LLM upgrade of a library at its start', () => {
  it('looks over its records once for documents awaiting the upgrade', { timeout: 120_000 }, async () => {
    const tmp = await tempDir();
    const dataDir = path.join(tmp.dir, 'data');
    const bundled = path.dirname(await ensureTinyGguf());
    for (const model of ['P-100', 'P-200']) await writeFile(path.join(tmp.dir, `${model}.md`), manual(model));
    try {
      const first = createEngine({ dataDir, bundledModelsDir: bundled, threads: 1 });
      try {
        expect(await first.api['libraries.create']({ name: 'Pumps', enrich: 'llm-single' })).toMatchObject({ ok: true });
        expect((await first.importPaths('Pumps', ['P-100', 'P-200'].map((m) => path.join(tmp.dir, `${m}.md`)))).ok).toBe(true);
        await first.idle();
      } finally {
        await first.dispose();
      }

      const asked = vi.mocked(owesUpgrade);
      asked.mockClear();
      const app = createEngine({ dataDir, bundledModelsDir: bundled, threads: 1 });
      const told: string[] = [];
      app.subscribe((e) => e.type === 'index.progress' && e.task === 'enriching' && e.error && told.push(e.error));
      try {
        await app.resumeBackground();
        await app.idle();
        expect(told).toEqual([expect.stringMatching(/needs a chat model/)]);
        const ids = asked.mock.calls.map(([rec]) => rec.id);
        expect(ids.length).toBeGreaterThan(0);
        expect(ids, 'records looked over').toEqual([...new Set(ids)]);
      } finally {
        await app.dispose();
      }
    } finally {
      await tmp.cleanup();
    }
  });
});
