/**
 * LanceDB reads its thread settings from the environment once, when its native runtime first
 * starts, so this module must run before `@lancedb/lancedb` is imported: `lance.store.ts` imports
 * it first and loads LanceDB with a dynamic import afterwards.
 */

import os from 'node:os';

/** Lance's default reservation of cores for I/O (lance-core `LANCE_IO_CORE_RESERVATION`). */
const DEFAULT_IO_CORE_RESERVATION = 2;

/**
 * Sets LanceDB's environment defaults in `env` unless the user set them. Lance gives its CPU pool
 * `cores - reservation` threads (at least 1); with a single thread, building a full-text index over
 * more than ~2,330 rows never finishes (ENVIRONMENT.md), which is every 2-core laptop. We pin the
 * pool to the same size Lance would pick, but never below 2; an explicit LANCE_CPU_THREADS wins.
 * The full-text index is built by one worker (LANCE_FTS_NUM_SHARDS, see below) unless the user
 * says otherwise.
 */
export function applyLanceEnv(env: NodeJS.ProcessEnv = process.env, cores = os.availableParallelism()): void {
  if (env.LANCE_CPU_THREADS === undefined || env.LANCE_CPU_THREADS === '') {
    const parsed = Number.parseInt(env.LANCE_IO_CORE_RESERVATION ?? '', 10);
    const reservation = Number.isFinite(parsed) && parsed >= 0 ? parsed : DEFAULT_IO_CORE_RESERVATION;
    env.LANCE_CPU_THREADS = String(Math.max(2, cores - reservation));
  }
  // The full-text index is built by one worker: with several, each tokenizes the batches it
  // happens to take and their posting lists are merged in the order the workers finish, so two
  // builds of the same rows store documents in a different order. Equal BM25 scores then come
  // back in a different order, and a sibling manual's copy of a paragraph can take the last
  // place of a top-k in one build and not in the other: the same library gave two different
  // answers (tests/bench/RESULTS.md, session 14). One worker costs wall time only where the
  // whole index is built at once (92,568 rows on 2 cores: 1.9 -> 3.4 s, the same CPU).
  if (env.LANCE_FTS_NUM_SHARDS === undefined || env.LANCE_FTS_NUM_SHARDS === '') env.LANCE_FTS_NUM_SHARDS = '1';
  // Lance prints native WARN lines on stderr by default; the app logs its own errors.
  if (env.LANCEDB_LOG === undefined || env.LANCEDB_LOG === '') env.LANCEDB_LOG = 'error';
}

applyLanceEnv();
