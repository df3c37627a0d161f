import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { isLabelRun, isNameRun } from '../../src-main/chat/line-forms';
import type { Sentence } from '../../src-main/chat/sentences';
import { passage, quotedLines } from './fixtures';

const line = (text: string, kind: Sentence['kind'] = 'prose', title = false): Sentence => ({ text, kind, title }) as Sentence;

describe('a run of labels (a UI legend, a flattened table)', () => {
  it('is read by its shape', () => {
    expect(isLabelRun(line('View: Daily View: Monthly'))).toBe(true);
    expect(isLabelRun(line('Pause Play Start'))).toBe(true);
    expect(isLabelRun(line('The available content types are photos and videos.'))).toBe(false);
    expect(isLabelRun(line('Unable to connect to the network Check all IP Settings'))).toBe(false);
    // A value stated is no label: "Support XTAL 24/32/38.4/40MHz" answers which frequencies.
    expect(isLabelRun(line('Support XTAL 24/32/38.4/40MHz'))).toBe(false);
    expect(isLabelRun(line('Flash: 4MB'))).toBe(false);
    expect(isLabelRun(line('Pause Play Start', 'row'))).toBe(false);
  });

  it('differs from a run of names in length, share, ":" ending, numbers and titles', () => {
    // Three words: a run of labels, too short for a run of names.
    expect([isLabelRun(line('Pause Play Start')), isNameRun(line('Pause Play Start'))]).toEqual([true, false]);
    // Most words capitalised, one small word: a run of names, no run of labels.
    expect([isLabelRun(line('Audio Delay Try Now and Sound Mirroring')), isNameRun(line('Audio Delay Try Now and Sound Mirroring'))]).toEqual([false, true]);
    expect(isNameRun(line('Audio delay try now and sound mirroring'))).toBe(false);
    // A legend's label ending in ":" is a run of labels; a run of names ends in no punctuation.
    expect([isLabelRun(line('View: Daily View: Monthly View:')), isNameRun(line('View: Daily View: Monthly View:'))]).toEqual([true, false]);
    // A number is part of a run of names (a menu path), a value in a line of labels.
    expect([isLabelRun(line('Support XTAL 24 MHz Crystal')), isNameRun(line('Support XTAL 24 MHz Crystal'))]).toEqual([false, true]);
    // A title may be a run of names (a menu path set as a sub-title), never a run of labels.
    expect([isLabelRun(line('Settings General Network Reset', 'prose', true)), isNameRun(line('Settings General Network Reset', 'prose', true))]).toEqual([false, true]);
    expect([isLabelRun(line('Settings General Network Reset', 'row')), isNameRun(line('Settings General Network Reset', 'code'))]).toEqual([false, false]);
  });

  it('does not lead the sentence that shares its question words', () => {
    const text = [
      '## Using the Gallery App',
      '',
      'View: Daily View: Monthly',
      '',
      'Restrict access to the app to protect your privacy, or read the user agreement and privacy policy.',
      '',
      'Select an item on the screen using the directional buttons on the remote control.',
      '',
      'Content synchronized with the cloud service is shown by category at the top left.',
      '',
      'Sign in to your account first to synchronize content from your mobile device.',
      '',
      'Photos are listed to view by day or month.',
    ].join('\n');
    const a = answerExtractively('Where are the view options?', [passage('tv/manual.md#1', text)]);
    expect(quotedLines(a)[0]).toMatch(/^- Photos are listed to view by day or month/);
  });
});
