import type { NormalizedDocument } from '../core/document';
import { distinctPassageTerms, passagesOf } from './passage-words';
import { distinctContentTerms, plainText } from './text.util';

/**
 * What learning takes from a document alone, with no library state: its plain text (the model
 * vocabulary scans it), its distinct content terms (document frequencies) and each passage's
 * distinct stemmed terms (passage frequencies). The parse worker computes it beside the parse
 * when the import's thread is the busier side (`LibraryIndex.extractsAhead`), which then only adds
 * the sets to the statistics; otherwise that thread computes it when it learns.
 * Lists keep first-occurrence order: the statistics' maps (and enrichment.json) are then the
 * same as when the thread computes them itself.
 */
export interface LearningExtract {
  plain: string;
  terms: string[];
  passages: string[][];
}

/** Largest text (characters) an extract is made for: it travels beside the document, about doubling what crosses threads. */
export const LEARNING_EXTRACT_MAX_CHARS = 4 * 1024 * 1024;

/** The extract of `doc` (see `LearningExtract`). */
export function learningExtract(doc: Pick<NormalizedDocument, 'text' | 'blocks'>): LearningExtract {
  const plain = plainText(doc.text);
  return {
    plain,
    terms: [...distinctContentTerms(plain)],
    passages: passagesOf(doc).map((p) => [...distinctPassageTerms(p)]),
  };
}
