import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../store';
import { restoreFocus } from '../util/focus';
import { formatPages, plainText } from '../util/format';
import { Icon } from '../components/Icon';
import { SafeMarkdown } from './SafeMarkdown';
import { frontMatterEnd, remarkAdmonitions, remarkHideFrontMatter, remarkHighlight } from './markdown.plugins';
import { lineInPassage } from './passage';

const PdfView = lazy(() => import('./PdfView'));

/** Documents longer than this many characters are shown around the passage, not whole. */
const WHOLE_TEXT_CHARS = 150_000;
const WINDOW_CHARS = 40_000;

/**
 * The source viewer: the cited document opened at the passage's page with the passage
 * highlighted. PDFs are drawn page by page by pdf.js; every format can also be read as its
 * normalized text, rendered as sanitized Markdown with the passage marked by its offsets.
 */
export function SourceViewer() {
  const viewer = useStore((s) => s.viewer);
  const { source, original, viewerLoading, viewerError, viewerMode, viewerPage } = useStore(
    useShallow((s) => ({ source: s.source, original: s.original, viewerLoading: s.viewerLoading, viewerError: s.viewerError, viewerMode: s.viewerMode, viewerPage: s.viewerPage })),
  );
  const closeViewer = useStore((s) => s.closeViewer);
  const setViewerPage = useStore((s) => s.setViewerPage);
  const setViewerMode = useStore((s) => s.setViewerMode);
  const [pageCount, setPageCount] = useState<number | null>(null);
  const [zoom, setZoom] = useState(1);
  const [pdfError, setPdfError] = useState<string | null>(null);
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    setPdfError(null);
    setPageCount(null);
  }, [original]);
  const open = viewer !== null;
  useEffect(() => {
    if (!open) return;
    // Runs before the effect below moves focus in: what has it is the control that opened the viewer.
    const opener = document.activeElement;
    return () => restoreFocus(opener);
  }, [open]);
  useEffect(() => {
    if (viewer) closeRef.current?.focus({ preventScroll: true });
  }, [viewer]);

  if (!viewer) return null;
  const count = pageCount ?? source?.pageCount ?? null;
  const showPdf = viewerMode === 'page' && original !== null && !pdfError;
  const hasPassage = viewer.end > viewer.start;

  return (
    <aside
      className="viewer"
      aria-label={`Source: ${source?.title ?? viewer.title}`}
      data-testid="source-viewer"
      onKeyDown={(e) => {
        if (!showPdf || !count) return;
        if (e.key === 'PageDown') setViewerPage(Math.min(count, viewerPage + 1));
        if (e.key === 'PageUp') setViewerPage(Math.max(1, viewerPage - 1));
      }}
    >
      <header className="viewer-header">
        <div className="viewer-title">
          <h2 title={viewer.doc}>{source?.title ?? viewer.title}</h2>
          <span className="muted small">
            {viewer.doc}
            {hasPassage && viewer.title !== source?.title ? ` · ${viewer.title}` : ''}
            {hasPassage && viewer.pages.length > 0 ? ` · passage on ${formatPages(viewer.pages)}` : ''}
          </span>
        </div>
        <button ref={closeRef} type="button" className="icon-btn" aria-label="Close source" onClick={closeViewer}>
          <Icon name="close" />
        </button>
      </header>
      <div className="viewer-toolbar">
        {original ? (
          <div className="segmented" role="group" aria-label="View as">
            <button type="button" aria-pressed={viewerMode === 'page'} onClick={() => setViewerMode('page')}>
              Page
            </button>
            <button type="button" aria-pressed={viewerMode === 'text'} onClick={() => setViewerMode('text')}>
              Text
            </button>
          </div>
        ) : null}
        {showPdf ? (
          <>
            <div className="pager" role="group" aria-label="Pages">
              <button type="button" className="icon-btn" aria-label="Previous page" disabled={viewerPage <= 1} onClick={() => setViewerPage(viewerPage - 1)}>
                <Icon name="chevronLeft" />
              </button>
              <span className="page-label" data-testid="viewer-page">
                Page {viewerPage}
                {count ? ` of ${count}` : ''}
              </span>
              <button type="button" className="icon-btn" aria-label="Next page" disabled={count !== null && viewerPage >= count} onClick={() => setViewerPage(viewerPage + 1)}>
                <Icon name="chevronRight" />
              </button>
            </div>
            <div className="pager" role="group" aria-label="Zoom">
              <button type="button" className="icon-btn" aria-label="Zoom out" disabled={zoom <= 0.5} onClick={() => setZoom(Math.max(0.5, zoom - 0.25))}>
                −
              </button>
              <span className="page-label">{Math.round(zoom * 100)}%</span>
              <button type="button" className="icon-btn" aria-label="Zoom in" disabled={zoom >= 3} onClick={() => setZoom(Math.min(3, zoom + 0.25))}>
                +
              </button>
            </div>
            {viewer.pages.length > 0 && !viewer.pages.includes(viewerPage) ? (
              <button type="button" className="btn btn-small" onClick={() => setViewerPage(viewer.pages[0]!)}>
                Back to the passage
              </button>
            ) : null}
          </>
        ) : null}
      </div>
      {hasPassage ? (
        <blockquote className="viewer-quote" data-testid="viewer-quote">
          {/* Opened from an answer line, the box shows that line (the passage's opening may be far above it). */}
          <span className="muted small">{viewer.line ? 'Quoted line' : 'Cited passage'}</span>
          <span className="viewer-quote-text">{clip(viewer.line ? viewer.line : plainText(viewer.quote), 400)}</span>
        </blockquote>
      ) : null}
      <div className="viewer-body">
        {viewerLoading ? <p className="muted pad">Opening…</p> : null}
        {viewerError ? (
          <p className="error pad" role="alert">
            {viewerError}
          </p>
        ) : null}
        {pdfError ? (
          <p className="error pad" role="alert">
            {pdfError} Showing the text instead.
          </p>
        ) : null}
        {showPdf && original ? (
          <Suspense fallback={<p className="muted pad">Loading the PDF viewer…</p>}>
            {/* The line is looked for on its own page(s) only: a like row on the passage's next page is not it. */}
            <PdfView
              base64={original.base64}
              page={viewerPage}
              quote={hasPassage ? viewer.quote : ''}
              line={hasPassage && (viewer.pages.length === 0 || viewer.pages.includes(viewerPage)) ? (viewer.line ?? '') : ''}
              zoom={zoom}
              onPageCount={setPageCount}
              onError={setPdfError}
            />
          </Suspense>
        ) : source ? (
          <SourceText
            text={source.text}
            start={viewer.start}
            end={viewer.end}
            line={viewer.line ?? ''}
            pages={viewer.pages}
            pageStarts={source.pageStarts}
            page={viewer.pages[0] ?? null}
            keepLineBreaks={source.format === 'txt'}
          />
        ) : null}
      </div>
    </aside>
  );
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

