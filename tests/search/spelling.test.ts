import { describe, expect, it } from 'vitest';
import { PassageTermStats } from '../../src-main/enrich/passage-terms';
import { completedCodes, corrected } from '../../src-main/search/spelling';
import { markdownDocument } from '../enrich/corpus.helper';

const stats = PassageTermStats.create();
stats.addDocument(
  markdownDocument(
    'tv.md',
    [
      '# Scheduled viewing',
      'Cancel a scheduled viewing from the Schedule Manager.',
      'Activate the option to view signal information.',
      'Channels searched by Auto Program are listed here.',
      'The schedule manager lists scheduled recordings.',
      'Registered channels can be deleted.',
    ].join('\n\n'),
  ),
);
const idf = (t: string) => stats.idf(t);

describe('corrected', () => {
  it.each([
    ['How to cancel sheduled viewing?', 'How to cancel sheduled scheduled viewing?'],
    ['How do I actvate that?', 'How do I actvate activate that?'],
    ['channels serached by auto program', 'channels serached searched by auto program'],
    ['Where is the sound otion?', 'Where is the sound otion option?'],
    ['How do I delete registerd channels?', 'How do I delete registerd registered channels?'],
  ])('searches %j with the words of the library beside the typed ones', (typed, meant) => {
    expect(corrected(typed, idf)).toBe(meant);
  });

  it('leaves alone words the library knows, short words, codes and words with no near neighbour', () => {
    for (const q of ['Cancel the scheduled recordings', 'Is the fix in CM5IO?', 'What does HDMI-CEC do?', 'Where is the xylophone?']) {
      expect(corrected(q, idf)).toBe(q);
    }
  });

  it('does not take a letter out or change one: a word the library lacks is not a typo of a shorter one', () => {
    // "chanmel" is one changed letter from "channel", "optionk" one extra letter from "option": both stay.
    expect(corrected('the chanmel list', idf)).toBe('the chanmel list');
    expect(corrected('the optionk menu', idf)).toBe('the optionk menu');
  });

  it('keeps a word the thesaurus knows as it is, though the library lacks it', () => {
    // "mount" is one letter from the library's "amount"; it is a word of its own (the thesaurus
    // reads it as installation), not a typo.
    const lib = PassageTermStats.create();
    lib.addDocument(markdownDocument('a.md', 'The amount of paste matters.\n\nInstallation takes a minute.'));
    expect(corrected('How do I mount the board?', (t) => lib.idf(t))).toBe('How do I mount the board?');
  });

  it('corrects nothing in a library without passage statistics', () => {
    expect(corrected('How to cancel sheduled viewing?', () => 1)).toBe('How to cancel sheduled viewing?');
  });
});

describe('completedCodes', () => {
  const parts = PassageTermStats.create();
  parts.addDocument(
    markdownDocument(
      'core.md',
      ['# Core', 'The LCD is an ILI9342C.', 'The ILI9342C runs at 40 MHz.', 'The MCU is a CH32V307VCT6.', 'A CH32V307RCT6 fits the smaller board.', 'It has 320 pixels.'].join('\n\n'),
    ),
  );
  const partIdf = (t: string) => parts.idf(t);
  const longer = (prefix: string, limit: number) => parts.longerTerms(prefix, limit);

  it("searches a part number written short with the library's longer spellings, most used first", () => {
    expect(completedCodes('What is the ILI9342 resolution?', partIdf, longer)).toBe('What is the ILI9342 ili9342c resolution?');
    expect(parts.longerTerms('ch32v307', 5)).toEqual(['ch32v307rct6', 'ch32v307vct6']);
    expect(completedCodes('CH32V307 package', partIdf, longer)).toBe('CH32V307 ch32v307rct6 ch32v307vct6 package');
  });

  it('leaves alone a code the library has as written, short codes, plain words and numbers', () => {
    for (const q of ['What is the ILI9342C resolution?', 'Is the ILI9 fast?', 'How many pixels?', 'Is it 32000 Hz?']) {
      expect(completedCodes(q, partIdf, longer), q).toBe(q);
    }
  });
});
