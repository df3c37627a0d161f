import { useStore } from '../store';
import { formatPages, plainText } from '../util/format';
import { ModelChips } from './ModelChips';

/** Search results: the passages that match, best first, each opening the source at its page. */
export function SearchView() {
  const results = useStore((s) => s.searchResults);
  const searching = useStore((s) => s.searching);
  const searchError = useStore((s) => s.searchError);
  const runSearch = useStore((s) => s.runSearch);
  const openViewer = useStore((s) => s.openViewer);
  const modelFilter = useStore((s) => s.modelFilter);

  return (
    <section className="search-view" aria-labelledby="search-heading" data-testid="search-view">
      <div className="view-header">
        <div>
          <h2 id="search-heading">{results ? `Results for “${results.query}”` : 'Search'}</h2>
          {results ? (
            <p className="muted small">
              {results.results.length === 1 ? '1 passage' : `${results.results.length} passages`}
              {results.resolvedModels.length > 0 ? ` · for model ${results.resolvedModels.join(', ')}` : ''}
              {modelFilter.length > 0 ? ` · limited to ${modelFilter.join(', ')}` : ''}
            </p>
          ) : null}
        </div>
      </div>
      <div className="search-chips">
        <ModelChips />
        {results ? (
          <button type="button" className="btn btn-small" onClick={() => void runSearch()}>
            Search again
          </button>
        ) : null}
      </div>
      {searching ? <p className="muted">Searching…</p> : null}
      {searchError ? (
        <p className="error" role="alert">
          {searchError}
        </p>
      ) : null}
      {results && results.results.length === 0 ? <p className="muted">Nothing matches. Try other words, or the model number as printed on the label.</p> : null}
      {!results && !searching ? <p className="muted">Type in the search box above and press Enter (Ctrl+K jumps there).</p> : null}
      <ol className="results">
        {results?.results.map((hit) => (
          <li key={hit.chunkId} className="result">
            <button
              type="button"
              className="result-open"
              onClick={() => void openViewer({ doc: hit.doc, title: hit.title, pages: hit.pages, start: hit.start, end: hit.end, quote: hit.text })}
            >
              <span className="result-title">{hit.title}</span>
              <span className="muted small">{[formatPages(hit.pages), hit.headingPath.join(' › '), hit.doc].filter(Boolean).join(' · ')}</span>
            </button>
            {hit.signature.model ? <span className="chip chip-static chip-model">{hit.signature.model}</span> : null}
            <p className="result-snippet">{plainText(hit.snippet)}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
