/**
 * The names of what a user imports, judged once for every door: a browser drop or pick (the
 * renderer), an Electron drop or pick and the command line (the import's folder walk). Pure (no
 * Node, no DOM), so the renderer imports it too; the two paths used to keep a list each and
 * disagreed (a named "._manual.pdf" was junk in the browser and a damaged PDF elsewhere).
 */

/**
 * Why a file the user named, dropped or chose by itself is left out: only system junk that rides
 * along with a selection (AppleDouble `._x.pdf`, folder settings, thumbnail caches), never a name
 * that merely starts with "." (`.pump-notes.md` is imported). Null when it is to be imported.
 */
export function junkReason(name: string): string | null {
  if (name.startsWith('._') && name.length > 2) return `macOS metadata for "${name.slice(2)}" (an AppleDouble file), not a manual`;
  if (name === '.DS_Store') return 'macOS folder view settings, not a manual';
  if (name === 'Thumbs.db') return 'Windows thumbnail cache, not a manual';
  if (name === 'desktop.ini') return 'Windows folder settings, not a manual';
  return null;
}

/** Folders of tools and version control, never manuals; with a dot, they are hidden folders first. */
const TOOL_FOLDERS = new Set(['.git', 'node_modules', '.svn', '.hg', '__MACOSX']);

/**
 * Why an entry met inside a folder the user named, dropped or chose is left out, in the words every
 * door reports it with (`ImportSkipped.reason`): system junk, a hidden file or folder (".draft.md",
 * ".git", ".vscode": none of a hidden folder's files is imported), a tool folder ("node_modules").
 * Null when it is walked or imported (its type aside). The folder the user named itself is never
 * judged by this: it was chosen.
 */
export function skippedInFolder(name: string, folder: boolean): string | null {
  const junk = folder ? null : junkReason(name);
  if (junk) return junk;
  if (name.startsWith('.')) return folder ? 'hidden folder' : 'hidden';
  if (folder && TOOL_FOLDERS.has(name)) return `tool folder (${name})`;
  return null;
}

/**
 * The order names of one folder are read in: by stem (the name before its last extension), then
 * whole, each in code point order, so a name comes before the same name with a copy mark added
 * ("manual.md" before "manual copy.md", "manual - Copy.md" and "manual (1).md"). Of identical
 * files, the first read is imported and the others reported as its copies; in plain code point
 * order " " sorts before ".", and the copy was imported while the original was called its copy.
 */
export function compareNames(a: string, b: string): number {
  return codePointOrder(stem(a), stem(b)) || codePointOrder(a, b);
}

const stem = (name: string) => (name.lastIndexOf('.') > 0 ? name.slice(0, name.lastIndexOf('.')) : name);
const codePointOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** One thing the user named, dropped or chose: a file or a folder, by its own name. */
export interface NamedItem {
  name: string;
  folder: boolean;
}

/** `name` with " (n)" before its extension (a folder's name has none): "manual (2).pdf", "docs (2)". */
function numbered(name: string, n: number, folder: boolean): string {
  const dot = folder ? -1 : name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

/**
 * The top-level name each item is imported under, in order. Documents are named by their path
 * below what was named, so two items of one name (a/manual.pdf, b/manual.pdf) would become one
 * document: a later item whose name is taken (letter case aside, as on macOS and Windows disks) is
 * imported as "manual (2).pdf" (a folder as "docs (2)"), a number no other item's name holds.
 */
export function distinctNames(items: readonly NamedItem[]): string[] {
  const taken = new Set(items.map((i) => i.name.toLowerCase()));
  const given = new Set<string>();
  return items.map((item) => {
    let name = item.name;
    if (given.has(name.toLowerCase())) {
      for (let n = 2; ; n++) {
        name = numbered(item.name, n, item.folder);
        if (!taken.has(name.toLowerCase()) && !given.has(name.toLowerCase())) break;
      }
    }
    given.add(name.toLowerCase());
    return name;
  });
}

/**
 * Why an item is imported under `given`, not its own name, in words. `batch`: what the user calls
 * the set of items (a browser "drop"; an "import" of paths); `source`: where it came from, when
 * the user named paths (the name alone does not say which of the two it was).
 */
export function renamedNote(given: string, item: NamedItem, batch: 'drop' | 'import', source?: string): string {
  return `Imported as "${given}"${source ? ` from ${source}` : ''}: another ${item.folder ? 'folder' : 'file'} named "${item.name}" is in this ${batch}.`;
}

/** Longest relative name (a document id, an uploaded file's path) a request may give, in characters. */
export const MAX_RELATIVE_NAME_CHARS = 1024;

/** A relative, `/`-separated name that stays inside the folder it is put in: no "..", no absolute path, bounded. */
export function isSafeRelativePath(p: string): boolean {
  return (
    p.length > 0 &&
    p.length <= MAX_RELATIVE_NAME_CHARS &&
    !p.startsWith('/') &&
    !/^[a-zA-Z]:/.test(p) &&
    p.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..' && !/[\\\0]/.test(seg))
  );
}

/**
 * Why the document ids a request gives its paths (`import.start`'s `names`) cannot all be used, in
 * words, or null. Ids are compared letter case aside (as on macOS and Windows disks, and as
 * `distinctNames` numbers them): two paths under one id, or one under an id inside another's
 * ("docs" and "docs/a.md"), would import one over the other.
 */
export function nameCollision(names: readonly string[]): string | null {
  const given = new Map<string, string>();
  for (const name of names) {
    const key = name.toLowerCase();
    const same = given.get(key);
    if (same !== undefined) return `Two paths of this import would both be imported as "${name}": each needs a name of its own.`;
    given.set(key, name);
  }
  for (const name of names) {
    const segs = name.toLowerCase().split('/');
    for (let n = 1; n < segs.length; n++) {
      const outer = given.get(segs.slice(0, n).join('/'));
      if (outer !== undefined) return `"${name}" would be imported inside "${outer}", the name another path of this import is imported under.`;
    }
  }
  return null;
}
