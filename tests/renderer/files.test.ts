import { describe, expect, it } from 'vitest';
import { captureDrop, junkReason, keepNamesApart, MAX_DROPPED_FILES, pickedFromInput } from '../../src-renderer/src/util/files';

describe('junkReason', () => {
  it('names the system files that ride along with a selection, with what they are', () => {
    expect(junkReason('._rac-225b.pdf')).toMatch(/^macOS metadata for "rac-225b\.pdf" .*not a manual$/);
    expect(junkReason('.DS_Store')).toMatch(/macOS .*not a manual/);
    expect(junkReason('Thumbs.db')).toMatch(/Windows .*not a manual/);
    expect(junkReason('desktop.ini')).toMatch(/Windows .*not a manual/);
  });

  it('leaves any other name, hidden or not, to be imported', () => {
    for (const name of ['.pump-notes.md', '._', '.md', 'manual.pdf', 'DS_Store.md', '_x.pdf']) expect(junkReason(name), name).toBeNull();
  });
});

describe('keepNamesApart', () => {
  const file = (path: string) => ({ path, file: new File([path], path.split('/').pop()!) });
  const item = (name: string, paths: string[] = [name], folder = paths[0] !== name) => ({ name, folder, files: paths.map(file) });

  it('keeps every name of a drop whose items are named apart, and adds no note', () => {
    const out = keepNamesApart([item('manual.pdf'), item('docs', ['docs/a.md', 'docs/b/c.md'])]);
    expect(out.map((f) => f.path)).toEqual(['manual.pdf', 'docs/a.md', 'docs/b/c.md']);
    expect(out.some((f) => f.note)).toBe(false);
  });

  it('gives a later file of a taken name a numbered name of its own, skipping names the drop holds', () => {
    const out = keepNamesApart([item('manual.pdf'), item('Manual.PDF'), item('manual (2).pdf'), item('manual.pdf')]);
    expect(out.map((f) => f.path)).toEqual(['manual.pdf', 'Manual (3).PDF', 'manual (2).pdf', 'manual (4).pdf']);
    expect(out[1]!.note).toBe('Imported as "Manual (3).PDF": another file named "Manual.PDF" is in this drop.');
  });

  it('renames a later folder of a taken name as a whole, its files under the new name', () => {
    const out = keepNamesApart([item('docs', ['docs/a.md']), item('docs', ['docs/a.md', 'docs/x/b.md']), item('v1.2', ['v1.2/c.md']), item('v1.2', ['v1.2/c.md'])]);
    expect(out.map((f) => f.path)).toEqual(['docs/a.md', 'docs (2)/a.md', 'docs (2)/x/b.md', 'v1.2/c.md', 'v1.2 (2)/c.md']);
    expect(out[2]!.note).toBe('Imported as "docs (2)": another folder named "docs" is in this drop.');
  });
});

/**
 * The shapes a browser hands a drop handler (DataTransfer items and their FileSystem entries), for
 * the counting logic alone: the drop itself is driven in Chromium by tests/e2e/drop-limit.test.ts.
 */
type Entry = { name: string; isDirectory: boolean; isFile: boolean; fullPath: string; file?: (ok: (f: File) => void) => void; createReader?: () => { readEntries: (ok: (batch: Entry[]) => void) => void } };
const fileEntry = (fullPath: string): Entry => {
  const name = fullPath.split('/').pop()!;
  return { name, isDirectory: false, isFile: true, fullPath, file: (ok) => ok(new File([fullPath], name)) };
};
const folderEntry = (fullPath: string, children: Entry[]): Entry => {
  return {
    name: fullPath.split('/').pop()!,
    isDirectory: true,
    isFile: false,
    fullPath,
    createReader: () => {
      let at = 0;
      // As Chromium does: at most 100 entries a call, then an empty batch.
      return { readEntries: (ok) => ok(children.slice(at, (at += 100))) };
    },
  };
};
const dataTransfer = (entries: Entry[]) =>
  ({
    items: entries.map((e) => ({ kind: 'file', webkitGetAsEntry: () => e, getAsFile: () => (e.isDirectory ? null : new File([e.fullPath], e.name)) })),
    files: [],
  }) as unknown as DataTransfer;

