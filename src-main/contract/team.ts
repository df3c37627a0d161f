import { z } from 'zod';

/** The contract's types and input fields for team libraries (publish, subscribe, sync), kept beside api.ts. */

/** `s3://bucket/prefix` (the engine checks the bucket name and prefix parts). */
export const remoteUrl = z.string().trim().max(1024).regex(/^s3:\/\/[^/\s]+(\/\S*)?$/, 'Use an object-storage address like s3://bucket/prefix.');
/** A settings text field: a value, or null (or an empty string) to clear it. */
export const settingText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .transform((v) => (v === '' ? null : v));

/** Where a subscribed library comes from and how current this computer's copy is (stored in its library.json). */
export interface SubscriptionState {
  /** `s3://bucket/prefix`; credentials and endpoint are never stored with a library. */
  source: string;
  /** The published version this copy holds, and when it was published and synced (ISO). */
  version: number;
  publishedAt: string;
  syncedAt: string;
  /** The last look at the bucket (ISO), null before the first; `latestVersion` is what it showed. */
  checkedAt: string | null;
  latestVersion: number | null;
  /** Why the last look failed (offline, credentials refused), in words; null when it worked. */
  checkError: string | null;
}

/** A subscribed library's state as the contract shows it. */
export interface LibrarySubscription extends SubscriptionState {
  /** True when the bucket holds a newer version than this copy: `libraries.sync` fetches it. */
  newerAvailable: boolean;
}

/** What `libraries.publish` did: the version it made and what it uploaded. */
export interface PublishSummary {
  library: string;
  destination: string;
  version: number;
  files: number;
  uploadedFiles: number;
  uploadedBytes: number;
}

/** What `libraries.subscribe` / `libraries.sync` did: `changed` is false when the copy was current. */
export interface SyncSummary {
  library: string;
  source: string;
  version: number;
  previousVersion: number | null;
  changed: boolean;
  fetchedFiles: number;
  fetchedBytes: number;
  reusedFiles: number;
}

/** The object-storage settings as the UI sees them: the secret key never leaves the engine. */
export interface RemoteSettingsView {
  endpoint: string | null;
  region: string | null;
  accessKeyId: string | null;
  secretSet: boolean;
}
