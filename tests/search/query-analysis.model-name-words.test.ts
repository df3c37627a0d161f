import { describe, expect, it } from 'vitest';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { analyzeQuery, modelNameWords, readExtensions } from '../../src-main/search/query-analysis';
import { markdownDocument as doc } from '../enrich/corpus.helper';

/** The words of the library's model names: one set per state of the library, read by the name extension and by chat. */
describe('modelNameWords', () => {
  it('has every word of the model names, digits and "+" included', () => {
    const vocabulary = ModelVocabulary.fromDocuments([doc('devices/Baz_Q7+_5G.md', '# Baz Q7+ 5G User Manual\n\nThe Baz Q7+ 5G charges faster than the Baz Q7+.')]);
    expect([...modelNameWords(vocabulary)]).toEqual(expect.arrayContaining(['baz', 'q7', '+', '5g']));
  });

  it('is the same set until a document is added, then has its model\'s words', () => {
    const vocabulary = ModelVocabulary.fromDocuments([doc('devices/Foo_X2_Pro_5G.md', '# Foo X2 Pro 5G User Manual\n\nUnlike the Foo X2, the Foo X2 Pro 5G charges wirelessly.')]);
    const first = modelNameWords(vocabulary);
    expect(modelNameWords(vocabulary)).toBe(first);
    expect(first.has('mini')).toBe(false);
    const q = 'what battery does the foo x2 mini have?';
    // "mini" (lower case, no digit) is no word of a model name yet: the Foo X2 is read as the Foo X2 Pro 5G.
    expect(readExtensions(q, analyzeQuery(q, vocabulary).mentions[0]!, vocabulary).models.map((e) => e.name)).toEqual(['Foo X2 Pro 5G']);
    vocabulary.addDocument(doc('devices/Bar_Z5_Mini_5G.md', '# Bar Z5 Mini 5G User Manual\n\nThe Bar Z5 Mini 5G is smaller than the Bar Z5.'));
    const after = modelNameWords(vocabulary);
    expect(after).not.toBe(first);
    expect(after.has('mini')).toBe(true);
    // Both read the one memo: the name extension now reads "mini" as going on with the name.
    expect(readExtensions(q, analyzeQuery(q, vocabulary).mentions[0]!, vocabulary).models).toEqual([]);
  });
});
