import { describe, expect, it } from 'vitest';
import { namedWhere } from '../../src-main/chat/retrieve';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';

/**
 * `namedWhere` decides whether a passage of another chunk model still belongs to the asked model
 * (retrieval's sibling gate, the answer's "For X:" lines). A page copied from a sibling's, its
 * title kept, must not pass for the sibling's: its file names its own model.
 */
function vocabulary(): ModelVocabulary {
  const board = (file: string, title: string, name: string) => ({
    id: `boards/${file}.md`,
    title,
    text: `# ${title}\n\n## Description\n\nThe ${name} is a compact board with a battery. ${name} charges over USB-C.`,
    h1Headings: [title],
  });
  return ModelVocabulary.fromDocuments([
    board('kx-100', 'KX-100', 'KX-100'),
    // The vendor's copy error: the KX-300's page under the KX-100's title.
    board('kx-300', 'KX-100', 'KX-300'),
    board('faq', 'KX-100', 'KX-100'),
  ]);
}

describe('namedWhere', () => {
  const vocab = vocabulary();
  const copied = { doc: 'boards/kx-300.md', title: 'KX-100', headingPath: ['KX-100', 'Description'] };

  it('knows both boards, and the copied page as the KX-300', () => {
    const names = vocab.models().map((m) => m.name);
    expect(names).toEqual(expect.arrayContaining(['KX-100', 'KX-300']));
    expect(vocab.identityOf('boards/kx-300.md')?.model).toBe('KX-300');
  });

  it('does not give a page whose file names its own chunk model to the model its title names', () => {
    expect(namedWhere(['KX-100'], { ...copied, signature: { model: 'KX-300' } }, vocab)).toBe(false);
  });

  it('still gives it to the model its file names', () => {
    expect(namedWhere(['KX-300'], { ...copied, signature: { model: 'KX-300' } }, vocab)).toBe(true);
  });

  it('lets the title decide when the chunk has no model, or another than its file names', () => {
    expect(namedWhere(['KX-100'], copied, vocab)).toBe(true);
    expect(namedWhere(['KX-100'], { ...copied, signature: { model: null } }, vocab)).toBe(true);
    const faq = { doc: 'boards/faq.md', title: 'KX-100', headingPath: ['KX-100'], signature: { model: 'KX-300' } };
    expect(namedWhere(['KX-100'], faq, vocab)).toBe(true);
  });
});
