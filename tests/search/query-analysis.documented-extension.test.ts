import { describe, expect, it, vi } from 'vitest';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { analyzeQuery, documentedExtension, documentedExtensions, readExtensions } from '../../src-main/search/query-analysis';
import { markdownDocument as doc } from '../enrich/corpus.helper';

/**
 * A model no document is about, named in a question: the one documented model whose name is its
 * words and more ("Foo X2" -> the Foo X2 Pro 5G), read word by word, and only when the question's
 * name ends with the mention.
 */
describe('documentedExtension', () => {
  const vocabulary = ModelVocabulary.fromDocuments([
    doc('devices/Foo_X1.md', '# Foo X1 User Manual\n\nThe Foo X2 charger also charges the Foo X1.'),
    doc('devices/Foo_X2_Pro_5G.md', '# Foo X2 Pro 5G User Manual\n\nUnlike the Foo X2, the Foo X2 Pro 5G charges wirelessly.'),
    doc('devices/Foo_X40.md', '# Foo X40 User Manual\n\nThe Foo X40 has a 400 mAh battery.'),
    // A guide with a section per older model: the vocabulary learns the Foo X4 from its heading.
    doc('devices/Legacy.md', '# Legacy Devices Guide\n\n## Foo X4\n\nThe Foo X4 has a 150 mAh battery.\n\n## Foo X6\n\nThe Foo X6 has a 170 mAh battery.'),
    doc('devices/Baz_Q7+_5G.md', '# Baz Q7+ 5G User Manual\n\nThe Baz Q7+ 5G charges faster than the Baz Q7+.'),
    doc('devices/Bar_Z5_Mini_5G.md', '# Bar Z5 Mini 5G User Manual\n\nThe Bar Z5 Mini 5G is smaller than the Bar Z5.'),
    doc('devices/Bar_Z5_Max_5G.md', '# Bar Z5 Max 5G User Manual\n\nThe Bar Z5 Max 5G is larger than the Bar Z5.'),
  ]);
  const extension = (q: string): string | null => {
    const a = analyzeQuery(q, vocabulary);
    const m = a.mentions[0];
    return m ? (documentedExtension(q, m, vocabulary)?.name ?? null) : null;
  };

  it('is the one documented model whose words begin with the mentioned name', () => {
    expect(vocabulary.lookup('Foo X2')?.docCount).toBe(0);
    expect(extension('What battery does the Foo X2 have?')).toBe('Foo X2 Pro 5G');
    expect(extension('Foo X2?')).toBe('Foo X2 Pro 5G');
  });

  it('reads "+" and "Plus" alike', () => {
    expect(extension('What battery does the Baz Q7+ have?')).toBe('Baz Q7+ 5G');
    expect(extension('What battery does the Baz Q7 Plus have?')).toBe('Baz Q7+ 5G');
  });

  it('compares whole words: the Foo X4 does not begin the Foo X40', () => {
    expect(vocabulary.lookup('Foo X4')?.docCount).toBe(0);
    expect(extension('What battery does the Foo X4 have?')).toBeNull();
  });

  it('is none when the question writes more of the name', () => {
    // "Mini" is a word of the library's model names, a number may be a generation: another model.
    expect(extension('What battery does the Foo X2 Mini have?')).toBeNull();
    expect(extension('What battery does the Foo X2 2 have?')).toBeNull();
    // A word written with a capital goes on the name, though no model of the library has it.
    expect(extension('What battery does the Foo X2 Lite have?')).toBeNull();
    expect(extension('What battery does the Foo X2 FE have?')).toBeNull();
    // An ordinary word after the name does not.
    expect(extension('Foo X2 battery life?')).toBe('Foo X2 Pro 5G');
  });

  it('reads the documented model past a lower-case word no model name has, for chat to check against the library', () => {
    const read = (q: string) => readExtensions(q, analyzeQuery(q, vocabulary).mentions[0]!, vocabulary).models.map((e) => e.name);
    // "lite" may be the name's next word (another model) or the question's: the library's words
    // tell, which chat reads (goesOnWithName); the vocabulary alone reads the documented model.
    expect(read('what battery does the foo x2 lite have?')).toEqual(['Foo X2 Pro 5G']);
    expect(read('Foo X2 battery life?')).toEqual(['Foo X2 Pro 5G']);
    expect(read('What battery does the Foo X2 have?')).toEqual(['Foo X2 Pro 5G']);
    // A capital, a digit or a word of the library's model names goes on with the name: none.
    expect(read('What battery does the Foo X2 Lite have?')).toEqual([]);
    expect(read('What battery does the Foo X2 Mini have?')).toEqual([]);
  });

  it('reads words every candidate has after the name as the mentioned name written longer', () => {
    const q = 'What battery does the Bar Z5 5G have?';
    const m = analyzeQuery(q, vocabulary).mentions[0]!;
    expect(m).toMatchObject({ text: 'Bar Z5 5G', model: 'Bar Z5' });
    expect(documentedExtensions(q, m, vocabulary).map((e) => e.name).sort()).toEqual(['Bar Z5 Max 5G', 'Bar Z5 Mini 5G']);
    // One candidate: the same words say nothing more than the mention alone.
    expect(extension('What battery does the Foo X2 5G have?')).toBe('Foo X2 Pro 5G');
    expect(analyzeQuery('What battery does the Foo X2 5G have?', vocabulary).mentions[0]!.text).toBe('Foo X2 5G');
    // A word only some candidates have still says which ("Bar Z5 Mini"); a number of none is another model.
    expect(analyzeQuery('What battery does the Bar Z5 Mini have?', vocabulary).mentions[0]!.model).toBe('Bar Z5 Mini 5G');
    expect(extension('What battery does the Bar Z5 4G have?')).toBeNull();
    expect(analyzeQuery('What battery does the Bar Z5 4G have?', vocabulary).mentions[0]!.text).toBe('Bar Z5');
  });

  it('is none when the name runs into what follows', () => {
    // "Baz Q7+5G": the mention ends inside the written name, which is not the mentioned model.
    expect(extension('What battery does the Baz Q7+5G have?')).toBeNull();
  });

  it('is none for a member of a product, whose manuals are about it', () => {
    const boards = ModelVocabulary.fromDocuments([
      doc('boards/Tor_4.md', '# Tor 4 User Manual\n\nThe Tor 4 series: Tor 4A and Tor 4C.\n\n## Tor 4C\n\nThe Tor 4C has two USB ports. Flash the Tor 4C from USB.'),
      doc('boards/Tor_4C+.md', '# Tor 4C+ User Manual\n\nThe Tor 4C+ has four USB ports.'),
    ]);
    // The premise: the Tor 4C is a member of the Tor 4, with no document of its own.
    expect(boards.lookup('Tor 4C')).toMatchObject({ kind: 'member', parent: 'Tor 4', docCount: 0 });
    const q = 'How do I flash the Tor 4C?';
    expect(documentedExtension(q, analyzeQuery(q, boards).mentions[0]!, boards)).toBeNull();
  });

  it('is none when the name begins several documented models, or the model has a document', () => {
    expect(extension('What battery does the Bar Z5 have?')).toBeNull();
    expect(extension('What battery does the Foo X40 have?')).toBeNull();
    expect(extension('What battery does the Foo X2 Pro 5G have?')).toBeNull();
  });

  it('lists every documented model the name begins, compared word by word, for chat to ask which', () => {
    const all = (q: string): string[] => documentedExtensions(q, analyzeQuery(q, vocabulary).mentions[0]!, vocabulary).map((e) => e.name).sort();
    expect(all('What battery does the Bar Z5 have?')).toEqual(['Bar Z5 Max 5G', 'Bar Z5 Mini 5G']);
    expect(all('What battery does the Foo X2 have?')).toEqual(['Foo X2 Pro 5G']);
    // The same checks as for one: whole words, the question's next word, a documented model.
    expect(all('What battery does the Foo X4 have?')).toEqual([]);
    expect(all('What battery does the Bar Z5 Mini have?')).toEqual([]);
    expect(all('What battery does the Bar Z5 Max 5G have?')).toEqual([]);
  });
});

