import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/**
 * Debian Chromium for end-to-end tests (`npx playwright install` cannot work offline). Fails with
 * a clear message naming the package when it is missing: these tests never skip silently.
 */
export function chromiumPath(): string {
  const candidate = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
  if (!existsSync(candidate)) {
    throw new Error(
      `Chromium not found at ${candidate}. Install Debian's package: "apt-get install -y chromium" (or set CHROMIUM_PATH). The end-to-end tests need a real browser.`,
    );
  }
  return candidate;
}

/**
 * A fresh persistent context (new user-data-dir) with the flags that keep Chromium off the network.
 * The user-data-dir goes when the context closes (each run left ~100 of them in the temp folder).
 */
export async function launchBrowser(): Promise<BrowserContext> {
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'manualmate-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath(),
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-default-apps',
    ],
  });
  // Chromium may still be writing its profile as the context reports closing: retry, never throw.
  const close = context.close.bind(context);
  context.close = async (options) => {
    await close(options);
    await rm(userDataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(() => undefined);
  };
  return context;
}

/** Where tests save screenshots. */
export const screenshotDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '.output', 'screenshots');
