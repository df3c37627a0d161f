/**
 * pdf.js's two sides (its "main" API and its "worker", which parses) joined on this thread without
 * copying every message. Written by hand because pdf.js has no option for it.
 *
 * Node has no Web Workers, so pdf.js runs its worker side on the calling thread behind a
 * `LoopbackPort` that still `structuredClone`s every message, as a real worker boundary would: every
 * page's text items are copied once more on their way to the parser. In a pdf-dev profile that copy
 * was ~5% of the parse's CPU (tests/bench/RESULTS.md, "PDF import", session 12). Both sides are
 * pdf.js's own code on one thread, and what it changes after posting is only the top of a message:
 * its text stream posts a batch object and then gives that object new `items` and `styles`. So a
 * message is copied two levels deep (the message and its `chunk`), not all the way down: the items
 * themselves are never touched again. tests/ingest/parsers/pdf.port.test.ts reads the same text
 * through this port and through pdf.js's own, so a pdf.js that starts changing more fails there.
 *
 * The pair is wired through pdf.js's public API: `new PDFWorker({ port })` for the API side and
 * `WorkerMessageHandler.initializeFromPort(port)` for the worker side, the entry point pdf.js's
 * own worker script uses. Delivery stays asynchronous and in order (one microtask per message, as
 * `LoopbackPort` does), so pdf.js sees the same sequence of events.
 */

type Listener = (event: { data: unknown }) => void;

/** One end of the pair: what pdf.js's `MessageHandler` calls on a port. */
class DirectPort {
  private readonly listeners = new Set<Listener>();
  /** The other end, set once both exist. */
  peer: DirectPort | null = null;

  postMessage(message: unknown): void {
    const peer = this.peer;
    if (!peer) return;
    const data = shallow(message);
    queueMicrotask(() => {
      for (const listener of peer.listeners) listener.call(peer, { data });
    });
  }

  addEventListener(type: string, listener: Listener, options?: { signal?: AbortSignal }): void {
    if (type !== 'message') return;
    const signal = options?.signal;
    if (signal?.aborted) return;
    this.listeners.add(listener);
    signal?.addEventListener('abort', () => this.listeners.delete(listener), { once: true });
  }

  removeEventListener(type: string, listener: Listener): void {
    if (type === 'message') this.listeners.delete(listener);
  }

  /** What a worker's port offers; closes this end. */
  terminate(): void {
    this.listeners.clear();
    this.peer = null;
  }
}

/** The message and its stream `chunk` copied one level each (see the module's comment). */
function shallow(message: unknown): unknown {
  if (!message || typeof message !== 'object') return message;
  const m = { ...(message as Record<string, unknown>) };
  const chunk = m['chunk'];
  if (chunk && typeof chunk === 'object' && !Array.isArray(chunk) && !ArrayBuffer.isView(chunk)) m['chunk'] = { ...(chunk as object) };
  return m;
}

/** What this module needs of pdf.js's API module and of its worker module. */
export interface PdfWorkerApi<W> {
  PDFWorker: new (params: { port: never; verbosity: number }) => W;
}
export interface PdfWorkerSide {
  initializeFromPort(port: unknown): void;
}

/**
 * A pdf.js worker for one document, running on this thread: pass it as `getDocument({ worker })`
 * and call `close()` after the loading task is destroyed (pdf.js leaves a worker it was given to
 * its owner). `verbosity` is pdf.js's log level for the worker side: a worker given to
 * `getDocument` keeps its own, not the document's (pdf.js's default prints every font warning).
 */
export function directWorker<W extends { destroy(): void }>(api: PdfWorkerApi<W>, workerSide: PdfWorkerSide, verbosity: number): { worker: W; close(): void } {
  const main = new DirectPort();
  const side = new DirectPort();
  main.peer = side;
  side.peer = main;
  workerSide.initializeFromPort(side);
  const worker = new api.PDFWorker({ port: main as never, verbosity });
  return {
    worker,
    close() {
      worker.destroy();
      main.terminate();
      side.terminate();
    },
  };
}
