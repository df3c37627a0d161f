import type { StateCreator } from 'zustand';
import type { SearchResponse } from '../../../src-main/contract/api';
import { api } from '../api/client';
import type { Store } from './index';

export interface SearchSlice {
  searchQuery: string;
  searchResults: SearchResponse | null;
  searching: boolean;
  searchError: string | null;
  setSearchQuery(query: string): void;
  /** Searches the selected library (BM25, model-aware; the model filter chips narrow it). */
  runSearch(): Promise<void>;
}

export const createSearchSlice: StateCreator<Store, [], [], SearchSlice> = (set, get) => ({
  searchQuery: '',
  searchResults: null,
  searching: false,
  searchError: null,

  setSearchQuery(query) {
    set({ searchQuery: query });
  },

  async runSearch() {
    const library = get().selectedLibrary;
    const query = get().searchQuery.trim();
    if (!library || !query) return;
    const models = get().modelFilter;
    set({ searching: true, searchError: null, view: 'search' });
    const res = await api['search.query']({ library, query, topK: 10, ...(models.length > 0 ? { models } : {}) });
    if (get().selectedLibrary !== library) return;
    if (!res.ok) return set({ searching: false, searchError: res.error.message });
    set({ searching: false, searchResults: res.value });
  },
});
