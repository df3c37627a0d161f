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
  /** `keepSearch`: the Search screen stays (its search about to run again) instead of giving way to Documents. */
  resetForLibrary(keepSearch?: boolean): void;
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
  resetForLibrary(keepSearch = false) {
    const [set, get] = a;
    const view = get().view;
    set({
      ...chatLibraryState(),
      ...inspectorLibraryState(),
      ...viewerLibraryState(),
      ...searchLibraryState(),
      ...(view === 'inspector' || (view === 'search' && !keepSearch) ? { view: 'documents' as const } : {}),
    });
  },
}));
