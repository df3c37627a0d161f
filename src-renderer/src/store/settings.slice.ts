import type { StateCreator } from 'zustand';
import type { AppInfo, AppSettings, ChunkStrategy, EnrichMode, ModelSummary } from '../../../src-main/contract/api';
import { api } from '../api/client';
import type { Store } from './index';

export interface SettingsSlice {
  appInfo: AppInfo | null;
  models: ModelSummary[];
  modelsLoaded: boolean;
  /** App settings (the chat model); null until loaded or when the engine has no settings yet. */
  appSettings: AppSettings | null;
  settingsError: string | null;
  /** The library whose configuration is being saved (strategy changes re-chunk everything). */
  configuring: string | null;
  loadAppInfo(): Promise<void>;
  loadModels(): Promise<void>;
  loadSettings(): Promise<void>;
  setChatModel(model: string | null): Promise<void>;
  /** Saves a library setting; a new `embedder` (null: keyword search only) re-embeds the library in the background. */
  configureLibrary(library: string, change: { strategy?: ChunkStrategy; enrich?: EnrichMode; embedder?: string | null }): Promise<void>;
}

export const createSettingsSlice: StateCreator<Store, [], [], SettingsSlice> = (set, get) => ({
  appInfo: null,
  models: [],
  modelsLoaded: false,
  appSettings: null,
  settingsError: null,
  configuring: null,

  async loadAppInfo() {
    const res = await api['app.info']({});
    if (res.ok) set({ appInfo: res.value });
    else set({ settingsError: res.error.message });
  },

  async loadModels() {
    const res = await api['models.list']({});
    if (res.ok) set({ models: res.value, modelsLoaded: true });
    else set({ settingsError: res.error.message, modelsLoaded: true });
  },

  async loadSettings() {
    const res = await api['settings.get']({});
    if (res.ok) set({ appSettings: res.value });
  },

  async setChatModel(model) {
    const res = await api['settings.update']({ chatModel: model });
    if (!res.ok) return set({ settingsError: res.error.message });
    // The reply carries the chat model; the object-storage settings are kept as loaded.
    set({ appSettings: { ...get().appSettings, ...res.value }, settingsError: null });
    // The engine restarts LLM enrichment with the new model; "needs a chat model" no longer holds.
    if (model !== null) for (const library of Object.keys(get().indexProgress)) if (get().indexProgress[library]?.enriching?.error) get().clearIndexProgress(library, 'enriching');
    void get().loadModels();
  },

  async configureLibrary(library, change) {
    set({ configuring: library, settingsError: null });
    // A report about the old setting (e.g. "needs a chat model") would mislead once it changed.
    if (change.enrich !== undefined) get().clearIndexProgress(library, 'enriching');
    if (change.embedder !== undefined) get().clearIndexProgress(library, 'embedding');
    const res = await api['libraries.configure']({ library, ...change });
    set({ configuring: null });
    if (!res.ok) return set({ settingsError: res.error.message });
    // Choosing an embedder loads it: the models table shows its new state.
    if (change.embedder) void get().loadModels();
    await get().loadLibraries();
  },
});
