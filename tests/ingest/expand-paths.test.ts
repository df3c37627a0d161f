import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { junkReason } from '../../src-main/core/import-names';
import { expandPaths } from '../../src-main/ingest/expand-paths';
import { tempDir } from '../helpers/temp';

/** The folder walk of an import: what it lists, what it leaves out and why, and that it yields to the event loop. */

async function tree(root: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), text);
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('expandPaths', () => {
  it('lists supported files under the named folder, and each file it leaves out with the reason', async () => {
    const tmp = await tempDir();
    try {
      const docs = path.join(tmp.dir, 'docs');
      await tree(docs, {
        'a.md': '# A',
        'b/c.txt': 'C',
        'b/d/e.html': '<p>E</p>',
        'z.md': '# Z',
        'drawing.dwg': 'x',
        'README': 'no extension',
        '.draft.md': '# hidden',
        '.cache/x.md': '# hidden folder',
        'node_modules/pkg/readme.md': '# tool',
      });
      await symlink(path.join(docs, 'a.md'), path.join(docs, 'alias.md'));
      await symlink('/etc/hostname', path.join(docs, 'escape.md'));
      await symlink(path.join(docs, 'missing.md'), path.join(docs, 'broken.md'));
      const single = path.join(tmp.dir, 'single.md');
      await writeFile(single, '# One');

      const { candidates, skipped } = await expandPaths([docs, single, path.join(tmp.dir, 'absent.md')]);

      expect(candidates.map((c) => [c.id, c.failure?.code ?? null])).toEqual([
        ['docs/a.md', null],
        ['docs/z.md', null],
        ['docs/b/c.txt', null],
        ['docs/b/d/e.html', null],
        ['single.md', null],
        ['absent.md', 'unreadable'],
      ]);
      expect(candidates[0]!.abs).toBe(path.join(docs, 'a.md'));
      expect(candidates[5]!.failure?.reason).toMatch(/does not exist/);
      expect(skipped).toEqual(
        expect.arrayContaining([
          { file: 'docs/.cache', reason: 'hidden folder' },
          { file: 'docs/.draft.md', reason: 'hidden' },
          { file: 'docs/README', reason: 'unsupported type (no extension)' },
          { file: 'docs/alias.md', reason: 'symlink (not followed; its target inside the folder is imported under its own name)' },
          { file: 'docs/broken.md', reason: 'broken symlink' },
          { file: 'docs/drawing.dwg', reason: 'unsupported type .dwg' },
          { file: 'docs/escape.md', reason: 'symlink outside the folder' },
          { file: 'docs/node_modules', reason: 'tool folder (node_modules)' },
        ]),
      );
      expect(skipped).toHaveLength(8);
    } finally {
      await tmp.cleanup();
    }
  });

  it('skips system junk, named by itself or found in a folder, with the words a browser drop uses', async () => {
    const tmp = await tempDir();
    try {
      await tree(tmp.dir, {
        'a/._manual.pdf': 'AppleDouble',
        'a/Thumbs.db': 'cache',
        'a/.pump-notes.md': '# Notes',
        'docs/manual.md': '# Manual',
        'docs/.DS_Store': 'view',
        'docs/desktop.ini': '[.ShellClassInfo]',
        'docs/._manual.md': 'AppleDouble',
      });
      const named = ['a/._manual.pdf', 'a/Thumbs.db', 'a/.pump-notes.md', 'docs'].map((p) => path.join(tmp.dir, p));
      const { candidates, skipped } = await expandPaths(named);
      // A hidden name the user chose is no junk: it is imported, as a browser drop imports it.
      expect(candidates.map((c) => [c.id, c.failure?.code ?? null])).toEqual([
        ['.pump-notes.md', null],
        ['docs/manual.md', null],
      ]);
      expect(skipped).toEqual([
        { file: '._manual.pdf', reason: junkReason('._manual.pdf') },
        { file: 'Thumbs.db', reason: junkReason('Thumbs.db') },
        { file: 'docs/.DS_Store', reason: junkReason('.DS_Store') },
        { file: 'docs/._manual.md', reason: junkReason('._manual.md') },
        { file: 'docs/desktop.ini', reason: junkReason('desktop.ini') },
      ]);
      expect(skipped[0]!.reason).toBe('macOS metadata for "manual.pdf" (an AppleDouble file), not a manual');
    } finally {
      await tmp.cleanup();
    }
  });

  it('gives a later file or folder of a name already named a name of its own, saying why, as a browser drop does', async () => {
    const tmp = await tempDir();
    try {
      await tree(tmp.dir, {
        'a/manual.md': '# A',
        'b/manual.md': '# B',
        'c/Manual.MD': '# C',
        'x/docs/one.md': '# One',
        'y/docs/two.md': '# Two',
        'y/docs/sub/three.md': '# Three',
      });
      const p = (rel: string) => path.join(tmp.dir, rel);
      const named = [p('a/manual.md'), p('b/manual.md'), p('c/Manual.MD'), p('x/docs'), p('y/docs'), p('a/manual.md')];
      const { candidates, skipped } = await expandPaths(named);
      expect(candidates.map((c) => [c.id, c.abs, c.note ?? null])).toEqual([
        ['manual.md', p('a/manual.md'), null],
        ['manual (2).md', p('b/manual.md'), `Imported as "manual (2).md" from ${p('b/manual.md')}: another file named "manual.md" is in this import.`],
        ['Manual (3).MD', p('c/Manual.MD'), `Imported as "Manual (3).MD" from ${p('c/Manual.MD')}: another file named "Manual.MD" is in this import.`],
        ['docs/one.md', p('x/docs/one.md'), null],
        ['docs (2)/two.md', p('y/docs/two.md'), `Imported as "docs (2)" from ${p('y/docs')}: another folder named "docs" is in this import.`],
        ['docs (2)/sub/three.md', p('y/docs/sub/three.md'), `Imported as "docs (2)" from ${p('y/docs')}: another folder named "docs" is in this import.`],
      ]);
      // The same path named twice is one file, imported once, and said so.
      expect(skipped).toEqual([{ file: 'manual.md', reason: `${p('a/manual.md')} is named twice in this import; it is imported once` }]);
    } finally {
      await tmp.cleanup();
    }
  });

  it('imports a file or folder named both by itself and through a folder named beside it once, under the folder', async () => {
    const tmp = await tempDir();
    try {
      const docs = path.join(tmp.dir, 'docs');
      await tree(docs, { 'a.md': '# A', 'sub/b.md': '# B', '.hidden/c.md': '# C' });
      await symlink(docs, path.join(tmp.dir, 'docs-link'));
      const at = (rel: string) => path.join(docs, rel);
      const { candidates, skipped } = await expandPaths([at('a.md'), docs, at('sub'), at('sub/b.md'), at('.hidden/c.md'), path.join(tmp.dir, 'docs-link')]);
      // c.md is not reached by the folder's walk (its folder is hidden): named by itself, it is imported by itself.
      expect(candidates.map((c) => c.id).sort()).toEqual(['c.md', 'docs/a.md', 'docs/sub/b.md']);
      expect(candidates.some((c) => c.note)).toBe(false);
      expect(skipped).toEqual(
        expect.arrayContaining([
          { file: 'a.md', reason: `${at('a.md')} is also in ${docs}, named in this import: it is imported once, as "docs/a.md"` },
          { file: 'sub', reason: `${at('sub')} is also in ${docs}, named in this import: it is imported once, as "docs/sub"` },
          { file: 'b.md', reason: `${at('sub/b.md')} is also in ${docs}, named in this import: it is imported once, as "docs/sub/b.md"` },
          { file: 'docs-link', reason: `${path.join(tmp.dir, 'docs-link')} is also in ${docs}, named in this import: it is imported once, as "docs"` },
        ]),
      );
    } finally {
      await tmp.cleanup();
    }
  });

  it('lets the event loop turn while it walks, so a long walk never blocks the app', async () => {
    const tmp = await tempDir();
    try {
      const docs = path.join(tmp.dir, 'docs');
      await tree(docs, Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}/doc.md`, `# Doc ${i}`])));
      // Every look at the clock finds the walk's time slice used up: it must yield at each folder.
      let now = 0;
      vi.spyOn(performance, 'now').mockImplementation(() => (now += 10));
      let turns = 0;
      let counting = true;
      const count = (): void => {
        turns++;
        if (counting) setImmediate(count);
      };
      setImmediate(count);
      const { candidates } = await expandPaths([docs]);
      counting = false;
      expect(candidates).toHaveLength(12);
      expect(turns).toBeGreaterThanOrEqual(12);
    } finally {
      await tmp.cleanup();
    }
  });
});
