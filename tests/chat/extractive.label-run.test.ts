import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { isLabelRun } from '../../src-main/chat/line-forms';
import type { Sentence } from '../../src-main/chat/sentences';
import { passage, quotedLines } from './fixtures';

const line = (text: string, kind: Sentence['kind'] = 'prose'): Sentence => ({ text, kind }) as Sentence;

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
