import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BLOCK_KINDS } from '../../src-main/core/document';
import type { ParsedDocument } from '../../src-main/core/document';

/** Repository root, from this file's location (tests/ingest/). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Absolute path of a corpus folder under `root` (one of `corpusRoots`: the fixture cut or ../shared/corpus). */
export const corpusDir = (name: string, root: string): string => path.resolve(root, name);

/** Every Markdown/MDX file under `dir`, sorted, as paths relative to `dir`'s parent. */
export function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(md|mdx|markdown)$/i.test(e.name)) out.push(path.relative(path.dirname(dir), p).split(path.sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * Checks the NormalizedDocument invariants of `core/document.ts` and returns every violation as
 * a sentence (empty when the document is sound): sorted, non-overlapping blocks that are exact,
 * trimmed, non-empty slices with only whitespace between them; heading paths that follow the
 * heading levels; pages within range and non-decreasing.
 */
export function invariantViolations(doc: ParsedDocument): string[] {
  const v: string[] = [];
  const kinds = new Set<string>(BLOCK_KINDS);
  const stack: { level: number; text: string }[] = [];
  let prevEnd = 0;
  let prevPage = 0;
  doc.blocks.forEach((b, i) => {
    const where = `block ${i} (${b.kind} ${b.start}-${b.end})`;
    if (!kinds.has(b.kind)) v.push(`${where}: unknown kind`);
    if (b.start < prevEnd) v.push(`${where}: overlaps or is out of order`);
    if (b.end <= b.start || b.end > doc.text.length) v.push(`${where}: empty or out of range`);
    const slice = doc.text.slice(b.start, b.end);
    if (/^\s|\s$/.test(slice)) v.push(`${where}: leading or trailing whitespace`);
    if (/\S/.test(doc.text.slice(prevEnd, b.start))) v.push(`${where}: non-whitespace text before it is in no block`);
    if (b.kind === 'heading') {
      if (!b.level || b.level < 1 || b.level > 6) v.push(`${where}: bad heading level`);
      while (stack.length && stack[stack.length - 1]!.level >= (b.level ?? 1)) stack.pop();
      stack.push({ level: b.level ?? 1, text: b.headingPath[b.headingPath.length - 1] ?? '' });
    } else if (b.level !== undefined) v.push(`${where}: level on a non-heading block`);
    const expected = stack.map((s) => s.text);
    if (JSON.stringify(expected) !== JSON.stringify(b.headingPath)) {
      v.push(`${where}: heading path ${JSON.stringify(b.headingPath)} should be ${JSON.stringify(expected)}`);
    }
    if (doc.pageCount === null) {
      if (b.page !== null || b.pageEnd !== null) v.push(`${where}: page set on a format without pages`);
    } else {
      if (b.page === null || b.pageEnd === null || b.page < 1 || b.pageEnd < b.page || b.pageEnd > doc.pageCount) v.push(`${where}: bad pages ${b.page}-${b.pageEnd}`);
      if ((b.page ?? 0) < prevPage) v.push(`${where}: page goes backwards`);
      prevPage = b.page ?? prevPage;
    }
    prevEnd = Math.max(prevEnd, b.end);
  });
  if (/\S/.test(doc.text.slice(prevEnd))) v.push('non-whitespace text after the last block is in no block');
  if (!doc.title.trim()) v.push('empty title');
  return v;
}

/** The question files' relevance normalization (DESIGN.md): entities, tags, Markdown marks, spaces, case. */
export function benchNormalize(text: string): string {
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/<[^>]+>/g, ' ')
    .replace(/[*_`|]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}
