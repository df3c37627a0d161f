/** Runs `work` with a signal that Ctrl+C aborts (the work ends cleanly, with what it finished), and stops listening for Ctrl+C when it ends. */
export async function withCtrlC<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    return await work(controller.signal);
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}
