import { describe, expect, it } from 'vitest';
import { askedAction, writesAction } from '../../src-main/chat/asked-action';
import { stem } from '../../src-main/chat/text-terms';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { passage, quotedLines } from './fixtures';

describe('the action a how-to question asks', () => {
  it('is the verb after the how-cue and the first content word after it, stemmed', () => {
    expect(askedAction('How do I use the virtual numeric pad?')).toEqual({ verb: stem('use'), object: stem('virtual') });
    expect(askedAction('How to delete channels from favorite list?')).toEqual({ verb: stem('delete'), object: stem('channels') });
    // A particle is the verb's object word ("turn off", not "turn on").
    expect(askedAction('How do I turn off the TV?')).toEqual({ verb: stem('turn'), object: 'off' });
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