/**
 * Cuts long documents around the passage, so rendering stays quick: at paragraph breaks, else (a
 * log of single lines, a file that is one line) at a line break or a space, else anywhere but
 * inside a surrogate pair. Looking no further than half a window for a break: a 30 MB text with
 * no blank line was otherwise drawn whole and froze the window.
 */
function windowAround(text: string, start: number, end: number, extra: number): { from: number; to: number } {
  if (text.length <= WHOLE_TEXT_CHARS + extra * 2) return { from: 0, to: text.length };
  const half = WINDOW_CHARS / 2 + extra;
  let from = Math.max(0, start - half);
  let to = Math.min(text.length, Math.max(end, start) + half);
  const reach = WINDOW_CHARS / 2;
  if (from > 0) from = breakBefore(text, from, reach);
  if (to < text.length) to = breakAfter(text, to, reach);
  return { from, to };
}

const BREAKS = ['\n\n', '\n', ' '] as const;

/** Where a window starting near `at` begins: just after the nearest break at most `reach` before it. */
function breakBefore(text: string, at: number, reach: number): number {
  for (const br of BREAKS) {
    const i = text.lastIndexOf(br, at);
    if (i >= 0 && at - i <= reach) return i + br.length;
  }
  if (at <= reach) return 0;
  return /[\uDC00-\uDFFF]/.test(text[at] ?? '') ? at - 1 : at;
}

/** Where a window ending near `at` ends: at the nearest break at most `reach` after it. */
function breakAfter(text: string, at: number, reach: number): number {
  for (const br of BREAKS) {
    const i = text.indexOf(br, at);
    if (i >= 0 && i - at <= reach) return i;
  }
  if (text.length - at <= reach) return text.length;
  return /[\uDC00-\uDFFF]/.test(text[at] ?? '') ? at + 1 : at;
}

/**
 * `keepLineBreaks`: a plain-text file's lines are the author's layout (a spec list, an address),
 * not soft-wrapped prose, so they are shown as lines where Markdown would join them.
 */
function SourceText({
  text,
  start,
  end,
  line,
  pages,
  pageStarts,
  page,
  keepLineBreaks,
}: {
  text: string;
  start: number;
  end: number;
  /** The answer line to mark inside the passage ('' for none). */
  line: string;
  pages: readonly number[];
  pageStarts: number[];
  page: number | null;
  keepLineBreaks: boolean;
}) {
  const [extra, setExtra] = useState(0);
  const body = useRef<HTMLDivElement>(null);
  // Without a passage (a document opened from the list) start at the requested page.
  const anchor = end > start ? start : page !== null ? (pageStarts[page - 1] ?? 0) : 0;
  const { from, to } = windowAround(text, anchor, Math.max(end, anchor), extra);
  const slice = text.slice(from, to);
  // Not found, the passage is highlighted as a whole, as for a chip that names no line.
  const marked = useMemo(() => lineInPassage(text, start, end, line, pages, pageStarts), [text, start, end, line, pages, pageStarts]);
  // Front matter is metadata (hidden, not a heading); admonitions render as labelled boxes.
  const hiddenEnd = from === 0 ? frontMatterEnd(slice) : 0;
  const plugins = useMemo(
    () => [
      ...(end > start ? [[remarkHighlight, { start, end, offset: from, line: marked }] as [typeof remarkHighlight, Parameters<typeof remarkHighlight>[0]]] : []),
      remarkHideFrontMatter(hiddenEnd),
      remarkAdmonitions,
    ],
    [start, end, from, hiddenEnd, marked],
  );

  useEffect(() => {
    // The line, when one is marked: a passage runs to 3000 characters, its top may be far above it.
    (body.current?.querySelector('.passage-line') ?? body.current?.querySelector('.passage'))?.scrollIntoView({ block: 'center' });
  }, [start, end, slice, marked]);

  return (
    <div className="source-text" ref={body} data-testid="source-text">
      {from > 0 ? (
        <button type="button" className="btn btn-small more" onClick={() => setExtra(extra + WINDOW_CHARS)}>
          Show earlier text
        </button>
      ) : null}
      <div className={keepLineBreaks ? 'markdown keep-lines' : 'markdown'}>
        <SafeMarkdown text={slice} plugins={plugins} />
      </div>
      {to < text.length ? (
        <button type="button" className="btn btn-small more" onClick={() => setExtra(extra + WINDOW_CHARS)}>
          Show later text
        </button>
      ) : null}
    </div>
  );
}
