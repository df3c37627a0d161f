import { describe, expect, it } from 'vitest';
import { applyLanceEnv } from '../../src-main/storage/lance-env';

describe('applyLanceEnv', () => {
  it('gives LanceDB at least two CPU workers on a 2-core machine', () => {
    const env: NodeJS.ProcessEnv = {};
    applyLanceEnv(env, 2);
    expect(env.LANCE_CPU_THREADS).toBe('2');
    expect(env.LANCEDB_LOG).toBe('error');
  });

  it('builds the full-text index with one worker, so the same rows make the same index', () => {
    const env: NodeJS.ProcessEnv = {};
    applyLanceEnv(env, 16);
    expect(env.LANCE_FTS_NUM_SHARDS).toBe('1');
  });

  it("keeps LanceDB's own sizing (cores minus the I/O reservation) on bigger machines", () => {
    const env: NodeJS.ProcessEnv = {};
    applyLanceEnv(env, 16);
    expect(env.LANCE_CPU_THREADS).toBe('14');
    const reserved: NodeJS.ProcessEnv = { LANCE_IO_CORE_RESERVATION: '3' };
    applyLanceEnv(reserved, 4);
    expect(reserved.LANCE_CPU_THREADS).toBe('2');
  });

  it('never overrides values the user set', () => {
    const env: NodeJS.ProcessEnv = { LANCE_CPU_THREADS: '1', LANCEDB_LOG: 'debug', LANCE_FTS_NUM_SHARDS: '4' };
    applyLanceEnv(env, 2);
    expect(env).toEqual({ LANCE_CPU_THREADS: '1', LANCEDB_LOG: 'debug', LANCE_FTS_NUM_SHARDS: '4' });
  });

  it('has configured this process when the module was imported', () => {
    expect(Number(process.env.LANCE_CPU_THREADS)).toBeGreaterThanOrEqual(2);
    expect(process.env.LANCE_FTS_NUM_SHARDS).toBeDefined();
  });
});
