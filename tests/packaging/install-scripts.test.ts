// npm (11.16+) reads `allowScripts` in package.json: which dependencies may run install scripts.
// npm 11 warns about every dependency with a script not listed there and npm 12 skips them, so
// each one is decided here; the two whose scripts only download binaries the app never uses (CUDA
// providers for onnxruntime-node, a llama.cpp build when no prebuilt binary fits) are denied, which
// is what lets `npm ci` succeed on an offline machine with no environment variable set.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/temp';

const readJson = (file: string) => JSON.parse(readFileSync(path.join(repoRoot, file), 'utf8')) as Record<string, unknown>;
const pkg = readJson('package.json') as { allowScripts?: Record<string, boolean> };
const lock = readJson('package-lock.json') as { packages: Record<string, { version?: string; hasInstallScript?: boolean }> };

/** Each locked package with an install script, as `name@version` (a nested copy keeps its own name). */
const withScripts = Object.entries(lock.packages)
  .filter(([where, p]) => where !== '' && p.hasInstallScript)
  .map(([where, p]) => ({ name: where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length), version: p.version ?? '' }));

/** The entry npm applies: a pinned `name@version` key wins over the bare name. */
const decision = (name: string, version: string): boolean | undefined => pkg.allowScripts?.[`${name}@${version}`] ?? pkg.allowScripts?.[name];

describe('install scripts (package.json allowScripts)', () => {
  it('decides every locked dependency that has an install script', () => {
    expect(withScripts.length).toBeGreaterThan(0);
    const undecided = withScripts.filter((p) => decision(p.name, p.version) === undefined).map((p) => `${p.name}@${p.version}`);
    expect(undecided, `add these to allowScripts (npm install-scripts approve|deny <name>): ${undecided.join(', ')}`).toEqual([]);
  });

  it('denies the scripts that only download binaries the app does not use', () => {
    for (const name of ['onnxruntime-node', 'node-llama-cpp']) {
      expect(withScripts.some((p) => p.name === name), `${name} is locked with an install script`).toBe(true);
      expect(decision(name, ''), name).toBe(false);
    }
  });

  it('lists no package that is not locked (a stale entry hides nothing but misleads)', () => {
    const locked = new Set(withScripts.map((p) => p.name));
    const stale = Object.keys(pkg.allowScripts ?? {})
      .map((key) => key.replace(/(?<=.)@[^@]*$/, ''))
      .filter((name) => !locked.has(name));
    expect(stale).toEqual([]);
  });
});
