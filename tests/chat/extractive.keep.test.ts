import { describe, expect, it } from 'vitest';
import { pick } from '../../src-main/chat/extractive.pick';
import type { Scored } from '../../src-main/chat/extractive.pick';
import type { Sentence } from '../../src-main/chat/sentences';

const line = (text: string, offset: number, score: number): Scored => ({
  passage: 0,
  score,
  sentence: { text, offset, length: text.length, kind: 'prose', heading: null, block: -1, para: offset } satisfies Sentence,
});

describe('lines quoted after a line that names nearly every question word', () => {
  const best = line('KB-40: Sensor HAT; IO0: SDA; IO26: SCL', 0, 10);
  const second = line('Communication: I2C, 0x29, IO0/26.', 100, 1.8);
  const stray = line('The case is made of plastic.', 200, 0.8);

  it('still quotes a line that scores a fifth of it, while the answer has room', () => {
    const out = pick([best, second, stray], 6, 4).map((s) => s.sentence.text);
    expect(out).toContain(second.sentence.text);
    expect(out).not.toContain(stray.sentence.text);
  });

  it('keeps the line budget', () => {
    expect(pick([best, second, line('IO0 is SDA.', 300, 5)], 2, 4)).toHaveLength(2);
  });
});
