import { useEffect } from 'react';
import { bridge } from '../api/client';
import { useStore } from '../store';
import { LibrarySidebar } from './LibrarySidebar';
import { LibraryView } from './LibraryView';

/** The app shell: header with the offline indicator, the library sidebar, the selected library. */
export function App() {
  const loadLibraries = useStore((s) => s.loadLibraries);
  const loadAppInfo = useStore((s) => s.loadAppInfo);
  const handleEngineEvent = useStore((s) => s.handleEngineEvent);
  const version = useStore((s) => s.appInfo?.version);

  useEffect(() => {
    void loadAppInfo();
    void loadLibraries();
    return bridge.onEvent(handleEngineEvent);
  }, [loadAppInfo, loadLibraries, handleEngineEvent]);

  return (
    <div className="app">
      <header className="app-header">
        <h1 className="brand">ManualMate</h1>
        {version ? <span className="version">v{version}</span> : null}
        <span className="offline" title="ManualMate never connects to the internet. Your manuals stay on this computer." data-testid="offline-indicator">
          ● Offline
        </span>
      </header>
      <div className="app-body">
        <LibrarySidebar />
        <main className="main" aria-live="polite">
          <LibraryView />
        </main>
      </div>
    </div>
  );
}
