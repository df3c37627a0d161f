/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expandPaths } from '../../src-main/ingest/expand-paths';
import { tempDir } from '../helpers/temp';
import { openNewLibrary, startUiApp, type UiApp } from './harness';

/**
 * A folder chosen with the browser's "Import folder" picker: its hidden folders (".git",
 * ".vscode"), hidden files, tool folders and system junk are left out, and the card lists each as
 * the command line does for the same folder (the engine's folder walk), not imported nor silently
 * dropped.
 */
describe('a folder picked in the browser, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  const errors: string[] = [];

  beforeAll(async () => {
    tmp = await tempDir();
    app = await startUiApp();
    page = await openNewLibrary(app, errors, 'Pumps');
  });

  afterAll(async () => {
    await app?.close();
    await tmp?.cleanup();
  });

  it('leaves out what the command line leaves out, and says so in its words', async () => {
    const docs = path.join(tmp.dir, 'docs');
    const files: Record<string, string> = {
      'manual.md': '# RAC-225B manual\n\nThe RAC-225B takes a 5 A slow-blow fuse.\n',
      'sub/seal.md': '# Seal\n\nCheck the RAC-225B seal every year.\n',
      '.git/notes.md': '# Commit notes\n\nNot a manual.\n',
      '.vscode/tasks.md': '# Tasks\n\nNot a manual.\n',
      'sub/.obsidian/cache.md': '# Cache\n\nNot a manual.\n',
      'node_modules/pkg/readme.md': '# A package\n\nNot a manual.\n',
      '.draft.md': '# Draft\n\nNot yet.\n',
      '.DS_Store': 'Bud1',
      'Thumbs.db': 'thumbs',
    };
    for (const [rel, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(docs, rel)), { recursive: true });
      await writeFile(path.join(docs, rel), text);
    }
    await page.locator('input[webkitdirectory]').setInputFiles(docs);
    const finished = page.locator('[data-testid="import-job"][data-phase="done"]');
    await finished.waitFor();
    const ids = await app.engine.handlers['documents.list']({ library: 'Pumps' });
    expect(ids.ok && ids.value.map((d) => d.id).sort()).toEqual(['docs/manual.md', 'docs/sub/seal.md']);
    const skipped = finished.getByTestId('import-skipped');
    expect(await skipped.locator('summary').textContent()).toBe('7 files skipped');
    await skipped.locator('summary').click();
    const lines = (await skipped.locator('li').allTextContents()).sort();
    const byEngine = (await expandPaths([docs])).skipped.map((k) => `${k.file}: ${k.reason}`).sort();
    expect(lines).toEqual(byEngine);
    expect(lines).toContain('docs/.git: hidden folder');
    expect(lines).toContain('docs/sub/.obsidian: hidden folder');
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
