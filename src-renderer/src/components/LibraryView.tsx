import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../store';

/** The selected library's documents, or the first-run explanation when there is none. */
export function LibraryView() {
  const { selectedLibrary, documents, documentFilter, librariesLoaded } = useStore(
    useShallow((s) => ({ selectedLibrary: s.selectedLibrary, documents: s.documents, documentFilter: s.documentFilter, librariesLoaded: s.librariesLoaded })),
  );
  const setDocumentFilter = useStore((s) => s.setDocumentFilter);
  const filtered = useMemo(() => {
    const q = documentFilter.trim().toLowerCase();
    if (!q) return documents;
    return documents.filter((d) => d.id.toLowerCase().includes(q) || d.title.toLowerCase().includes(q) || d.models.some((m) => m.toLowerCase().includes(q)));
  }, [documents, documentFilter]);

  if (!librariesLoaded) return <p className="muted">Loading…</p>;
  if (!selectedLibrary) {
    return (
      <section className="empty-state" data-testid="first-run">
        <h2>Welcome to ManualMate</h2>
        <p>Create a library on the left, then drag manuals (PDF, Word, HTML, Markdown or text files, or whole folders) onto this window.</p>
        <p>Ask questions about a specific model and get the answer for that model, with the page to check it on.</p>
        <p className="muted">Everything stays on this computer. Without a language model in Settings › Models, answers are extracted word for word from your manuals.</p>
      </section>
    );
  }
  return (
    <section className="library-view">
      <div className="library-view-header">
        <h2>{selectedLibrary}</h2>
        <input
          type="search"
          className="doc-filter"
          aria-label="Filter documents"
          placeholder="Filter documents…"
          value={documentFilter}
          onChange={(e) => setDocumentFilter(e.target.value)}
        />
      </div>
      {documents.length === 0 ? (
        <p className="muted" data-testid="no-documents">
          This library is empty. Drag manuals onto the window to import them.
        </p>
      ) : (
        <table className="doc-table" data-testid="document-table">
          <thead>
            <tr>
              <th scope="col">Document</th>
              <th scope="col">Status</th>
              <th scope="col">Pages</th>
              <th scope="col">Models</th>
            </tr>
          </thead>
          <tbody>
            {filtered.map((d) => (
              <tr key={d.id} data-status={d.status}>
                <td title={d.id}>{d.title}</td>
                <td>
                  <span className={`status status-${d.status}`}>{d.status}</span>
                  {d.reason ? <div className="reason">{d.reason}</div> : null}
                </td>
                <td>{d.pageCount ?? '—'}</td>
                <td>{d.models.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
