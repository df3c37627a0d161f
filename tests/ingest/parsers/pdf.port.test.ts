import { describe, expect, it, vi } from 'vitest';
import { loadPdfJs, pdfParser } from '../../../src-main/ingest/parsers/pdf.parser';
import { directWorker, type PdfWorkerSide } from '../../../src-main/ingest/parsers/pdf.port';
import { column, wrapText, writePdf } from '../../fixtures/pdf-writer';

/** Every page's text items and styles, read through `worker` (pdf.js's own in-thread worker when undefined). */
async function textOf(bytes: Uint8Array, worker?: unknown): Promise<unknown[]> {
  const pdfjs = await loadPdfJs();
  const task = pdfjs.getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false, disableFontFace: true, ...(worker ? { worker: worker as never } : {}) });
  try {
    const doc = await task.promise;
    const pages: unknown[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      pages.push(await page.getTextContent());
      page.cleanup();
    }
    return pages;
  } finally {
    await task.destroy();
  }
}

/** pdf.js's worker side, as the parser loads it. */
async function workerSide(): Promise<PdfWorkerSide> {
  await loadPdfJs();
  return (globalThis as unknown as { pdfjsWorker: { WorkerMessageHandler: PdfWorkerSide } }).pdfjsWorker.WorkerMessageHandler;
}

describe('directWorker', () => {
  it('reads the same text as pdf.js with its copying in-thread worker, over pages streamed in several batches', async () => {
    // Two columns of many short runs: pdf.js streams a page's text items in batches and starts a
    // new batch object after each, which is what the direct port must not lose.
    const pages = Array.from({ length: 3 }, (_, i) => {
      const lines = wrapText(`Page ${i + 1}: replace the fuse with a 10 A slow-blow type if the indicator stays red. `.repeat(40), 250, 10);
      return { runs: [...column(lines.slice(0, 30), 56, 740), ...column(lines.slice(30, 60), 320, 740)] };
    });
    const bytes = writePdf(pages, { title: 'Fuse service notes' });
    const pdfjs = await loadPdfJs();
    const direct = directWorker(pdfjs, await workerSide(), pdfjs.VerbosityLevel.ERRORS);
    let viaDirect: unknown[];
    try {
      viaDirect = await textOf(bytes, direct.worker);
    } finally {
      direct.close();
    }
    const viaLoopback = await textOf(bytes);
    // Font names carry the loading task's number ("g_d0_f1", "g_d1_f1"): the only expected difference.
    const same = (pages: unknown[]) => JSON.parse(JSON.stringify(pages).replace(/g_d\d+_/g, 'g_d_')) as unknown;
    expect(same(viaDirect)).toEqual(same(viaLoopback));
    const items = (viaDirect[0] as { items: { str: string }[] }).items;
    expect(items.length).toBeGreaterThan(40);
    expect(items.map((i) => i.str).join(' ')).toContain('slow-blow');
  });

  it("keeps pdf.js's warnings about a damaged file out of the output, as the parser asks", async () => {
    const good = Buffer.from(writePdf([{ runs: [{ x: 72, y: 700, text: 'Torque the terminal screws to 1.2 Nm.' }] }]));
    // A wrong cross-reference offset: pdf.js recovers by indexing every object, and says so at its
    // default log level ("Warning: Indexing all PDF objects").
    const at = good.lastIndexOf('startxref') + 'startxref\n'.length;
    const damaged = Buffer.concat([good.subarray(0, at), Buffer.from('9'), good.subarray(at)]);
    const log = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const result = await pdfParser.parse({ bytes: new Uint8Array(damaged), fileName: 'damaged.pdf' });
      expect(result.ok && result.doc.text).toContain('Torque the terminal screws');
      expect(log.mock.calls.map((c) => String(c[0])).filter((l) => l.startsWith('Warning'))).toEqual([]);
    } finally {
      log.mockRestore();
    }
  });

  it('reports a password-protected file the same way', async () => {
    const bytes = writePdf([{ runs: [{ x: 72, y: 700, text: 'Secret wiring diagram notes.' }] }], { userPassword: 'hunter2' });
    const pdfjs = await loadPdfJs();
    const direct = directWorker(pdfjs, await workerSide(), pdfjs.VerbosityLevel.ERRORS);
    try {
      await expect(textOf(bytes, direct.worker)).rejects.toMatchObject({ name: 'PasswordException' });
    } finally {
      direct.close();
    }
  });
});

describe('the direct port', () => {
  /** A pair wired as `directWorker` wires it, with a stand-in for each side of pdf.js. */
  function pair() {
    let sidePort: { postMessage(m: unknown): void; addEventListener(t: string, l: (e: { data: unknown }) => void, o?: { signal?: AbortSignal }): void } | null = null;
    const received: unknown[] = [];
    class FakeWorker {
      constructor(readonly params: { port: { postMessage(m: unknown): void } }) {}
      destroy(): void {}
    }
    const { worker, close } = directWorker(
      { PDFWorker: FakeWorker as never },
      {
        initializeFromPort(port) {
          sidePort = port as typeof sidePort;
          sidePort!.addEventListener('message', (e) => received.push(e.data));
        },
      },
      0,
    );
    return { main: (worker as unknown as FakeWorker).params.port, side: () => sidePort!, received, close };
  }

  it('delivers messages later, in order, as posted even if the sender then replaces a batch', async () => {
    const { main, received } = pair();
    const batch = { items: ['a', 'b'] };
    main.postMessage({ stream: 1, chunk: batch });
    main.postMessage({ stream: 2 });
    // What pdf.js's text stream does right after posting a batch.
    batch.items = [];
    expect(received).toEqual([]);
    await Promise.resolve();
    await Promise.resolve();
    expect(received).toEqual([{ stream: 1, chunk: { items: ['a', 'b'] } }, { stream: 2 }]);
  });

  it('stops delivering to a listener whose signal aborted, and to nobody once closed', async () => {
    const { main, side, close } = pair();
    const ac = new AbortController();
    const late: unknown[] = [];
    side().addEventListener('message', (e) => late.push(e.data), { signal: ac.signal });
    main.postMessage('one');
    await Promise.resolve();
    ac.abort();
    main.postMessage('two');
    await Promise.resolve();
    expect(late).toEqual(['one']);
    close();
    main.postMessage('three');
    await Promise.resolve();
    expect(late).toEqual(['one']);
  });
});
