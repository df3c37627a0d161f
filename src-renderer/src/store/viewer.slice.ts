import type { StateCreator } from 'zustand';
import type { DocumentOriginal, DocumentSource } from '../../../src-main/contract/api';
import { api } from '../api/client';
import type { Store } from './index';

/** What the source viewer shows: a document, the page to land on and the passage to highlight. */
export interface ViewerTarget {
  doc: string;
  title: string;
  /** Pages of the passage (1-based); empty for formats without pages. */
  pages: number[];
  /** Offsets of the passage in the document's normalized text, end exclusive. */
  start: number;
  end: number;
  quote: string;
  /**
   * The answer line whose chip opened the viewer, as the answer shows it: marked more strongly
   * inside the passage and scrolled to when the viewer finds it there; absent for other chips.
   */
  line?: string;
}

/** The viewer state that belongs to one library: its initial value, and what a library switch resets. */
export function viewerLibraryState(): Pick<ViewerSlice, 'viewer' | 'source' | 'original' | 'viewerError'> {
  return { viewer: null, source: null, original: null, viewerError: null };
}

export interface ViewerSlice {
  viewer: ViewerTarget | null;
  /** The page on screen in the PDF view (1-based). */
  viewerPage: number;
  /** `page`: the original PDF drawn by pdf.js; `text`: the normalized text as Markdown. */
  viewerMode: 'page' | 'text';
  source: DocumentSource | null;
  original: DocumentOriginal | null;
  viewerLoading: boolean;
  viewerError: string | null;
  openViewer(target: ViewerTarget): Promise<void>;
  closeViewer(): void;
  setViewerPage(page: number): void;
  setViewerMode(mode: 'page' | 'text'): void;
}

export const createViewerSlice: StateCreator<Store, [], [], ViewerSlice> = (set, get) => ({
  ...viewerLibraryState(),
  viewerPage: 1,
  viewerMode: 'page',
  viewerLoading: false,

  async openViewer(target) {
    const library = get().selectedLibrary;
    if (!library) return;
    const sameDoc = get().source?.id === target.doc;
    set({ viewer: target, viewerPage: target.pages[0] ?? 1, viewerError: null, ...(sameDoc ? {} : { source: null, original: null, viewerLoading: true }) });
    if (sameDoc) return;
    const source = await api['documents.source']({ library, id: target.doc });
    if (get().viewer?.doc !== target.doc) return;
    if (!source.ok) return set({ viewerLoading: false, viewerError: source.error.message });
    let original: DocumentOriginal | null = null;
    if (source.value.format === 'pdf') {
      const res = await api['documents.original']({ library, id: target.doc });
      if (get().viewer?.doc !== target.doc) return;
      // Without the original the text view still shows the passage; say why the page view is missing.
      if (res.ok) original = res.value;
      else set({ viewerError: res.error.message });
    }
    set({ source: source.value, original, viewerLoading: false, viewerMode: original ? 'page' : 'text' });
  },

  closeViewer() {
    set({ viewer: null, source: null, original: null, viewerError: null, viewerLoading: false });
  },

  setViewerPage(page) {
    set({ viewerPage: page });
  },

  setViewerMode(mode) {
    set({ viewerMode: mode });
  },
});
