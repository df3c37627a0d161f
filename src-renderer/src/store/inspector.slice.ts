import type { StateCreator } from 'zustand';
import type { ChunkDetail } from '../../../src-main/contract/api';
import { api } from '../api/client';
import type { Store } from './index';

export type InspectorColor = 'model' | 'category';

/** The inspector state that belongs to one library: its initial value, and what a library switch resets. */
export function inspectorLibraryState(): Pick<InspectorSlice, 'inspectorDoc' | 'chunks' | 'selectedChunk' | 'inspectorError'> {
  return { inspectorDoc: null, chunks: [], selectedChunk: null, inspectorError: null };
}

export interface InspectorSlice {
  /** Document whose chunks are shown; null when the inspector is closed. */
  inspectorDoc: string | null;
  chunks: ChunkDetail[];
  chunksLoading: boolean;
  /** Index into `chunks` of the selected chunk. */
  selectedChunk: number | null;
  inspectorColor: InspectorColor;
  inspectorError: string | null;
  openInspector(docId: string): Promise<void>;
  closeInspector(): void;
  selectChunk(index: number | null): void;
  setInspectorColor(color: InspectorColor): void;
}

export const createInspectorSlice: StateCreator<Store, [], [], InspectorSlice> = (set, get) => ({
  ...inspectorLibraryState(),
  chunksLoading: false,
  inspectorColor: 'model',

  async openInspector(docId) {
    const library = get().selectedLibrary;
    if (!library) return;
    set({ inspectorDoc: docId, chunks: [], chunksLoading: true, selectedChunk: null, inspectorError: null, view: 'inspector' });
    const res = await api['documents.chunks']({ library, id: docId });
    if (get().inspectorDoc !== docId) return;
    if (!res.ok) return set({ chunksLoading: false, inspectorError: res.error.message });
    const chunks = [...res.value].sort((a, b) => a.ordinal - b.ordinal);
    set({ chunks, chunksLoading: false, selectedChunk: chunks.length > 0 ? 0 : null });
  },

  closeInspector() {
    set({ inspectorDoc: null, chunks: [], selectedChunk: null, inspectorError: null, ...(get().view === 'inspector' ? { view: 'documents' as const } : {}) });
  },

  selectChunk(index) {
    set({ selectedChunk: index });
  },

  setInspectorColor(color) {
    set({ inspectorColor: color });
  },
});
