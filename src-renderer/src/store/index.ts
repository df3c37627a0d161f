import { create } from 'zustand';
import { createLibrarySlice, type LibrarySlice } from './library.slice';
import { createIngestSlice, type IngestSlice } from './ingest.slice';
import { createSettingsSlice, type SettingsSlice } from './settings.slice';

/** One bound store made of slices (zustand's slices pattern); API calls live in slice actions. */
export type Store = LibrarySlice & IngestSlice & SettingsSlice;

export const useStore = create<Store>()((...a) => ({
  ...createLibrarySlice(...a),
  ...createIngestSlice(...a),
  ...createSettingsSlice(...a),
}));
