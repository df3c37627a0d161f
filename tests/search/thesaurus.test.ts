import { describe, expect, it } from 'vitest';
import { expandQuery, synonymMap } from '../../src-main/search/thesaurus';
import { contentTerms } from '../../src-main/enrich/text.util';

describe('query expansion for keyword search', () => {
  it('adds how manuals say what technicians ask', () => {
    expect(expandQuery('How big is the Cubie A7S board?').split(' ')).toEqual(expect.arrayContaining(['dimensions', 'mm']));
    expect(expandQuery('Cubie A7A RAM options')).toContain('memory');
    expect(expandQuery('does it ship with a power adapter in the box')).toContain('package');
    // "off" is a word of its own: the manual says the board "cannot be shut down".
    expect(expandQuery('My board will not turn off on USB power')).toContain('shut down');
    // A user's "issue" is the manual's "problem" ("There Is a Problem with the Picture").
    expect(expandQuery('How do I fix the screen color issues?')).toContain('problem');
    // Datasheets abbreviate the crystal ("Support XTAL 24/32/38.4/40MHz").
    expect(expandQuery('Which crystal frequencies does it support?')).toContain('xtal');
    // A user lightens the screen; the manual adjusts its brightness. A user deletes; the manual removes.
    expect(expandQuery('How do I lighten my screen up?')).toContain('brightness');
    expect(expandQuery('How to delete account?')).toContain('remove');
  });

  it('reads a phrase of the thesaurus only as that phrase', () => {
    // "turn off" and "shut down" are phrases: "off" or "shut" alone says something else.
    expect(expandQuery('take off the back cover')).toBe('');
    expect(expandQuery('Why does the door not shut properly?')).toBe('');
    expect(expandQuery('the input list')).not.toContain('power');
    expect(expandQuery('input voltage range')).toContain('power');
  });

  it('adds nothing for questions outside the thesaurus, and never repeats the question’s own words', () => {
    expect(expandQuery('E52C UART1 TX pin number')).not.toMatch(/\bpin\b/);
    expect(expandQuery('zzz qqq')).toBe('');
    expect(expandQuery('memory size').split(' ')).not.toContain('memory');
  });

  it('maps each one-word entry to its groups\' other one-word entries, as the reader normalizes words', () => {
    const map = synonymMap(contentTerms);
    expect(map.get('delete')).toEqual(expect.arrayContaining(['remove', 'erase']));
    expect(map.get('remove')).toContain('delete');
    // Phrases are left out on both sides: "shut down" is neither a key nor a synonym.
    expect(map.get('shutdown') ?? []).not.toContain('shut down');
    expect([...map.keys()]).not.toContain('shut down');
    // The reader's own form: content terms are singular ("dimensions" is read as "dimension").
    expect(map.get('size')).toContain('dimension');
    expect(map.get('size')).not.toContain('size');
  });
});
