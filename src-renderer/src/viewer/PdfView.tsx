import { useEffect, useRef, useState } from 'react';
import { getDocument, GlobalWorkerOptions, Util, type PDFDocumentProxy, type RenderTask } from 'pdfjs-dist';
import type { TextItem } from 'pdfjs-dist/types/src/display/api';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { base64ToBytes } from '../util/files';
import { findLineItems, findPassage } from './passage';

// The worker is one of the app's own files (worker-src 'self'); nothing is fetched from elsewhere.
GlobalWorkerOptions.workerSrc = workerUrl;

interface Rect {
  /** The text item's string: what the mark covers, for tests and tools reading the page. */
  text: string;
  left: number;
  top: number;
  width: number;
  height: number;
  /** Part of the answer's line, marked more strongly. */
  line: boolean;
}

/**
 * One page of the original PDF drawn by pdf.js, fitted to the panel's width, with the cited
 * passage marked by boxes over its text items, and the answer's `line` among them more strongly.
 * Loaded lazily: pdf.js is large and only the source viewer needs it.
 */
export default function PdfView({
  base64,
  page,
  quote,
  line = '',
  zoom,
  onPageCount,
  onError,
}: {
  base64: string;
  page: number;
  quote: string;
  /** The answer line to mark inside the passage ('' for none); the passage alone when it is not found there. */
  line?: string;
  /** Multiplier on fit-to-width. */
  zoom: number;
  onPageCount: (count: number) => void;
  onError: (message: string) => void;
}) {
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [width, setWidth] = useState(0);
  const [rendered, setRendered] = useState<{ page: number; width: number; height: number; marks: Rect[] } | null>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const task = getDocument({ data: base64ToBytes(base64), isEvalSupported: false, disableAutoFetch: true, disableStream: true });
    let alive = true;
    task.promise.then(
      (d) => {
        if (!alive) return;
        setDoc(d);
        onPageCount(d.numPages);
      },
      (err: unknown) => alive && onError(`The PDF could not be drawn: ${err instanceof Error ? err.message : String(err)}`),
    );
    return () => {
      alive = false;
      void task.destroy();
    };
    // Only a new file reloads the PDF; the parent's callbacks may change identity on every render.
  }, [base64]);

  useEffect(() => {
    const el = wrap.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(Math.floor(el.clientWidth)));
    observer.observe(el);
    setWidth(Math.floor(el.clientWidth));
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (!doc || width <= 0 || !canvas.current) return;
    let task: RenderTask | null = null;
    let alive = true;
    const draw = async () => {
      const number = Math.min(Math.max(1, page), doc.numPages);
      const pdfPage = await doc.getPage(number);
      if (!alive) return;
      const base = pdfPage.getViewport({ scale: 1 });
      const scale = Math.max(0.25, ((width - 2) / base.width) * zoom);
      const viewport = pdfPage.getViewport({ scale });
      const ratio = window.devicePixelRatio || 1;
      const c = canvas.current!;
      c.width = Math.floor(viewport.width * ratio);
      c.height = Math.floor(viewport.height * ratio);
      c.style.width = `${Math.floor(viewport.width)}px`;
      c.style.height = `${Math.floor(viewport.height)}px`;
      task = pdfPage.render({ canvas: c, viewport, transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined });
      try {
        await task.promise;
      } catch (err) {
        if (!alive) return; // cancelled by a newer render, or the viewer closed
        throw err;
      }
      const marks: Rect[] = [];
      if (quote.trim()) {
        const content = await pdfPage.getTextContent();
        const items = content.items.filter((it): it is TextItem => 'str' in it);
        const range = findPassage(
          items.map((it) => it.str),
          quote,
        );
        if (range) {
          // Looked for inside the passage only: the same words elsewhere on the page are not the line quoted.
          const inside = line.trim() ? findLineItems(items.slice(range.first, range.last + 1).map((it) => it.str), line) : null;
          for (let i = range.first; i <= range.last; i++) {
            const it = items[i]!;
            if (!it.str.trim()) continue;
            const tx = Util.transform(viewport.transform, it.transform as number[]);
            const fontHeight = Math.hypot(tx[2]!, tx[3]!);
            const isLine = inside !== null && i >= range.first + inside.first && i <= range.first + inside.last;
            marks.push({ text: it.str, left: tx[4]! - 2, top: tx[5]! - fontHeight * 0.95, width: it.width * scale + 4, height: fontHeight * 1.25, line: isLine });
          }
        }
      }
      if (alive) setRendered({ page: number, width: Math.floor(viewport.width), height: Math.floor(viewport.height), marks });
    };
    draw().catch((err: unknown) => {
      // Closing the viewer destroys the document under a draw still waiting on the worker, which
      // then rejects what it was asked for ("Transport destroyed"): nothing the user needs to hear.
      if (alive) onError(`The page could not be drawn: ${err instanceof Error ? err.message : String(err)}`);
    });
    return () => {
      alive = false;
      task?.cancel();
    };
  }, [doc, page, width, zoom, quote, line]);

  useEffect(() => {
    if (!rendered || rendered.marks.length === 0) return;
    (wrap.current?.querySelector('.pdf-line') ?? wrap.current?.querySelector('.pdf-highlight'))?.scrollIntoView({ block: 'center' });
  }, [rendered]);

  return (
    <div className="pdf-wrap" ref={wrap}>
      <div
        className="pdf-page"
        data-testid="pdf-page"
        data-page={rendered?.page ?? 0}
        data-highlights={rendered?.marks.length ?? 0}
        data-line-marks={rendered?.marks.filter((m) => m.line).length ?? 0}
        style={rendered ? { width: rendered.width, height: rendered.height } : undefined}
      >
        <canvas ref={canvas} aria-label={`Page ${page}`} role="img" />
        {rendered?.marks.map((m, i) => (
          <div
            key={i}
            className={m.line ? 'pdf-highlight pdf-line' : 'pdf-highlight'}
            data-testid="pdf-highlight"
            data-text={m.text}
            style={{ left: m.left, top: m.top, width: m.width, height: m.height }}
          />
        ))}
      </div>
      {!doc ? <p className="muted pad">Drawing the page…</p> : null}
    </div>
  );
}
