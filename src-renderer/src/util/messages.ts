import { isPermanentImportFailure, type ErrorCode, type PermanentImportFailure } from '../../../src-main/core/result';

/**
 * The engine's input checks (zod, at the contract's edge) answer in its own terms: a default
 * message such as "Too big: expected string to have <=2000 characters" and the field's name in
 * brackets, "(question)". The user reads neither: this keeps the sentence, in words.
 */
export function plainMessage(message: string): string {
  const text = message.replace(/\s*\([A-Za-z_][\w.]*\)$/, '');
  const tooLong = /^Too big: expected (?:string|array) to have <=\s*(\d+) (characters?|items?)$/.exec(text);
  if (tooLong) return `It is too long: at most ${tooLong[1]} ${tooLong[2]!.startsWith('char') ? 'characters' : 'items'}.`;
  const tooShort = /^Too small: expected (?:string|array) to have >=\s*(\d+) (characters?|items?)$/.exec(text);
  if (tooShort) return tooShort[1] === '1' ? 'It is empty.' : `It is too short: at least ${tooShort[1]} ${tooShort[2]!.startsWith('char') ? 'characters' : 'items'}.`;
  return text;
}

/**
 * Permanent failures that are about what the file holds, not its name or type: a good copy saved
 * in its place, under the same name, imports. What to save there, for each.
 */
const REPLACE_IN_PLACE: Partial<Record<PermanentImportFailure, string>> = {
  empty: 'save a copy that has its text in its place (export or download it again)',
  corrupt: 'save a good copy in its place (export or download it again)',
  binary: 'save the manual itself in its place',
  encrypted: 'save a copy without a password in its place',
  'no-text-layer': 'run it through text recognition (OCR) in another program and save the result in its place',
};

/**
 * True when Retry is worth offering for a permanent failure of a file Retry reads again from its
 * path on this computer (an import of paths): the file may have been replaced there since. A copy
 * the page holds (a dropped file) is the same bytes again; a name or type is fixed by renaming,
 * which makes another path.
 */
export function retryAfterReplacing(code: ErrorCode | undefined): boolean {
  return isPermanentImportFailure(code) && REPLACE_IN_PLACE[code] !== undefined;
}

/**
 * Whether a failed file's row offers Retry (the import card and the Documents row alike): another
 * try may get past its failure, or Retry reads it again from its path (`fromPath`), where a good
 * copy may have been saved since (`retryAfterReplacing`).
 */
export function offersRetry(code: ErrorCode | undefined, fromPath: boolean): boolean {
  return !isPermanentImportFailure(code) || (fromPath && retryAfterReplacing(code));
}

/**
 * What to do about an import failure that importing the same file again cannot get past (see
 * `isPermanentImportFailure`), said where Retry would otherwise stand; null when another try may
 * pass. `fromPath`: Retry reads the file again from its path, and stands beside this advice when
 * `retryAfterReplacing`: the advice says to replace the file first.
 */
export function failureAdvice(code: ErrorCode | undefined, fromPath = false): string | null {
  if (!isPermanentImportFailure(code)) return null;
  const replace = fromPath ? REPLACE_IN_PLACE[code] : undefined;
  if (replace) return `Trying this file again will not help until it is replaced: ${replace}, then Retry.`;
  const instead: Record<PermanentImportFailure, string> = {
    unsupported: 'save it in a format ManualMate reads (PDF, Word .docx, HTML, Markdown or text) and import that file',
    empty: 'import a copy that has its text (export or download it again)',
    corrupt: 'import a good copy (export or download it again)',
    binary: 'import the manual itself, not this file',
    // The reason names the extension: a good copy under the same name would fail the same way.
    misnamed: 'rename it as said above and import the renamed file',
    encrypted: 'import a copy without a password',
    'no-text-layer': 'run it through text recognition (OCR) in another program and import the result',
    'too-large': 'split it into smaller files and import those',
    'unsafe-path': 'rename the file and import it again',
    // A refused duplicate upload: sent again by itself, it would replace the file that kept the name.
    'already-exists': 'give it or the other file of that name another name, and import it again',
  };
  return `Trying this file again will not help: ${instead[code]}.`;
}

/** Characters a question may have: the engine's limit on `chat.ask` (tests/renderer checks they agree). */
export const MAX_QUESTION_CHARS = 2000;
