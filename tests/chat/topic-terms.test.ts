import { describe, expect, it } from 'vitest';
import type { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { topicTerms } from '../../src-main/chat/retrieve';

describe("a question's topic words", () => {
  // Only the vendor set is read here (lower-cased, as the vocabulary gives it): the words of a maker name no topic.
  const vendors = new Set(['sony', 'raspberry', 'radxa']);
  const vocabulary = { vendorWordSet: () => vendors } as unknown as ModelVocabulary;
  const noModels = { mentions: [], models: [], related: [] };

  it('leaves vendor words out, however the question stems them', () => {
    expect(topicTerms('Which Sony remote and Raspberry power supply does the Radxa board take?', noModels, vocabulary).sort()).toEqual(
      ['board', 'power', 'remot', 'suppli', 'take'].sort(),
    );
  });
});
