import { useEffect, useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { useShallow } from 'zustand/react/shallow';
import type { LibrarySummary } from '../../../src-main/contract/api';
import { useStore } from '../store';
import { countOf } from '../util/format';
import { ConfirmDialog } from './ConfirmDialog';
import { Icon } from './Icon';

/** Libraries: list, select, create, rename in place, delete after confirmation. */
export function LibrarySidebar() {
  const libraries = useStore((s) => s.libraries);
  const librariesLoaded = useStore((s) => s.librariesLoaded);
  const selectedLibrary = useStore((s) => s.selectedLibrary);
  const { createLibrary, deleteLibrary, libraryError, clearLibraryError } = useStore(
    useShallow((s) => ({ createLibrary: s.createLibrary, deleteLibrary: s.deleteLibrary, libraryError: s.libraryError, clearLibraryError: s.clearLibraryError })),
  );
  const [name, setName] = useState('');
  const [renaming, setRenaming] = useState<string | null>(null);
  // The library whose row takes focus once its rename form closes: the form's input goes, and
  // focus must not fall to <body> (the row mounts anew, under its new name when it was saved).
  const [refocus, setRefocus] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<LibrarySummary | null>(null);

  // What the last create did, for screen readers: focus leaving the field said nothing of it.
  const [created, setCreated] = useState('');
  const setView = useStore((s) => s.setView);
  const onCreate = async (e: FormEvent) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLElement;
    if (!name.trim()) return;
    // The user has gone elsewhere while the library was made (Ctrl+K, a search typed and sent
    // right after Enter): neither the library open, nor the screen, nor focus is taken from them.
    const movedOn = () => {
      const at = document.activeElement;
      return !(at === null || at === document.body || form.contains(at));
    };
    const made = await createLibrary(name.trim(), { movedOn });
    if (!made) return;
    setName('');
    // The name as the engine saved it, which may be tidied from what was typed.
    setCreated(made.opened ? `Library “${made.name}” created and opened.` : `Library “${made.name}” created. Open it from the library list.`);
    if (!made.opened || movedOn()) return;
    // A new library is empty: its Documents screen is where it is filled. Focus goes to its heading
    // (the name read out), from which Tab reaches its Import buttons; it stayed in the empty field.
    // Drawn at once, so focus is moved now and not over what the user does next (Ctrl+K, typing).
    flushSync(() => setView('documents'));
    document.getElementById('library-heading')?.focus();
  };

  return (
    <nav className="sidebar" aria-label="Libraries">
      <h2 className="sidebar-title">Libraries</h2>
      {librariesLoaded && libraries.length === 0 ? (
        <p className="muted small" data-testid="no-libraries">
          No libraries yet. A library is a shelf of manuals you search together, for example one per product line.
        </p>
      ) : null}
      <ul className="library-list" data-testid="library-list">
        {libraries.map((lib) =>
          renaming === lib.name ? (
            <li key={lib.name}>
              <RenameForm
                library={lib.name}
                onDone={(name) => {
                  setRenaming(null);
                  setRefocus(name);
                }}
              />
            </li>
          ) : (
            <LibraryItem
              key={lib.name}
              lib={lib}
              selected={lib.name === selectedLibrary}
              deleting={deleting?.name === lib.name}
              focus={refocus === lib.name}
              onFocused={() => setRefocus(null)}
              onRename={() => setRenaming(lib.name)}
              onDelete={() => setDeleting(lib)}
            />
          ),
        )}
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
        <button type="submit" className="btn btn-primary" disabled={!name.trim()}>
          Create
        </button>
      </form>
      {libraryError ? (
        <p className="error small" role="alert">
          {libraryError}
        </p>
      ) : null}
      {/* In the page before the first create (a region added with its text is not read out). */}
      <p role="status" className="visually-hidden" data-testid="library-status">
        {created}
      </p>
      {deleting ? (
        <ConfirmDialog
          title={`Delete “${deleting.name}”?`}
          confirmLabel="Delete library"
          danger
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const target = deleting.name;
            setDeleting(null);
            // Its row (and the Delete button focus returned to) goes: focus goes to the library
            // now open, or to the New library field when none is left.
            void deleteLibrary(target).then((deleted) => {
              if (!deleted) return;
              const now = useStore.getState().selectedLibrary;
              if (now) setRefocus(now);
              else document.getElementById('new-library')?.focus();
            });
          }}
        >
          <p>
            Its {deleting.documents === 1 ? '1 document' : `${deleting.documents} documents`}, their search index and its conversations are removed from this computer.
          </p>
          <p className="muted">The files you imported from elsewhere are not touched.</p>
        </ConfirmDialog>
      ) : null}
    </nav>
  );
}

function LibraryItem({
  lib,
  selected,
  deleting,
  focus,
  onFocused,
  onRename,
  onDelete,
}: {
  lib: LibrarySummary;
  selected: boolean;
  deleting: boolean;
  /** Take focus (after a rename); `onFocused` then says it was taken. */
  focus: boolean;
  onFocused: () => void;
  onRename: () => void;
  onDelete: () => void;
}) {
  const selectLibrary = useStore((s) => s.selectLibrary);
  const item = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!focus) return;
    item.current?.focus();
    onFocused();
  }, [focus, onFocused]);
  // While its delete dialog is open the row keeps its actions shown: Esc gives focus back to that button.
  return (
    <li className={['library-row', selected ? 'selected' : '', deleting ? 'pending' : ''].filter(Boolean).join(' ')}>
      <button ref={item} type="button" className="library-item" aria-current={selected ? 'true' : undefined} onClick={() => void selectLibrary(lib.name)}>
        <span className="library-name" title={lib.name}>
          {lib.name}
        </span>
        <span className="library-count" aria-label={countOf(lib.documents, 'document')}>
          {lib.documents}
        </span>
      </button>
      <span className="library-actions">
        <button type="button" className="icon-btn" aria-label={`Rename ${lib.name}`} title="Rename" onClick={onRename}>
          <Icon name="pencil" size={16} />
        </button>
        <button type="button" className="icon-btn" aria-label={`Delete ${lib.name}`} title="Delete" onClick={onDelete}>
          <Icon name="trash" size={16} />
        </button>
      </span>
    </li>
  );
}

/** `onDone(name)`: the form closes, saved or not; `name` is the library's name now. */
function RenameForm({ library, onDone }: { library: string; onDone: (name: string) => void }) {
  const renameLibrary = useStore((s) => s.renameLibrary);
  const clearLibraryError = useStore((s) => s.clearLibraryError);
  const [value, setValue] = useState(library);
  // Why the name was refused, shown at this field: the sidebar's own error line sits under the
  // Create form, where it read as a failed create, and stayed after the rename was given up.
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next = value.trim();
    if (!next || next === library) return onDone(library);
    const saved = await renameLibrary(library, next);
    if (saved !== null) return onDone(saved);
    setError(useStore.getState().libraryError);
    clearLibraryError();
  };
  return (
    <>
      <form className="rename-form" onSubmit={(e) => void submit(e)}>
        <label htmlFor="rename-library" className="visually-hidden">
          New name for {library}
        </label>
        <input
          id="rename-library"
          value={value}
          maxLength={80}
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'rename-library-error' : undefined}
          onFocus={(e) => e.currentTarget.select()}
          onChange={(e) => {
            setValue(e.target.value);
            setError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              onDone(library);
            }
          }}
        />
        <button type="submit" className="btn btn-primary">
          Save
        </button>
      </form>
      {error ? (
        <p id="rename-library-error" className="error small rename-error" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}
