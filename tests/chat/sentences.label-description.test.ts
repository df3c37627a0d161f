import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { splitSentences } from '../../src-main/chat/sentences';
import { isTitleLine } from '../../src-main/chat/title-lines';
import { passage, quotedLines } from './fixtures';

const settings = [
  '## Ambient Mode settings',
  '',
  'Brightness: Adjusts the screen brightness for Ambient Mode',
  '',
  'Color Tone: Adjusts the colors of the screen for Ambient Mode',
  '',
  'Auto Brightness: Changes the auto brightness setting for Ambient Mode',
  '',
  'Ambient Off Timer: Sets the time that the screen turns off automatically.',
].join('\n');

describe('a setting with its description, its full stop dropped', () => {
  it('is no title: the settings after it stay under their heading', () => {
    expect(isTitleLine('Brightness: Adjusts the screen brightness for Ambient Mode')).toBe(false);
    const units = splitSentences(settings);
    expect(units.find((u) => u.text.startsWith('Brightness:'))!.title).toBeUndefined();
    expect(units.find((u) => u.text.startsWith('Color Tone:'))!.heading).toBe('Ambient Mode settings');
  });

  it('leaves numbered captions and plain titles as titles', () => {
    expect(isTitleLine('Table 4.2: Recommended Power Operating Range')).toBe(true);
    expect(isTitleLine('Removing an item on the Home Screen')).toBe(true);
    // A label with a description in Title Case is a title in two halves, not a setting described.
    for (const title of ['Troubleshooting: Picture Quality Problems', 'Appendix A: Safety Information Summary', 'Option B: Flash With the Web Tool', 'Warning: Risk of Electric Shock Here']) {
      expect(isTitleLine(title), title).toBe(true);
    }
  });

  it('answers the question that names it first', () => {
    const a = answerExtractively('How to adjust the screen brightness?', [passage('tv/manual.md#1', settings)]);
    expect(quotedLines(a)[0]).toMatch(/^- Brightness: Adjusts the screen brightness/);
  });
});
