import { useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../store';

/** Libraries: list, select, create. */
export function LibrarySidebar() {
  const { libraries, librariesLoaded, selectedLibrary } = useStore(
    useShallow((s) => ({ libraries: s.libraries, librariesLoaded: s.librariesLoaded, selectedLibrary: s.selectedLibrary })),
  );
  const selectLibrary = useStore((s) => s.selectLibrary);
  const createLibrary = useStore((s) => s.createLibrary);
  const libraryError = useStore((s) => s.libraryError);
  const clearLibraryError = useStore((s) => s.clearLibraryError);
  const [name, setName] = useState('');

  const onCreate = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return;
    if (await createLibrary(name.trim())) setName('');
  };

  return (
    <nav className="sidebar" aria-label="Libraries">
      <h2 className="sidebar-title">Libraries</h2>
      {librariesLoaded && libraries.length === 0 ? (
        <p className="muted" data-testid="no-libraries">
          No libraries yet.
        </p>
      ) : null}
      <ul className="library-list" data-testid="library-list">
        {libraries.map((lib) => (
          <li key={lib.name}>
            <button
              type="button"
              className={lib.name === selectedLibrary ? 'library-item selected' : 'library-item'}
              aria-current={lib.name === selectedLibrary ? 'true' : undefined}
              onClick={() => void selectLibrary(lib.name)}
            >
              <span className="library-name">{lib.name}</span>
              <span className="library-count">{lib.documents}</span>
            </button>
          </li>
        ))}
      </ul>
      <form className="create-library" onSubmit={(e) => void onCreate(e)}>
        <label htmlFor="new-library" className="visually-hidden">
          New library name
        </label>
        <input
          id="new-library"
          value={name}
          placeholder="New library…"
          maxLength={80}
          onChange={(e) => {
            setName(e.target.value);
            if (libraryError) clearLibraryError();
          }}
        />
        <button type="submit" disabled={!name.trim()}>
          Create
        </button>
      </form>
      {libraryError ? (
        <p className="error" role="alert">
          {libraryError}
        </p>
      ) : null}
    </nav>
  );
}