describe('a drop or a pick of more files than one drop takes', () => {
  it('takes the first MAX_DROPPED_FILES files and counts the rest, leaving hidden files and junk out of the count', async () => {
    const singles = Array.from({ length: MAX_DROPPED_FILES }, (_, i) => fileEntry(`/bulletin-${i}.md`));
    const dropped = captureDrop(
      dataTransfer([
        folderEntry('/docs', [fileEntry('/docs/a.md'), fileEntry('/docs/b.md'), folderEntry('/docs/sub', [fileEntry('/docs/sub/c.md')])]),
        ...singles,
        fileEntry('/._bulletin-1.md'),
        folderEntry('/more', [fileEntry('/more/d.md'), fileEntry('/more/.DS_Store'), folderEntry('/more/e', [fileEntry('/more/e/f.md')])]),
      ]),
    );
    const { files, skipped, leftOut } = await dropped();
    expect(files).toHaveLength(MAX_DROPPED_FILES);
    expect(files.slice(0, 4).map((f) => f.path)).toEqual(['docs/a.md', 'docs/b.md', 'docs/sub/c.md', 'bulletin-0.md']);
    // 3 of the single files did not fit, nor did the 2 files of "more".
    expect(leftOut).toBe(5);
    // Junk is told, not counted, whether or not its folder's files fit.
    expect(skipped.map((k) => k.file)).toEqual(['._bulletin-1.md', 'more/.DS_Store']);
  });

  it('counts nothing left out of a drop that fits', async () => {
    const { files, leftOut } = await captureDrop(dataTransfer([fileEntry('/a.md'), folderEntry('/docs', [fileEntry('/docs/b.md')])]))();
    expect(files.map((f) => f.path)).toEqual(['a.md', 'docs/b.md']);
    expect(leftOut).toBe(0);
  });

  it('counts the files a file picker chose beyond the limit', () => {
    const chosen = Array.from({ length: MAX_DROPPED_FILES + 2 }, (_, i) => new File(['x'], `m${i}.md`));
    const { files, leftOut } = pickedFromInput(chosen as unknown as FileList);
    expect(files).toHaveLength(MAX_DROPPED_FILES);
    expect(leftOut).toBe(2);
  });
});

describe('what a dropped or picked folder holds that is not imported', () => {
  const picked = (relPath: string) => {
    const file = new File([relPath], relPath.split('/').pop()!);
    Object.defineProperty(file, 'webkitRelativePath', { value: relPath });
    return file;
  };

  it('leaves out a picked folder\'s hidden folders, hidden files, tool folders and junk, each said once in the command line\'s words', () => {
    const chosen = ['docs/a.md', 'docs/.git/notes.md', 'docs/.git/x/y.md', 'docs/.vscode/tasks.md', 'docs/sub/.draft.md', 'docs/node_modules/p/readme.md', 'docs/.DS_Store', 'docs/sub/b.md'].map(picked);
    const { files, skipped } = pickedFromInput(chosen as unknown as FileList);
    expect(files.map((f) => f.path)).toEqual(['docs/a.md', 'docs/sub/b.md']);
    expect(skipped).toEqual([
      { file: 'docs/.git', reason: 'hidden folder' },
      { file: 'docs/.vscode', reason: 'hidden folder' },
      { file: 'docs/sub/.draft.md', reason: 'hidden' },
      { file: 'docs/node_modules', reason: 'tool folder (node_modules)' },
      { file: 'docs/.DS_Store', reason: 'macOS folder view settings, not a manual' },
    ]);
  });

  it('lists what a dropped folder leaves out, under the name the folder is imported as', async () => {
    const docs = (top: string) =>
      folderEntry(top, [fileEntry(`${top}/a.md`), folderEntry(`${top}/.git`, [fileEntry(`${top}/.git/notes.md`)]), fileEntry(`${top}/.draft.md`), fileEntry(`${top}/Thumbs.db`)]);
    const { files, skipped } = await captureDrop(dataTransfer([docs('/docs'), docs('/docs')]))();
    expect(files.map((f) => f.path)).toEqual(['docs/a.md', 'docs (2)/a.md']);
    expect(skipped.map((k) => `${k.file}: ${k.reason}`)).toEqual([
      'docs/.git: hidden folder',
      'docs/.draft.md: hidden',
      'docs/Thumbs.db: Windows thumbnail cache, not a manual',
      'docs (2)/.git: hidden folder',
      'docs (2)/.draft.md: hidden',
      'docs (2)/Thumbs.db: Windows thumbnail cache, not a manual',
    ]);
  });
});
