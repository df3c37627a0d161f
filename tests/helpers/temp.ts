import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root, from this file's location. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The shared corpora and question files live beside the repository, never inside it. */
export const sharedDir = path.resolve(repoRoot, '..', 'shared');

/**
 * Folders holding the corpus folders (`radxa-docs`, `esp-dev-kits`, …): `fixture` is the small cut
 * in the repository that `npm test` reads (tests/fixtures/corpus, with its question file);
 * `shared` is ../shared/corpus, read only by `npm run test:corpus`.
 */
export const corpusRoots = {
  fixture: path.join(repoRoot, 'tests', 'fixtures', 'corpus'),
  shared: path.join(sharedDir, 'corpus'),
} as const;

/** A fresh temp folder and its cleanup. */
export async function tempDir(prefix = 'manualmate-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
