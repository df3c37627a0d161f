/**
 * Turns a `ChunkFilter` into a LanceDB (DataFusion SQL) `where` predicate. Every value is quoted
 * here and nowhere else; column names are fixed constants, never caller input.
 */

import { normalizeModelKey, type ChunkFilter } from './chunk-store';

/**
 * A SQL string literal. DataFusion's dialect has no backslash escapes, so doubling the single
 * quote is the only escape needed; NUL and newlines are legal inside a literal (tested).
 */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** `column IN (...)` over quoted values; an empty list is `false` (matches nothing). */
export function sqlIn(column: string, values: readonly string[]): string {
  if (values.length === 0) return 'false';
  return `${column} IN (${[...new Set(values)].map(sqlString).join(', ')})`;
}

/** The predicate for a filter, or null when it does not constrain anything. */
export function filterToWhere(filter: ChunkFilter | undefined): string | null {
  if (!filter) return null;
  const parts: string[] = [];
  if (filter.docIds) parts.push(sqlIn('doc_id', filter.docIds));
  if (filter.models) {
    const keys = filter.models.map(normalizeModelKey).filter((k): k is string => k !== null);
    const match = sqlIn('model_key', keys);
    parts.push(filter.includeUnmodeled ? `${match} OR model_key IS NULL` : match);
  }
  if (filter.categories) parts.push(sqlIn('category', filter.categories));
  return andWhere(...parts);
}

/** Joins predicates with AND, skipping nulls; null when none remain. */
export function andWhere(...predicates: (string | null)[]): string | null {
  const present = predicates.filter((p): p is string => p !== null);
  if (present.length === 0) return null;
  return present.length === 1 ? present[0]! : present.map((p) => `(${p})`).join(' AND ');
}
