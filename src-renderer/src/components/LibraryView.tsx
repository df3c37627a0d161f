import { useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { DocumentSummary } from '../../../src-main/contract/api';
import { shell } from '../api/client';
import { useStore } from '../store';
import type { FileProgress } from '../store/ingest.slice';
import { countOf, formatBytes, formatDate, formatPercent, stageLabel } from '../util/format';
import { failureAdvice, offersRetry } from '../util/messages';
import { ConfirmDialog } from './ConfirmDialog';
import { Icon } from './Icon';
import { ImportButtons, MANUAL_EXTENSIONS } from './ImportButtons';
import { ImportPanel, useImportsInline } from './ImportPanel';
import { EmbeddingStatus, IndexStatus } from './IndexStatus';
import { RebuildNotice } from './RebuildNotice';

/** The selected library's documents, or the first-run explanation when there is none. */
export function LibraryView() {
  const selectedLibrary = useStore((s) => s.selectedLibrary);
  const librariesLoaded = useStore((s) => s.librariesLoaded);
  const loaded = useStore((s) => s.documentsOf === s.selectedLibrary);
  if (!librariesLoaded || (selectedLibrary && !loaded)) return <p className="muted pad">Loading…</p>;
  if (!selectedLibrary) return <FirstRun />;
  return <Documents library={selectedLibrary} />;
}

function FirstRun() {
  const noModels = useStore((s) => s.modelsLoaded && !s.models.some((m) => m.kinds.includes('llm')));
  return (
    <section className="empty-state" data-testid="first-run">
      <h2>Welcome to ManualMate</h2>
      <p className="lead">Ask your manuals a question and get the answer for the exact model, with the page to check it on.</p>
      <ol className="steps">
        <li>
          <strong>Drag manuals onto this window</strong> (PDF, Word, HTML, Markdown or text files, or whole folders), or use the buttons below. A library
          called “Manuals” is created for them; make more on the left, one per product line.
        </li>
        <li>
          <strong>Ask</strong> in Chat, or press <kbd>Ctrl</kbd>+<kbd>K</kbd> to search. Every answer cites the manual and page; click a citation to see
          the passage highlighted.
        </li>
      </ol>
      <ImportButtons />
      <p className="muted small">
        Everything stays on this computer; ManualMate never connects to the internet.{' '}
        {noModels
          ? 'No language model is installed yet, so answers are quoted word for word from your manuals. Put a GGUF model in the models folder (see Settings) for written answers.'
          : 'Language models found in the models folder are listed in Settings.'}
      </p>
    </section>
  );
}

/** The pause in typing, in ms, after which the filter's count is said. */
const FILTER_SAID_AFTER_MS = 400;

function Documents({ library }: { library: string }) {
  const { documents, documentFilter } = useStore(useShallow((s) => ({ documents: s.documents, documentFilter: s.documentFilter })));
  const summary = useStore((s) => s.libraries.find((l) => l.name === library));
  const setDocumentFilter = useStore((s) => s.setDocumentFilter);
  const live = useStore(
    useShallow((s) => {
      const out: Record<string, FileProgress> = {};
      for (const job of s.jobs) {
        if (job.library !== library || job.phase === 'done' || job.phase === 'error' || job.phase === 'stopped') continue;
        for (const f of Object.values(job.files)) if (f.stage !== 'ready' && f.stage !== 'failed') out[f.file] = f;
      }
      return out;
    }),
  );
  const [removing, setRemoving] = useState<DocumentSummary | null>(null);
  const removeDocument = useStore((s) => s.removeDocument);
  const reimportDocument = useStore((s) => s.reimportDocument);
  const retryDocument = useStore((s) => s.retryDocument);
  const canRetry = useStore((s) => s.canRetry);
  const retriesFromPath = useStore((s) => s.retriesFromPath);
  const replaceInput = useRef<HTMLInputElement>(null);
  const [replacing, setReplacing] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const importsInline = useImportsInline();

  const filtered = useMemo(() => {
    const q = documentFilter.trim().toLowerCase();
    if (!q) return documents;
    return documents.filter(
      (d) => d.id.toLowerCase().includes(q) || d.title.toLowerCase().includes(q) || d.status.includes(q) || d.models.some((m) => m.toLowerCase().includes(q)),
    );
  }, [documents, documentFilter]);
  const failed = documents.filter((d) => d.status === 'failed').length;
  // How many documents the filter leaves, said once typing pauses (not at every key). Only the
  // table showed it, which a screen-reader user in the filter box does not see.
  const matching = documentFilter.trim() ? `${filtered.length} of ${countOf(documents.length, 'document')}` : '';
  const [filterSaid, setFilterSaid] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setFilterSaid(matching), FILTER_SAID_AFTER_MS);
    return () => clearTimeout(timer);
  }, [matching]);
  // After a remove, the place the removed row had: its Remove button went with it, so focus goes to
  // the Remove button of the row now there (or of the one above it, or to the library's heading).
  const table = useRef<HTMLTableSectionElement>(null);
  const [refocusAt, setRefocusAt] = useState<number | null>(null);
  useEffect(() => {
    if (refocusAt === null) return;
    setRefocusAt(null);
    const now = document.activeElement;
    if (now !== null && now !== document.body && now.isConnected) return;
    const buttons = table.current?.querySelectorAll<HTMLElement>('button[data-action="remove"]') ?? [];
    (buttons[refocusAt] ?? buttons[refocusAt - 1] ?? heading.current)?.focus();
  }, [refocusAt, filtered]);

  return (
    <section className="library-view" aria-labelledby="library-heading">
      <div className="view-header">
        <div>
          {/* Focusable from script only (not in the tab order): where focus goes when the rebuild notice holding it disappears. */}
          <h2 id="library-heading" ref={heading} tabIndex={-1}>
            {library}
          </h2>
          <p className="muted small">
            {documents.length === 1 ? '1 document' : `${documents.length} documents`}
            {summary ? ` · ${summary.chunks === 1 ? '1 chunk' : `${summary.chunks} chunks`} · ${summary.strategy} chunking` : ''}
            {failed > 0 ? ` · ${failed} failed` : ''}
          </p>
          {summary?.subscription ? (
            <p className="muted small" data-testid="subscription-status">
              Team library, read-only: version {summary.subscription.version} of {summary.subscription.source}, synced {formatDate(summary.subscription.syncedAt)}
              {summary.subscription.newerAvailable ? <strong className="warn"> · a newer version ({summary.subscription.latestVersion}) is available (Settings › Sync now)</strong> : null}
            </p>
          ) : null}
          <IndexStatus library={library} task="enriching" />
          <EmbeddingStatus library={library} />
          {/* Asked for by the user, so its outcome stays in view after the notice is gone. */}
          <IndexStatus library={library} task="rebuilding" showDone />
        </div>
        <div className="view-header-actions">
          {documents.length > 0 ? (
            <input
              type="search"
              className="doc-filter"
              aria-label="Filter documents"
              placeholder="Filter: name, model, status…"
              value={documentFilter}
              onChange={(e) => setDocumentFilter(e.target.value)}
            />
          ) : null}
          {summary?.subscription ? null : <ImportButtons compact />}
        </div>
      </div>
      {/* In the page before the first key (a region added with its text is not read out). */}
      <p role="status" className="visually-hidden" data-testid="filter-status">
        {filterSaid}
      </p>
      <RebuildNotice library={library} returnFocusTo={heading} />
      {importsInline ? <ImportPanel inline /> : null}
      {documents.length === 0 && Object.keys(live).length > 0 ? (
        <p className="muted pad" data-testid="importing-first">
          This library is empty until its first manuals are imported: each one appears here as soon as it is read.
        </p>
      ) : documents.length === 0 ? (
        <div className="drop-hint" data-testid="no-documents">
          <Icon name="upload" size={36} />
          <p>
            <strong>This library is empty.</strong> Drag manuals or whole folders anywhere onto this window to import them.
          </p>
          <p className="muted small">PDF, Word (.docx), HTML, Markdown and text files. Scanned PDFs without a text layer cannot be read yet.</p>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="doc-table docs-table" data-testid="document-table">
            <thead>
              <tr>
                <th scope="col">Document</th>
                <th scope="col">Status</th>
                <th scope="col" className="num hide-narrow">
                  Size
                </th>
                <th scope="col" className="num">
                  Pages
                </th>
                <th scope="col" className="num hide-narrow">
                  Chunks
                </th>
                <th scope="col">Models</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody ref={table}>
              {filtered.map((d) => (
                <DocumentRow
                  key={d.id}
                  doc={d}
                  live={live[d.id]}
                  onRemove={() => setRemoving(d)}
                  onReplace={() => {
                    // "A newer version" is a file the app has not seen: always ask for it. Sending
                    // the held file again is Retry's job (a failed row), never this button's.
                    // The desktop app imports paths (it refuses uploads): its own dialog grants one.
                    if (shell.pickFiles) {
                      void shell.pickFiles({ one: true }).then((res) => {
                        if (res.ok && res.value[0]) void reimportDocument(d.id, res.value[0]);
                      });
                      return;
                    }
                    setReplacing(d.id);
                    replaceInput.current?.click();
                  }}
                  onRetry={canRetry(library, d.id) ? () => void retryDocument(library, d.id) : undefined}
                  fromPath={retriesFromPath(library, d.id)}
                />
              ))}
            </tbody>
          </table>
          {filtered.length === 0 && documentFilter.trim() ? <p className="muted pad">No document matches “{documentFilter}”.</p> : null}
        </div>
      )}
      <input
        ref={replaceInput}
        type="file"
        accept={MANUAL_EXTENSIONS}
        hidden
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = '';
          if (file && replacing) void reimportDocument(replacing, file);
          setReplacing(null);
        }}
      />
      {removing ? (
        <ConfirmDialog
          title={`Remove “${removing.title}”?`}
          confirmLabel="Remove"
          danger
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            const id = removing.id;
            const at = filtered.findIndex((d) => d.id === id);
            setRemoving(null);
            void removeDocument(id).then(() => setRefocusAt(Math.max(0, at)));
          }}
        >
          <p>It is taken out of this library and its search index. The file you imported from is not touched.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

