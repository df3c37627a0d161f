import { useEffect, useRef, type KeyboardEvent as ReactKeyboardEvent, type RefObject } from 'react';
import { bridge, shell } from '../api/client';
import { useStore } from '../store';
import { applyTheme, type ThemeChoice, type View } from '../store/ui.slice';
import { ChatView } from './ChatView';
import { ChunkInspector, closeInspectorToOpener } from './ChunkInspector';
import { DropOverlay } from './DropOverlay';
import { Icon, type IconName } from './Icon';
import { ImportPanel, ImportStatus, useImportsInline } from './ImportPanel';
import { LibrarySidebar } from './LibrarySidebar';
import { LibraryView } from './LibraryView';
import { focusFirstResult, SearchView } from './SearchView';
import { SettingsView } from './SettingsView';
import { SourceViewer } from '../viewer/SourceViewer';
import { NARROW_LAYOUT } from '../util/media';

const NEXT_THEME: Record<ThemeChoice, ThemeChoice> = { system: 'light', light: 'dark', dark: 'system' };
const THEME_ICON: Record<ThemeChoice, IconName> = { system: 'auto', light: 'sun', dark: 'moon' };
const THEME_LABEL: Record<ThemeChoice, string> = { system: 'Theme: follows the system', light: 'Theme: light', dark: 'Theme: dark' };

/** The app shell: header (search, offline indicator, theme), libraries, the current screen, the source viewer. */
export function App() {
  const loadLibraries = useStore((s) => s.loadLibraries);
  const loadAppInfo = useStore((s) => s.loadAppInfo);
  const loadModels = useStore((s) => s.loadModels);
  const loadSettings = useStore((s) => s.loadSettings);
  const handleEngineEvent = useStore((s) => s.handleEngineEvent);
  const theme = useStore((s) => s.theme);
  const viewerOpen = useStore((s) => s.viewer !== null);
  const importsInline = useImportsInline();
  const searchInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    void loadAppInfo();
    void loadLibraries();
    void loadModels();
    void loadSettings();
    return bridge.onEvent(handleEngineEvent);
  }, [loadAppInfo, loadLibraries, loadModels, loadSettings, handleEngineEvent]);

  useEffect(() => applyTheme(theme), [theme]);

  useEffect(() => {
    // Files the OS asked the app to open (Electron: "Open with ManualMate").
    return shell.onOpenFiles?.((paths) => {
      const s = useStore.getState();
      void s.ensureLibrary().then((library) => (library ? s.startImport(library, paths) : undefined));
    });
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        searchInput.current?.focus();
        searchInput.current?.select();
        return;
      }
      if (e.key === 'Escape' && !e.defaultPrevented) {
        const s = useStore.getState();
        // Stopping an answer comes first; a second Esc closes the source viewer, the next the chunk
        // inspector (the viewer may have been opened from it). An open dialog takes its own Esc.
        // A question on its way before its answer shows (`pending`) is stopped too.
        if (s.streaming || s.pending) {
          e.preventDefault();
          void s.stop();
        } else if (document.querySelector('dialog[open]')) {
          return;
        } else if (s.viewer) {
          e.preventDefault();
          s.closeViewer();
        } else if (s.view === 'inspector' && s.inspectorDoc) {
          e.preventDefault();
          closeInspectorToOpener();
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div className={viewerOpen ? 'app with-viewer' : 'app'}>
      <Header searchInput={searchInput} />
      <div className="app-body">
        <LibrarySidebar />
        <main className="main">
          <LibraryNotice />
          <Tabs />
          {importsInline ? null : <ImportPanel />}
          <div className="screen">
            <Screen />
          </div>
        </main>
        <SourceViewer />
      </div>
      <DropOverlay />
      <ImportStatus />
    </div>
  );
}

function Header({ searchInput }: { searchInput: RefObject<HTMLInputElement | null> }) {
  const version = useStore((s) => s.appInfo?.version);
  const theme = useStore((s) => s.theme);
  const setTheme = useStore((s) => s.setTheme);
  const query = useStore((s) => s.searchQuery);
  const setSearchQuery = useStore((s) => s.setSearchQuery);
  const runSearch = useStore((s) => s.runSearch);
  const library = useStore((s) => s.selectedLibrary);
  const viewerOpen = useStore((s) => s.viewer !== null);
  const closeViewer = useStore((s) => s.closeViewer);
  const isMac = navigator.platform.toLowerCase().includes('mac');
  return (
    <header className="app-header">
      <h1 className="brand">
        Manual<span>Mate</span>
      </h1>
      {version ? <span className="version">v{version}</span> : null}
      <form
        className="global-search"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          // In a narrow window the open source viewer covers the screen: a search asked for here
          // closes it, so its results are seen (focus stays in this box).
          if (viewerOpen && window.matchMedia(NARROW_LAYOUT).matches) closeViewer();
          void runSearch();
        }}
      >
        <Icon name="search" />
        <label htmlFor="global-search" className="visually-hidden">
          Search the library
        </label>
        <input
          ref={searchInput}
          id="global-search"
          type="search"
          value={query}
          disabled={!library}
          placeholder={library ? `Search ${library}…` : 'Create a library to search'}
          onChange={(e) => setSearchQuery(e.target.value)}
          onKeyDown={(e) => {
            // Esc belongs to the box first: it clears what was typed and leaves the source viewer
            // behind it open (the window's Esc closes that); an empty box lets Esc through.
            if (e.key === 'Escape' && query !== '') {
              e.preventDefault();
              setSearchQuery('');
            }
            // Down goes to the first result: by Tab it was a dozen stops away (theme, libraries,
            // tabs, "Search by", model chips).
            if (e.key === 'ArrowDown' && !e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey && focusFirstResult()) e.preventDefault();
          }}
          data-testid="global-search"
        />
        <kbd className="shortcut" aria-hidden="true">
          {isMac ? '⌘K' : 'Ctrl K'}
        </kbd>
      </form>
      <OfflineIndicator />
      <button type="button" className="icon-btn theme-toggle" aria-label={`${THEME_LABEL[theme]}. Switch theme`} title={THEME_LABEL[theme]} onClick={() => setTheme(NEXT_THEME[theme])} data-testid="theme-toggle">
        <Icon name={THEME_ICON[theme]} />
      </button>
    </header>
  );
}

