import { describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from '../helpers/temp';

/** Most lines a src-main file has before its header comment must say why it is longer. */
const MAX_LINES = 500;

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(full)));
    else if (entry.name.endsWith('.ts')) out.push(full);
  }
  return out;
}

describe('src-main file sizes', () => {
  it(`gives every file over ${MAX_LINES} lines a reason in its header comment ("Longer than ${MAX_LINES} lines ...")`, async () => {
    const files = await sourceFiles(path.join(repoRoot, 'src-main'));
    expect(files.length).toBeGreaterThan(50);
    const unexplained: string[] = [];
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      if (lines <= MAX_LINES) continue;
      // The header: the file's first block comment (before or right after its imports).
      const header = /\/\*[\s\S]*?\*\//.exec(text)?.[0] ?? '';
      if (!new RegExp(`longer than ${MAX_LINES} lines`, 'i').test(header)) unexplained.push(`${path.relative(repoRoot, file)} (${lines} lines)`);
    }
    expect(unexplained).toEqual([]);
  });
});
