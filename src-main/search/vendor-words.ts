import type { ModelVocabulary } from '../enrich/model-vocabulary';

/** Lower-cased sets by the `vendorWords` array they were made from (the same array until a document changes the vocabulary). */
const sets = new WeakMap<readonly string[], ReadonlySet<string>>();

/**
 * The library's vendor words (given and learned), lower-cased as question tokens' `norm` is:
 * built once per state of the vocabulary, not at every question and every caller.
 */
export function vendorWordSet(vocabulary: ModelVocabulary): ReadonlySet<string> {
  const words = vocabulary.vendorWords();
  let set = sets.get(words);
  if (!set) {
    set = new Set(words.map((v) => v.toLowerCase()));
    sets.set(words, set);
  }
  return set;
}
