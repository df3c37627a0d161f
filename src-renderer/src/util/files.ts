/** A file chosen or dropped in the browser, with its path relative to what was dropped (`/`-separated). */
export interface PickedFile {
  path: string;
  file: File;
}

/** The most files one drop may carry (the contract's `import.upload` limit). */
export const MAX_DROPPED_FILES = 10_000;

type Captured = { kind: 'file'; file: File } | { kind: 'dir'; entry: FileSystemDirectoryEntry };

/** Hidden and system files ride along when folders are dropped; they are never manuals. */
const isHidden = (name: string) => name.startsWith('.') || name === 'Thumbs.db' || name === 'desktop.ini';

/**
 * Captures what a drop carries. Must run inside the drop handler: the browser empties the
 * DataTransfer once the event returns, so files and folder entries are taken synchronously and
 * folders are walked afterwards by the returned function.
 */
export function captureDrop(dt: DataTransfer): () => Promise<PickedFile[]> {
  const captured: Captured[] = [];
  for (const item of Array.from(dt.items)) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry?.() ?? null;
    if (entry?.isDirectory) {
      captured.push({ kind: 'dir', entry: entry as FileSystemDirectoryEntry });
      continue;
    }
    const file = item.getAsFile();
    if (file) captured.push({ kind: 'file', file });
  }
  if (captured.length === 0) for (const file of Array.from(dt.files)) captured.push({ kind: 'file', file });
  return async () => {
    const out: PickedFile[] = [];
    for (const c of captured) {
      if (out.length >= MAX_DROPPED_FILES) break;
      if (c.kind === 'file') {
        if (!isHidden(c.file.name)) out.push({ path: c.file.name, file: c.file });
      } else {
        await walkDirectory(c.entry, out);
      }
    }
    return out;
  };
}

/** Files picked with `<input type=file>` (with `webkitdirectory`, names keep their folder). */
export function pickedFromInput(list: FileList): PickedFile[] {
  return Array.from(list)
    .filter((f) => !isHidden(f.name))
    .slice(0, MAX_DROPPED_FILES)
    .map((file) => ({ path: file.webkitRelativePath || file.name, file }));
}

async function walkDirectory(dir: FileSystemDirectoryEntry, out: PickedFile[]): Promise<void> {
  if (isHidden(dir.name)) return;
  const reader = dir.createReader();
  // readEntries returns at most ~100 entries per call; it signals the end with an empty batch.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve) => reader.readEntries(resolve, () => resolve([])));
    if (batch.length === 0) return;
    for (const entry of batch) {
      if (out.length >= MAX_DROPPED_FILES) return;
      if (entry.isDirectory) {
        await walkDirectory(entry as FileSystemDirectoryEntry, out);
      } else if (!isHidden(entry.name)) {
        const file = await new Promise<File | null>((resolve) => (entry as FileSystemFileEntry).file(resolve, () => resolve(null)));
        if (file) out.push({ path: entry.fullPath.replace(/^\/+/, ''), file });
      }
    }
  }
}

/** Base64 back to bytes (pdf.js wants a Uint8Array). */
export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
