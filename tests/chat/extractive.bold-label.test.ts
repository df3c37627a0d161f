import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { splitSentences } from '../../src-main/chat/sentences';
import { passage } from './fixtures';

const TEXT = [
  '## Battery charging current',
  '',
  'The charging current is selectable: set P0_13 high or low.',
  '',
  '**Low Charging Current**',
  '',
  '```cpp',
  'void loop() {',
  'digitalWrite(P0_13, HIGH);',
  '}',
  '```',
  '',
  '**High Charging Current**',
  '',
  '| Pin | Level |',
  '|---|---|',
  '| P0_13 | LOW |',
].join('\n');

describe('a line all in bold right before code or a table', () => {
  it('labels that block, as a line ending in ":" does', () => {
    const units = splitSentences(TEXT);
    const low = units.find((u) => u.text === '**Low Charging Current**')!;
    const high = units.find((u) => u.text === '**High Charging Current**')!;
    expect(low.opens).toBe(units.find((u) => u.text.includes('HIGH'))!.block);
    expect(high.opens).toBe(units.find((u) => u.kind === 'row')!.block);
  });

  it('is quoted with the block under it, not alone', () => {
    const a = answerExtractively('How do I set the low charging current?', [passage('xiao/battery.md#1', TEXT)]);
    const lines = a.text.split('\n').filter((l) => /^\s*- /.test(l));
    const at = lines.findIndex((l) => l.startsWith('- **Low Charging Current**'));
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines[at + 1]).toMatch(/^ {2}- `void loop\(\) \{`/);
    expect(lines[at + 2]).toMatch(/^ {2}- `digitalWrite\(P0_13, HIGH\);`/);
  });

  it('a bold sentence inside a paragraph opens nothing', () => {
    const units = splitSentences(['Use **bold** words sparingly.', '', '- one item'].join('\n'));
    expect(units[0]!.opens).toBeUndefined();
  });
});
