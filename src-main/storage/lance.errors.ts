/**
 * LanceDB's native errors as the store reports them: a short message without Rust source paths,
 * and storage failures (unreadable or missing files) as 'corrupt' with a way out for the user.
 * Anything else LanceDB throws is a bug and propagates as it is.
 */

import { CodedError } from '../core/result';

export function nativeMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  // Native errors carry Rust source paths and repeated "Caused by" chains; keep the first clause.
  return message.split(/,\s*\/|\s+Caused by:/)[0]!.trim().slice(0, 300);
}

export function damaged(err: unknown): CodedError {
  const error = new CodedError(
    'corrupt',
    `The library's search database is damaged and cannot be read (${nativeMessage(err)}). Re-import the library to rebuild it.`,
  );
  error.cause = err;
  return error;
}

// Lance reports unreadable files as IO / not-found errors; anything else is a bug and propagates.
export function isStorageFailure(err: unknown): boolean {
  const message = err instanceof Error ? err.message : String(err);
  return /LanceError\(IO\)|Not found|not found|corrupt|No such file/i.test(message);
}
