import { describe, expect, it } from 'vitest';
import { askedAction, writesAction } from '../../src-main/chat/asked-action';
import { stem } from '../../src-main/chat/text-terms';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { passage, quotedLines } from './fixtures';

describe('the action a how-to question asks', () => {
  it('is the verb after the how-cue and the first content word after it, stemmed', () => {
    expect(askedAction('How do I use the virtual numeric pad?')).toEqual({ verb: stem('use'), object: stem('virtual') });
    expect(askedAction('How to delete channels from favorite list?')).toEqual({ verb: stem('delete'), object: stem('channels') });
    // A phrasal verb's particle belongs to the verb, whether or not it is a stopword ("off", "on").
    expect(askedAction('How do I turn off the phone?')).toEqual({ verb: stem('turn'), particle: 'off', object: stem('phone') });
    expect(askedAction('How do I turn on Bluetooth?')).toEqual({ verb: stem('turn'), particle: 'on', object: stem('bluetooth') });
    expect(askedAction('How do I set up the board?')).toEqual({ verb: stem('set'), particle: 'up', object: stem('board') });
  });

  it('is none for a question that asks no how-to', () => {
    expect(askedAction('What is the virtual numeric pad?')).toBeNull();
    expect(askedAction('Why does the TV turn off?')).toBeNull();
  });

  it('is written by a line with the verb and, in the same clause, its object', () => {
    const use = askedAction('How do I use the virtual numeric pad?')!;
    expect(writesAction('Use the virtual numeric pad to enter numbers.', use)).toBe(true);
    expect(writesAction('Use the button on the remote to display the virtual numeric pad.', use)).toBe(false);
    // Not across a clause's end: "use it. The virtual ..." does not use the pad.
    expect(writesAction('Press the button to use it. The virtual numeric pad appears.', use)).toBe(false);
    const del = askedAction('How to delete channels from favorite list?')!;
    expect(writesAction('Move to the list from which you want to delete channels.', del)).toBe(true);
    expect(writesAction('Deleting channels from the list.', del)).toBe(true);
    // The object must be the first content word after the verb, not the second.
    expect(writesAction('Delete selected channels from the list.', del)).toBe(false);
    // A phrasal verb: its particle on either side of the object, and the object is what is turned off.
    const off = askedAction('How do I turn off the phone?')!;
    expect(writesAction('Press and hold the Side key to turn the phone off, then tap Power off.', off)).toBe(true);
    expect(writesAction('Turn off the phone before you insert the card.', off)).toBe(true);
    expect(writesAction('Turn off Wi-Fi and Bluetooth on the phone to save battery.', off)).toBe(false);
    expect(writesAction('Turn the phone on.', off)).toBe(false);
    const setUp = askedAction('How do I set up the board?')!;
    expect(writesAction('Set up Wi-Fi from the taskbar.', setUp)).toBe(false);
    expect(writesAction('Set up the board with the imager.', setUp)).toBe(true);
  });
});

describe('asked how, the step that does the asked action', () => {
  const text = [
    '## Remote control',
    '',
    'Use the button on the remote control to display the virtual numeric pad on the screen.',
    '',
    'Use the virtual numeric pad to enter numbers, such as a channel number or a PIN.',
  ].join('\n');

  it('leads its passage over a step that shares the question words on the way to it', () => {
    const a = answerExtractively('How do I use the virtual numeric pad?', [passage('tv/manual.md#1', text)]);
    expect(quotedLines(a)[0]).toMatch(/^- Use the virtual numeric pad to enter numbers/);
  });
});
