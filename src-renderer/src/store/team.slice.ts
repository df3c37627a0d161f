import type { StateCreator } from 'zustand';
import type { RemoteSettingsView } from '../../../src-main/contract/api';
import { api } from '../api/client';
import type { Store } from './index';

/** Team libraries: object-storage settings, publishing the selected library, subscribing, syncing. */
export interface TeamSlice {
  /** What a team action is doing now ('publish', 'subscribe', 'sync', 'check', 'save'), null when idle. */
  teamBusy: string | null;
  /** The outcome of the last team action in words; `teamError` when it failed. */
  teamMessage: string | null;
  teamError: string | null;
  saveRemoteSettings(settings: { endpoint: string; region: string; accessKeyId: string; secretAccessKey?: string }): Promise<void>;
  /**
   * Removes the key pair stored on this computer: the access key with its secret (a key pair comes
   * from one place, so a stored access key alone would still shut out the AWS_* variables, which
   * apply again); endpoint and region stay.
   */
  forgetRemoteKeys(): Promise<void>;
  publishLibrary(library: string, to: string): Promise<void>;
  subscribeLibrary(source: string, library: string): Promise<void>;
  syncLibrary(library: string): Promise<void>;
  checkRemote(library: string): Promise<void>;
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export const createTeamSlice: StateCreator<Store, [], [], TeamSlice> = (set, get) => {
  /** Runs one team action at a time; the engine's refusal or the outcome lands in the message. */
  async function run(what: string, action: () => Promise<string | { error: string }>) {
    set({ teamBusy: what, teamMessage: null, teamError: null });
    try {
      const outcome = await action();
      if (typeof outcome === 'string') set({ teamMessage: outcome });
      else set({ teamError: outcome.error });
    } finally {
      set({ teamBusy: null });
    }
  }

  return {
    teamBusy: null,
    teamMessage: null,
    teamError: null,

    saveRemoteSettings: (s) =>
      run('save', async () => {
        const res = await api['settings.remote']({ endpoint: s.endpoint, region: s.region, accessKeyId: s.accessKeyId, ...(s.secretAccessKey ? { secretAccessKey: s.secretAccessKey } : {}) });
        if (!res.ok) return { error: res.error.message };
        set({ appSettings: res.value });
        return 'Object-storage settings saved.';
      }),

    forgetRemoteKeys: () =>
      run('forget', async () => {
        const r = remoteOf(get().appSettings);
        const res = await api['settings.remote']({ endpoint: r.endpoint, region: r.region, accessKeyId: null, secretAccessKey: null });
        if (!res.ok) return { error: res.error.message };
        set({ appSettings: res.value });
        return 'The stored keys were removed from this computer; the AWS_* environment variables apply again.';
      }),

    publishLibrary: (library, to) =>
      run('publish', async () => {
        const res = await api['libraries.publish']({ library, to });
        if (!res.ok) return { error: res.error.message };
        const p = res.value;
        return `Published “${p.library}” as version ${p.version} of ${p.destination}: ${p.uploadedFiles} of ${p.files} files uploaded (${mb(p.uploadedBytes)}).`;
      }),

    subscribeLibrary: (source, library) =>
      run('subscribe', async () => {
        const res = await api['libraries.subscribe']({ source, library });
        if (!res.ok) return { error: res.error.message };
        await get().loadLibraries();
        await get().selectLibrary(res.value.library);
        return `Subscribed “${res.value.library}” to ${res.value.source}: version ${res.value.version}, ${res.value.fetchedFiles} files (${mb(res.value.fetchedBytes)}).`;
      }),

    syncLibrary: (library) =>
      run('sync', async () => {
        const res = await api['libraries.sync']({ library });
        await get().loadLibraries();
        if (!res.ok) return { error: res.error.message };
        const s = res.value;
        if (!s.changed) return `“${s.library}” is up to date (version ${s.version}).`;
        if (get().selectedLibrary === library) await get().loadDocuments();
        return `“${s.library}” now holds version ${s.version}: ${s.fetchedFiles} files fetched (${mb(s.fetchedBytes)}), ${s.reusedFiles} kept.`;
      }),

    checkRemote: (library) =>
      run('check', async () => {
        const res = await api['libraries.checkRemote']({ library });
        await get().loadLibraries();
        if (!res.ok) return { error: res.error.message };
        const sub = res.value.subscription;
        if (sub?.checkError) return { error: sub.checkError };
        return sub?.newerAvailable ? `Version ${sub.latestVersion} is available.` : `“${library}” is up to date.`;
      }),
  };
};

/** The object-storage settings as loaded, or empty ones before they are. */
export function remoteOf(settings: { remote?: RemoteSettingsView } | null): RemoteSettingsView {
  return settings?.remote ?? { endpoint: null, region: null, accessKeyId: null, secretSet: false };
}
