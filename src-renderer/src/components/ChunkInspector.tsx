import { useEffect, useMemo, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ChunkDetail } from '../../../src-main/contract/api';
import { useStore } from '../store';
import type { InspectorColor } from '../store/inspector.slice';
import { signatureColor } from '../util/colors';
import { countOf, formatPages } from '../util/format';
import { restoreFocus } from '../util/focus';
import { Icon } from './Icon';

const colorValue = (c: ChunkDetail, by: InspectorColor) => (by === 'model' ? c.signature.model : c.signature.category);

/**
 * Closes the inspector (its Close button, Esc) and gives focus to the Chunks button of the
 * document it showed, back on the Documents screen (the library's heading if that row is gone).
 */
export function closeInspectorToOpener(): void {
  const { inspectorDoc: doc, closeInspector } = useStore.getState();
  closeInspector();
  requestAnimationFrame(() => {
    const row = [...document.querySelectorAll<HTMLElement>('tr[data-doc]')].find((r) => r.dataset['doc'] === doc);
    restoreFocus(row?.querySelector<HTMLElement>('button[data-action="chunks"]') ?? document.getElementById('library-heading'), { scroll: true });
  });
}

/**
 * The chunk inspector, a picture of what the engine did to one document: its chunks in order as
 * a strip coloured by signature model or category, where a new signature was extracted and where
 * it was inherited, keys and merged units; the selected chunk's text, prefix, signature and keys.
 */
export function ChunkInspector() {
  const { inspectorDoc, chunks, chunksLoading, inspectorError, inspectorColor } = useStore(
    useShallow((s) => ({ inspectorDoc: s.inspectorDoc, chunks: s.chunks, chunksLoading: s.chunksLoading, inspectorError: s.inspectorError, inspectorColor: s.inspectorColor })),
  );
  const title = useStore((s) => s.documents.find((d) => d.id === s.inspectorDoc)?.title ?? s.inspectorDoc ?? '');
  const setInspectorColor = useStore((s) => s.setInspectorColor);
  // The Documents screen whose Chunks button opened the inspector is gone: a keyboard user starts
  // at the inspector's heading, and on Close (or Esc) goes back to that document's Chunks button.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (inspectorDoc) restoreFocus(heading.current);
  }, [inspectorDoc]);

  const stats = useMemo(() => {
    const legend = new Map<string | null, number>();
    for (const c of chunks) legend.set(colorValue(c, inspectorColor), (legend.get(colorValue(c, inspectorColor)) ?? 0) + 1);
    return {
      extracted: chunks.filter((c) => c.signatureSource === 'extracted').length,
      inherited: chunks.filter((c) => c.signatureSource === 'inherited').length,
      merged: chunks.filter((c) => c.members.length > 0).length,
      keyed: chunks.filter((c) => c.key).length,
      legend: [...legend.entries()].sort((a, b) => b[1] - a[1]),
    };
  }, [chunks, inspectorColor]);

  if (!inspectorDoc) return null;
  return (
    <section className="inspector" aria-labelledby="inspector-heading" data-testid="chunk-inspector">
      <div className="view-header">
        <div>
          <h2 id="inspector-heading" ref={heading} tabIndex={-1}>
            Chunks of {title}
          </h2>
          <p className="muted small" data-testid="inspector-stats">
            {countOf(chunks.length, 'chunk')} · {countOf(stats.extracted, 'new signature')} · {stats.inherited} inherited · {stats.keyed} with a key ·{' '}
            {countOf(stats.merged, 'merged unit')}
          </p>
        </div>
        <div className="view-header-actions">
          <div className="segmented" role="group" aria-label="Colour by">
            <button type="button" aria-pressed={inspectorColor === 'model'} onClick={() => setInspectorColor('model')}>
              Model
            </button>
            <button type="button" aria-pressed={inspectorColor === 'category'} onClick={() => setInspectorColor('category')}>
              Category
            </button>
          </div>
          <button type="button" className="icon-btn" aria-label="Close the chunk inspector" onClick={closeInspectorToOpener}>
            <Icon name="close" />
          </button>
        </div>
      </div>
      {chunksLoading ? <p className="muted">Loading chunks…</p> : null}
      {inspectorError ? (
        <p className="error" role="alert">
          {inspectorError}
        </p>
      ) : null}
      {chunks.length > 0 ? (
        <>
          <div className="legend" aria-label="Legend">
            {stats.legend.slice(0, 12).map(([value, n]) => (
              <span key={value ?? '∅'} className="legend-item">
                <span className="swatch" style={{ background: signatureColor(value) }} />
                {value ?? (inspectorColor === 'model' ? 'no model' : 'no category')} <span className="muted">({n})</span>
              </span>
            ))}
            <span className="legend-item">
              <span className="swatch swatch-new" /> new signature
            </span>
            <span className="legend-item">
              <span className="swatch swatch-inherited" /> inherited
            </span>
            <span className="legend-item">
              <span className="swatch swatch-merged" /> merged unit
            </span>
          </div>
          <ChunkStrip />
          <div className="inspector-body">
            <ChunkList />
            <ChunkDetails />
          </div>
        </>
      ) : !chunksLoading && !inspectorError ? (
        <p className="muted">This document has no chunks.</p>
      ) : null}
    </section>
  );
}

