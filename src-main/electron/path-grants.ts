import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Handlers } from '../contract/api';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';

/**
 * File paths the renderer may hand to the engine. A path is accepted only when the user chose it
 * in the OS dialog, dropped it on the window or opened it with the app (file association), or
 * when it lies inside a folder granted that way. Plain Node (no Electron) so it is tested as is.
 *
 * Checks, in order: a string without NUL bytes; absolute (on Windows: drive or UNC, never
 * drive-relative or device paths); no `..` segment; then `fs.realpath` so symlinks are judged by
 * where they point; then "equals a granted path, or is inside a granted folder" on the real paths.
 * Names are never URL-decoded: `..%2F` is a literal file name.
 */

/** How a path was granted: the OS file dialog, drag-and-drop, or the OS opening a file with the app. */
export type GrantSource = 'dialog' | 'drop' | 'open-with';

interface Grant {
  real: string;
  isDirectory: boolean;
  source: GrantSource;
}

export interface GrantOutcome {
  /** Canonical real paths now granted, in input order. */
  granted: string[];
  /** Paths not granted, each with the reason in words. */
  refused: { path: string; reason: string }[];
}

export interface PathGrantsOptions {
  /** Path flavour used for the lexical checks; default the host's. */
  pathApi?: path.PlatformPath;
  /** Most grants kept; the oldest are forgotten first (default 10,000). */
  maxGrants?: number;
}

/** The longest path accepted, in characters (the contract's limit). */
export const MAX_PATH_CHARS = 4096;

/**
 * Lexical checks on a path the renderer sent, before touching the disk. Returns the absolute,
 * normalized path or an `unsafe-path` error in words.
 */
export function checkRawPath(raw: unknown, p: path.PlatformPath = path): Result<string> {
  if (typeof raw !== 'string' || raw.length === 0) return fail('unsafe-path', 'A file path must be a non-empty text.');
  if (raw.length > MAX_PATH_CHARS) return fail('unsafe-path', `A file path is at most ${MAX_PATH_CHARS} characters.`);
  if (raw.includes('\0')) return fail('unsafe-path', 'A file path cannot contain a NUL character.');
  if (p === path.win32) {
    // Device namespaces (\\?\, \\.\) bypass Win32 path normalization; drive-relative (C:foo) and
    // root-relative (\foo) paths depend on the process's current drive and folder.
    if (/^[\\/]{2}[?.][\\/]/.test(raw)) return fail('unsafe-path', `"${raw}" is a device path; choose a file or folder instead.`);
    if (!/^[a-zA-Z]:[\\/]/.test(raw) && !/^[\\/]{2}[^\\/]+[\\/][^\\/]+/.test(raw)) {
      return fail('unsafe-path', `"${raw}" is not an absolute path.`);
    }
  } else if (!p.isAbsolute(raw)) {
    return fail('unsafe-path', `"${raw}" is not an absolute path.`);
  }
  const segments = raw.split(p === path.win32 ? /[\\/]/ : /\//);
  if (segments.includes('..')) return fail('unsafe-path', `"${raw}" climbs out of its folder with "..".`);
  return ok(p.resolve(raw));
}

/** True when `child` is `root` itself or lies below it (both absolute, normalized). */
export function isWithin(root: string, child: string, p: path.PlatformPath = path): boolean {
  const rel = p.relative(root, child);
  if (rel === '') return true;
  // A child may legitimately be named "..notes"; only a whole ".." segment leaves the root.
  return rel !== '..' && !rel.startsWith(`..${p.sep}`) && !p.isAbsolute(rel);
}

/** The session's grants: in memory only, forgotten when the app quits. */
export class PathGrants {
  private readonly grants = new Map<string, Grant>();
  private readonly p: path.PlatformPath;
  private readonly maxGrants: number;

  constructor(options: PathGrantsOptions = {}) {
    this.p = options.pathApi ?? path;
    this.maxGrants = options.maxGrants ?? 10_000;
  }

  /** Number of granted paths. */
  get size(): number {
    return this.grants.size;
  }

  /** Records paths the user chose; each is checked and resolved to its real path first. */
  async grant(paths: readonly string[], source: GrantSource): Promise<GrantOutcome> {
    const outcome: GrantOutcome = { granted: [], refused: [] };
    for (const raw of paths) {
      const real = await this.realPath(raw);
      if (!real.ok) {
        outcome.refused.push({ path: String(raw), reason: real.error.message });
        continue;
      }
      let isDirectory: boolean;
      try {
        isDirectory = (await fs.stat(real.value)).isDirectory();
      } catch {
        outcome.refused.push({ path: raw, reason: `Cannot read "${raw}".` });
        continue;
      }
      const previous = this.grants.get(real.value);
      this.grants.delete(real.value);
      this.grants.set(real.value, { real: real.value, isDirectory: isDirectory || previous?.isDirectory === true, source });
      while (this.grants.size > this.maxGrants) {
        const oldest = this.grants.keys().next().value;
        if (oldest === undefined) break;
        this.grants.delete(oldest);
      }
      outcome.granted.push(real.value);
    }
    return outcome;
  }

  /**
   * Checks one path from the renderer. Returns its canonical real path when it equals a granted
   * path or lies inside a granted folder; `unsafe-path` or `not-found` otherwise.
   */
  async resolve(raw: unknown): Promise<Result<string>> {
    const real = await this.realPath(raw);
    if (!real.ok) return real;
    for (const g of this.grants.values()) {
      if (g.real === real.value || (g.isDirectory && isWithin(g.real, real.value, this.p))) return ok(real.value);
    }
    return fail('unsafe-path', `ManualMate only imports files and folders you chose or dropped; "${String(raw)}" was not one of them.`);
  }

  /** Checks every path; the first refusal refuses the whole list (nothing is half-imported). */
  async resolveAll(raws: readonly unknown[]): Promise<Result<string[]>> {
    const out: string[] = [];
    for (const raw of raws) {
      const r = await this.resolve(raw);
      if (!r.ok) return r;
      out.push(r.value);
    }
    return ok(out);
  }

  private async realPath(raw: unknown): Promise<Result<string>> {
    const lexical = checkRawPath(raw, this.p);
    if (!lexical.ok) return lexical;
    try {
      return ok(await fs.realpath(lexical.value));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return fail('not-found', `"${lexical.value}" does not exist.`);
      return fail('unsafe-path', `Cannot read "${lexical.value}" (${code ?? 'error'}).`);
    }
  }
}

/**
 * Wraps the engine's `import.start` so it only ever sees granted paths, and sees them as the real
 * paths that were checked (what was checked is what gets read).
 */
export function guardImportStart(handler: Handlers['import.start'], grants: PathGrants): Handlers['import.start'] {
  return async (input) => {
    const checked = await grants.resolveAll(input.paths);
    if (!checked.ok) return checked;
    return handler({ ...input, paths: checked.value });
  };
}

/**
 * Files the OS asked the app to open (file associations, "Open with"): the non-flag arguments
 * after the executable (and the app folder in development) whose extension the import reads,
 * resolved against the launching process's working folder.
 */
export function filesFromArgv(argv: readonly string[], options: { cwd: string; isPackaged: boolean; extensions: readonly string[] }): string[] {
  const args = argv.slice(options.isPackaged ? 1 : 2);
  return args
    .filter((a) => a.length > 0 && !a.startsWith('-') && !a.includes('\0'))
    .filter((a) => options.extensions.includes(path.extname(a).slice(1).toLowerCase()))
    .map((a) => path.resolve(options.cwd, a));
}
