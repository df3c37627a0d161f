import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { opensWithCaution } from '../../src-main/chat/line-forms';
import { passage, quotedLines } from './fixtures';

describe('a caution set in capitals', () => {
  it.each([
    ["DO NOT turn off the TV's power until the update is complete.", true],
    ['DO NOT OPEN the back cover.', true],
    ['HDMI UHD Color set to Off supports up to UHD 50P/60P input signals.', false],
    ['USB OTG is supported on the side port.', false],
    ['Do not turn off the power.', false],
    ["DON'T unplug the board while it writes the flash.", true],
    ['NEVER touch the pins while the board is powered.', true],
    // Port, pin and relay labels, a state and a title: a function word in capitals is no caution.
    ['HDMI IN (ARC): connect the soundbar to this port.', false],
    ['DC IN 12V jack powers the board.', false],
    ['AUDIO OUT connects headphones.', false],
    ['NC NO COM terminals of the relay switch the load.', false],
    ['IN OUT GND pins carry the signal.', false],
    ['POWER ON the board by plugging in USB.', false],
    ['IN THE BOX', false],
  ])('%s -> %s', (text, caution) => {
    expect(opensWithCaution(text)).toBe(caution);
  });

  it('does not lead its passage with the paragraph it opens, however many words it shares', () => {
    const text = [
      '## Updating the software to the latest version',
      '',
      "DO NOT turn off the TV's power until the update is complete. The TV will turn off and on automatically after completing the software update.",
      '',
      'Updating from the Internet requires an active Internet connection.',
    ].join('\n');
    const a = answerExtractively("How to update TV's software through internet?", [passage('tv/manual.md#1', text)]);
    expect(quotedLines(a)[0]).toBe('- Updating from the Internet requires an active Internet connection. [1]');
  });
});
