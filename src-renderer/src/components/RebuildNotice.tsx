import { useLayoutEffect, useRef, type RefObject } from 'react';
import type { LibrarySummary } from '../../../src-main/contract/api';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../store';
import { rebuildRunning } from '../store/library.slice';
import { Icon } from './Icon';

/**
 * Keeps keyboard focus on the page when the component using it unmounts while focus is inside
 * `inside`: `fallback` is focused instead, once the removal is committed, if it is still on the page
 * and nothing else took focus meanwhile. Focus held elsewhere is never moved.
 */
function useReturnFocusOnUnmount(inside: RefObject<HTMLElement | null>, fallback: RefObject<HTMLElement | null> | undefined): void {
  useLayoutEffect(() => {
    const element = inside.current;
    // A layout cleanup of the unmounting component runs before React removes its DOM: this is the
    // last moment at which "focus was inside" can be read (afterwards focus is already on <body>).
    return () => {
      if (!fallback || !element?.contains(document.activeElement)) return;
      queueMicrotask(() => {
        const active = document.activeElement;
        if (active && active !== document.body) return;
        const target = fallback.current;
        if (target?.isConnected) target.focus();
      });
    };
  }, [inside, fallback]);
}

/** The Cancel button of a running rebuild; when it goes while focused, focus returns to `returnFocusTo`. */
function CancelRebuildButton({ library, returnFocusTo }: { library: string; returnFocusTo: RefObject<HTMLButtonElement | null> }) {
  const cancelRebuild = useStore((s) => s.cancelRebuild);
  const ref = useRef<HTMLButtonElement>(null);
  useReturnFocusOnUnmount(ref, returnFocusTo);
  return (
    <button ref={ref} type="button" className="btn" data-testid="rebuild-cancel" onClick={() => void cancelRebuild(library)}>
      Cancel
    </button>
  );
}

/**
 * "Rebuild index" for one library, with why it could not start ('busy' included) in words.
 * Stays focusable while a rebuild runs (aria-disabled, not disabled): a keyboard user who pressed
 * it keeps their place instead of being dropped to the top of the page. When Cancel goes away while
 * focused (pressed, or the rebuild ended), focus returns to this button.
 */
export function RebuildButton({ library, primary = false }: { library: string; primary?: boolean }) {
  const running = useStore((s) => rebuildRunning(s, library));
  const error = useStore((s) => s.rebuildErrors[library]);
  const rebuildLibrary = useStore((s) => s.rebuildLibrary);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <div className="rebuild-action">
      <div className="rebuild-buttons">
        <button
          ref={button}
          type="button"
          className={primary ? 'btn btn-primary' : 'btn'}
          data-testid="rebuild-index"
          aria-disabled={running}
          onClick={() => {
            if (!running) void rebuildLibrary(library);
          }}
        >
          <Icon name="retry" size={16} /> {running ? 'Rebuilding…' : 'Rebuild index'}
        </button>
        {/* A long rebuild can be stopped: the library keeps the index it had. */}
        {running ? <CancelRebuildButton library={library} returnFocusTo={button} /> : null}
      </div>
      {error ? (
        <p className="error small" role="alert" data-testid="rebuild-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** What a rebuild redoes besides chunking, for the library's settings; empty when it redoes nothing more. */
function redoneText({ enrich, embedder }: Pick<LibrarySummary, 'enrich' | 'embedder'>): string[] {
  const out: string[] = [];
  if (enrich !== 'heuristic') {
    out.push(
      'Passages enriched by the language model are enriched by it again after the rebuild, which can take a long time; until then search uses the rules-based enrichment.',
    );
  }
  if (embedder !== null) out.push('Only passages whose text changed are embedded again.');
  return out;
}

function NoticeBody({ library, summary, returnFocusTo }: { library: string; summary: Pick<LibrarySummary, 'enrich' | 'embedder'>; returnFocusTo?: RefObject<HTMLElement | null> }) {
  const section = useRef<HTMLElement>(null);
  useReturnFocusOnUnmount(section, returnFocusTo);
  const redone = redoneText(summary);
  return (
    <section ref={section} className="notice rebuild-notice" data-testid="rebuild-notice" aria-labelledby="rebuild-notice-title">
      <div>
        <strong id="rebuild-notice-title">This library was indexed by an older version of ManualMate.</strong>
        <p>
          Rebuilding the index improves which model each passage is attributed to, so answers come from the right model’s manual (an IO board, for
          example, is now told apart from the module it carries). Your documents are kept and nothing is imported again. Search keeps working while the
          index is rebuilt; on a large library it can take a while.
        </p>
        {redone.length > 0 ? <p data-testid="rebuild-redone">{redone.join(' ')}</p> : null}
      </div>
      <RebuildButton library={library} primary />
    </section>
  );
}

/**
 * A non-blocking notice above the documents when the library's index was built by an older
 * version of ManualMate; renders nothing once the index is current. When it goes while focus is
 * inside it (the rebuild finished), focus moves to `returnFocusTo`.
 */
export function RebuildNotice({ library, returnFocusTo }: { library: string; returnFocusTo?: RefObject<HTMLElement | null> }) {
  const summary = useStore(
    useShallow((s) => {
      const l = s.libraries.find((x) => x.name === library);
      return l?.indexOutdated === true ? { enrich: l.enrich, embedder: l.embedder, subscribed: l.subscription !== undefined } : null;
    }),
  );
  if (!summary) return null;
  // A subscribed copy is read-only here: only its publisher can rebuild it.
  if (summary.subscribed) {
    return (
      <section className="notice rebuild-notice" data-testid="rebuild-notice-subscribed" role="note">
        <strong>This library was indexed by an older version of ManualMate.</strong>
        <p>It is a subscribed copy, so it cannot be rebuilt here: ask its publisher to rebuild it and publish again, then sync.</p>
      </section>
    );
  }
  return <NoticeBody library={library} summary={summary} returnFocusTo={returnFocusTo} />;
}
