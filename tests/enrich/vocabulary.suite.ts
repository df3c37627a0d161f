import { describe, expect, it } from 'vitest';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { loadCorpus } from './corpus.helper';

/**
 * ModelVocabulary learned from radxa-docs and esp-dev-kits under `corpusRoot` (one of
 * `corpusRoots`): each `[docId, model]` pair must be filed under that model, and every one of the
 * `espDocs` documents under an ESP board folder must get an identity.
 */
export function describeVocabularyOnBoards(corpusRoot: string, identities: [docId: string, model: string][], espDocs: number): void {
  describe(`ModelVocabulary on the board corpora under ${corpusRoot.split(/[\\/]/).slice(-2).join('/')}`, () => {
    const corpus = [...loadCorpus('radxa-docs', corpusRoot), ...loadCorpus('esp-dev-kits', corpusRoot)];
    const v = ModelVocabulary.fromDocuments(corpus);

    it.each(identities)('files %s under %s', (id, model) => {
      expect(v.identityOf(id)?.model).toBe(model);
    });

    it('gives every document under an ESP board folder an identity', () => {
      const esp = corpus.filter((d) => d.id.startsWith('esp-dev-kits/md/'));
      expect(esp.length).toBe(espDocs);
      expect(esp.filter((d) => v.identityOf(d.id) === null).map((d) => d.id)).toEqual([]);
    });

    it('never turns generic section folders or shell prompts into models', () => {
      const names = v.models().map((m) => m.name.toLowerCase());
      for (const bad of ['install system', 'getting started', 'hardware', 'accessories', 'cm3j-rpi-cm4-io', 'i2c']) {
        expect(names).not.toContain(bad);
      }
    });
  });
}
