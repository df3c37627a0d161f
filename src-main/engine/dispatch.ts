import type { ContractKey, Handlers, Result } from '../contract/api';
import { isContractKey, validateInput } from '../contract/api';
import { toAppError } from '../core/result';

/**
 * The edge every transport goes through: unknown keys and invalid input become `invalid-input` /
 * `not-found` results, thrown bugs become `internal` results logged once. Nothing throws past it.
 */
export async function dispatch(
  handlers: Handlers,
  key: string,
  raw: unknown,
  log: (message: string) => void = (m) => console.error(m),
): Promise<Result<unknown>> {
  if (!isContractKey(key)) return { ok: false, error: { code: 'not-found', message: `Unknown call "${key}".` } };
  const input = validateInput(key, raw);
  if (!input.ok) return input;
  try {
    const handler = handlers[key] as (input: unknown) => Promise<Result<unknown>>;
    return await handler(input.value);
  } catch (err) {
    const error = toAppError(err);
    log(`[manualmate] ${key} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return { ok: false, error };
  }
}

export type { ContractKey };
