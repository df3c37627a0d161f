import type { Api, ContractKey, Handlers, Result } from '../contract/api';
import { CONTRACT_KEYS, isContractKey, validateInput } from '../contract/api';
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

/**
 * The contract as a typed object whose every call goes through `dispatch` (input checked by the
 * contract's zod schema, errors as results): what the CLI and eval call, like the app does.
 */
export function apiOf(handlers: Handlers, log?: (message: string) => void): Api {
  const api: Partial<Record<ContractKey, (input: unknown) => Promise<Result<unknown>>>> = {};
  for (const key of CONTRACT_KEYS) api[key] = (input) => dispatch(handlers, key, input, log);
  return api as Api;
}
