/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlinkSync } from 'node:fs';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tempDir } from '../helpers/temp';
import { openDesktopApp, type DesktopPage } from './desktop';
import { shot, startUiApp, type UiApp } from './harness';

/**
 * The engine's end of the next import of `file` into Boards, as the files it reported. Waited for
 * before the page is read: the page shows an import's rows once the engine is done with it, and a
 * fixed wait for a row was a guess at how long the import takes. The first import of an engine
 * loads the import code, starts the parse workers and the tagger: on two loaded cores it outlasted
 * Playwright's 30 s for `waitFor` (a full CI run, session 27), though nothing was wrong.
 */
function importOf(app: UiApp, file: string): Promise<string[]> {
  return new Promise((resolve) => {
    const off = app.engine.subscribe((e) => {
      if (e.type === 'import.done' && e.library === 'Boards' && e.summary.results.some((r) => r.file === file)) {
        off();
        resolve(e.summary.results.map((r) => `${r.file} ${r.status}`).sort());
      }
    });
  });
}

/**
 * Retry in the desktop app, of a file imported by path: two folders named "v1.2" chosen together
 * are imported as "v1.2/..." and "v1.2 (2)/..." (the number after the folder's whole name). A file
 * of the second that failed is imported again by its path under the id it failed under: the same
 * document, not a new one.
 */
