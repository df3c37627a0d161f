import { describe, expect, it } from 'vitest';
import { RollingKeys } from '../../src-main/enrich/rolling-keys';

describe('RollingKeys (MDKeyChunker key dictionary)', () => {
  it('counts uses and lists keys most recently used first', () => {
    const keys = new RollingKeys();
    keys.use('power');
    keys.use('gpio');
    keys.use('power');
    expect(keys.entries()).toEqual([
      { key: 'power', uses: 2 },
      { key: 'gpio', uses: 1 },
    ]);
  });

  it('evicts the least recently used key when a 41st key arrives', () => {
    const keys = new RollingKeys();
    expect(keys.capacity).toBe(40);
    for (let i = 0; i < 40; i++) keys.use(`k${i}`);
    keys.use('k0'); // k0 is now the most recent, k1 the least recent
    keys.use('k40');
    expect(keys.size).toBe(40);
    expect(keys.has('k1')).toBe(false);
    expect(keys.has('k0')).toBe(true);
    expect(keys.entries()[0]).toEqual({ key: 'k40', uses: 1 });
    expect(keys.entries().find((e) => e.key === 'k0')?.uses).toBe(2);
  });

  it('forgets everything on reset (one dictionary per document)', () => {
    const keys = new RollingKeys(3);
    keys.use('a');
    keys.reset();
    expect(keys.size).toBe(0);
    expect(keys.entries()).toEqual([]);
  });

  it('rejects a capacity that is not a positive integer', () => {
    expect(() => new RollingKeys(0)).toThrow(RangeError);
    expect(() => new RollingKeys(2.5)).toThrow(RangeError);
  });
});
