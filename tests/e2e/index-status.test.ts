/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { heardSoFar, importTexts, inLiveRegion, openApp, recordRegion, reloadApp, startUiApp, type UiApp } from './harness';

/** Forty short service notes, one section each: enough chunks for the embedder to take several steps. */
const NOTES = Object.fromEntries(
  Array.from({ length: 40 }, (_, i) => [
    `note-${String(i).padStart(2, '0')}.md`,
    `# Service note ${i}\n\nThe RAC-${200 + i} pump takes a ${(i % 9) + 1} A fuse behind the terminal cover; check the seal every ${(i % 5) + 1}000 hours.\n`,
  ]),
);

/**
 * A screen-reader user hears what matters of the background work on a library (embedding, LLM
 * enrichment, a rebuild): that it started, now and then how far it got, and how it ended; not each
 * step, which was read out when the line itself was the live region, while the line and its bar
 * still move at every step for the eye.
 */
describe('background indexing announced, in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];
  /** Every text the status region `testId` has held since `record()`, in order. */
  const heard = () => heardSoFar(page);
  const record = (testId: string) => recordRegion(page, `[role="status"][data-testid="${testId}"]`);
  /** Elements of the visible status lines inside a live region (each step would be read out). */
  const linesInLiveRegion = () => inLiveRegion(page, '.index-status');

  beforeAll(async () => {
    app = await startUiApp({ bundledEmbedder: true });
    await importTexts(app, 'Pumps', NOTES);
    page = await openApp(app, errors);
    await page.getByRole('button', { name: /^Pumps/ }).click();
    await page.locator('#library-heading').waitFor();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('says that the library’s embedding ended, from a region in the page before it started', async () => {
    // The region is there before any report: one added with its text is not read out.
    expect(await record('index-news-embedding')).toBe(true);
    const started = Date.now();
    // Set as another window (or Settings) would set it: the engine embeds in the background.
    expect((await app.engine.handlers['libraries.configure']({ library: 'Pumps', embedder: 'tiny-embedder' })).ok).toBe(true);
    await expect.poll(async () => (await heard()).at(-1) ?? '', { timeout: 60_000 }).toMatch(/^Embedded \d+ chunks: meaning-based search covers the whole library\.$/);
    const seconds = (Date.now() - started) / 1000;
    const said = await heard();
    // Its start when the page saw it running (a short run may reach the page already finished), then counts.
    const [first, ...rest] = said.slice(0, -1);
    if (first !== undefined) expect(first).toMatch(/^Embedding: \d+ chunks\. Search works meanwhile\.$/);
    for (const line of rest) expect(line).toMatch(/^Embedding: \d+ of \d+ chunks done$/);
    expect(rest.length).toBeLessThanOrEqual(Math.floor(seconds / 10));
  });

  it('says a task’s start, its count at most every 10 s and its end, while the line shows every step', async () => {
    // The page's clock, moved on by hand: ten seconds pass without waiting for them.
    await page.clock.install();
    await reloadApp(page);
    await page.getByRole('button', { name: /^Pumps/ }).click();
    await page.locator('#library-heading').waitFor();
    expect(await record('index-news-enriching')).toBe(true);
    const line = page.getByTestId('index-status-enriching');
    // The engine's reports as an LLM enrichment sends them (this app has no chat model to run one).
    const report = async (done: number) => {
      app.emit({ type: 'index.progress', library: 'Pumps', task: 'enriching', done, total: 40 });
      if (done < 40) await expect.poll(() => line.textContent()).toContain(`${done} / 40 documents`);
    };
    await report(0);
    for (let done = 1; done <= 12; done++) await report(done);
    expect(await linesInLiveRegion()).toBe(0);
    expect(await page.getByRole('progressbar').first().getAttribute('value')).toBe('12');
    expect(await heard()).toEqual(['Enriching with the chat model: 40 documents. Search works meanwhile.']);

    await page.clock.fastForward(10_000);
    await report(13);
    await report(14);
    await expect.poll(heard).toEqual(['Enriching with the chat model: 40 documents. Search works meanwhile.', 'Enriching with the chat model: 13 of 40 documents done']);

    await report(40);
    await expect.poll(heard).toEqual([
      'Enriching with the chat model: 40 documents. Search works meanwhile.',
      'Enriching with the chat model: 13 of 40 documents done',
      'Enriched 40 documents with the chat model.',
    ]);
    // The Documents screen shows no line for a finished enrichment; the region stays for the next one.
    expect(await line.count()).toBe(0);
    expect(await page.getByTestId('index-news-enriching').count()).toBe(1);
  });

  it('says what a short rebuild did, though its start and end reach the page together', async () => {
    expect(await record('index-news-rebuilding')).toBe(true);
    // Forty short notes rebuild in a moment: the page may see the rebuild only once it is over, and
    // then its end is all that is said of it.
    expect((await app.engine.handlers['libraries.rebuild']({ library: 'Pumps' })).ok).toBe(true);
    await expect
      .poll(async () => (await heard()).at(-1) ?? '', { timeout: 60_000 })
      .toBe('Rebuilt the index of 40 documents. The index is up to date with this version of ManualMate.');
  });

  it('logged no page errors', () => {
    expect(errors).toEqual([]);
  });
});
