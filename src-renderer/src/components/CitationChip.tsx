import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Citation } from '../../../src-main/contract/api';
import { useStore } from '../store';
import { formatPages, missingSource, plainText } from '../util/format';

/** Quote length shown in the hover card, in characters. */
const PREVIEW_CHARS = 420;

function preview(quote: string): string {
  const plain = plainText(quote);
  return plain.length > PREVIEW_CHARS ? `${plain.slice(0, PREVIEW_CHARS)}…` : plain;
}

/**
 * `[n]` as a chip: hovering or focusing shows the cited passage, clicking opens the source
 * viewer at its page with the passage highlighted, and `line` (the answer line the chip stands
 * after, when it quotes the passage) marked more strongly inside it. The card is positioned
 * against the window (fixed) so scrolling containers never clip it, and Esc dismisses it.
 */
export function CitationChip({ citation, n, line }: { citation: Citation | undefined; n: number; line?: string }) {
  const openViewer = useStore((s) => s.openViewer);
  const docTitle = useStore((s) => (citation ? (s.documents.find((d) => d.id === citation.doc)?.title ?? null) : null));
  // `placed`: moved to where the card, as tall as it rendered, fits in the window (see below).
  const [card, setCard] = useState<{ top: number; left: number; placed: boolean } | null>(null);
  const ref = useRef<HTMLButtonElement>(null);
  const cardRef = useRef<HTMLSpanElement>(null);
  const shown = card !== null;
  // The card's height depends on its passage (up to ~330 px): measured before it is painted, it
  // goes below the chip when it fits there, else above, else as low as the window lets it, so its
  // end is never cut off by the window's bottom edge or its start by the top.
  useLayoutEffect(() => {
    if (!card || card.placed) return;
    const chip = ref.current?.getBoundingClientRect();
    const height = cardRef.current?.getBoundingClientRect().height;
    if (!chip || height === undefined) return;
    const room = window.innerHeight - 8;
    const below = chip.bottom + 8;
    const above = chip.top - 8 - height;
    const top = below + height <= room ? below : above >= 8 ? above : Math.max(8, Math.min(below, room - height));
    setCard({ ...card, top, placed: true });
  }, [card]);
  // Esc hides the card wherever focus is (it may be open under the pointer only), and only the
  // card: caught before the app's own Esc, which would stop an answer or close the viewer.
  useEffect(() => {
    if (!shown) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      e.preventDefault();
      setCard(null);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [shown]);

  if (!citation) {
    // A marker naming no source of the answer (a language model may number a passage it was never
    // given): no chip, and said as not found rather than as "left bracket 7 right bracket".
    return (
      <span className="cite-missing" title={`No source ${n} came with this answer`}>
        <span aria-hidden="true">[{n}]</span>
        <span className="visually-hidden">({missingSource(n)})</span>
      </span>
    );
  }

  const show = () => {
    const r = ref.current?.getBoundingClientRect();
    if (!r) return;
    const width = Math.min(380, window.innerWidth - 16);
    setCard({ top: r.bottom + 8, left: Math.max(8, Math.min(r.left, window.innerWidth - width - 8)), placed: false });
  };
  // A citation's title is its passage's section: several manuals have a "Specification", so the
  // document is named first. Its file name stands in for a document not (yet) listed.
  const docName = docTitle ?? citation.doc.split('/').pop() ?? citation.doc;
  const where = [docName, citation.title === docName ? '' : citation.title, formatPages(citation.pages)].filter(Boolean).join(' · ');

  return (
    <>
      <button
        ref={ref}
        type="button"
        className="cite-chip"
        data-testid="citation"
        data-n={n}
        aria-label={`Source ${n}: ${where}`}
        aria-describedby={card ? `cite-card-${citation.chunkId}-${n}` : undefined}
        onMouseEnter={show}
        onMouseLeave={() => setCard(null)}
        onFocus={show}
        onBlur={() => setCard(null)}
        onClick={() => {
          setCard(null);
          void openViewer({ doc: citation.doc, title: citation.title, pages: citation.pages, start: citation.start, end: citation.end, quote: citation.quote, ...(line ? { line } : {}) });
        }}
      >
        {n}
      </button>
      {card ? (
        <span
          id={`cite-card-${citation.chunkId}-${n}`}
          ref={cardRef}
          role="tooltip"
          className="cite-card"
          data-testid="citation-card"
          style={{ top: card.top, left: card.left }}
        >
          <span className="cite-card-where">{where}</span>
          {citation.headingPath.length > 0 ? <span className="cite-card-path">{citation.headingPath.join(' › ')}</span> : null}
          {citation.model ? <span className="chip chip-static">{citation.model}</span> : null}
          <span className="cite-card-quote">{preview(citation.quote)}</span>
          <span className="cite-card-hint muted">Click to open the page</span>
        </span>
      ) : null}
    </>
  );
}
