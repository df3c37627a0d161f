import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { pairsOf, phrasesIn } from '../../src-main/chat/phrase-pairs';
import { terms } from '../../src-main/chat/sentences';
import { passage, quotedLines } from './fixtures';

describe("a phrase of the question (two of its words in its order)", () => {
  it('is found in order, one word apart at most, inside one clause', () => {
    const pairs = pairsOf(terms('How do I link a contact to the voice function?'));
    expect([...pairs.keys()]).toContain('voic function');
    expect(phrasesIn('Link to another contact.', pairs)).toEqual([['link', 'contact']]);
    expect(phrasesIn('To use the voice function, you must:', pairs)).toEqual([['voic', 'function']]);
    // Reversed, too far apart, or across a clause's end, the words are not the phrase.
    expect(phrasesIn('The function of the voice.', pairs)).toEqual([]);
    expect(phrasesIn('Link the phone, the watch and a contact.', pairs)).toEqual([]);
    expect(phrasesIn('Say a word in your voice. The function starts.', pairs)).toEqual([]);
  });

  it('is broken by a word left out of the question, such as a model name', () => {
    expect([...pairsOf(['wake', null, 'deep', 'sleep']).keys()]).toEqual(['deep sleep']);
  });

  it('leads its passage over a line that shares the words one by one', () => {
    const voice = [
      '## Voice control',
      '',
      'The function of the voice app changes.',
      '',
      'To use the voice function, agree to the terms of use first.',
      '',
      'Connect the TV to the Internet.',
    ].join('\n');
    const a = answerExtractively('What do I need to use the voice function?', [passage('tv/manual.md#1', voice)]);
    expect(quotedLines(a)[0]).toBe('- To use the voice function, agree to the terms of use first. [1]');
  });
});
