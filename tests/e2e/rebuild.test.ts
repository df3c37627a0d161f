import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page, Route } from 'playwright-core';
import type { EngineEvent, LibrarySummary } from '../../src-main/contract/api';
import { createEngine } from '../../src-main/engine/engine';
import { tempDir } from '../helpers/temp';
import { openApp, shot, startUiApp, type UiApp } from './harness';

const LIBRARY = 'Boards';

/** Three short Markdown manuals: an IO board, the module it carries, and a fan. */
const MANUALS: Record<string, string> = {
  'cm4-io-board.md': [
    '# CM4 IO Board',
    '',
    'The CM4 IO board takes a 12 V supply on the barrel jack J19. Use a supply rated for at least 2.5 A when PCIe cards are fitted.',
    '',
    '## Fan connector',
    '',
    'The CM4 IO board drives a 12 V fan from connector J17 through the on-board EMC2301 controller.',
    '',
  ].join('\n'),
  'cm4-module.md': [
    '# Compute Module 4',
    '',
    'The CM4 module runs from a single 5 V input on its high-density connectors. The module has no barrel jack of its own.',
    '',
  ].join('\n'),
  'fan-kit.md': ['# Case fan kit', '', 'The case fan kit mounts on four M2.5 standoffs and plugs into a 4-pin PWM header.', ''].join('\n'),
};

/**
 * The app over a data folder whose library was indexed "by an older version": before the app's
 * engine opens the folder, another engine imports the library and its `library.json` loses
 * `indexVersion` (as written before versioning).
 */
function startOutdatedApp(): Promise<UiApp> {
  return startUiApp({
    beforeStart: async (engineOptions) => {
      const src = await tempDir();
      const files = Object.keys(MANUALS).map((name) => path.join(src.dir, name));
      for (const [name, text] of Object.entries(MANUALS)) await writeFile(path.join(src.dir, name), text);
      const older = createEngine(engineOptions);
      const imported = await older.importPaths(LIBRARY, files);
      expect(imported.ok && imported.value.summary.imported).toBe(files.length);
      const libraryDir = (await older.libraries.get(LIBRARY))?.dir;
      await older.dispose();
      await src.cleanup();
      if (!libraryDir) throw new Error(`The library "${LIBRARY}" was not created.`);
      const configFile = path.join(libraryDir, 'library.json');
      const { indexVersion: _current, ...config } = JSON.parse(await readFile(configFile, 'utf8')) as Record<string, unknown>;
      await writeFile(configFile, JSON.stringify(config, null, 2));
    },
  });
}

type RebuildProgress = Extract<EngineEvent, { type: 'index.progress' }>;

