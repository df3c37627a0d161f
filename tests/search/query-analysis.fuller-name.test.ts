import { describe, expect, it } from 'vitest';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { analyzeQuery } from '../../src-main/search/query-analysis';
import { markdownDocument as doc } from '../enrich/corpus.helper';

/**
 * A name the library only mentions ("Nova X20", from other manuals' text) followed in the question
 * by words that begin one documented model's name: the question asks about that model.
 */
describe('analyzeQuery: the documented model a question writes out in part', () => {
  const vocabulary = ModelVocabulary.fromDocuments([
    doc('phones/Nova_X20_Ultra_5G.md', '# Nova X20 Ultra 5G User Manual\n\nThe Nova X20 Ultra 5G has a camera. Unlike the Nova X20, it has a stylus.'),
    doc('phones/Nova_X20+_5G.md', '# Nova X20+ 5G User Manual\n\nThe Nova X20+ 5G has a camera. Accessories of the Nova X20 fit it.'),
    doc('phones/Nova_Z_Fold.md', '# Nova Z Fold User Manual\n\nThe Nova Z Fold folds. Cases for the Nova X20 do not fit.'),
  ]);

  it('reads "Nova X20 Ultra" as the Nova X20 Ultra 5G, the one documented model its words begin', () => {
    // The premise: "Nova X20" is a name no document is about.
    expect(vocabulary.lookup('Nova X20')?.docCount).toBe(0);
    const a = analyzeQuery('How do I take a screenshot on the Nova X20 Ultra?', vocabulary);
    expect(a.models).toEqual(['Nova X20 Ultra 5G']);
    expect(a.mentions[0]).toMatchObject({ text: 'Nova X20 Ultra', model: 'Nova X20 Ultra 5G' });
  });

  it('leaves the mentioned name when the words after it begin no documented name', () => {
    expect(analyzeQuery('Nova X20 screenshot', vocabulary).models).toEqual(['Nova X20']);
    // "Nova X20 5G" begins neither "Nova X20 Ultra 5G" nor "Nova X20+ 5G".
    expect(analyzeQuery('Nova X20 5G battery', vocabulary).models).toEqual(['Nova X20']);
  });

  it('leaves a documented model as named', () => {
    expect(analyzeQuery('Nova X20+ 5G battery', vocabulary).models).toEqual(['Nova X20+ 5G']);
  });
});

describe('analyzeQuery: the documented model written out after an alias or a vendor word', () => {
  // The manuals write their vendor's word before each name; the vocabulary strips it from the names.
  const vocabulary = ModelVocabulary.fromDocuments(
    [
      doc('phones/Acme_Nova_X20_Ultra_5G.md', '# Acme Nova X20 Ultra 5G User Manual\n\nThe Acme Nova X20 Ultra 5G has a camera. Unlike the Acme Nova X20, it has a stylus.'),
      doc('phones/Acme_Nova_X20+_5G.md', '# Acme Nova X20+ 5G User Manual\n\nThe Acme Nova X20+ 5G has a camera. Accessories of the Acme Nova X20 fit it.'),
    ],
    { vendors: ['Acme'] },
  );

  it('extends the mentioned model, not the words that read it: a vendor word and a short alias before the fuller name', () => {
    expect(vocabulary.lookup('Nova X20')?.docCount).toBe(0);
    for (const [q, text] of [
      ['How do I take a screenshot on the Acme Nova X20 Ultra?', 'Nova X20 Ultra'],
      ['How do I take a screenshot on the Acme X20 Ultra?', 'X20 Ultra'],
      ['X20 Ultra screenshot', 'X20 Ultra'],
    ] as const) {
      const a = analyzeQuery(q, vocabulary, { minConfidence: 0 });
      expect(a.models, q).toEqual(['Nova X20 Ultra 5G']);
      expect(a.mentions[0]?.text, q).toBe(text);
    }
    expect(analyzeQuery('Acme X20 screenshot', vocabulary, { minConfidence: 0 }).models).toEqual(['Nova X20']);
  });
});
