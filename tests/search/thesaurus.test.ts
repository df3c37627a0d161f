import { describe, expect, it } from 'vitest';
import { expandQuery } from '../../src-main/search/thesaurus';

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
});
