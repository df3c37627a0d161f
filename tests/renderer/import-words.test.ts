import { describe, expect, it } from 'vitest';
import { alreadyInLibrary, finishedImportTitle, importCountsLine, leftOutLine, withNotes, type ImportCounts } from '../../src-renderer/src/util/import-words';

const counts = (c: Partial<ImportCounts>): ImportCounts => ({ imported: 0, already: 0, replaced: 0, failed: 0, cancelled: 0, ...c });

describe('finishedImportTitle', () => {
  it('names files already in the library apart from those that failed', () => {
    expect(finishedImportTitle('Pumps', counts({ already: 1, failed: 2 }))).toBe('2 files could not be imported; 1 was already in Pumps');
    expect(finishedImportTitle('Pumps', counts({ already: 3, failed: 1 }))).toBe('1 file could not be imported; 3 were already in Pumps');
  });

  it('says nothing new came when every file was already there, never that the import failed or imported', () => {
    expect(finishedImportTitle('Pumps', counts({ already: 1 }))).toBe('Nothing new: 1 file was already in Pumps');
    expect(finishedImportTitle('Pumps', counts({ already: 4 }))).toBe('Nothing new: 4 files were already in Pumps');
  });

  it('keeps "failed" for an import where every file failed, and "imported" where any file came in, naming those that failed', () => {
    expect(finishedImportTitle('Pumps', counts({ failed: 2 }))).toBe('Import into Pumps failed');
    expect(finishedImportTitle('Pumps', counts({ imported: 1, already: 2 }))).toBe('Imported into Pumps');
    expect(finishedImportTitle('Pumps', counts({ imported: 1, already: 2, failed: 1 }))).toBe('Imported into Pumps; 1 file could not be imported');
    expect(finishedImportTitle('Pumps', counts({ replaced: 2, failed: 3 }))).toBe('Imported into Pumps; 3 files could not be imported');
    expect(finishedImportTitle('Pumps', counts({ replaced: 1 }))).toBe('Imported into Pumps');
  });

  it('says a cancelled import was cancelled, and an import of nothing that nothing came in', () => {
    expect(finishedImportTitle('Pumps', counts({ imported: 3, cancelled: 2 }))).toBe('Import into Pumps cancelled');
    expect(finishedImportTitle('Pumps', counts({}))).toBe('Nothing imported into Pumps');
  });
});

describe('importCountsLine', () => {
  it('names files already in the library with the library, as the headline does', () => {
    const s = counts({ already: 1, failed: 2 });
    expect(importCountsLine('Pumps', s)).toBe('1 already in Pumps · 2 failed');
    expect(finishedImportTitle('Pumps', s)).toContain('already in Pumps');
    expect(alreadyInLibrary('Pumps')).toBe('Already in Pumps.');
    expect(alreadyInLibrary('Pumps', 'rac-225b.pdf')).toBe('Already in Pumps as "rac-225b.pdf" (the same file), so not imported twice.');
  });

  it('lists each outcome that happened, in one order, and nothing for those that did not', () => {
    expect(importCountsLine('Pumps', counts({ imported: 2, replaced: 1, already: 3, failed: 1, cancelled: 4 }))).toBe('2 imported · 1 replaced · 3 already in Pumps · 1 failed · 4 cancelled');
    expect(importCountsLine('Pumps', counts({ replaced: 1 }))).toBe('1 replaced');
  });
});

describe('withNotes', () => {
  it("adds the engine's notes to a card's, keeping the page's own", () => {
    const page = { 'docs (2)/a.md': 'Imported as "docs (2)": another folder named "docs" is in this drop.' };
    const engine = [{ file: 'manual.md' }, { file: 'manual (2).md', note: 'Imported as "manual (2).md" from /b/manual.md: another file named "manual.md" is in this import.' }];
    expect(withNotes(page, engine)).toEqual({ ...page, 'manual (2).md': engine[1]!.note });
    expect(withNotes(undefined, engine)).toEqual({ 'manual (2).md': engine[1]!.note });
  });

  it('gives back the same notes when nothing is added, so the card is not drawn again', () => {
    const page = { 'a.md': 'x' };
    expect(withNotes(page, [{ file: 'b.md' }, { file: 'a.md', note: 'x' }])).toBe(page);
    expect(withNotes(undefined, [{ file: 'b.md' }])).toBeUndefined();
  });
});

describe('leftOutLine', () => {
  it('says how many files a drop left out and why', () => {
    expect(leftOutLine(1, 10_000)).toBe('1 more file was left out: one drop takes at most 10000 files. Drop the rest in smaller parts (a folder at a time) to import them.');
    expect(leftOutLine(12_345, 10_000)).toMatch(/^12345 more files were left out: one drop takes at most 10000 files\./);
  });
});
