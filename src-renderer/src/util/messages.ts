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
 * What to do about an import failure that importing the same file again cannot get past (see
 * `isPermanentImportFailure`), said where Retry would otherwise stand; null when another try may pass.
 */
export function failureAdvice(code: ErrorCode | undefined): string | null {
  if (!isPermanentImportFailure(code)) return null;
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
