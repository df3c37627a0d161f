import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './temp';

/** The fixture process that takes a library's lock file and holds it until it is killed. */
const holder = path.join(repoRoot, 'tests', 'engine', 'fixtures', 'hold-lock.ts');

/** Starts a process holding `lockFile` (for `purpose`, else the fixture's own); resolves once it says it holds it. */
export function holdInAnotherProcess(lockFile: string, purpose?: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', holder, lockFile, ...(purpose === undefined ? [] : [purpose])], { stdio: ['ignore', 'pipe', 'inherit'], cwd: repoRoot });
    child.on('error', reject);
    child.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('held')) resolve(child);
      else reject(new Error(`holder: ${d.toString()}`));
    });
  });
}

/** Kills `child` and resolves once it has exited (at once if it already has). */
export const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
