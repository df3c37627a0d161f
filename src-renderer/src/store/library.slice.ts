import type { StateCreator } from 'zustand';
import type { DocumentSummary, EngineEvent, LibrarySummary } from '../../../src-main/contract/api';
import { api } from '../api/client';
import type { Store } from './index';

/** Background work upgrading a library's chunks (embedding, LLM enrichment, an index rebuild); search keeps working. */
export type IndexProgress = Omit<Extract<EngineEvent, { type: 'index.progress' }>, 'type'>;

/** Background task kinds the engine reports on. */
export type IndexTask = IndexProgress['task'];

export interface LibrarySlice {
  libraries: LibrarySummary[];
  librariesLoaded: boolean;
  selectedLibrary: string | null;
  documents: DocumentSummary[];
  /** The library `documents` belongs to (null before the first load). */
  documentsOf: string | null;
  documentFilter: string;
  /** Last error from a library action, in words; null when none. */
  libraryError: string | null;
  /** What changed under this window without its asking (the open library deleted elsewhere), in words; null when none. */
  libraryNotice: string | null;
  dismissLibraryNotice(): void;
  /** Latest background-indexing report per library name and task (embedding and enrichment run one after the other; a rebuild replaces the index). */
  indexProgress: Record<string, Partial<Record<IndexTask, IndexProgress>>>;
  handleIndexProgress(event: Extract<EngineEvent, { type: 'index.progress' }>): void;
  /** Forgets a task's last report (its setting changed, so an old error no longer applies). */
  clearIndexProgress(library: string, task: IndexTask): void;
  /**
   * Libraries whose rebuild was asked for in this window and is not over yet: set before the call
   * (progress can overtake its reply), cleared when it stops early or the new index is listed.
   */
  rebuildsPending: Record<string, true>;
  /** Why a library's rebuild could not start ('busy' included), in words, by library name. */
  rebuildErrors: Record<string, string>;
  /** Asks the engine to rebuild the library's index from its stored documents; false when it did not start. */
  rebuildLibrary(library: string): Promise<boolean>;
  /** Stops the library's running rebuild (it keeps its previous index; the engine reports why it stopped). */
  cancelRebuild(library: string): Promise<void>;
  loadLibraries(): Promise<void>;
  /** The library to import into: the selected one, or a new "Manuals" library on first use. */
  ensureLibrary(): Promise<string | null>;
  selectLibrary(name: string | null): Promise<void>;
  /**
   * Creates the library and opens it; null when refused, else its name as saved (the engine may
   * tidy what was typed) and whether it was opened. `movedOn`, asked once the engine has answered:
   * true when the user has gone elsewhere meanwhile (Ctrl+K, a search typed and sent); the new
   * library is then only listed, and the library the user is working in stays open.
   */
  createLibrary(name: string, options?: { movedOn?: () => boolean }): Promise<{ name: string; opened: boolean } | null>;
  /** The library's name as saved (the engine may tidy what was typed), or null when refused. */
  renameLibrary(library: string, name: string): Promise<string | null>;
  deleteLibrary(library: string): Promise<boolean>;
  loadDocuments(): Promise<void>;
  /** Coalesces refreshes while an import reports many files in a burst. */
  scheduleDocumentsRefresh(): void;
  removeDocument(id: string): Promise<void>;
  /** Imports `file` as a new version of document `id` (same id, so it replaces it). */
  /**
   * Imports a new version of a document under its id: the chosen file, or in the desktop app
   * (where the page sends paths, never uploads) the path chosen in the OS dialog.
   */
  reimportDocument(id: string, from: File | string): Promise<void>;
  setDocumentFilter(filter: string): void;
  clearLibraryError(): void;
}

/**
 * True while a rebuild of `library` runs: asked for here and not over, reported running by the
 * engine's progress, or listed as rebuilding (a window opened mid-rebuild, or another window's).
 */
export function rebuildRunning(s: Pick<LibrarySlice, 'rebuildsPending' | 'indexProgress' | 'libraries'>, library: string): boolean {
  const progress = s.indexProgress[library]?.rebuilding;
  if (progress?.error !== undefined) return false;
  return (
    s.rebuildsPending[library] === true ||
    (progress !== undefined && progress.done < progress.total) ||
    s.libraries.some((l) => l.name === library && l.rebuilding)
  );
}

const without = <T>(record: Record<string, T>, key: string): Record<string, T> => {
  const { [key]: _dropped, ...rest } = record;
  return rest;
};

