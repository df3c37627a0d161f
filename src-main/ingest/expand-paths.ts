import { readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { ImportSkipped } from '../contract/api';
import type { ErrorCode } from '../core/result';
import { SUPPORTED_EXTENSIONS } from '../core/formats';
import { compareNames, distinctNames, junkReason, renamedNote, skippedInFolder } from '../core/import-names';

/**
 * The folder walk of an import: the files named and found in the folders named, as candidates
 * with their document ids, and what was left out with the reason.
 */

/** One turn of the event loop. */
function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/** A file to import. */
export interface Candidate {
  /** Absolute path on disk. */
  abs: string;
  /** Document id: path relative to the parent of what was named, `/`-separated. */
  id: string;
  /** Set when the candidate is already known to fail (unreadable, unsafe name...). */
  failure?: { code: ErrorCode; reason: string };
  /** Why `id` does not start with the name of what was named (another of that name is in the import), in words. */
  note?: string;
  /** With `note`: the file as the user named it ("b/manual.md", or a named folder's path and the rest below it). */
  given?: string;
}

/** A path the user named, as typed (`p`), resolved and looked at. */
interface Named {
  p: string;
  /** Its place in the paths named (for its name in `names`). */
  i: number;
  abs: string;
  stat: Stats | null;
  error: NodeJS.ErrnoException | null;
}

/** A document id segment that could escape the library folder or confuse other systems. */
function unsafeSegment(seg: string): boolean {
  return seg === '' || seg === '.' || seg === '..' || /[\\\0:]/.test(seg) || /^[a-zA-Z]:/.test(seg);
}

/** What a folder import found: the files to import and what it left out, with the reason. */
export interface Expansion {
  candidates: Candidate[];
  skipped: ImportSkipped[];
}

/** `path` lies inside `root` (both real paths). */
function inside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Longest run of the folder walk between two turns of the event loop. The walk lists folders with
 * synchronous calls: each asynchronous `readdir`/`stat` is a round trip through libuv's thread
 * pool, and while the parse worker starts and the index opens, those round trips took the walk of
 * 660 files 90-135 ms (3 ms synchronously), time in which no file could be sent to the worker.
 */
const WALK_SLICE_MS = 4;

/**
 * Expands paths into candidate files. A file named by itself is imported whatever its name,
 * except system junk (`core/import-names.ts`, as a browser drop judges it), which is `skipped`
 * with the reason. What was named gives its documents' ids their first segment: a later file or
 * folder of a name already named is imported as "manual (2).md" or "docs (2)/...", with a `note`. Inside folders, what is not imported is listed in `skipped` with the reason:
 * system junk, unsupported types, hidden files and folders, tool folders (`node_modules`,
 * `.git`...), and symlinks, which are never followed: they can loop or point outside what the
 * user chose. `names`, when given (one per path, checked at the edge: relative, inside the
 * library, none taken twice), is the id each path is imported under instead: a Retry imports a
 * renamed "manual (2).md", or "docs/sub/x.md" by the path of x.md alone, under the id it failed
 * under, so it replaces that record rather than the first "manual.md" or a new "x.md".
 */
export async function expandPaths(paths: string[], names?: readonly string[]): Promise<Expansion> {
  const out: Candidate[] = [];
  const skipped: ImportSkipped[] = [];
  const seen = new Set<string>();
  const push = (c: Candidate) => {
    // Names are kept apart below; only a name made safe (`candidate`) can meet another.
    if (seen.has(c.id)) {
      skipped.push({ file: c.id, reason: 'another file of this import is imported under the same name' });
      return;
    }
    seen.add(c.id);
    out.push(c);
  };
  let sliceEnd = performance.now() + WALK_SLICE_MS;
  const named: Named[] = [];
  const namedAbs = new Set<string>();
  for (const [i, p] of paths.entries()) {
    const abs = path.resolve(p);
    if (namedAbs.has(abs)) {
      skipped.push({ file: path.basename(abs), reason: `${p} is named twice in this import; it is imported once` });
      continue;
    }
    namedAbs.add(abs);
    let stat: Stats | null = null;
    let error: NodeJS.ErrnoException | null = null;
    try {
      stat = statSync(abs);
    } catch (err) {
      error = err as NodeJS.ErrnoException;
    }
    // An AppleDouble "._manual.pdf" named with its manual is metadata, not a damaged PDF.
    const junk = stat?.isFile() ? junkReason(path.basename(abs)) : null;
    if (junk) skipped.push({ file: path.basename(abs), reason: junk });
    else named.push({ p, i, abs, stat, error });
  }
  // A file or folder named twice, once by itself and once through a folder also named (`docs
  // docs/a.md`, or one folder by two spellings), is one: the outermost folder's walk imports it
  // under that folder's name, and its own naming is skipped, not imported a second time as
  // "a.md" (or "a (2).md").
  const reals = named.map((n) => (n.stat ? (realOrNull(n.abs) ?? n.abs) : null));
  const folderAt = new Map<string, number>();
  for (const [j, n] of named.entries()) if (n.stat?.isDirectory() && !folderAt.has(reals[j]!)) folderAt.set(reals[j]!, j);
  const within = named.map((n, k) => {
    const real = reals[k];
    if (real === null || real === undefined || folderAt.size === 0) return null;
    let outermost: { j: number; below: string[] } | null = null;
    // Up the real path: a few lookups a path, however many were named.
    for (let dir = real; ; dir = path.dirname(dir)) {
      const j = folderAt.get(dir);
      // The same folder twice: the first naming keeps it.
      if (j !== undefined && j !== k && (dir !== real || j < k)) {
        const below = path.relative(dir, real).split(path.sep).filter(Boolean);
        if (walkTakes(below, n.stat!.isDirectory())) outermost = { j, below };
      }
      if (path.dirname(dir) === dir) return outermost;
    }
  });
  const kept = named.flatMap((n, k) => (within[k] === null ? [n] : []));
  // A document's id starts with the name of what was named: two of one name (a/manual.md and
  // b/manual.md) get names of their own, as a browser drop gives them, each renamed file saying so.
  const items = kept.map((n) => ({ name: path.basename(n.abs), folder: n.stat?.isDirectory() ?? false }));
  const tops = names ? kept.map((n) => names[n.i]!) : distinctNames(items);
  for (const [k, w] of within.entries()) {
    if (w === null) continue;
    const as = [tops[kept.indexOf(named[w.j]!)]!, ...w.below].join('/');
    skipped.push({ file: path.basename(named[k]!.abs), reason: `${named[k]!.p} is also in ${named[w.j]!.p}, named in this import: it is imported once, as "${as}"` });
  }
  for (const [k, { p, abs, stat, error }] of kept.entries()) {
    const top = tops[k]!;
    // A name the request gave is the one its document already goes by: nothing to explain.
    const renamed = !names && top !== items[k]!.name;
    const note = renamed ? { note: renamedNote(top, items[k]!, 'import', p), given: p } : {};
    if (!stat) {
      const code = error?.code;
      const why = code === 'ENOENT' ? 'it does not exist' : code === 'EACCES' ? 'permission denied' : `error ${code ?? 'unknown'}`;
      push({ abs, id: top, failure: { code: 'unreadable', reason: `Cannot read ${p}: ${why}.` }, ...note });
      continue;
    }
    if (stat.isFile()) {
      push({ ...candidate(abs, top), ...note });
      continue;
    }
    if (!stat.isDirectory()) {
      push({ abs, id: top, failure: { code: 'unsupported', reason: `${p} is not a regular file or folder.` }, ...note });
      continue;
    }
    const root = realOrNull(abs) ?? abs;
    // Below the folder's own name, which is `top` in the library.
    const rel = (full: string) => {
      const below = path.relative(abs, full).split(path.sep).join('/');
      return below === '' ? top : top === '' ? below : `${top}/${below}`;
    };
    const stack = [abs];
    while (stack.length > 0) {
      if (performance.now() >= sliceEnd) {
        await nextTurn();
        sliceEnd = performance.now() + WALK_SLICE_MS;
      }
      const dir = stack.pop()!;
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch (err) {
        push({ abs: dir, id: rel(dir), failure: { code: 'unreadable', reason: `Cannot read the folder ${rel(dir)}: ${(err as NodeJS.ErrnoException).code ?? 'error'}.` } });
        continue;
      }
      // A name before its copies ("manual.md" before "manual copy.md"): the first of identical files is imported.
      entries.sort((a, b) => compareNames(a.name, b.name));
      for (const e of entries) {
        const full = path.join(dir, e.name);
        // In the words a browser drop or folder pick uses for the same entry.
        const left = skippedInFolder(e.name, e.isDirectory());
        if (left) {
          skipped.push({ file: rel(full), reason: left });
        } else if (e.isSymbolicLink()) {
          const target = realOrNull(full);
          const reason = target === null ? 'broken symlink' : inside(root, target) ? 'symlink (not followed; its target inside the folder is imported under its own name)' : 'symlink outside the folder';
          skipped.push({ file: rel(full), reason });
        } else if (e.isDirectory()) {
          stack.push(full);
        } else if (e.isFile()) {
          const ext = path.extname(e.name).slice(1).toLowerCase();
          if (!SUPPORTED_EXTENSIONS.includes(ext)) skipped.push({ file: rel(full), reason: ext ? `unsupported type .${ext}` : 'unsupported type (no extension)' });
          else push({ ...candidate(full, rel(full)), ...(renamed ? { ...note, given: path.join(p, path.relative(abs, full)) } : {}) });
        } else {
          skipped.push({ file: rel(full), reason: 'not a regular file' });
        }
      }
    }
  }
  return { candidates: out, skipped };
}

/**
 * The folder walk reaches an entry `below` a folder (its path's segments, none for the folder
 * itself) and imports it (a file) or walks it (a folder): no segment is left out on the way.
 */
function walkTakes(below: readonly string[], folder: boolean): boolean {
  const last = below.length - 1;
  if (below.some((seg, i) => skippedInFolder(seg, i < last || folder) !== null)) return false;
  return folder || SUPPORTED_EXTENSIONS.includes(path.extname(below[last] ?? '').slice(1).toLowerCase());
}

/** The real path of `p`, or null when it cannot be resolved (a broken symlink). */
function realOrNull(p: string): string | null {
  try {
    // The native call, as `fs.promises.realpath` makes.
    return realpathSync.native(p);
  } catch {
    return null;
  }
}

function candidate(abs: string, id: string): Candidate {
  const segs = id.split('/');
  if (segs.some(unsafeSegment)) {
    return {
      abs,
      id: segs.map((s) => s.replace(/[\\\0:]/g, '_')).join('/'),
      failure: { code: 'unsafe-path', reason: `The name "${id}" could escape the library folder; rename the file and import it again.` },
    };
  }
  return { abs, id };
}
