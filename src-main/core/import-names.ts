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

/** Inside a folder, hidden entries (".cache", ".draft.md") and system junk are left out. */
export function hiddenInFolder(name: string): boolean {
  return name.startsWith('.') || junkReason(name) !== null;
}
