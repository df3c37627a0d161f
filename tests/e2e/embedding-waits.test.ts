/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { EngineEvent } from '../../src-main/contract/api';
import { createEngine } from '../../src-main/engine/engine';
import { NOUNS_FIRST } from '../../src-main/engine/background';
import { tempDir } from '../helpers/temp';
import { TINY_HIDDEN_SIZE } from '../models/tiny-onnx';
import { openApp, reloadApp, startUiApp, type UiApp } from './harness';

/**
 * A library whose embedding waits for its chunks' nouns (`LibrarySummary.waitsForNouns`: an
 * embedder, LLM enrichment that has not reached every document, no chat model chosen). The engine
 * says so once per session, as an event; a page opened after that, or reloaded, never hears it, so
 * the page shows the wait from the library's summary: a calm note in words, not an error line.
 */
describe('a library whose embedding waits for its chunks’ nouns, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  const heard: EngineEvent[] = [];

  beforeAll(async () => {
    app = await startUiApp({
      bundledEmbedder: true,
      beforeStart: async (options) => {
        const src = await tempDir();
        const engine = createEngine(options);
        try {
          const files = ['P-100', 'P-200'].map((m) => path.join(src.dir, `${m}.md`));
          for (const f of files) await writeFile(f, `# ${path.basename(f, '.md')} pump manual\n\nReplace the shaft seal after 2000 hours.\n`);
          // Imported with nothing that reads nouns: stored without them.
          expect((await engine.importPaths('Pumps', files)).ok).toBe(true);
          await engine.idle();
          const lib = (await engine.libraries.get('Pumps'))!;
          expect(lib.config.nounsOmitted).toBe(true);
          // The state `libraries.configure` leaves when LLM enrichment had reached some documents
          // before the embedder was chosen: no rebuild, the embedder waits for the upgrade.
          await lib.saveConfig({ enrich: 'llm-single', embedder: { id: 'tiny-embedder', dimension: TINY_HIDDEN_SIZE } });
        } finally {
          await engine.dispose();
          await src.cleanup();
        }
      },
    });
    app.engine.subscribe((e) => heard.push(e));
    // The engine's start says it once, before any page is open to hear it.
    await app.engine.resumeBackground();
    await app.engine.idle();
    expect(heard.filter((e) => e.type === 'index.progress' && e.task === 'embedding').map((e) => e.type === 'index.progress' && e.error)).toEqual([NOUNS_FIRST]);
    page = await openApp(app, errors);
    await page.getByRole('button', { name: /^Pumps/ }).click();
    await page.locator('#library-heading').waitFor();
  });

  afterAll(async () => {
    await app?.close();
  });

  /** The note on the wait in the library's header, and no error line about embedding anywhere. */
  const expectNote = async () => {
    const note = page.getByTestId('embedding-waits');
    await note.waitFor();
    expect(await note.textContent()).toMatch(/^Meaning-based search starts once every chunk has its signature’s nouns: .*keyword search works meanwhile\. .*once a chat model is chosen in Settings/);
    expect(await note.getAttribute('role')).toBe('note');
    expect(await page.getByTestId('index-status-embedding').count()).toBe(0);
  };

  it('shows the wait from the library’s summary alone, in the library and in Settings', async () => {
    await expectNote();
    await page.getByTestId('tab-settings').click();
    await page.getByTestId('library-settings').getByTestId('embedding-waits').waitFor();
    expect(await page.getByTestId('index-status-embedding').count()).toBe(0);
    await page.getByTestId('tab-documents').click();
  });

  it('shows it again after a reload (the engine does not say it again)', async () => {
    const before = heard.length;
    await reloadApp(page);
    await page.getByRole('button', { name: /^Pumps/ }).click();
    await page.locator('#library-heading').waitFor();
    await expectNote();
    expect(heard.slice(before).filter((e) => e.type === 'index.progress')).toEqual([]);
  });

  it('shows the engine’s report as the note too, not as an error, when the page hears it', async () => {
    // Another report of the wait (as after the wait ended and came back) reaching this page.
    app.emit({ type: 'index.progress', library: 'Pumps', task: 'embedding', done: 0, total: 0, error: NOUNS_FIRST });
    await expect.poll(() => page.getByTestId('index-news-embedding').textContent()).toBe(NOUNS_FIRST);
    await expectNote();
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
