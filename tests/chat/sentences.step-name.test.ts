import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { splitSentences } from '../../src-main/chat/sentences';
import { passage, quotedLines } from './fixtures';

describe('a step that names a control on a line of its own', () => {
  it('is a step of the instructions before it, not a title: the lines after it stay in their section', () => {
    const text = ['## Managing apps', '', 'Locking and unlocking apps', '', 'Select an app to lock or unlock.', '', 'Select Lock/Unlock', '', 'The selected app is locked or unlocked.'].join('\n');
    const units = splitSentences(text);
    const step = units.find((u) => u.text === 'Select Lock/Unlock')!;
    expect(step.title).toBeUndefined();
    expect(units.find((u) => u.text === 'The selected app is locked or unlocked.')!.heading).toBe('Managing apps › Locking and unlocking apps');
  });

  it('stays a title after a statement, and after an instruction of another section', () => {
    const text = [
      'The terms are trademarks of their owners.',
      '',
      'Open Source License Notice',
      '',
      'The open source used in this product is listed on the web page.',
      '',
      'Check that the cable is connected.',
      '',
      '## Transfer rate',
      '',
      'Confirm USB Storage',
      '',
      'The storage shows in the list.',
    ].join('\n');
    const units = splitSentences(text);
    expect(units.find((u) => u.text === 'Open Source License Notice')!.title).toBe(true);
    expect(units.find((u) => u.text === 'Confirm USB Storage')!.title).toBe(true);
  });

  it('leaves the section whole for the answer: the line that says how leads it', () => {
    const text = [
      '## Managing apps',
      '',
      'Removing apps',
      '',
      'Select an app to remove.',
      '',
      'Select Remove',
      '',
      'Locking and unlocking apps',
      '',
      'Select an app to lock or unlock.',
      '',
      'Select Lock/Unlock',
      '',
      'The selected app is locked or unlocked.',
      '',
      'To lock or unlock an app, enter the PIN.',
    ].join('\n');
    const a = answerExtractively('I need to lock app. How to do this?', [passage('tv/manual.md#1', text)]);
    expect(quotedLines(a)[0]).toMatch(/To lock or unlock an app, enter the PIN\./);
  });
});
