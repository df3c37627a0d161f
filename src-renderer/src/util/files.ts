import type { ImportSkipped } from '../../../src-main/contract/api';
import { distinctNames, junkReason, renamedNote, skippedInFolder } from '../../../src-main/core/import-names';

// One definition of system junk for every door (the command line and Electron's too).
export { junkReason };

/** A file chosen or dropped in the browser, with its path relative to what was dropped (`/`-separated). */
export interface PickedFile {
  path: string;
  file: File;
  /** Why `path` is not the name the file came with (another one of that name is in the drop), in words. */
  note?: string;
  /** With `note`: the path the file came with, which it is reported under if it is found to be a copy. */
  given?: string;
}

/** The most files one drop may carry (the contract's `import.upload` limit). */
export const MAX_DROPPED_FILES = 10_000;

type Captured = { kind: 'file'; file: File } | { kind: 'dir'; entry: FileSystemDirectoryEntry };

/** What a drop or a pick carries: the files to upload, and what the user gave that is left out, with the reason. */
export interface Picked {
  files: PickedFile[];
  skipped: ImportSkipped[];
  /** Files it carried beyond `MAX_DROPPED_FILES`, which are not sent (the card says how many). */
  leftOut: number;
}

/**
 * Captures what a drop carries. Must run inside the drop handler: the browser empties the
 * DataTransfer once the event returns, so files and folder entries are taken synchronously and
 * folders are walked afterwards by the returned function. What the user dropped (the top level)
 * is imported whatever its name, except system junk, which is `skipped` with the reason; inside
 * folders, hidden files and folders, tool folders and system junk are left out and `skipped` with
 * the reason the command line gives (`skippedInFolder`). Files beyond `MAX_DROPPED_FILES` are
 * counted in `leftOut`, not taken.
 */
export function captureDrop(dt: DataTransfer): () => Promise<Picked> {
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
    const items: DroppedItem[] = [];
    const skipped: ImportSkipped[] = [];
    let count = 0;
    let leftOut = 0;
    for (const c of captured) {
      if (c.kind === 'file') {
        const junk = junkReason(c.file.name);
        if (junk) skipped.push({ file: c.file.name, reason: junk });
        else if (count >= MAX_DROPPED_FILES) leftOut++;
        else {
          items.push({ name: c.file.name, folder: false, files: [{ path: c.file.name, file: c.file }] });
          count++;
        }
      } else {
        const files: PickedFile[] = [];
        const left: ImportSkipped[] = [];
        leftOut += await walkDirectory(c.entry, files, left, MAX_DROPPED_FILES - count);
        // A folder none of whose files fit takes no name from the folders after it.
        if (files.length > 0 || count < MAX_DROPPED_FILES) items.push({ name: c.entry.name, folder: true, files, skipped: left });
        else skipped.push(...left);
        count += files.length;
      }
    }
    // What a renamed folder left out is named as its files are ("docs (2)/.git").
    const names = distinctNames(items);
    for (const [k, item] of items.entries()) for (const s of item.skipped ?? []) skipped.push({ ...s, file: names[k]! + s.file.slice(item.name.length) });
    return { files: keepNamesApart(items), skipped, leftOut };
  };
}

/** Files picked with `<input type=file>` (with `webkitdirectory`, names keep their folder). */
export function pickedFromInput(list: FileList): Picked {
  const files: PickedFile[] = [];
  const skipped: ImportSkipped[] = [];
  let leftOut = 0;
  const take = (f: PickedFile) => {
    if (files.length < MAX_DROPPED_FILES) files.push(f);
    else leftOut++;
  };
  // A hidden or tool folder is said once, as the command line says it, not once per file it holds.
  const leftFolders = new Set<string>();
  for (const file of Array.from(list)) {
    // A folder's files have a relative path; files chosen one by one do not.
    if (file.webkitRelativePath) {
      const segs = file.webkitRelativePath.split('/');
      // The chosen folder itself (`segs[0]`) is imported whatever its name.
      const at = segs.findIndex((seg, i) => i > 0 && skippedInFolder(seg, i < segs.length - 1) !== null);
      if (at < 0) take({ path: file.webkitRelativePath, file });
      else {
        const where = segs.slice(0, at + 1).join('/');
        const folder = at < segs.length - 1;
        if (!folder || !leftFolders.has(where)) skipped.push({ file: where, reason: skippedInFolder(segs[at]!, folder)! });
        if (folder) leftFolders.add(where);
      }
      continue;
    }
    const junk = junkReason(file.name);
    if (junk) skipped.push({ file: file.name, reason: junk });
    else take({ path: file.name, file });
  }
  return { files, skipped, leftOut };
}

/** One thing the user dropped, a file or a folder, with the files it holds (their paths start with `name`). */
export interface DroppedItem {
  name: string;
  folder: boolean;
  files: PickedFile[];
  /** What the folder held that is left out, with the reason (paths start with `name`). */
  skipped?: ImportSkipped[];
}

/**
 * Gives each dropped item a top-level name of its own. The bridge stages a drop as one folder, so
 * a second "manual.pdf" (from another folder) replaced the first while both showed as rows. A
 * later item whose name is taken (letter case aside, as on macOS and Windows disks) is imported as
 * "manual (2).pdf" (a folder as "docs (2)"), and each of its files says why in `note`.
 */
export function keepNamesApart(items: DroppedItem[]): PickedFile[] {
  const names = distinctNames(items);
  return items.flatMap((item, k) => {
    const name = names[k]!;
    if (name === item.name) return item.files;
    const note = renamedNote(name, item, 'drop');
    return item.files.map((f) => ({ ...f, path: name + f.path.slice(item.name.length), note, given: f.path }));
  });
}

/**
 * Walks a dropped folder into `out`, at most `room` files, and returns how many more it holds
 * (counted, not read: a drop takes no more). What it leaves out goes to `left` with the reason.
 * The folder itself was dropped by the user: its own name does not hide it.
 */
async function walkDirectory(dir: FileSystemDirectoryEntry, out: PickedFile[], left: ImportSkipped[], room = MAX_DROPPED_FILES): Promise<number> {
  let over = 0;
  const reader = dir.createReader();
  // readEntries returns at most ~100 entries per call; it signals the end with an empty batch.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve) => reader.readEntries(resolve, () => resolve([])));
    if (batch.length === 0) return over;
    for (const entry of batch) {
      const reason = skippedInFolder(entry.name, entry.isDirectory);
      if (reason !== null) {
        left.push({ file: entry.fullPath.replace(/^\/+/, ''), reason });
      } else if (entry.isDirectory) {
        over += await walkDirectory(entry as FileSystemDirectoryEntry, out, left, room);
      } else if (out.length >= room) {
        over++;
      } else {
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
