import { describe, expect, it } from 'vitest';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { markdownDocument as doc } from './corpus.helper';

describe('ModelVocabulary.vendorWordSet', () => {
  it('gives the vendor words lower-cased, one set per state of the vocabulary', () => {
    const vocabulary = ModelVocabulary.fromDocuments([doc('boards/Acme_Nova_X1.md', '# Acme Nova X1\n\nThe Acme Nova X1 is a board.')], { vendors: ['Acme'] });
    const set = vocabulary.vendorWordSet();
    expect([...set]).toEqual(['acme']);
    // Built once: the same set while no document changes the vocabulary.
    expect(vocabulary.vendorWordSet()).toBe(set);
    vocabulary.addDocument(doc('boards/Acme_Nova_X2.md', '# Acme Nova X2\n\nThe Acme Nova X2 is a board.'));
    expect(vocabulary.lookup('Nova X2')).not.toBeNull();
    // Made again for the vocabulary's new state (a vendor learned from a new document would be in it).
    const after = vocabulary.vendorWordSet();
    expect(after).not.toBe(set);
    expect([...after]).toEqual(['acme']);
  });
});
