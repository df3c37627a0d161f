/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { createEngine } from '../../src-main/engine/engine';
import { STORED_TEXT_LOST } from '../../src-main/index/llm-upgrade.job';
import { tempDir } from '../helpers/temp';
import { openApp, startUiApp, type UiApp } from './harness';

/**
 * A document the LLM upgrade passes by because its stored text was lost (`upgradeFailed`, set by
 * the upgrade: tests/engine/upgrade-text-lost.test.ts) says why on its row in Documents, as
 * text; the others say nothing more.
 */
describe('a ready document the LLM enrichment passes by, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startUiApp({
      beforeStart: async (options) => {
        const src = await tempDir();
        const engine = createEngine(options);
        try {
          const files = ['P-100', 'P-200'].map((m) => path.join(src.dir, `${m}.md`));
          for (const f of files) await writeFile(f, `# ${path.basename(f, '.md')} pump manual\n\nReplace the shaft seal after 2000 hours.\n`);
          expect((await engine.importPaths('Pumps', files)).ok).toBe(true);
          await engine.idle();
          // The state the upgrade leaves when it finds P-200.md's stored text gone, in a library set
          // to LLM enrichment (no chat model is chosen, so no upgrade runs): the mark holds.
          const lib = (await engine.libraries.get('Pumps'))!;
          await lib.saveConfig({ enrich: 'llm-single' });
          const rec = (await lib.document('P-200.md'))!;
          await lib.putDocuments([{ ...rec, upgradeFailed: { mode: 'llm-single', reason: STORED_TEXT_LOST } }]);
        } finally {
          await engine.dispose();
          await src.cleanup();
        }
      },
    });
    page = await openApp(app, errors);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('shows why on that document\'s row only', async () => {
    const row = page.locator('tr[data-doc="P-200.md"]');
    await row.waitFor();
    await expect.poll(() => row.getByTestId('doc-notice').textContent()).toBe(STORED_TEXT_LOST);
    expect(await page.locator('tr[data-doc="P-100.md"]').getByTestId('doc-notice').count()).toBe(0);
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
