import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../src-main/chat/sentences';

describe('a heading that closes with a remark in brackets', () => {
  const text = ['#### Connecting with an HDMI cable', '', 'HDMI IN', '', '#### Connecting with a component cable (Only for models with COMPONENT IN / AV IN)', '', 'A Component connection lets you enjoy video resolutions up to 1080p.'].join('\n');

  it('stays a heading: its own words are those before the brackets', () => {
    const units = splitSentences(text);
    expect(units.map((u) => u.text)).not.toContain('Connecting with a component cable (Only for models with COMPONENT IN / AV IN)');
    expect(units.find((u) => u.text.startsWith('A Component connection'))?.heading).toBe('Connecting with a component cable (Only for models with COMPONENT IN / AV IN)');
  });

  it('is still body text when its own words are too many for a heading', () => {
    const long = '#### When you connect the TV to an external device the picture may take a few seconds to appear (on some models)';
    expect(splitSentences(`${long}\n\nMore text here.`).map((u) => u.text)[0]).toContain('When you connect the TV');
  });

  it('is body text when the remark is a clause of an instruction', () => {
    const step = '#### Hold the BOOT button and plug in the USB cable (about two seconds, until the LED blinks)';
    const units = splitSentences(`${step}\n\nThe board then waits for a download.`);
    expect(units.map((u) => u.text)).toContain('Hold the BOOT button and plug in the USB cable (about two seconds, until the LED blinks)');
  });

  it('is body text when an instruction closes with even a short remark', () => {
    const step = '#### Hold the BOOT button and then plug in the USB cable (about two seconds)';
    expect(splitSentences(`${step}\n\nThe board then waits for a download.`).map((u) => u.text)).toContain('Hold the BOOT button and then plug in the USB cable (about two seconds)');
  });

  it('is body text when a title closes with a long remark', () => {
    const long = '#### Connecting the sensor board (only for the boards sold before the second revision of the kit in 2021 and later)';
    expect(splitSentences(`${long}\n\nMore text here.`).map((u) => u.text)[0]).toContain('Connecting the sensor board');
  });
});
