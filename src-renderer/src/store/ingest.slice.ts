import type { StateCreator } from 'zustand';
import type { DocumentStatus, EngineEvent, ImportSummary } from '../../../src-main/contract/api';
import { api } from '../api/client';
import type { Store } from './index';

export interface FileProgress {
  file: string;
  stage: DocumentStatus;
  fraction: number;
  reason?: string;
}

export interface ImportJob {
  jobId: string;
  library: string;
  files: Record<string, FileProgress>;
  done: number;
  total: number;
  summary: ImportSummary | null;
  /** The paths this job was started with, for "retry". */
  paths: string[];
}

export interface IngestSlice {
  jobs: ImportJob[];
  ingestError: string | null;
  startImport(library: string, paths: string[]): Promise<void>;
  cancelImport(jobId: string): Promise<void>;
  dismissJob(jobId: string): void;
  handleEngineEvent(event: EngineEvent): void;
}

export const createIngestSlice: StateCreator<Store, [], [], IngestSlice> = (set, get) => ({
  jobs: [],
  ingestError: null,

  async startImport(library, paths) {
    const res = await api['import.start']({ library, paths });
    if (!res.ok) return set({ ingestError: res.error.message });
    set((s) => ({ ingestError: null, jobs: [...s.jobs, { jobId: res.value.jobId, library, files: {}, done: 0, total: 0, summary: null, paths }] }));
  },

  async cancelImport(jobId) {
    await api['import.cancel']({ jobId });
  },

  dismissJob(jobId) {
    set((s) => ({ jobs: s.jobs.filter((j) => j.jobId !== jobId) }));
  },

  handleEngineEvent(event) {
    if (event.type === 'import.progress') {
      set((s) => ({
        jobs: s.jobs.map((j) =>
          j.jobId !== event.jobId
            ? j
            : {
                ...j,
                done: event.done,
                total: event.total,
                files: { ...j.files, [event.file]: { file: event.file, stage: event.stage, fraction: event.fraction, ...(event.reason ? { reason: event.reason } : {}) } },
              },
        ),
      }));
    } else if (event.type === 'import.done') {
      set((s) => ({ jobs: s.jobs.map((j) => (j.jobId === event.jobId ? { ...j, summary: event.summary } : j)) }));
      if (event.library === get().selectedLibrary) void get().loadDocuments();
      void get().loadLibraries();
    } else if (event.type === 'library.changed') {
      if (event.library === get().selectedLibrary) void get().loadDocuments();
    }
  },
});
