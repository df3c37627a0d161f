/// <reference lib="dom" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importTexts, openApp, serviceManualPdf, startUiApp, type UiApp } from './harness';

/**
 * Closing the source viewer while pdf.js is still drawing the page (a loaded machine, a large
 * PDF) is an ordinary thing to do: it must leave no error behind. pdf.js rejects a page asked for
 * before the document was destroyed ("Transport destroyed") when its worker answers afterwards.
 */
describe('PDF viewer closed mid-draw in Chromium', () => {
  let app: UiApp;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startUiApp();
    await importTexts(app, 'Pumps', { 'rac-225b.pdf': serviceManualPdf() });
    page = await openApp(app, errors);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('logs no error when the viewer closes before the worker has sent the page', async () => {
    await slowPdfWorker(page);
    await page.getByRole('button', { name: /^Open RAC-225B Service Manual/ }).first().click();
    // The document is open and its page asked for: the worker's answer is held.
    await expect.poll(() => page.evaluate(() => (window as unknown as SlowWorkerState).__pdfHeld.length)).toBeGreaterThan(0);
    expect(await page.getByTestId('pdf-page').getAttribute('data-page')).toBe('0');
    await page.getByRole('button', { name: 'Close source' }).click();
    await page.getByTestId('source-viewer').waitFor({ state: 'detached' });
    // The worker answers at last, the page first, then the document's termination, in that order.
    await page.evaluate(() => {
      const w = window as unknown as SlowWorkerState;
      w.__pdfHolding = false;
      for (const deliver of w.__pdfHeld.splice(0)) deliver();
    });
    // Held answers settle within a few tasks; a rejection no one handles is reported by then.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
    expect(errors).toEqual([]);
    // The viewer still works afterwards: the page is drawn.
    await page.getByRole('button', { name: /^Open RAC-225B Service Manual/ }).first().click();
    await page.locator('[data-testid="pdf-page"][data-page="1"]').waitFor();
    expect(errors).toEqual([]);
  });
});

interface SlowWorkerState {
  __pdfHolding: boolean;
  /** Deliveries of the worker's answers, in the order the worker sent them. */
  __pdfHeld: (() => void)[];
}

/**
 * Makes the pdf.js worker the page starts next slow to draw: from its answer to the first
 * "GetPage" request on, everything it sends waits, in order, until the test delivers it. This is
 * what a loaded machine does by chance; here it happens every time.
 */
async function slowPdfWorker(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as SlowWorkerState & { Worker: typeof Worker };
    w.__pdfHolding = true;
    w.__pdfHeld = [];
    const NativeWorker = w.Worker;
    w.Worker = class extends NativeWorker {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        const pageRequests = new Set<unknown>();
        let held = false;
        const post = this.postMessage.bind(this) as (message: unknown, transfer?: Transferable[]) => void;
        this.postMessage = (message: unknown, transfer?: Transferable[] | StructuredSerializeOptions) => {
          const m = message as { action?: string; callbackId?: unknown } | null;
          if (m?.action === 'GetPage') pageRequests.add(m.callbackId);
          post(message, Array.isArray(transfer) ? transfer : (transfer?.transfer ?? []));
        };
        const listen = this.addEventListener.bind(this) as (type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions) => void;
        this.addEventListener = ((type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions) => {
          if (type !== 'message') return listen(type, listener, options);
          const call = (event: Event) => (typeof listener === 'function' ? listener.call(this, event) : listener.handleEvent(event));
          listen(
            type,
            (event) => {
              const data = (event as MessageEvent).data as { callbackId?: unknown } | null;
              if (w.__pdfHolding && (held || (data?.callbackId !== undefined && pageRequests.has(data.callbackId)))) {
                held = true;
                w.__pdfHeld.push(() => call(event));
                return;
              }
              call(event);
            },
            options,
          );
        }) as Worker['addEventListener'];
      }
    };
  });
}
