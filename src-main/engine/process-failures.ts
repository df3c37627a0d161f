/**
 * For the long-running processes (the Electron main process, `manualmate serve`): a failure no
 * caller handled is logged instead of ending the process, since one failed background promise
 * must not end every library's session and any import running meanwhile. Whatever was thrown
 * (`throw null` too) is written as text: a handler that threw would end the process after all.
 */
export function logUnhandledFailures(log: (line: string) => void): void {
  const text = (err: unknown) => (err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.on('uncaughtException', (err) => log(`[manualmate] uncaught: ${text(err)}`));
  process.on('unhandledRejection', (err) => log(`[manualmate] unhandled rejection: ${text(err)}`));
}
