import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../src-main/chat/sentences';

describe('a paragraph set in emphasis as a whole', () => {
  it('quotes each of its sentences without a lone emphasis mark', () => {
    // Modelled on m5stack core/fire.md: an italic paragraph, bold words inside it.
    const text = '*Ever wanted to explore IoT prototyping? The board is **ESP32-based**. It has 4MB of SPI Flash .\nRegardless of your skill, M5Stack would guide you.*';
    expect(splitSentences(text).map((u) => u.text)).toEqual([
      'Ever wanted to explore IoT prototyping?',
      'The board is **ESP32-based**.',
      'It has 4MB of SPI Flash .',
      'Regardless of your skill, M5Stack would guide you.',
    ]);
  });

  it('keeps emphasis that stays inside one sentence, and two spans that only look like one', () => {
    expect(splitSentences('*Note: power off first.*').map((u) => u.text)).toEqual(['*Note: power off first.*']);
    expect(splitSentences('**Port A** is I2C. Port B is **UART**').map((u) => u.text)).toEqual(['**Port A** is I2C.', 'Port B is **UART**']);
  });
});
