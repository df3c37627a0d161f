import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { repoRoot } from '../helpers/temp';
import { runNode } from '../helpers/run-node';

/**
 * The long-running processes' safety net, in a real process: a thrown error, a thrown null and a
 * rejected promise nobody handles are each logged, and the process goes on to its next step.
 */
describe('logUnhandledFailures', () => {
  it('logs what nobody handled, whatever was thrown, and the process lives on', async () => {
    const helper = path.join(repoRoot, 'src-main', 'engine', 'process-failures.ts');
    const script = [
      `const { logUnhandledFailures } = await import(${JSON.stringify(helper)});`,
      'logUnhandledFailures((line) => console.log(line));',
      "setTimeout(() => { throw new Error('boom'); });",
      'setTimeout(() => { throw null; });',
      'void Promise.reject(undefined);',
      "setTimeout(() => console.log('still running'), 300);",
    ].join('\n');
    const run = await runNode(['--import', 'tsx', '--input-type=module', '-e', script]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('[manualmate] uncaught: Error: boom');
    expect(run.stdout).toContain('[manualmate] uncaught: null');
    expect(run.stdout).toContain('[manualmate] unhandled rejection: undefined');
    expect(run.stdout).toContain('still running');
  }, 30_000);
});
