import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../src-main/chat/sentences';

describe('text a PDF converter cut off after an opening bracket', () => {
  it('is no quotable line', () => {
    const text = ['I', '', 'ADJ', '', '\\- Adjustable Pin Current (', '', 'μ', '', 'A)', '', 'The adjustment pin current is typically 65 μA (see Figure 7).'].join('\n');
    const texts = splitSentences(text).map((u) => u.text);
    expect(texts.some((t) => t.endsWith('('))).toBe(false);
    expect(texts).toContain('The adjustment pin current is typically 65 μA (see Figure 7).');
  });
});
