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

  it("gives its words to the block's lines as a caption, so the asked port's row is quoted", () => {
    const ports = [
      '## Ports',
      '',
      '**HY2.0-4P-PortB(black)**',
      '',
      '| ESP32 Chip | GPIO26 | GPIO36 |',
      '| --- | --- | --- |',
      '| PortB | GPIO26(DAC) | GPIO36(ADC) |',
      '',
      '**HY2.0-4P-PortC(blue)**',
      '',
      '| ESP32 Chip | GPIO13 | GPIO14 |',
      '| --- | --- | --- |',
      '| PortC | GPIO13(RXD2) | GPIO14(TXD2) |',
    ].join('\n');
    const a = answerExtractively('Which GPIOs are on the blue Port C?', [passage('core/ports.md#1', ports)], { maxSentences: 2 });
    const quoted = a.text.split('\n').filter((l) => /\[\d+\]/.test(l));
    // The row under the blue port's caption leads; its words ("blue") are in no row.
    expect(quoted[0]).toMatch(/PortC; GPIO13: GPIO13\(RXD2\)/);
  });

  it('heads rows quoted before it, but never pulls an item away from the list nested under it', () => {
    const options = ['## Settings', '', '**Options**', '', '- Picture mode:', '  - Standard', '  - Dynamic', '- Sound mode:', '  - Amplify', '  - Eco', ''].join('\n');
    const a = answerExtractively('Which picture mode options?', [passage('tv/settings.md#1', options)]);
    const lines = a.text.split('\n').filter((l) => /^\s*- /.test(l));
    // The item that answers leads with its own items under it; the caption heads only the rest.
    expect(lines.slice(0, 3)).toEqual(['- Picture mode:', '  - Standard [1]', '  - Dynamic [1]']);
  });

  it('a bold sentence inside a paragraph opens nothing', () => {
    const units = splitSentences(['Use **bold** words sparingly.', '', '- one item'].join('\n'));
    expect(units[0]!.opens).toBeUndefined();
  });
});
