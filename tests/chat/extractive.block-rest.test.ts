import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { passage } from './fixtures';

describe('a code block that a lead brings cut short and a later sentence points back at', () => {
  it('goes on under its lead, in its place, not as lines of no lead', () => {
    const code = ['void setup() {', 'Serial.begin(115200);', 'pinMode(A0, INPUT);', '}', 'void loop() {', 'uint32_t v = 0;', 'for (int i = 0; i < 16; i++) {', 'v = v + analogReadMilliVolts(A0);', '}', 'float volts = 2 * v / 16 / 1000.0; // divider 1/2, mV to V', 'delay(1000);', '}'];
    const text = [
      '## Battery voltage',
      '',
      'The following is the procedure to read the battery voltage.',
      '',
      '```cpp',
      ...code,
      '```',
      '',
      'The above is from a forum user, who measured the battery voltage with it.',
    ].join('\n');
    const a = answerExtractively('How do I read the battery voltage?', [passage('xiao/battery.md#1', text)]);
    const lines = a.text.split('\n').filter((l) => /^\s*- /.test(l));
    const lead = lines.findIndex((l) => l.startsWith('- The following is the procedure'));
    expect(lead).toBeGreaterThanOrEqual(0);
    // Every line of the code, in order, indented under the lead.
    expect(lines.slice(lead + 1, lead + 1 + code.length).map((l) => l.replace(/ \[\d+\]$/, ''))).toEqual(code.map((c) => `  - \`${c}\``));
    expect(lines.filter((l) => l.startsWith('- `'))).toEqual([]);
  });
});
