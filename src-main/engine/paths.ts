import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const APP_NAME = 'ManualMate';

/** The OS application-data folder for ManualMate (same place Electron's `userData` points to). */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const home = os.homedir();
  if (platform === 'win32') return path.join(env['APPDATA'] ?? path.join(home, 'AppData', 'Roaming'), APP_NAME);
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', APP_NAME);
  return path.join(env['XDG_CONFIG_HOME'] || path.join(home, '.config'), APP_NAME);
}

/** Data folder: explicit flag, then MANUALMATE_DATA_DIR, then the OS default. */
export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = flag ?? env['MANUALMATE_DATA_DIR'];
  return chosen ? path.resolve(chosen) : defaultDataDir(env);
}

/** Repository (or unpacked app) root, found from this module's location in src-main/ or out/. */
export function appRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const base = path.basename(dir);
    if (base === 'src-main' || base === 'out') return path.dirname(dir);
    dir = path.dirname(dir);
  }
  return process.cwd();
}
