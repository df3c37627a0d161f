import { create } from 'zustand';
import { createLibrarySlice, type LibrarySlice } from './library.slice';
import { createIngestSlice, type IngestSlice } from './ingest.slice';
import { createSettingsSlice, type SettingsSlice } from './settings.slice';
import { chatLibraryState, createChatSlice, type ChatSlice } from './chat.slice';
import { createInspectorSlice, inspectorLibraryState, type InspectorSlice } from './inspector.slice';
import { createViewerSlice, viewerLibraryState, type ViewerSlice } from './viewer.slice';
import { createSearchSlice, searchLibraryState, type SearchSlice } from './search.slice';
import { createUiSlice, type UiSlice } from './ui.slice';
import { createTeamSlice, type TeamSlice } from './team.slice';

/** Clears what belongs to the previously selected library. */
interface SessionSlice {
  resetForLibrary(): void;
}

/** One bound store made of slices (zustand's slices pattern); API calls live in slice actions. */
export type Store = LibrarySlice & IngestSlice & SettingsSlice & ChatSlice & InspectorSlice & ViewerSlice & SearchSlice & UiSlice & TeamSlice & SessionSlice;

export const useStore = create<Store>()((...a) => ({
  ...createLibrarySlice(...a),
  ...createIngestSlice(...a),
  ...createSettingsSlice(...a),
  ...createChatSlice(...a),
  ...createInspectorSlice(...a),
  ...createViewerSlice(...a),
  ...createSearchSlice(...a),
  ...createUiSlice(...a),
  ...createTeamSlice(...a),
  resetForLibrary() {
    const [set, get] = a;
    set({
      ...chatLibraryState(),
      ...inspectorLibraryState(),
      ...viewerLibraryState(),
      ...searchLibraryState(),
      ...(get().view === 'inspector' || get().view === 'search' ? { view: 'documents' as const } : {}),
    });
  },
}));
