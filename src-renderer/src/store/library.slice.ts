import type { StateCreator } from 'zustand';
import type { DocumentSummary, LibrarySummary } from '../../../src-main/contract/api';
import { api } from '../api/client';
import type { Store } from './index';

export interface LibrarySlice {
  libraries: LibrarySummary[];
  librariesLoaded: boolean;
  selectedLibrary: string | null;
  documents: DocumentSummary[];
  documentFilter: string;
  /** Last error from a library action, in words; null when none. */
  libraryError: string | null;
  loadLibraries(): Promise<void>;
  selectLibrary(name: string | null): Promise<void>;
  createLibrary(name: string): Promise<boolean>;
  renameLibrary(library: string, name: string): Promise<boolean>;
  deleteLibrary(library: string): Promise<boolean>;
  loadDocuments(): Promise<void>;
  removeDocument(id: string): Promise<void>;
  setDocumentFilter(filter: string): void;
  clearLibraryError(): void;
}

export const createLibrarySlice: StateCreator<Store, [], [], LibrarySlice> = (set, get) => ({
  libraries: [],
  librariesLoaded: false,
  selectedLibrary: null,
  documents: [],
  documentFilter: '',
  libraryError: null,

  async loadLibraries() {
    const res = await api['libraries.list']({});
    if (!res.ok) return set({ libraryError: res.error.message, librariesLoaded: true });
    const selected = get().selectedLibrary;
    const stillThere = selected !== null && res.value.some((l) => l.name === selected);
    set({ libraries: res.value, librariesLoaded: true, selectedLibrary: stillThere ? selected : (res.value[0]?.name ?? null) });
    if (!stillThere) await get().loadDocuments();
  },

  async selectLibrary(name) {
    set({ selectedLibrary: name, documents: [], documentFilter: '' });
    await get().loadDocuments();
  },

  async createLibrary(name) {
    const res = await api['libraries.create']({ name });
    if (!res.ok) {
      set({ libraryError: res.error.message });
      return false;
    }
    await get().loadLibraries();
    await get().selectLibrary(res.value.name);
    return true;
  },

  async renameLibrary(library, name) {
    const res = await api['libraries.rename']({ library, name });
    if (!res.ok) {
      set({ libraryError: res.error.message });
      return false;
    }
    if (get().selectedLibrary === library) set({ selectedLibrary: res.value.name });
    await get().loadLibraries();
    return true;
  },

  async deleteLibrary(library) {
    const res = await api['libraries.delete']({ library });
    if (!res.ok) {
      set({ libraryError: res.error.message });
      return false;
    }
    if (get().selectedLibrary === library) set({ selectedLibrary: null });
    await get().loadLibraries();
    return true;
  },

  async loadDocuments() {
    const library = get().selectedLibrary;
    if (!library) return set({ documents: [] });
    const res = await api['documents.list']({ library });
    if (get().selectedLibrary !== library) return;
    if (!res.ok) return set({ libraryError: res.error.message });
    set({ documents: res.value });
  },

  async removeDocument(id) {
    const library = get().selectedLibrary;
    if (!library) return;
    const res = await api['documents.remove']({ library, id });
    if (!res.ok) set({ libraryError: res.error.message });
    await get().loadDocuments();
    await get().loadLibraries();
  },

  setDocumentFilter(filter) {
    set({ documentFilter: filter });
  },

  clearLibraryError() {
    set({ libraryError: null });
  },
});
