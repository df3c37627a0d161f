import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../src-main/chat/sentences';

describe('sentences inside brackets', () => {
  it('keeps a bracketed remark of several sentences whole, with the sentence it stands after', () => {
    // Modelled on m5stack quick_start/m5stickc: cut at its first ".", the remark lost its end.
    const text = 'Select the device type before burning. (The default burning rate can be chosen. In special cases you can reduce the burning rate to 115200). Then click Burn.';
    expect(splitSentences(text).map((u) => u.text)).toEqual([
      'Select the device type before burning.',
      '(The default burning rate can be chosen. In special cases you can reduce the burning rate to 115200).',
      'Then click Burn.',
    ]);
  });

  it('still cuts where a bracket is never closed, or was closed before', () => {
    expect(splitSentences('Open the menu (Settings. Then select Sound.').map((u) => u.text)).toEqual(['Open the menu (Settings.', 'Then select Sound.']);
    expect(splitSentences('Step 1) Power off. Step 2) Remove the cover.').map((u) => u.text)).toEqual(['Step 1) Power off.', 'Step 2) Remove the cover.']);
  });
});
