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
});
