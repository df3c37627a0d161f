import type { ImportSummary } from '../../../src-main/contract/api';
import { countOf } from './format';

/** A finished import's counts by outcome, as the engine reports them (`ImportSummary.summary`). */
export type ImportCounts = ImportSummary['summary'];

/**
 * The headline of a finished import, saying what happened to its files: a file that was already
 * in the library is neither imported nor failed, so it is named apart ("2 files could not be
 * imported; 1 was already in Pumps", "Nothing new: 1 file was already in Pumps"), and a file that
 * failed beside others that came in is named too ("Imported into Pumps; 1 file could not be imported").
 */
export function finishedImportTitle(library: string, s: ImportCounts): string {
  if (s.cancelled > 0) return `Import into ${library} cancelled`;
  const added = s.imported + s.replaced;
  // Some files came in and others failed: the failures stay in the headline, not only in the summary below it.
  if (added > 0) return s.failed > 0 ? `Imported into ${library}; ${countOf(s.failed, 'file')} could not be imported` : `Imported into ${library}`;
  const already = (lead: string) => `${lead} ${s.already === 1 ? 'was' : 'were'} already in ${library}`;
  if (s.failed > 0) return s.already > 0 ? `${countOf(s.failed, 'file')} could not be imported; ${already(String(s.already))}` : `Import into ${library} failed`;
  if (s.already > 0) return `Nothing new: ${already(countOf(s.already, 'file'))}`;
  return `Nothing imported into ${library}`;
}

/**
 * The counts line under a finished import's headline ("2 imported · 1 already in Pumps · 1 failed"):
 * a file that was already in the library is named as the headline names it, with the library.
 */
export function importCountsLine(library: string, s: ImportCounts): string {
  return [
    s.imported ? `${s.imported} imported` : '',
    s.replaced ? `${s.replaced} replaced` : '',
    s.already ? `${s.already} already in ${library}` : '',
    s.failed ? `${s.failed} failed` : '',
    s.cancelled ? `${s.cancelled} cancelled` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * The line of one file that was already in `library`, under the card's headline and counts; `as`:
 * the document (or earlier file of the drop) with the same bytes, when it came under another name.
 */
export function alreadyInLibrary(library: string, as?: string): string {
  return as === undefined ? `Already in ${library}.` : `Already in ${library} as "${as}" (the same file), so not imported twice.`;
}

/**
 * A card's notes by file (why a file is imported under a name other than its own) with the notes
 * the engine sent added: an import of paths (Electron) is renamed by the engine, not by the page.
 * The same object when nothing is added.
 */
export function withNotes(notes: Record<string, string> | undefined, from: readonly { file: string; note?: string }[]): Record<string, string> | undefined {
  const added = from.filter((f) => f.note !== undefined && notes?.[f.file] !== f.note);
  if (added.length === 0) return notes;
  return { ...notes, ...Object.fromEntries(added.map((f) => [f.file, f.note!])) };
}

/**
 * The line of a drop or pick that carried more files than one drop takes (`max`): how many were
 * left out and why, so that none goes without a word (numbers written as the card's other counts).
 */
export function leftOutLine(count: number, max: number): string {
  return `${count === 1 ? '1 more file was' : `${count} more files were`} left out: one drop takes at most ${max} files. Drop the rest in smaller parts (a folder at a time) to import them.`;
}
