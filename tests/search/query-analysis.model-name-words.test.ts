import { describe, expect, it } from 'vitest';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { analyzeQuery, modelNameShape, readExtensions } from '../../src-main/search/query-analysis';
import { markdownDocument as doc } from '../enrich/corpus.helper';

/** The words of the library's model names: one set per state of the library, read by the name extension and by chat. */
describe('modelNameShape', () => {
  it('has every word of the model names, digits and "+" included', () => {
    const vocabulary = ModelVocabulary.fromDocuments([doc('devices/Baz_Q7+_5G.md', '# Baz Q7+ 5G User Manual\n\nThe Baz Q7+ 5G charges faster than the Baz Q7+.')]);
    expect([...modelNameShape(vocabulary).allWords]).toEqual(expect.arrayContaining(['baz', 'q7', '+', '5g']));
  });

  it('is the same set until a document is added, then has its model\'s words', () => {
    const vocabulary = ModelVocabulary.fromDocuments([doc('devices/Foo_X2_Pro_5G.md', '# Foo X2 Pro 5G User Manual\n\nUnlike the Foo X2, the Foo X2 Pro 5G charges wirelessly.')]);
    const first = modelNameShape(vocabulary).allWords;
    expect(modelNameShape(vocabulary).allWords).toBe(first);
    expect(first.has('mini')).toBe(false);
    const q = 'what battery does the foo x2 mini have?';
    // "mini" (lower case, no digit) is no word of a model name yet: the Foo X2 is read as the Foo X2 Pro 5G.
    expect(readExtensions(q, analyzeQuery(q, vocabulary).mentions[0]!, vocabulary).models.map((e) => e.name)).toEqual(['Foo X2 Pro 5G']);
    vocabulary.addDocument(doc('devices/Bar_Z5_Mini_5G.md', '# Bar Z5 Mini 5G User Manual\n\nThe Bar Z5 Mini 5G is smaller than the Bar Z5.'));
    const after = modelNameShape(vocabulary).allWords;
    expect(after).not.toBe(first);
    expect(after.has('mini')).toBe(true);
    // Both read the one memo: the name extension now reads "mini" as going on with the name.
    expect(readExtensions(q, analyzeQuery(q, vocabulary).mentions[0]!, vocabulary).models).toEqual([]);
  });

  it('has the units the names write quantities in, and whether a name has a short word in capitals', () => {
    const vocabulary = ModelVocabulary.fromDocuments([doc('devices/Foo_X2_Pro_5G.md', '# Foo X2 Pro 5G User Manual\n\nUnlike the Foo X2, the Foo X2 Pro 5G charges wirelessly.')]);
    expect([...modelNameShape(vocabulary).units]).toEqual(['g']);
    expect(modelNameShape(vocabulary).hasShortCapitals).toBe(false);
    vocabulary.addDocument(doc('devices/Bar_Z5_GT.md', '# Bar Z5 GT User Manual\n\nThe Bar Z5 GT is faster than the Bar Z5.'));
    expect(modelNameShape(vocabulary).hasShortCapitals).toBe(true);
  });
});
