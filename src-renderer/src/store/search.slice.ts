import type { StateCreator } from 'zustand';
import type { LibrarySummary, SearchResponse } from '../../../src-main/contract/api';
import { retrieverFor } from '../../../src-main/core/vocabulary';
import { api } from '../api/client';
import type { Store } from './index';

/** How search ranks passages: keywords (BM25), meaning (dense vectors) or both fused (hybrid). */
export type Retriever = SearchResponse['retriever'];

/**
 * The retriever a search in `library` uses: keywords only without an embedder (nothing else can
 * work), otherwise the user's choice, hybrid by default since it keeps exact model numbers and part
 * codes (keywords) while also finding passages worded differently (meaning).
 */
export function effectiveRetriever(library: LibrarySummary | undefined, chosen: Retriever | null): Retriever {
  if (!library?.embedder) return retrieverFor(false);
  return chosen ?? retrieverFor(true);
}

/**
 * The search state that belongs to one library: its initial value, and what a library switch resets.
 * The models picked name the open library's models: kept across a switch, they limited the next
 * library's search to models it has no manual for (nothing found, and no chip left to unpick).
 * A search still running is the other library's: its answer is dropped, so it no longer runs here
 * (kept, "Searching…" and its tab stayed for good).
 */
export function searchLibraryState(): Pick<SearchSlice, 'searchResults' | 'searching' | 'searchError' | 'searchModels'> {
  return { searchResults: null, searching: false, searchError: null, searchModels: [] };
}

export interface SearchSlice {
  searchQuery: string;
  searchResults: SearchResponse | null;
  searching: boolean;
  searchError: string | null;
  /** Models search is limited to: its own scope, independent of the chat's model chips. */
  searchModels: string[];
  /** Adds or removes a model from the search scope and searches again when results are shown. */
  toggleSearchModel(model: string): void;
  clearSearchModels(): void;
  /** The retriever the user picked; null: the default (hybrid when the library has an embedder). */
  searchRetriever: Retriever | null;
  setSearchQuery(query: string): void;
  /** Picks the retriever and searches again when results are shown. */
  setSearchRetriever(retriever: Retriever): void;
  /** Searches the selected library (model-aware; the search's own model chips narrow it). */
  runSearch(): Promise<void>;
}

/**
 * Number of the last search sent. Searches overlap (Enter pressed again, another "Search by" or
 * model chip chosen while one runs) and may answer out of order: an older answer arriving last
 * would show results for a query or retriever the screen no longer names. It is dropped.
 */
let searchesAsked = 0;

export const createSearchSlice: StateCreator<Store, [], [], SearchSlice> = (set, get) => ({
  searchQuery: '',
  ...searchLibraryState(),
  searchRetriever: null,

  toggleSearchModel(model) {
    const current = get().searchModels;
    set({ searchModels: current.includes(model) ? current.filter((m) => m !== model) : [...current, model] });
    if (get().searchResults) void get().runSearch();
  },

  clearSearchModels() {
    set({ searchModels: [] });
    if (get().searchResults) void get().runSearch();
  },

  setSearchQuery(query) {
    set({ searchQuery: query });
  },

  setSearchRetriever(retriever) {
    set({ searchRetriever: retriever });
    if (get().searchResults) void get().runSearch();
  },

  async runSearch() {
    const library = get().selectedLibrary;
    const query = get().searchQuery.trim();
    if (!library || !query) return;
    const models = get().searchModels;
    const retriever = effectiveRetriever(
      get().libraries.find((l) => l.name === library),
      get().searchRetriever,
    );
    const asked = ++searchesAsked;
    set({ searching: true, searchError: null, view: 'search' });
    const res = await api['search.query']({ library, query, topK: 10, retriever, ...(models.length > 0 ? { models } : {}) });
    if (asked !== searchesAsked || get().selectedLibrary !== library) return;
    if (!res.ok) return set({ searching: false, searchError: res.error.message });
    set({ searching: false, searchResults: res.value });
  },
});
