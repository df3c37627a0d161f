/**
 * IPC channels of the Electron shell itself (file choosing and opening), separate from the
 * contract's `mm:<key>` channels. No dependencies, so the sandboxed preload can bundle it.
 */
export const SHELL_CHANNELS = {
  /** invoke `{ folders?: boolean }` -> `Result<string[]>`: shows the OS open dialog, grants the choice. */
  pickPaths: 'mm-shell:pick-paths',
  /** invoke `{ paths: string[] }` -> `Result<string[]>`: grants paths of files dropped on the window. */
  grantDropped: 'mm-shell:grant-dropped',
  /** invoke `{}` -> `string[]`: files the OS asked the app to open before the page listened. */
  takeOpenedFiles: 'mm-shell:take-opened-files',
  /** event `string[]`: files the OS asked the running app to open (already granted). */
  openedFiles: 'mm-shell:opened-files',
} as const;
