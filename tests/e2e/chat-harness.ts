import { expect } from 'vitest';
import type { Page, Request, Route } from 'playwright-core';
import { importTexts, openApp, startUiApp, type UiApp } from './harness';

/**
 * What the chat tests in Chromium share, so each reads as its scenario: a library of manuals open
 * on its Chat tab, an answer waited for, the newest conversation, a call held on its way, the
 * requests of one kind the page sent.
 */

/** The one manual most chat tests ask of: the RAC-225B's fuse, under its own heading. */
export const RAC_225B_FUSE: Record<string, string> = { 'rac-225b.md': '# RAC-225B service\n\n## Fuse\n\nThe RAC-225B takes a 5 A slow-blow fuse.\n' };

/**
 * The real app with `library` holding `files` (imported through the engine), open in Chromium on
 * its Chat tab; page errors go to `errors`. The caller closes `app`.
 */
export async function openChat(errors: string[], library = 'Pumps', files: Record<string, string> = RAC_225B_FUSE): Promise<{ app: UiApp; page: Page }> {
  const app = await startUiApp();
  await importTexts(app, library, files);
  const page = await openApp(app, errors);
  await page.getByTestId('tab-chat').click();
  return { app, page };
}

/** Waits until an answer shows and none is streaming any more. */
export async function answerDone(page: Page): Promise<void> {
  await page.getByTestId('answer').waitFor();
  await page.getByTestId('streaming-answer').waitFor({ state: 'detached' });
}

/** The id of the library's newest conversation, as the engine lists it. */
export async function newestConversation(app: UiApp, library = 'Pumps'): Promise<string> {
  const listed = await app.engine.handlers['chat.list']({ library });
  return listed.ok ? [...listed.value].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0]!.id : '';
}

/**
 * Asks `question` from the page in a new conversation, waits for its answer and for the
 * Conversations list to show it, and returns its id (the conversation the next question goes to).
 */
export async function askInNewConversation(app: UiApp, page: Page, question: string, library = 'Pumps'): Promise<string> {
  const items = page.getByTestId('conversation-list').locator('.conversation-item');
  const before = await items.count();
  await page.getByRole('button', { name: 'New conversation' }).click();
  const box = page.getByTestId('question-input');
  await box.fill(question);
  await box.press('Enter');
  await answerDone(page);
  await expect.poll(() => items.count()).toBe(before + 1);
  return newestConversation(app, library);
}

/** Calls the page makes, held on their way to the bridge. */
export interface HeldCalls {
  /** Settles when the first call matching reaches the hold. */
  arrived: Promise<void>;
  /** Lets every call held, and every later one, go on to the engine as sent. */
  release: () => void;
}

/**
 * Holds the page's calls to `url` (e.g. `**\/api/chat.ask`) on their way to the bridge until
 * `release`, so the test acts while the page shows them under way. The route stays until the
 * test's `page.unroute(url)`: where it does that is part of its scenario.
 */
export async function holdCalls(page: Page, url: string): Promise<HeldCalls> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let reached: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (reached = resolve));
  await page.route(url, async (route: Route) => {
    reached();
    await held;
    await route.continue();
  });
  return { arrived, release };
}

/** The bodies of the requests the page sent to one key of the bridge, in the order sent. */
export interface SentRequests {
  bodies: string[];
  /** Stops collecting (the test's `finally`). */
  done: () => void;
}

/**
 * Collects the body of every request the page sends to `/api/<key>` (e.g. `chat.stop`) from now
 * until `done`, so a test can count them and read what each carried.
 */
export function sentRequests(page: Page, key: string): SentRequests {
  const bodies: string[] = [];
  const onRequest = (r: Request): void => void (r.url().endsWith(`/api/${key}`) && bodies.push(r.postData() ?? ''));
  page.on('request', onRequest);
  return { bodies, done: () => page.off('request', onRequest) };
}
