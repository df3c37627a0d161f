import { describe, expect, it } from 'vitest';
import { runWithin } from '../../src-main/electron/shutdown';

describe('bounded shutdown', () => {
  it('reports a step that finishes', async () => {
    const logs: string[] = [];
    let disposed = false;
    expect(await runWithin(async () => void (disposed = true), 60_000, (m) => logs.push(m))).toBe('done');
    expect(disposed).toBe(true);
    expect(logs).toEqual([]);
  });

  it('gives up on a step that never finishes instead of hanging the quit', async () => {
    const logs: string[] = [];
    expect(await runWithin(() => new Promise<void>(() => undefined), 1, (m) => logs.push(m))).toBe('timed-out');
    expect(logs).toEqual([expect.stringContaining('did not finish within 1 ms')]);
  });

  it('logs a step that throws, synchronously or not, and still lets the app quit', async () => {
    const logs: string[] = [];
    expect(await runWithin(async () => Promise.reject(new Error('LanceDB close failed')), 60_000, (m) => logs.push(m))).toBe('failed');
    expect(
      await runWithin(
        () => {
          throw new Error('sync bug');
        },
        60_000,
        (m) => logs.push(m),
      ),
    ).toBe('failed');
    expect(logs).toEqual([expect.stringContaining('LanceDB close failed'), expect.stringContaining('sync bug')]);
  });
});