function ChunkStrip() {
  const chunks = useStore((s) => s.chunks);
  const selected = useStore((s) => s.selectedChunk);
  const by = useStore((s) => s.inspectorColor);
  const selectChunk = useStore((s) => s.selectChunk);
  const strip = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (selected === null) return;
    strip.current?.querySelector<HTMLElement>(`[data-index="${selected}"]`)?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [selected]);

  return (
    <div
      className="strip"
      ref={strip}
      role="listbox"
      aria-label="Chunks in document order"
      aria-orientation="horizontal"
      data-testid="chunk-strip"
      onKeyDown={(e) => {
        if (selected === null) return;
        const next = e.key === 'ArrowRight' ? selected + 1 : e.key === 'ArrowLeft' ? selected - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? chunks.length - 1 : null;
        if (next === null) return;
        e.preventDefault();
        const clamped = Math.max(0, Math.min(chunks.length - 1, next));
        selectChunk(clamped);
        strip.current?.querySelector<HTMLElement>(`[data-index="${clamped}"]`)?.focus();
      }}
    >
      {chunks.map((c, i) => {
        const value = colorValue(c, by);
        const classes = ['segment', c.signatureSource === 'inherited' ? 'inherited' : 'extracted', c.continuous === false ? 'break' : '', c.members.length > 0 ? 'merged' : '', i === selected ? 'selected' : '']
          .filter(Boolean)
          .join(' ');
        return (
          <button
            key={c.id}
            type="button"
            role="option"
            aria-selected={i === selected}
            tabIndex={i === (selected ?? 0) ? 0 : -1}
            className={classes}
            data-index={i}
            data-testid="chunk-segment"
            data-source={c.signatureSource ?? 'none'}
            style={{ flexGrow: Math.max(1, Math.sqrt(c.end - c.start)), background: signatureColor(value) }}
            title={`#${c.ordinal} · ${value ?? '—'} · ${c.signatureSource ?? ''}${c.key ? ` · key ${c.key}` : ''}${c.members.length ? ` · ${c.members.length} merged` : ''}`}
            onClick={() => selectChunk(i)}
          >
            <span className="segment-label">{c.key ?? (c.signatureSource === 'extracted' ? (value ?? '') : '')}</span>
            {c.members.length > 0 ? <span className="segment-badge">×{c.members.length}</span> : null}
          </button>
        );
      })}
    </div>
  );
}

