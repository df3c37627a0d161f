import { describe, expect, it } from 'vitest';
import { keywordText } from '../../src-main/search/keyword-query';

const words = (text: string): string[] => text.split(/[^\p{L}\p{N}'’-]+/u).filter((w) => w !== '');

describe('keywordText', () => {
  it('leaves out the words that ask, keeping what is asked about', () => {
    expect(words(keywordText('How many ADC inputs does the board have?'))).toEqual(['ADC', 'inputs', 'the', 'board']);
    expect(words(keywordText('What is the flash size of my board?'))).toEqual(['is', 'the', 'flash', 'size', 'of', 'board']);
  });

  it('reads "what\'s" as "what", in any case', () => {
    expect(words(keywordText("What's the MAX clock speed? WHICH core?"))).toEqual(['the', 'MAX', 'clock', 'speed', 'core']);
  });

  it('keeps the modal verbs an FAQ heading repeats', () => {
    expect(words(keywordText('Can I plug a CM5 into the CM3 IO board?'))).toEqual(['Can', 'plug', 'a', 'CM5', 'into', 'the', 'CM3', 'IO', 'board']);
  });

  it('tests whole words only: names and hyphenated words that hold an asking word stay', () => {
    expect(words(keywordText('How-to for Wi-Fi: whose Howard, mydata, I2C'))).toEqual(['How-to', 'for', 'Wi-Fi', 'Howard', 'mydata', 'I2C']);
  });

  it('returns the question as asked when it holds nothing else', () => {
    expect(keywordText('How? Why?')).toBe('How? Why?');
  });
});
