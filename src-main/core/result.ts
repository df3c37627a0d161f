/**
 * Expected outcomes are values, not exceptions: every engine call that can fail for a reason the
 * user should read returns a Result. `throw` is reserved for bugs and is caught once at the
 * boundary (IPC, web bridge, CLI) and turned into `{ ok: false, error: { code: 'internal' } }`.
 */

export const ERROR_CODES = [
  'invalid-input',
  'not-found',
  'already-exists',
  'unsupported',
  'empty',
  'corrupt',
  'encrypted',
  'no-text-layer',
  'binary',
  /**
   * The file is a format ManualMate reads under another format's extension (a PDF named .docx):
   * renamed, it imports. Its reason names the extension to give it.
   */
  'misnamed',
  'too-large',
  'unreadable',
  /** A read or write of the disk failed: full, read-only, permission denied, device error. */
  'io-error',
  'unsafe-path',
  'cancelled',
  'model-missing',
  'model-failed',
  'model-mismatch',
  'unavailable',
  'busy',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Why a file failed to import when importing the same file again can only fail again: its
 * format, its content (damaged, encrypted, scanned without text, empty), its size or its name
 * (unsafe, or one another file of its upload holds: sent alone, it would take that file's place).
 * Every other code (a disk error, a file that could not be read, a parser that crashed) may pass
 * on another try.
 */
export const PERMANENT_IMPORT_FAILURES = ['unsupported', 'empty', 'corrupt', 'encrypted', 'no-text-layer', 'binary', 'misnamed', 'too-large', 'unsafe-path', 'already-exists'] as const satisfies readonly ErrorCode[];
export type PermanentImportFailure = (typeof PERMANENT_IMPORT_FAILURES)[number];

/** True when importing the same file again cannot succeed (`PERMANENT_IMPORT_FAILURES`); an unknown code may. */
export function isPermanentImportFailure(code: ErrorCode | undefined): code is PermanentImportFailure {
  return code !== undefined && (PERMANENT_IMPORT_FAILURES as readonly ErrorCode[]).includes(code);
}

export interface AppError {
  code: ErrorCode;
  /** A sentence a technician can read; never a stack trace. */
  message: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(code: ErrorCode, message: string): Result<T> {
  return { ok: false, error: { code, message } };
}

/** An error carrying a code, for deep code paths that must unwind (parsers, jobs). */
export class CodedError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CodedError';
  }
}

/** Turns anything thrown into an AppError; unknown errors become `internal`. */
export function toAppError(err: unknown): AppError {
  if (err instanceof CodedError) return { code: err.code, message: err.message };
  if (err instanceof Error && err.name === 'AbortError') return { code: 'cancelled', message: 'Cancelled.' };
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'internal', message: `Unexpected error: ${message}` };
}
