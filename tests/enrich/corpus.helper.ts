import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NormalizedDocument } from '../../src-main/core/document';
import { normalizeMarkdown } from '../../src-main/ingest/normalize';

/** Repository root, from this file's location (tests/enrich/). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A corpus folder under `root` (one of `corpusRoots`: the fixture cut or ../shared/corpus). */
export function corpusDir(name: string, root: string): string {
  return path.resolve(root, name);
}

function walk(dir: string, out: string[]): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (/\.mdx?$/i.test(e.name) && !/^license/i.test(e.name)) out.push(p);
  }
  return out;
}

/** Builds a normalized document from Markdown with the given id (as the importer would). */
export function markdownDocument(id: string, markdown: string): NormalizedDocument {
  const parsed = normalizeMarkdown({ markdown, format: 'markdown', fallbackTitle: path.basename(id).replace(/\.[^.]+$/, '') });
  return { ...parsed, id, contentHash: createHash('sha256').update(markdown).digest('hex') };
}

/**
 * Loads every Markdown document of a corpus folder; ids are paths relative to the folder's parent
 * (`radxa-docs/rock5/rock5b/...`), as the question files expect.
 */
export function loadCorpus(name: string, root: string): NormalizedDocument[] {
  const dir = corpusDir(name, root);
  const parent = path.dirname(dir);
  return walk(dir, [])
    .sort()
    .map((file) => markdownDocument(path.relative(parent, file).split(path.sep).join('/'), readFileSync(file, 'utf8')));
}