function DocumentRow({
  doc,
  live,
  onRemove,
  onReplace,
  onRetry,
  fromPath,
}: {
  doc: DocumentSummary;
  live: FileProgress | undefined;
  onRemove: () => void;
  onReplace: () => void;
  /** Sends the file this window still holds again; absent when it holds none. */
  onRetry: (() => void) | undefined;
  /** Retry reads the file again from its path on this computer: a permanent failure is retried once the file is replaced there. */
  fromPath: boolean;
}) {
  const openInspector = useStore((s) => s.openInspector);
  const openViewer = useStore((s) => s.openViewer);
  const stage = live?.stage ?? doc.status;
  const ready = doc.status === 'ready';
  const advice = doc.status === 'failed' ? failureAdvice(doc.code, fromPath) : null;
  const retry = doc.status === 'failed' && !live && onRetry && offersRetry(doc.code, fromPath);
  return (
    <tr data-status={stage} data-doc={doc.id}>
      <td className="doc-cell">
        <span className="doc-title">{doc.title}</span>
        <span className="doc-id" title={doc.id}>
          {doc.id}
        </span>
      </td>
      <td>
        <span className={`status status-${stage}`}>
          {stageLabel(stage)}
          {live && stage !== 'ready' && stage !== 'failed' ? ` ${formatPercent(live.fraction)}` : ''}
        </span>
        {doc.status === 'failed' && doc.reason && !live ? <div className="reason">{doc.reason}</div> : null}
        {ready && doc.notice && !live ? (
          <div className="muted small" data-testid="doc-notice">
            {doc.notice}
          </div>
        ) : null}
        {advice && !live ? (
          <div className="muted small" data-testid="failure-advice">
            {advice}
          </div>
        ) : null}
      </td>
      <td className="num hide-narrow">{formatBytes(doc.sizeBytes)}</td>
      <td className="num" data-label="Pages">
        {doc.pageCount ?? '—'}
      </td>
      <td className="num hide-narrow">{ready ? doc.chunks : '—'}</td>
      <td className="models-cell">
        <span className="chips">
          {doc.models.slice(0, 4).map((m) => (
            <span key={m} className="chip chip-static">
              {m}
            </span>
          ))}
          {doc.models.length > 4 ? <span className="muted small">+{doc.models.length - 4}</span> : null}
        </span>
      </td>
      <td className="row-actions">
        {ready ? (
          <>
            <button type="button" className="btn btn-small" onClick={() => void openViewer({ doc: doc.id, title: doc.title, pages: doc.pageCount ? [1] : [], start: 0, end: 0, quote: '' })} aria-label={`Open ${doc.title}`}>
              <Icon name="doc" size={16} /> Open
            </button>
            <button type="button" className="btn btn-small" onClick={() => void openInspector(doc.id)} aria-label={`Inspect chunks of ${doc.title}`} data-action="chunks">
              <Icon name="chunks" size={16} /> Chunks
            </button>
          </>
        ) : null}
        {retry ? (
          <button type="button" className="btn btn-small" onClick={onRetry} aria-label={`Retry ${doc.title}`} title="Import the same file again">
            <Icon name="retry" size={16} /> Retry
          </button>
        ) : null}
        <button type="button" className="icon-btn" onClick={onReplace} aria-label={`Re-import ${doc.title}`} title={doc.status === 'failed' ? 'Re-import (choose the file again)' : 'Re-import a newer version'}>
          <Icon name="retry" size={16} />
        </button>
        <button type="button" className="icon-btn" onClick={onRemove} aria-label={`Remove ${doc.title}`} title="Remove from library" data-action="remove">
          <Icon name="trash" size={16} />
        </button>
      </td>
    </tr>
  );
}
