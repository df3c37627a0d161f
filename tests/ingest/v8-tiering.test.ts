import v8 from 'node:v8';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type * as Tiering from '../../src-main/ingest/v8-tiering';

// A fresh copy of the module for each test: it applies its flags once per process.
const load = (): Promise<typeof Tiering> => import('../../src-main/ingest/v8-tiering');

describe('applyV8Tiering', () => {
  let set: MockInstance<typeof v8.setFlagsFromString>;
  beforeEach(() => {
    vi.resetModules();
    set = vi.spyOn(v8, 'setFlagsFromString').mockImplementation(() => undefined);
  });
  afterEach(() => set.mockRestore());

  it('sets each tiering flag once, however often it is called', async () => {
    const { applyV8Tiering, V8_TIERING_FLAGS } = await load();
    applyV8Tiering([], '');
    applyV8Tiering([], '');
    expect(set.mock.calls.map((c) => c[0])).toEqual([...V8_TIERING_FLAGS]);
  });

  it('raises the optimizing budget above V8 defaults of 66 KB and 132 KB', async () => {
    const { INTERRUPT_BUDGET, V8_TIERING_FLAGS } = await load();
    expect(INTERRUPT_BUDGET).toBeGreaterThan(132 * 1024);
    expect(V8_TIERING_FLAGS).toContain(`--interrupt-budget=${INTERRUPT_BUDGET}`);
  });

  it.each([
    ['the command line', ['--interrupt-budget=1000'], ''],
    ['the command line, spelt with underscores', ['--interrupt_budget=1000'], ''],
    ["Electron's --js-flags", ['--js-flags=--interrupt-budget=1000 --trace-opt'], ''],
    ['NODE_OPTIONS', [], '--max-old-space-size=2048 --interrupt-budget=1000'],
  ])('leaves the flag alone when the user set it on %s', async (_where, argv, nodeOptions) => {
    const { applyV8Tiering } = await load();
    applyV8Tiering(argv, nodeOptions);
    expect(set).not.toHaveBeenCalled();
  });

  it('still sets it when only other flags were given', async () => {
    const { applyV8Tiering } = await load();
    applyV8Tiering(['--import', 'tsx', '--max-semi-space-size=32'], '--max-old-space-size=2048');
    expect(set).toHaveBeenCalledTimes(1);
  });
});