function ChunkList() {
  const chunks = useStore((s) => s.chunks);
  const selected = useStore((s) => s.selectedChunk);
  const selectChunk = useStore((s) => s.selectChunk);
  return (
    <div className="chunk-list-wrap">
      <table className="chunk-table">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Pages</th>
            <th scope="col">Section</th>
            <th scope="col">Model</th>
            <th scope="col">Signature</th>
            <th scope="col">Key</th>
          </tr>
        </thead>
        <tbody>
          {chunks.map((c, i) => (
            <tr key={c.id} className={i === selected ? 'selected' : undefined} aria-selected={i === selected} onClick={() => selectChunk(i)}>
              <td>
                <button type="button" className="link-btn" onClick={() => selectChunk(i)} aria-label={`Chunk ${c.ordinal}`}>
                  {c.ordinal}
                </button>
              </td>
              <td>{formatPages(c.pages) || '—'}</td>
              <td className="ellipsis" title={c.headingPath.join(' › ')}>
                {c.headingPath.slice(-1)[0] ?? '—'}
              </td>
              <td className="chunk-model">{c.signature.model ?? '—'}</td>
              <td>
                <span className={`src-tag src-${c.signatureSource ?? 'none'}`}>{c.signatureSource === 'inherited' ? 'inherited' : c.signatureSource === 'extracted' ? 'new' : '—'}</span>
              </td>
              <td className="chunk-key">
                {c.key ?? '—'}
                {c.members.length > 0 ? <span className="muted small"> · {c.members.length} merged</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ChunkDetails() {
  const chunk = useStore((s) => (s.selectedChunk === null ? null : (s.chunks[s.selectedChunk] ?? null)));
  const doc = useStore((s) => s.inspectorDoc);
  const title = useStore((s) => s.documents.find((d) => d.id === s.inspectorDoc)?.title ?? '');
  const openViewer = useStore((s) => s.openViewer);
  // A subscribed (team) library is read-only here: only its publisher can set its embedding model,
  // so why its nouns are missing is told without pointing at a setting the user cannot change.
  const readOnly = useStore((s) => s.libraries.some((l) => l.name === s.selectedLibrary && l.subscription !== undefined));
  if (!chunk || !doc) return <div className="chunk-details muted">Select a chunk.</div>;
  const sig = chunk.signature;
  const nounsOmitted = readOnly ? 'not computed in this library' : 'not computed until an embedding model is set';
  return (
    <div className="chunk-details" data-testid="chunk-details">
      <div className="detail-head">
        <h3>
          Chunk {chunk.ordinal}
          {chunk.members.length > 0 ? ` (merged unit of ${chunk.members.length})` : ''}
        </h3>
        <button type="button" className="btn btn-small" onClick={() => void openViewer({ doc, title, pages: chunk.pages, start: chunk.start, end: chunk.end, quote: chunk.text })}>
          <Icon name="doc" size={16} /> Show in document
        </button>
      </div>
      <dl className="facts">
        <dt>Pages</dt>
        <dd>{formatPages(chunk.pages) || 'no pages (not a PDF)'}</dd>
        <dt>Section</dt>
        <dd>{chunk.headingPath.join(' › ') || '—'}</dd>
        <dt>Signature</dt>
        <dd data-testid="chunk-signature">
          <span className="sig">category: {sig.category ?? '—'}</span> <span className="sig">nouns: {chunk.nounsOmitted ? nounsOmitted : sig.nouns.join(', ') || '—'}</span>{' '}
          <span className="sig">model: {sig.model ?? '—'}</span>{' '}
          <span className={`src-tag src-${chunk.signatureSource ?? 'none'}`}>
            {chunk.signatureSource === 'inherited' ? 'inherited from the previous chunk' : chunk.signatureSource === 'extracted' ? 'new signature' : 'no signature'}
          </span>
        </dd>
        <dt>Continuity</dt>
        <dd>{chunk.continuous === null ? 'first chunk' : chunk.continuous ? 'continues the previous chunk' : 'starts a new topic'}</dd>
        {chunk.sectionType ? (
          <>
            <dt>Section type</dt>
            <dd>{chunk.sectionType}</dd>
          </>
        ) : null}
        <dt>Key</dt>
        <dd>{chunk.key ?? '—'}</dd>
        <dt>Keywords</dt>
        <dd>{chunk.keywords.join(', ') || '—'}</dd>
        <dt>Entities</dt>
        <dd>{chunk.entities.join(', ') || '—'}</dd>
        <dt>Offsets</dt>
        <dd>
          {chunk.start}–{chunk.end} ({chunk.end - chunk.start} characters)
        </dd>
        {chunk.members.length > 0 ? (
          <>
            <dt>Members</dt>
            <dd>{chunk.members.map((m) => `#${m.ordinal}${m.pageStart !== null ? ` (p. ${m.pageStart}${m.pageEnd !== null && m.pageEnd !== m.pageStart ? `–${m.pageEnd}` : ''})` : ''}`).join(', ')}</dd>
          </>
        ) : null}
      </dl>
      <h4>Signature prefix (added before embedding)</h4>
      <pre className="prefix" data-testid="chunk-prefix">
        {chunk.prefix || '(none)'}
      </pre>
      <h4>Text</h4>
      <pre className="chunk-text" data-testid="chunk-text">
        {chunk.text}
      </pre>
    </div>
  );
}