/** Rebuilding an outdated library's index from the Library view and from Settings, in Chromium against the real engine. */
describe('rebuilding an outdated index in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  const progress: RebuildProgress[] = [];
  let unsubscribe: () => void;

  beforeAll(async () => {
    app = await startOutdatedApp();
    unsubscribe = app.engine.subscribe((e) => {
      if (e.type === 'index.progress' && e.task === 'rebuilding') progress.push(e);
    });
    page = await openApp(app, errors);
  });

  afterAll(async () => {
    unsubscribe?.();
    await app?.close();
  });

  const rebuildButton = () => page.getByTestId('rebuild-notice').getByTestId('rebuild-index');
  /**
   * The engine's own list with this library's summary changed, as an answer for the page. Read
   * from the engine's handler, not with `route.fetch()`: a second HTTP client inside the test
   * adds a way to hang (a CI run waited 30 s for such an answer) and nothing to check.
   */
  const engineList = async (change: (l: LibrarySummary) => LibrarySummary) => {
    const body = await app.engine.handlers['libraries.list']({});
    return body.ok ? { ...body, value: body.value.map((l) => (l.name === LIBRARY ? change(l) : l)) } : body;
  };
  /** Fulfils the route with `body`; if making it throws, the request fails at once rather than hang. */
  const answer = async (route: Route, body: () => Promise<unknown>) => {
    try {
      await route.fulfill({ json: await body() });
    } catch {
      await route.abort('failed');
    }
  };
  const listed = async () => {
    const libs = await app.engine.handlers['libraries.list']({});
    return libs.ok ? libs.value.find((l) => l.name === LIBRARY) : undefined;
  };

  it('explains an index built by an older version next to the documents, without blocking them', async () => {
    expect((await listed())?.indexOutdated).toBe(true);
    const notice = page.getByTestId('rebuild-notice');
    await notice.waitFor();
    const text = (await notice.textContent()) ?? '';
    expect(text).toMatch(/indexed by an older version of ManualMate/);
    expect(text).toMatch(/which model each passage is attributed to/);
    expect(text).toMatch(/documents are kept/);
    expect(text).toMatch(/Search keeps working/);
    // Rules-based enrichment and keyword search only: nothing more is redone, so nothing more is said.
    expect(text).not.toMatch(/language model|embedded/);
    expect(await page.getByRole('button', { name: 'Rebuild index' }).count()).toBe(1);
    expect(await rebuildButton().getAttribute('aria-disabled')).toBe('false');
    // The documents stay listed and usable under the notice.
    await expect.poll(() => page.locator('[data-testid="document-table"] tr[data-status="ready"]').count()).toBe(Object.keys(MANUALS).length);
    await shot(page, 'library-rebuild-notice');
  });

  it('says that LLM enrichment is redone and only changed passages are embedded again when the library uses them', async () => {
    const notice = page.getByTestId('rebuild-notice');
    const showSummary = async (patch: Partial<LibrarySummary>) => {
      // The engine's own list, changed at the edge: LLM enrichment needs a chat model and embedding
      // an embedder, neither of which this install has, and only the notice's words are checked here.
      await page.unroute('**/api/libraries.list');
      await page.route('**/api/libraries.list', (route: Route) => answer(route, () => engineList((l) => ({ ...l, ...patch }))));
      const reloaded = page.waitForResponse('**/api/libraries.list');
      app.emit({ type: 'library.changed', library: LIBRARY });
      await reloaded;
    };
    const llm = /Passages enriched by the language model are enriched by it again after the rebuild/;
    const llmMeanwhile = /can take a long time; until then search uses the rules-based enrichment/;
    const embedded = /Only passages whose text changed are embedded again/;

    await showSummary({ enrich: 'llm' });
    await expect.poll(async () => (await notice.textContent()) ?? '').toMatch(llmMeanwhile);
    expect(await notice.textContent()).toMatch(llm);
    expect(await notice.textContent()).not.toMatch(embedded);

    await showSummary({ enrich: 'heuristic', embedder: 'tiny-embedder' });
    await expect.poll(async () => (await notice.textContent()) ?? '').toMatch(embedded);
    expect(await notice.textContent()).not.toMatch(/language model/);

    await showSummary({ enrich: 'llm-single', embedder: 'tiny-embedder' });
    await expect.poll(async () => (await notice.textContent()) ?? '').toMatch(llmMeanwhile);
    expect(await notice.textContent()).toMatch(embedded);
    await shot(page, 'library-rebuild-notice-llm');

    // Back to the engine's own list: heuristic enrichment, no embedder.
    await page.unroute('**/api/libraries.list');
    const reloaded = page.waitForResponse('**/api/libraries.list');
    app.emit({ type: 'library.changed', library: LIBRARY });
    await reloaded;
    await expect.poll(async () => (await notice.textContent()) ?? '').not.toMatch(/language model|embedded/);
  });

  it('shows a rebuild the engine reports running, and its reason when it stops early', async () => {
    // Three small documents rebuild faster than a screen can show: the running and failed reports
    // are sent through the real bridge as the engine words them.
    app.emit({ type: 'index.progress', library: LIBRARY, task: 'rebuilding', done: 120, total: 660 });
    const running = page.locator('[data-testid="index-status-rebuilding"][data-state="running"]');
    await running.waitFor();
    expect(await running.textContent()).toBe('Rebuilding the index 120 / 660 documents… Search works meanwhile.');
    expect(await rebuildButton().getAttribute('aria-disabled')).toBe('true');
    expect(await rebuildButton().textContent()).toContain('Rebuilding…');
    await shot(page, 'library-rebuild-running');

    const reason = 'The rebuild stopped: the disk is full. The library keeps its previous index.';
    app.emit({ type: 'index.progress', library: LIBRARY, task: 'rebuilding', done: 0, total: 0, error: reason });
    const failed = page.locator('[data-testid="index-status-rebuilding"][data-state="error"]');
    await failed.waitFor();
    expect(await failed.textContent()).toBe(reason);
    expect(await rebuildButton().getAttribute('aria-disabled')).toBe('false');
    expect(await page.getByTestId('rebuild-notice').isVisible()).toBe(true);
  });

  it('says in words why a rebuild could not start', async () => {
    const busy = `"${LIBRARY}" is importing files. Rebuild its index when the import has finished.`;
    // An import running at the very moment of the click cannot be arranged without timing: the
    // engine's 'busy' reply is given at the network edge instead.
    await page.route('**/api/libraries.rebuild', (route: Route) => route.fulfill({ json: { ok: false, error: { code: 'busy', message: busy } } }));
    await rebuildButton().click();
    const error = page.getByTestId('rebuild-notice').getByTestId('rebuild-error');
    await error.waitFor();
    expect(await error.textContent()).toBe(busy);
    expect(await error.getAttribute('role')).toBe('alert');
    expect(await rebuildButton().getAttribute('aria-disabled')).toBe('false');
    await page.unroute('**/api/libraries.rebuild');
    expect((await listed())?.indexOutdated).toBe(true);
  });

  it('returns focus to "Rebuild index" when Cancel is pressed from the keyboard', async () => {
    // The request is held at the edge and never reaches the engine: three small documents would
    // rebuild before a key could reach Cancel.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/libraries.rebuild', async (route: Route) => {
      await held;
      await route.fulfill({ json: { ok: true, value: { jobId: 'rebuild-held' } } });
    });
    await rebuildButton().focus();
    await page.keyboard.press('Enter');
    const cancel = page.getByTestId('rebuild-notice').getByTestId('rebuild-cancel');
    await cancel.waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('rebuild-cancel');

    await page.route('**/api/libraries.cancelRebuild', (route: Route) => route.fulfill({ json: { ok: true, value: { cancelled: true } } }));
    const cancelRequest = page.waitForRequest('**/api/libraries.cancelRebuild');
    await page.keyboard.press('Enter');
    expect(JSON.parse((await cancelRequest).postData() ?? '{}')).toEqual({ library: LIBRARY });
    // What the engine reports when a rebuild is cancelled, sent through the real bridge.
    const reason = 'The rebuild was cancelled; the library keeps its previous index.';
    app.emit({ type: 'index.progress', library: LIBRARY, task: 'rebuilding', done: 0, total: 0, error: reason });
    await cancel.waitFor({ state: 'detached' });
    expect(await page.getByTestId('index-status-rebuilding').textContent()).toBe(reason);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('rebuild-index');
    expect(await page.evaluate(() => document.activeElement?.closest('[data-testid="rebuild-notice"]') !== null)).toBe(true);
    expect(await rebuildButton().getAttribute('aria-disabled')).toBe('false');

    release();
    await page.unroute('**/api/libraries.cancelRebuild');
    await page.unroute('**/api/libraries.rebuild');
    expect((await listed())?.indexOutdated).toBe(true);
  });

  it('rebuilds from the keyboard with progress, then the notice goes and search still finds the text', async () => {
    const before = progress.length;
    // Hold the request at the edge to see the button refuse a second rebuild before the engine answers.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let requests = 0;
    await page.route('**/api/libraries.rebuild', async (route: Route) => {
      requests++;
      await held;
      await route.continue();
    });
    await rebuildButton().focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => rebuildButton().getAttribute('aria-disabled')).toBe('true');
    expect(await rebuildButton().textContent()).toContain('Rebuilding…');
    expect(await page.getByTestId('rebuild-error').count()).toBe(0);
    // Focus stays on the button, and pressing it again asks for nothing.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('rebuild-index');
    await page.keyboard.press('Enter');
    expect(requests).toBe(1);
    // While it runs it can be stopped (see the Cancel test above).
    expect(await page.getByTestId('rebuild-cancel').isVisible()).toBe(true);
    release();

    const done = page.locator('[data-testid="index-status-rebuilding"][data-state="done"]');
    await done.waitFor();
    expect(await done.textContent()).toBe(`Rebuilt the index of ${Object.keys(MANUALS).length} documents. The index is up to date with this version of ManualMate.`);
    await page.getByTestId('rebuild-notice').waitFor({ state: 'detached' });
    // The button that held focus went with the notice: focus is on the library's heading, not <body>,
    // and the heading is reachable from script only, not by Tab.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('library-heading');
    expect(await page.locator('#library-heading').getAttribute('tabindex')).toBe('-1');
    await page.unroute('**/api/libraries.rebuild');
    expect(await page.getByTestId('rebuild-cancel').count()).toBe(0);
    expect(requests).toBe(1);

    const reports = progress.slice(before);
    const documents = Object.keys(MANUALS).length;
    expect(reports.length).toBeGreaterThan(0);
    expect(reports.every((e) => e.library === LIBRARY && e.error === undefined && e.done <= e.total)).toBe(true);
    expect(reports[reports.length - 1]).toMatchObject({ done: documents, total: documents });
    const summary = await listed();
    expect(summary?.indexOutdated).toBe(false);
    expect(summary?.chunks).toBeGreaterThan(0);
    expect(await page.locator('#library-heading + p').textContent()).toContain(`${summary?.chunks} chunks`);
    await shot(page, 'library-rebuild-done');

    await page.getByLabel('Search the library').fill('barrel jack 12 V supply');
    await page.getByLabel('Search the library').press('Enter');
    // Whatever the search view settles on (results, "no results" or an error) is waited for, so
    // a failure says which one it was rather than only that no result came.
    const view = page.getByTestId('search-view');
    await view.locator('.result, [data-testid="no-results"], [role="alert"]').first().waitFor();
    expect(await view.locator('[data-testid="no-results"], [role="alert"]').allTextContents()).toEqual([]);
    const snippets = await view.locator('.result-snippet').allTextContents();
    expect(snippets.some((s) => s.includes('barrel jack J19'))).toBe(true);
  });

  it('offers "Rebuild index" in the library settings when the index is current too', async () => {
    await page.getByTestId('tab-settings').click();
    const field = page.getByTestId('library-settings').getByTestId('rebuild-field');
    await field.waitFor();
    expect(await field.getByTestId('index-outdated').count()).toBe(0);
    expect(await field.textContent()).toMatch(/Documents are kept and nothing is imported again/);
    const button = field.getByRole('button', { name: 'Rebuild index' });
    expect(await button.getAttribute('aria-disabled')).toBe('false');
    const before = progress.length;
    await button.click();
    const documents = Object.keys(MANUALS).length;
    await expect.poll(() => progress.slice(before).some((e) => e.done === documents && e.total === documents)).toBe(true);
    await expect.poll(() => button.getAttribute('aria-disabled')).toBe('false');
    const done = field.locator('[data-testid="index-status-rebuilding"][data-state="done"]');
    await done.waitFor();
    expect(await done.textContent()).toBe(`Rebuilt the index of ${Object.keys(MANUALS).length} documents. The index is up to date with this version of ManualMate.`);
    expect(progress.slice(before).every((e) => e.error === undefined)).toBe(true);
    expect((await listed())?.indexOutdated).toBe(false);
    await field.scrollIntoViewIfNeeded();
    await shot(page, 'settings-rebuild');

    expect(errors).toEqual([]);
    expect(app.requests.filter((u) => !u.startsWith(`${app.bridge.origin}/`))).toEqual([]);
  });

  it('keeps the newest library list when an older answer arrives after it', async () => {
    await page.getByTestId('tab-documents').click();
    await page.getByTestId('document-table').waitFor();
    expect(await page.getByTestId('rebuild-notice').count()).toBe(0);
    // The first list asked for is answered late, and as it was before the rebuild (outdated).
    let asked = 0;
    let releaseStale!: () => void;
    const stale = new Promise<void>((resolve) => (releaseStale = resolve));
    await page.route('**/api/libraries.list', async (route: Route) => {
      if (++asked > 1) return route.continue();
      const body = engineList((l) => ({ ...l, indexOutdated: true }));
      body.catch(() => undefined); // (its failure is handled by `answer`, after the wait)
      await stale;
      await answer(route, () => body);
    });
    app.emit({ type: 'library.changed', library: LIBRARY });
    await expect.poll(() => asked).toBe(1);
    const fresh = page.waitForResponse('**/api/libraries.list');
    app.emit({ type: 'library.changed', library: LIBRARY });
    await fresh;
    releaseStale();
    await expect.poll(() => asked).toBe(2);
    // The late, older answer changes nothing: no notice comes back.
    await page.waitForTimeout(500);
    expect(await page.getByTestId('rebuild-notice').count()).toBe(0);
    await page.unroute('**/api/libraries.list');
  });
});
