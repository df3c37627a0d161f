import type { StateCreator } from 'zustand';
import type { AppInfo, ModelSummary } from '../../../src-main/contract/api';
import { api } from '../api/client';
import type { Store } from './index';

export interface SettingsSlice {
  appInfo: AppInfo | null;
  models: ModelSummary[];
  settingsError: string | null;
  loadAppInfo(): Promise<void>;
  loadModels(): Promise<void>;
}

export const createSettingsSlice: StateCreator<Store, [], [], SettingsSlice> = (set) => ({
  appInfo: null,
  models: [],
  settingsError: null,
  async loadAppInfo() {
    const res = await api['app.info']({});
    if (res.ok) set({ appInfo: res.value });
    else set({ settingsError: res.error.message });
  },
  async loadModels() {
    const res = await api['models.list']({});
    if (res.ok) set({ models: res.value });
    else set({ settingsError: res.error.message });
  },
});
