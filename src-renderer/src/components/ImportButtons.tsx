import { useEffect, useRef } from 'react';
import { SUPPORTED_EXTENSIONS } from '../../../src-main/core/formats';
import { shell } from '../api/client';
import { useStore } from '../store';
import { pickedFromInput } from '../util/files';
import { restoreFocus } from '../util/focus';
import { Icon } from './Icon';

/** Manual formats the importer reads (the engine's list); the picker shows these first (others are still accepted by drop). */
export const MANUAL_EXTENSIONS = SUPPORTED_EXTENSIONS.map((e) => `.${e}`).join(',');

/**
 * The import button a keyboard user pressed when no library was open: the import creates one, and
 * the welcome screen holding that button gives way to the library's Documents screen, whose own
 * button of the same name takes focus as it appears (else focus fell to <body>, the page's top).
 */
let handOff: 'files' | 'folder' | null = null;

/**
 * "Import files" / "Import folder": the OS dialog in Electron (paths, nothing copied through the
 * page), file inputs in a browser (bytes uploaded to the local engine).
 */
export function ImportButtons({ compact = false }: { compact?: boolean }) {
  const ensureLibrary = useStore((s) => s.ensureLibrary);
  const uploadFiles = useStore((s) => s.uploadFiles);
  const startImport = useStore((s) => s.startImport);
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const filesButton = useRef<HTMLButtonElement>(null);
  const folderButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (handOff === null) return;
    restoreFocus(handOff === 'files' ? filesButton.current : folderButton.current);
    handOff = null;
  }, []);

  /** The library to import into, created when there is none; a focused button hands focus on. */
  const target = async (): Promise<string | null> => {
    const now = document.activeElement;
    if (useStore.getState().selectedLibrary === null && (now === filesButton.current || now === folderButton.current)) {
      handOff = now === filesButton.current ? 'files' : 'folder';
    }
    const library = await ensureLibrary();
    if (library === null) handOff = null;
    return library;
  };

  const pick = async (folders: boolean) => {
    if (shell.pickFiles) {
      const res = await shell.pickFiles({ folders });
      if (!res.ok || res.value.length === 0) return;
      const library = await target();
      if (library) await startImport(library, res.value);
      return;
    }
    (folders ? folderInput : filesInput).current?.click();
  };

  const onInput = async (input: HTMLInputElement) => {
    const { files, skipped, leftOut } = input.files ? pickedFromInput(input.files) : { files: [], skipped: [], leftOut: 0 };
    input.value = '';
    if (files.length === 0 && skipped.length === 0) return;
    const library = await target();
    if (library) await uploadFiles(library, files, skipped, leftOut);
  };

  return (
    <div className="import-buttons">
      {/* Compact, the words shown are short; the names read out say what each button imports. */}
      <button ref={filesButton} type="button" className="btn btn-primary" onClick={() => void pick(false)} aria-label={compact ? 'Import files' : undefined} data-testid="import-files">
        <Icon name="upload" /> {compact ? 'Import' : 'Import files'}
      </button>
      <button ref={folderButton} type="button" className="btn" onClick={() => void pick(true)} aria-label={compact ? 'Import folder' : undefined}>
        <Icon name="folder" /> {compact ? 'Folder' : 'Import folder'}
      </button>
      <input ref={filesInput} type="file" multiple accept={MANUAL_EXTENSIONS} hidden onChange={(e) => void onInput(e.currentTarget)} data-testid="file-input" />
      <input
        ref={(el) => {
          folderInput.current = el;
          // `webkitdirectory` is not in React's attribute list; set it on the element itself.
          el?.setAttribute('webkitdirectory', '');
        }}
        type="file"
        multiple
        hidden
        onChange={(e) => void onInput(e.currentTarget)}
      />
    </div>
  );
}
