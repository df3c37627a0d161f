import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The recorder module, for `node --import` in child processes. */
export const socketRecorder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'record-sockets.mjs');

/** Hosts that are this computer: a connection to them never leaves it. */
const LOOPBACK = /^(127(\.\d{1,3}){3}|localhost|::1|\[::1\])$/;

/** The `host:port` targets (as record-sockets.mjs writes them) whose host is not loopback. */
export function leavingHost(targets: readonly string[]): string[] {
  return targets.filter((t) => !LOOPBACK.test(t.slice(0, t.lastIndexOf(':'))));
}

/** Targets recorded to a file by a process run with `--import tests/helpers/record-sockets.mjs`. */
export async function recordedIn(file: string): Promise<string[]> {
  return (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean);
}

/** Starts recording this process's outgoing connections; returns what was recorded so far on each call. */
export async function recordThisProcess(): Promise<() => string[]> {
  await import(pathToFileURL(socketRecorder).href);
  const g = globalThis as unknown as { __recordedSockets: string[] };
  const start = g.__recordedSockets.length;
  return () => g.__recordedSockets.slice(start);
}
