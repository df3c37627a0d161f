import { describe, expect, it } from 'vitest';
import { junkReason, keepNamesApart } from '../../src-renderer/src/util/files';

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