describe('Retry of a file inside the second of two folders of one dotted name, in Chromium', () => {
  let app: UiApp;
  let desktop: DesktopPage;
  let src: Awaited<ReturnType<typeof tempDir>>;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startUiApp();
    src = await tempDir();
    expect((await app.engine.handlers['libraries.create']({ name: 'Boards' })).ok).toBe(true);
    // An engine's first import loads the import code and starts the parse workers and the tagger:
    // paid here, under the hook's limit, and not by the first test's import (before the page
    // opens, so its card is not shown).
    await mkdir(path.join(src.dir, 'warm-up'), { recursive: true });
    await writeFile(path.join(src.dir, 'warm-up', 'warm-up.md'), '# Warm-up\n\nNothing to read.\n');
    const warm = await app.engine.importPaths('Warm-up', [path.join(src.dir, 'warm-up', 'warm-up.md')]);
    expect(warm.ok).toBe(true);
    desktop = await openDesktopApp(app, errors);
    await desktop.page.getByRole('button', { name: /^Boards/ }).click();
  });

  afterAll(async () => {
    await app?.close();
    await src?.cleanup();
  });

  it('imports the failed file again in place', async () => {
    const { page } = desktop;
    const root = await realpath(src.dir);
    const write = async (rel: string, text: string) => {
      await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
      await writeFile(path.join(root, rel), text);
    };
    await write('a/v1.2/setup.md', '# Board B-1\n\nThe B-1 takes 5 V.\n');
    await write('b/v1.2/setup.md', '# Board B-2\n\nThe B-2 takes 12 V.\n');
    const pins = path.join(root, 'b', 'v1.2', 'sub', 'pins.md');
    const pinsText = '# Board B-2 pins\n\nPin 7 of the B-2 is the reset line.\n';
    await write('b/v1.2/sub/pins.md', pinsText);
    // The file goes once the import has listed it and before it is read (a share that went away):
    // a failure another try may get past, so its row offers Retry.
    let unlinked = false;
    const off = app.engine.subscribe((e) => {
      if (e.type === 'import.progress' && e.stage === 'queued' && e.file === 'v1.2 (2)/sub/pins.md') {
        off();
        unlinkSync(pins);
        unlinked = true;
      }
    });
    const first = importOf(app, 'v1.2 (2)/sub/pins.md');
    desktop.choose([path.join(root, 'a', 'v1.2'), path.join(root, 'b', 'v1.2')]);
    await page.getByRole('button', { name: 'Import folder' }).first().click();
    expect(await first).toEqual(['v1.2 (2)/setup.md imported', 'v1.2 (2)/sub/pins.md failed', 'v1.2/setup.md imported']);
    expect(unlinked).toBe(true);
    const failed = page.locator('[data-testid="import-file"][data-file="v1.2 (2)/sub/pins.md"][data-stage="failed"]');
    await failed.waitFor();
    expect(await failed.getByTestId('failure-reason').textContent()).toMatch(/Cannot read the file/);
    await page.locator('tr[data-doc="v1.2 (2)/setup.md"][data-status="ready"]').waitFor();

    await write('b/v1.2/sub/pins.md', pinsText);
    const retried = importOf(app, 'v1.2 (2)/sub/pins.md');
    await failed.getByRole('button', { name: 'Retry' }).click();
    expect(await retried).toEqual(['v1.2 (2)/sub/pins.md imported']);
    await page.locator('tr[data-doc="v1.2 (2)/sub/pins.md"][data-status="ready"]').waitFor();
    const docs = await app.engine.handlers['documents.list']({ library: 'Boards' });
    expect(docs.ok && Object.fromEntries(docs.value.map((d) => [d.id, d.status]))).toEqual({
      'v1.2/setup.md': 'ready',
      'v1.2 (2)/setup.md': 'ready',
      'v1.2 (2)/sub/pins.md': 'ready',
    });
    expect(errors).toEqual([]);
  });

  it('offers Retry for a file that is no manual, as it may be replaced on disk, and imports what is there then', async () => {
    const { page } = desktop;
    const root = await realpath(src.dir);
    const wiring = path.join(root, 'c', 'wiring.md');
    await mkdir(path.dirname(wiring), { recursive: true });
    // An image saved under a manual's name: the same file can never import.
    await writeFile(wiring, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]));
    const first = importOf(app, 'wiring.md');
    desktop.choose([wiring]);
    await page.getByRole('button', { name: 'Import files' }).first().click();
    expect(await first).toEqual(['wiring.md failed']);
    const failed = page.locator('[data-testid="import-file"][data-file="wiring.md"][data-stage="failed"]');
    await failed.waitFor();
    // Retry reads the path again: the advice says to replace the file there first.
    expect(await failed.getByTestId('failure-advice').textContent()).toMatch(/will not help until it is replaced: .+ in its place.*, then Retry\.$/);
    const row = page.locator('tr[data-doc="wiring.md"][data-status="failed"]');
    await row.getByRole('button', { name: 'Retry wiring.md' }).waitFor();
    await shot(page, 'import-retry-after-replacing');

    await writeFile(wiring, '# Board B-3 wiring\n\nPin 2 of the B-3 is 3.3 V.\n');
    const retried = importOf(app, 'wiring.md');
    await failed.getByRole('button', { name: 'Retry' }).click();
    expect(await retried).toEqual(['wiring.md imported']);
    await page.locator('tr[data-doc="wiring.md"][data-status="ready"]').waitFor();
    const docs = await app.engine.handlers['documents.list']({ library: 'Boards' });
    expect(docs.ok && docs.value.filter((d) => d.id.includes('wiring')).map((d) => [d.id, d.status])).toEqual([['wiring.md', 'ready']]);
    expect(errors).toEqual([]);
  });
  it('retries with "Retry all" every failed file that offers Retry, as one import, and not a misnamed one', async () => {
    const { page } = desktop;
    const root = await realpath(src.dir);
    const dir = path.join(root, 'g', 'pumps');
    await mkdir(dir, { recursive: true });
    const good = (model: string) => `# Pump ${model}\n\nThe ${model} impeller is replaced every 4000 hours.\n`;
    await writeFile(path.join(dir, 'p1.md'), good('P-1'));
    // Goes before it is read (a share that went away): another try may get past it.
    await writeFile(path.join(dir, 'p2.md'), good('P-2'));
    // An image under a manual's name: retried once a good copy is saved in its place.
    await writeFile(path.join(dir, 'p3.md'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]));
    // A PDF under a Markdown name: fixed by renaming, which makes another path; no Retry.
    await writeFile(path.join(dir, 'p4.md'), '%PDF-1.4\n%\u00e2\u00e3\n1 0 obj\n<<>>\nendobj\n');
    const off = app.engine.subscribe((e) => {
      if (e.type === 'import.progress' && e.stage === 'queued' && e.file === 'pumps/p2.md') {
        off();
        unlinkSync(path.join(dir, 'p2.md'));
      }
    });
    const first = importOf(app, 'pumps/p1.md');
    desktop.choose([dir]);
    await page.getByRole('button', { name: 'Import folder' }).first().click();
    expect(await first).toEqual(['pumps/p1.md imported', 'pumps/p2.md failed', 'pumps/p3.md failed', 'pumps/p4.md failed']);
    const card = page.locator('[data-testid="import-job"][data-phase="done"]', { has: page.locator('[data-file="pumps/p1.md"]') });
    await card.waitFor();
    const row = (name: string) => card.locator(`[data-testid="import-file"][data-file="pumps/${name}"]`);
    expect(await row('p1.md').getAttribute('data-stage')).toBe('ready');
    for (const name of ['p2.md', 'p3.md', 'p4.md']) expect(await row(name).getAttribute('data-stage'), name).toBe('failed');
    expect(await row('p2.md').getByRole('button', { name: 'Retry' }).count()).toBe(1);
    expect(await row('p3.md').getByRole('button', { name: 'Retry' }).count()).toBe(1);
    expect(await row('p4.md').getByRole('button', { name: 'Retry' }).count()).toBe(0);
    // One button for the two rows that offer Retry, counting them; the misnamed file stays out.
    const retryAll = card.getByTestId('retry-all');
    expect(await retryAll.textContent()).toMatch(/^\s*Retry all \(2\)$/);
    await shot(page, 'import-retry-all-failed');

    const imports: string[][] = [];
    const watch = app.engine.subscribe((e) => {
      if (e.type === 'import.done') imports.push(e.summary.results.map((r) => r.file).sort());
    });
    await writeFile(path.join(dir, 'p2.md'), good('P-2'));
    await writeFile(path.join(dir, 'p3.md'), good('P-3'));
    const retried = importOf(app, 'pumps/p2.md');
    await retryAll.click();
    // One import of both, each ready; none other started meanwhile.
    expect(await retried).toEqual(['pumps/p2.md imported', 'pumps/p3.md imported']);
    watch();
    expect(imports).toEqual([['pumps/p2.md', 'pumps/p3.md']]);
    await page.locator('tr[data-doc="pumps/p2.md"][data-status="ready"]').waitFor();
    await page.locator('tr[data-doc="pumps/p3.md"][data-status="ready"]').waitFor();
    // The card stays for its one failure left, which no retry of the same path gets past.
    expect(await row('p4.md').getAttribute('data-stage')).toBe('failed');
    // The card drops "Retry all" as it marks the two rows retried, which it does as the button is
    // pressed, so this is read after the retry's documents show.
    await expect.poll(() => card.getByTestId('retry-all').count()).toBe(0);
    const docs = await app.engine.handlers['documents.list']({ library: 'Boards' });
    expect(docs.ok && docs.value.filter((d) => d.id.startsWith('pumps/')).map((d) => [d.id, d.status])).toEqual([
      ['pumps/p1.md', 'ready'],
      ['pumps/p2.md', 'ready'],
      ['pumps/p3.md', 'ready'],
      ['pumps/p4.md', 'failed'],
    ]);
    expect(errors).toEqual([]);
  });

  it('re-imports a newer version chosen in the OS dialog under the document it replaces', async () => {
    const { page } = desktop;
    const root = await realpath(src.dir);
    const manual = path.join(root, 'd', 'fan.md');
    await mkdir(path.dirname(manual), { recursive: true });
    await writeFile(manual, '# Fan F-1\n\nThe F-1 bearing is greased every 2000 hours.\n');
    const first = importOf(app, 'fan.md');
    desktop.choose([manual]);
    await page.getByRole('button', { name: 'Import files' }).first().click();
    expect(await first).toEqual(['fan.md imported']);
    await page.locator('tr[data-doc="fan.md"][data-status="ready"]').waitFor();
    // The newer version sits elsewhere under another name: it replaces the row it was chosen for.
    const newer = path.join(root, 'e', 'fan-rev-b.md');
    await mkdir(path.dirname(newer), { recursive: true });
    await writeFile(newer, '# Fan F-1 rev B\n\nThe F-1 bearing is sealed and needs no grease.\n');
    const replaced = importOf(app, 'fan.md');
    desktop.choose([newer]);
    await page.getByRole('button', { name: 'Re-import Fan F-1' }).click();
    expect(await replaced).toEqual(['fan.md replaced']);
    await page.locator('tr[data-doc="fan.md"]').getByText('Fan F-1 rev B').waitFor();
    const docs = await app.engine.handlers['documents.list']({ library: 'Boards' });
    expect(docs.ok && docs.value.filter((d) => d.id.includes('fan')).map((d) => [d.id, d.status, d.title])).toEqual([['fan.md', 'ready', 'Fan F-1 rev B']]);
    expect(errors).toEqual([]);
  });
});
