/** How a bounded shutdown step ended. */
export type ShutdownOutcome = 'done' | 'timed-out' | 'failed';

/**
 * Runs a shutdown step (dispose models, close LanceDB) but never waits longer than `timeoutMs`:
 * a native call that hangs must not keep a quitting app alive forever. Never throws.
 */
export async function runWithin(step: () => Promise<void>, timeoutMs: number, log: (message: string) => void): Promise<ShutdownOutcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<ShutdownOutcome>((resolve) => {
    timer = setTimeout(() => resolve('timed-out'), timeoutMs);
  });
  const work = Promise.resolve()
    .then(step)
    .then(
      (): ShutdownOutcome => 'done',
      (err: unknown): ShutdownOutcome => {
        log(`[manualmate] shutdown step failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        return 'failed';
      },
    );
  const outcome = await Promise.race([work, timeout]);
  clearTimeout(timer);
  if (outcome === 'timed-out') log(`[manualmate] shutdown step did not finish within ${timeoutMs} ms; quitting anyway.`);
  return outcome;
}
