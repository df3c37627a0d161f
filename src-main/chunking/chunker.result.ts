import type { z } from 'zod';
import type { Result } from '../core/result';
import { fail } from '../core/result';

/** The `cancelled` result shared by all chunkers. */
export function cancelled<T>(): Result<T> {
  return fail('cancelled', 'Chunking was cancelled.');
}

/** Turns a zod failure into one readable `invalid-input` sentence naming the strategy and the options. */
export function invalidOptions<T>(strategy: string, error: z.ZodError): Result<T> {
  const parts = error.issues.map((issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
  return fail('invalid-input', `Invalid options for the ${strategy} chunker: ${parts.join('; ')}.`);
}
