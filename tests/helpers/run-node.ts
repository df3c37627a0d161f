import { spawn } from 'node:child_process';

/** What a finished child process wrote, and its exit code (null when a signal ended it). */
export interface NodeRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node ...args` (this Node binary) as a real child process and collects its output: how
 * the tests drive the CLI, a second writer or a crash. `env` is added to this process's own.
 */
export function runNode(args: string[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<NodeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], ...(options.env ? { env: { ...process.env, ...options.env } } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
