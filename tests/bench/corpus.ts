import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Every Markdown/MDX file below `dir`, recursively, in directory order. */
export async function markdownFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await markdownFiles(p)));
    else if (/\.(md|mdx)$/i.test(e.name)) out.push(p);
  }
  return out;
}