function Tabs() {
  const view = useStore((s) => s.view);
  const setView = useStore((s) => s.setView);
  const docCount = useStore((s) => s.documents.length);
  const inspectorTitle = useStore((s) => (s.inspectorDoc ? (s.documents.find((d) => d.id === s.inspectorDoc)?.title ?? s.inspectorDoc) : null));
  const hasSearch = useStore((s) => s.searchResults !== null || s.searching);
  const tabs: { id: View; label: string; icon: IconName }[] = [
    { id: 'documents', label: `Documents${docCount ? ` (${docCount})` : ''}`, icon: 'doc' },
    { id: 'chat', label: 'Chat', icon: 'send' },
    ...(hasSearch ? [{ id: 'search' as const, label: 'Search', icon: 'search' as const }] : []),
    ...(inspectorTitle ? [{ id: 'inspector' as const, label: `Chunks: ${inspectorTitle}`, icon: 'chunks' as const }] : []),
    { id: 'settings', label: 'Settings', icon: 'gear' },
  ];
  const list = useRef<HTMLDivElement>(null);
  // WAI-ARIA tabs: one tab in the Tab order (the selected one, roving tabindex); Left/Right move
  // to the previous/next tab and wrap, Home/End to the first/last, each selecting it at once
  // (a screen shows without a wait).
  const onKeyDown = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    const at = tabs.findIndex((t) => t.id === view);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[e.key];
    if (to === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length]!;
    setView(next.id);
    list.current?.querySelector<HTMLElement>(`#tab-${next.id}`)?.focus();
  };
  return (
    <div ref={list} className="tabs" role="tablist" aria-label="Screens" onKeyDown={onKeyDown}>
      {tabs.map((t) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          id={`tab-${t.id}`}
          aria-selected={view === t.id}
          aria-controls={view === t.id ? 'screen-panel' : undefined}
          tabIndex={view === t.id ? 0 : -1}
          className={t.id === 'settings' ? 'tab tab-end' : t.id === 'inspector' ? 'tab tab-shrink' : 'tab'}
          // The inspector's tab may be cut short: its whole name on hover.
          title={t.id === 'inspector' ? t.label : undefined}
          onClick={() => setView(t.id)}
          data-testid={`tab-${t.id}`}
        >
          <Icon name={t.icon} size={16} /> <span className="tab-label">{t.label}</span>
        </button>
      ))}
    </div>
  );
}

function Screen() {
  const view = useStore((s) => s.view);
  const hasLibrary = useStore((s) => s.selectedLibrary !== null);
  const content =
    view === 'settings' ? (
      <SettingsView />
    ) : !hasLibrary || view === 'documents' ? (
      <LibraryView />
    ) : view === 'chat' ? (
      <ChatView />
    ) : view === 'search' ? (
      <SearchView />
    ) : (
      <ChunkInspector />
    );
  return (
    <div role="tabpanel" id="screen-panel" aria-labelledby={`tab-${view}`} className={`panel panel-${view}`}>
      {content}
    </div>
  );
}

/**
 * What the app connects to, in the header: nothing, or, once a library is subscribed from a team's
 * object storage, that storage only (saying "Offline" then would be a claim the app does not keep).
 */
function OfflineIndicator() {
  const anySubscribed = useStore((s) => s.libraries.some((l) => l.subscription));
  const [label, title] = anySubscribed
    ? ['Local + team storage', 'Your manuals stay on this computer. ManualMate connects only to your team’s object storage, for the libraries subscribed from it.']
    : ['Offline', 'ManualMate never connects to the internet. Your manuals stay on this computer.'];
  return (
    <span className="offline" title={title} data-testid="offline-indicator">
      <span className="offline-dot" aria-hidden="true" /> {label}
    </span>
  );
}

/** News about the libraries that this window did not cause (the open one deleted elsewhere), until dismissed. */
function LibraryNotice() {
  const notice = useStore((s) => s.libraryNotice);
  const dismiss = useStore((s) => s.dismissLibraryNotice);
  if (!notice) return null;
  return (
    <div className="notice library-notice" role="alert" data-testid="library-notice">
      <span>{notice}</span>
      <button type="button" className="icon-btn" aria-label="Dismiss" onClick={dismiss}>
        <Icon name="close" size={16} />
      </button>
    </div>
  );
}
