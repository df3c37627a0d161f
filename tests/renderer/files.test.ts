import { describe, expect, it } from 'vitest';
import { junkReason } from '../../src-renderer/src/util/files';

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
