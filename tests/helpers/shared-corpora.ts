import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * What `npm run test:corpus` reads from ../shared (paths relative to it). Run directly, this file
 * prints in one line what is missing and exits 1; as the corpus project's global setup it fails the
 * run with the same sentence, so the corpus checks never pass silently without their corpora.
 */
export const SHARED_NEEDS = [
  'bench/dev.jsonl',
  'bench/galaxy-s10.jsonl',
  'bench/smart-tv.jsonl',
  'corpus/radxa-docs',
  'corpus/esp-dev-kits',
  'corpus/emanual/galaxy',
  'corpus/emanual/smart-tv',
] as const;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The sentence saying what is missing under `sharedDir` (default ../shared), or null when nothing is. */
export function sharedProblem(sharedDir = path.resolve(repoRoot, '..', 'shared')): string | null {
  const shown = path.relative(repoRoot, sharedDir).split(path.sep).join('/') || sharedDir;
  if (!existsSync(sharedDir)) {
    return `npm run test:corpus reads the benchmark corpora from ${shown} beside the repository, which is missing (it needs ${SHARED_NEEDS.join(', ')}).`;
  }
  const missing = SHARED_NEEDS.filter((p) => !existsSync(path.join(sharedDir, p)));
  return missing.length ? `npm run test:corpus is missing ${missing.map((p) => `${shown}/${p}`).join(', ')}.` : null;
}

/** Vitest global setup of the corpus project. */
export default function setup(): void {
  const problem = sharedProblem();
  if (problem) throw new Error(problem);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const problem = sharedProblem();
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
}