describe('documentedExtensions over a changing library', () => {
  const vocabulary = ModelVocabulary.fromDocuments([
    doc('devices/Foo_X1.md', '# Foo X1 User Manual\n\nThe Foo X2 charger also charges the Foo X1.'),
    doc('devices/Foo_X2_Pro_5G.md', '# Foo X2 Pro 5G User Manual\n\nUnlike the Foo X2, the Foo X2 Pro 5G charges wirelessly.'),
  ]);
  const all = (q: string): string[] => documentedExtensions(q, analyzeQuery(q, vocabulary).mentions[0]!, vocabulary).map((e) => e.name).sort();

  it('reads the library\'s models once while it does not change, and again once it does', () => {
    const models = vi.spyOn(vocabulary, 'models');
    const q = 'What battery does the Foo X2 have?';
    expect(all(q)).toEqual(['Foo X2 Pro 5G']);
    const read = models.mock.calls.length;
    expect(read).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) expect(all(q)).toEqual(['Foo X2 Pro 5G']);
    expect(models.mock.calls.length).toBe(read);
    // A new manual is seen at the next question: its model is a candidate, its name's words are model words.
    vocabulary.addDocument(doc('devices/Foo_X2_Lite_5G.md', '# Foo X2 Lite 5G User Manual\n\nThe Foo X2 Lite 5G is lighter than the Foo X2.'));
    expect(all(q)).toEqual(['Foo X2 Lite 5G', 'Foo X2 Pro 5G']);
    expect(models.mock.calls.length).toBeGreaterThan(read);
    expect(all('what battery does the foo x2 lite have?')).toEqual([]);
    vocabulary.removeDocument('devices/Foo_X2_Lite_5G.md');
    expect(all(q)).toEqual(['Foo X2 Pro 5G']);
    models.mockRestore();
  });
});
