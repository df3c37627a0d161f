// A real process that runs one engine call (a contract key and its JSON input) over a data folder
// and kills itself with SIGKILL the moment it enters a method named `Class.method` (on its Nth call
// with `Class.method#N`): what a kill at that moment leaves on disk, for moments too narrow to hit
// by timing. Prints "finished" when the call ended without meeting the method.
import path from 'node:path';
import type { Handlers } from '../../src-main/contract/api';
import { createEngine } from '../../src-main/engine/engine';
import { LibraryIndex } from '../../src-main/index/library-index';
import { Library, LibraryManager } from '../../src-main/storage/library.store';

const [dataDir, where, key, input] = process.argv.slice(2);
const point = /^(\w+)\.(\w+)(?:#(\d+))?$/.exec(where ?? '');
const classes: Record<string, { prototype: object }> = { Library, LibraryIndex, LibraryManager };
const proto = point ? (classes[point[1]!]?.prototype as Record<string, unknown> | undefined) : undefined;
if (!dataDir || !point || !proto || typeof proto[point[2]!] !== 'function' || !key || !input) {
  throw new Error('usage: die-inside.ts DATA_DIR Class.method[#N] CONTRACT_KEY JSON_INPUT');
}
const method = point[2]!;
const original = proto[method] as (...args: unknown[]) => unknown;
const nth = Number(point[3] ?? 1);
let calls = 0;
proto[method] = function (this: unknown, ...args: unknown[]) {
  if (++calls === nth) process.kill(process.pid, 'SIGKILL');
  return original.apply(this, args);
};

const engine = createEngine({ dataDir, bundledModelsDir: path.join(dataDir, 'no-models') });
const handler = engine.handlers[key as keyof Handlers] as (input: unknown) => Promise<unknown>;
await handler(JSON.parse(input));
await engine.idle();
await engine.dispose();
process.stdout.write('finished\n');
