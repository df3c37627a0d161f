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
