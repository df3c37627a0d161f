import type { KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useStore } from '../store';
import { effectiveRetriever, type Retriever } from '../store/search.slice';
import { formatPages, markedParts, plainText } from '../util/format';
import { EmbeddingStatus } from './IndexStatus';
import { ModelChips } from './ModelChips';
import { RadioGroup, type RadioChoice } from './RadioGroup';

const RETRIEVERS: RadioChoice<Retriever>[] = [
  { value: 'hybrid', label: 'Both', hint: 'Keywords and meaning combined: finds exact part numbers and passages worded differently.' },
  { value: 'dense', label: 'Meaning', hint: 'By meaning only: finds passages that say the same thing in other words.' },
  { value: 'bm25', label: 'Keywords', hint: 'By keywords only (BM25): the words and numbers you typed.' },
];

const RETRIEVER_NAME: Record<Retriever, string> = { hybrid: 'keywords + meaning', dense: 'meaning', bm25: 'keywords' };

/** What a search came to, in words for a screen reader, and how to reach the results from the search box. */
function outcome(found: number, query: string): string {
  if (found === 0) return `No passage matches “${query}”.`;
  return `${found === 1 ? '1 passage' : `${found} passages`} found for “${query}”. Down arrow moves to the first result.`;
}

const RESULT = '[data-testid="search-view"] .result-open';

/**
 * Shows the search results (they may be behind another screen) and focuses the first; false when
 * there is none to focus. Called from the header's search box on Down.
 */
export function focusFirstResult(): boolean {
  const s = useStore.getState();
  if (s.searching || !s.searchResults || s.searchResults.results.length === 0) return false;
  const first = document.querySelector<HTMLElement>(RESULT);
  if (first) {
    first.focus();
    return true;
  }
  s.setView('search');
  requestAnimationFrame(() => document.querySelector<HTMLElement>(RESULT)?.focus());
  return true;
}

/**
 * Up and Down move between the results (each one Tab stop too), Home and End to the first and last;
 * Up from the first goes back to the search box, where the query can be changed. Enter opens one.
 */
function moveInResults(e: ReactKeyboardEvent<HTMLOListElement>) {
  if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  const results = [...e.currentTarget.querySelectorAll<HTMLElement>('.result-open')];
  const at = results.indexOf(document.activeElement as HTMLElement);
  if (at < 0) return;
  const to = { ArrowDown: Math.min(at + 1, results.length - 1), ArrowUp: at - 1, Home: 0, End: results.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  if (to < 0) document.getElementById('global-search')?.focus();
  else results[to]!.focus();
}

/** Search results: the passages that match, best first, each opening the source at its page. */
export function SearchView() {
  const results = useStore((s) => s.searchResults);
  const searching = useStore((s) => s.searching);
  const searchError = useStore((s) => s.searchError);
  const runSearch = useStore((s) => s.runSearch);
  const openViewer = useStore((s) => s.openViewer);
  const modelFilter = useStore((s) => s.searchModels);
  const library = useStore((s) => s.libraries.find((l) => l.name === s.selectedLibrary));
  const chosen = useStore((s) => s.searchRetriever);
  const setSearchRetriever = useStore((s) => s.setSearchRetriever);
  const retriever = effectiveRetriever(library, chosen);
  // Nothing can match in a library with no readable document: saying "try other words" misleads.
  const nothingToSearch = useStore((s) => s.documentsOf === s.selectedLibrary && !s.documents.some((d) => d.status === 'ready'));

  return (
    <section className="search-view" aria-labelledby="search-heading" data-testid="search-view">
      <div className="view-header">
        <div>
          <h2 id="search-heading">{results ? `Results for “${results.query}”` : 'Search'}</h2>
          {results ? (
            <p className="muted small" data-testid="results-meta" data-retriever={results.retriever}>
              {results.results.length === 1 ? '1 passage' : `${results.results.length} passages`}
              {results.resolvedModels.length > 0 ? ` · for model ${results.resolvedModels.join(', ')}` : ''}
              {modelFilter.length > 0 ? ` · limited to ${modelFilter.join(', ')}` : ''}
              {` · by ${RETRIEVER_NAME[results.retriever]}`}
            </p>
          ) : null}
        </div>
      </div>
      {library?.embedder ? (
        <div className="retriever" data-testid="retriever-choice">
          <RadioGroup label="Search by" choices={RETRIEVERS} value={retriever} onChange={setSearchRetriever} />
          <span className="muted small">{RETRIEVERS.find((r) => r.value === retriever)?.hint}</span>
          <EmbeddingStatus library={library.name} />
        </div>
      ) : library ? (
        <p className="muted small" data-testid="keyword-search-note">
          Search is by keywords: passages that contain the words and numbers you type. Choosing an embedding model for this library in Settings enables
          meaning-based search, which also finds passages worded differently.
        </p>
      ) : null}
      <div className="search-chips">
        <ModelChips scope="search" />
        {results ? (
          <button type="button" className="btn btn-small" onClick={() => void runSearch()}>
            Search again
          </button>
        ) : null}
      </div>
      {/* Focus stays in the header's box after a search: this live region says what came of it.
          It stays in the page between searches (a region added with its text is not read out);
          the outcome is for screen readers only, the header above shows it to the eye. */}
      <p role="status" className={searching ? 'muted' : 'visually-hidden'} data-testid="search-status">
        {searching ? 'Searching…' : results ? outcome(results.results.length, results.query) : ''}
      </p>
      {searchError ? (
        <p className="error" role="alert">
          {searchError}
        </p>
      ) : null}
      {results && results.results.length === 0 ? (
        <p className="muted" data-testid="no-results">
          {nothingToSearch
            ? `${library?.name ?? 'This library'} has no document ready to search yet: import manuals on the Documents screen first.`
            : 'Nothing matches. Try other words, or the model number as printed on the label.'}
        </p>
      ) : null}
      {!results && !searching ? <p className="muted">Type in the search box above and press Enter (Ctrl+K jumps there), then Down arrow to the results.</p> : null}
      <ol className="results" onKeyDown={moveInResults}>
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
            <p className="result-snippet">
              {markedParts(plainText(hit.snippet), results.highlight).map((part, i) => (part.marked ? <mark key={i}>{part.text}</mark> : part.text))}
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}
