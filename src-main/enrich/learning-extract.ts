import type { NormalizedDocument } from '../core/document';
import { passagesOf, passageTerms } from './passage-words';
import { observeDocument, vocabularyInput, type VocabularyObservation } from './model-vocabulary';
import { contentTerms, plainText } from './text.util';

/**
 * What learning takes from a document alone, with no library state: its plain text (the model
 * vocabulary scans it), its distinct content terms (document frequencies) and each passage's
 * distinct stemmed terms (passage frequencies). The parse worker computes it beside the parse
 * and sends it with the document, so the import's thread, which learns, drafts and enriches the
 * whole batch while that worker is mostly idle, only adds the sets to the statistics.
 * Lists keep first-occurrence order: the statistics' maps (and enrichment.json) are then the
 * same as when the thread computes them itself.
 */
export interface LearningExtract {
  /** The plain text, unless `vocabulary` holds what the model vocabulary takes from it. */
  plain?: string;
  terms: string[];
  passages: string[][];
  /** The document's observation for the model vocabulary, when the document's id and the vocabulary's vendor words were known. */
  vocabulary?: VocabularyObservation;
}

/** Largest text (characters) an extract is made for: it travels beside the document, about doubling what crosses threads. */
export const LEARNING_EXTRACT_MAX_CHARS = 4 * 1024 * 1024;

/** What the model vocabulary's observation of a document needs besides it: the id it is imported under, the vocabulary's vendor words. */
export interface ObservationRequest {
  id: string;
  vendors: readonly string[];
}

/**
 * The extract of `doc` (see `LearningExtract`); with `observe`, the document is observed for the
 * model vocabulary too, and its plain text stays here.
 */
export function learningExtract(doc: Omit<NormalizedDocument, 'id' | 'contentHash'>, observe?: ObservationRequest): LearningExtract {
  const plain = plainText(doc.text);
  const terms = [...new Set(contentTerms(plain))];
  const passages = passagesOf(doc).map((p) => [...new Set(passageTerms(p))]);
  if (!observe) return { plain, terms, passages };
  return { terms, passages, vocabulary: observeDocument({ ...vocabularyInput({ ...doc, id: observe.id }), plain }, observe.vendors) };
}