/** The library a first drop goes to when none exists yet. */
const DEFAULT_LIBRARY = 'Manuals';

/** Refreshes at most this often during imports, in milliseconds. */
const REFRESH_INTERVAL_MS = 400;

export const createLibrarySlice: StateCreator<Store, [], [], LibrarySlice> = (set, get) => {
  let refreshTimer: ReturnType<typeof setTimeout> | null = null;
  /** Number of the last list request sent: an older answer arriving after a newer one is stale. */
  let librariesAsked = 0;
  /** The newest list load, which a superseded one waits for (its callers expect a fresh list). */
  let latestLoad: Promise<void> = Promise.resolve();
  /**
   * Libraries this window is deleting or renaming: their leaving the list is the user's own doing
   * here, not news to report (the engine's 'library.changed' can reach the list before the reply).
   */
  const leavingHere = new Set<string>();
  /**
   * The conversation open in each library when the user last left it (none where a new one had
   * been started): coming back reopens it, as a browser tab keeps its page, instead of an empty chat.
   */
  const openConversations = new Map<string, string>();

  /** Reopens the conversation left open in `library`, if it is still listed and nothing else was opened meanwhile. */
  const reopenConversation = async (library: string | null) => {
    const id = library === null ? undefined : openConversations.get(library);
    const s = get();
    if (id === undefined || s.selectedLibrary !== library || s.activeConversation !== null) return;
    if (s.conversations.some((c) => c.id === id)) await s.openConversation(id);
  };

  return {
    libraries: [],
    librariesLoaded: false,
    selectedLibrary: null,
    documents: [],
    documentsOf: null,
    documentFilter: '',
    libraryError: null,
    libraryNotice: null,
    indexProgress: {},
    rebuildsPending: {},
    rebuildErrors: {},

    handleIndexProgress({ type: _type, ...progress }) {
      set((s) => ({ indexProgress: { ...s.indexProgress, [progress.library]: { ...s.indexProgress[progress.library], [progress.task]: progress } } }));
      // A rebuild that stopped early keeps the old index: the button is offered again, the report says why.
      if (progress.task === 'rebuilding' && progress.error !== undefined && get().rebuildsPending[progress.library]) {
        set((s) => ({ rebuildsPending: without(s.rebuildsPending, progress.library) }));
      }
    },

    async rebuildLibrary(library) {
      if (rebuildRunning(get(), library)) return false;
      // The last report belongs to an earlier rebuild; it would read as this one's outcome.
      get().clearIndexProgress(library, 'rebuilding');
      set((s) => ({ rebuildsPending: { ...s.rebuildsPending, [library]: true }, rebuildErrors: without(s.rebuildErrors, library) }));
      const res = await api['libraries.rebuild']({ library });
      if (res.ok) return true;
      set((s) => ({ rebuildsPending: without(s.rebuildsPending, library), rebuildErrors: { ...s.rebuildErrors, [library]: res.error.message } }));
      return false;
    },

    async cancelRebuild(library) {
      const res = await api['libraries.cancelRebuild']({ library });
      if (!res.ok) set((s) => ({ rebuildErrors: { ...s.rebuildErrors, [library]: res.error.message } }));
    },

    clearIndexProgress(library, task) {
      const current = get().indexProgress[library];
      if (!current?.[task]) return;
      const { [task]: _dropped, ...rest } = current;
      set((s) => ({ indexProgress: { ...s.indexProgress, [library]: rest } }));
    },

    loadLibraries() {
      // Lists are asked for on many events; one asked during a rebuild can be answered after the
      // one asked on its 'library.changed' (both wait for the index swap) and would bring back
      // the outdated state, with no later event to correct it. An older answer is dropped.
      const asked = ++librariesAsked;
      const load = (async (): Promise<void> => {
        const res = await api['libraries.list']({});
        if (asked !== librariesAsked) return latestLoad;
        if (!res.ok) return set({ libraryError: res.error.message, librariesLoaded: true });
        const selected = get().selectedLibrary;
        const stillThere = selected !== null && res.value.some((l) => l.name === selected);
        set({ libraries: res.value, librariesLoaded: true });
        // The list is reloaded on 'library.changed', which follows a finished rebuild's swap.
        for (const library of Object.keys(get().rebuildsPending)) {
          const progress = get().indexProgress[library]?.rebuilding;
          const gone = !res.value.some((l) => l.name === library);
          if (gone || (progress && progress.done >= progress.total)) set((s) => ({ rebuildsPending: without(s.rebuildsPending, library) }));
        }
        if (!stillThere) {
          const next = res.value[0]?.name ?? null;
          // Deleted (or renamed) by another window or the CLI: switching without a word would
          // answer the next question from a library the user never chose.
          if (selected !== null && !leavingHere.has(selected)) {
            set({
              libraryNotice: `Library “${selected}” was deleted or renamed in another window or from the command line.${next ? ` Now showing “${next}”.` : ''}`,
            });
          }
          await get().selectLibrary(next);
        }
      })();
      latestLoad = load;
      return load;
    },

    async ensureLibrary() {
      const selected = get().selectedLibrary;
      if (selected) return selected;
      return (await get().createLibrary(DEFAULT_LIBRARY))?.name ?? null;
    },

    async selectLibrary(name) {
      const left = get().selectedLibrary;
      const changed = name !== left;
      if (changed && left !== null) {
        const open = get().activeConversation?.id;
        if (open) openConversations.set(left, open);
        else openConversations.delete(left);
      }
      set({ selectedLibrary: name, ...(changed ? { documents: [], documentFilter: '' } : {}) });
      if (changed) get().resetForLibrary();
      // A large library's first search builds its vocabulary and name index (~1 s at 14k documents):
      // built now, while the user reads the library and types, the first question is answered at once.
      if (changed && name) void api['search.prepare']({ library: name });
      await get().loadDocuments();
      if (changed) void get().loadConversations().then(() => reopenConversation(name));
    },

    async createLibrary(name, { movedOn } = {}) {
      const res = await api['libraries.create']({ name });
      if (!res.ok) {
        set({ libraryError: res.error.message });
        return null;
      }
      set({ libraryError: null });
      await get().loadLibraries();
      // Opening it would replace what the user turned to (their search's results, their chat) with
      // an empty library; with no library open there is nothing to replace.
      if (movedOn?.() && get().selectedLibrary !== null) return { name: res.value.name, opened: false };
      await get().selectLibrary(res.value.name);
      return { name: res.value.name, opened: true };
    },

    async renameLibrary(library, name) {
      leavingHere.add(library);
      try {
        const res = await api['libraries.rename']({ library, name });
        if (!res.ok) {
          set({ libraryError: res.error.message });
          return null;
        }
        const open = openConversations.get(library);
        openConversations.delete(library);
        if (open !== undefined) openConversations.set(res.value.name, open);
        // Renaming keeps what is on screen: only the name under it changes.
        if (get().selectedLibrary === library) set({ selectedLibrary: res.value.name, ...(get().documentsOf === library ? { documentsOf: res.value.name } : {}) });
        set({ libraryError: null });
        await get().loadLibraries();
        return res.value.name;
      } finally {
        leavingHere.delete(library);
      }
    },

    async deleteLibrary(library) {
      leavingHere.add(library);
      try {
        const res = await api['libraries.delete']({ library });
        if (!res.ok) {
          set({ libraryError: res.error.message });
          return false;
        }
        openConversations.delete(library);
        set({ libraryError: null });
        await get().loadLibraries();
        return true;
      } finally {
        leavingHere.delete(library);
      }
    },

    async loadDocuments() {
      const library = get().selectedLibrary;
      if (!library) return set({ documents: [], documentsOf: null });
      const res = await api['documents.list']({ library });
      if (get().selectedLibrary !== library) return;
      if (!res.ok) return set({ libraryError: res.error.message });
      set({ documents: res.value, documentsOf: library });
    },

    scheduleDocumentsRefresh() {
      if (refreshTimer) return;
      refreshTimer = setTimeout(() => {
        refreshTimer = null;
        void get().loadDocuments();
      }, REFRESH_INTERVAL_MS);
    },

    async removeDocument(id) {
      const library = get().selectedLibrary;
      if (!library) return;
      const res = await api['documents.remove']({ library, id });
      if (!res.ok) set({ libraryError: res.error.message });
      if (get().inspectorDoc === id) get().closeInspector();
      if (get().viewer?.doc === id) get().closeViewer();
      await get().loadDocuments();
      await get().loadLibraries();
    },

    async reimportDocument(id, from) {
      const library = get().selectedLibrary;
      if (!library) return;
      if (typeof from === 'string') await get().startImport(library, [from], [id]);
      else await get().uploadFiles(library, [{ path: id, file: from }]);
    },

    setDocumentFilter(filter) {
      set({ documentFilter: filter });
    },

    clearLibraryError() {
      set({ libraryError: null });
    },

    dismissLibraryNotice() {
      set({ libraryNotice: null });
    },
  };
};
