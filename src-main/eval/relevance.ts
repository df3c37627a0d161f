// `entities` (markdown-it's own decoder) knows every HTML5 named and numeric reference; a
// hand-kept table would miss the rarer ones manuals use (&ndash;, &#x2264;, &micro;...).
import { decodeHTML } from 'entities';

/**
 * The relevance rule of the question files (DESIGN.md, "Evaluation is a product feature"): a
 * retrieved chunk is relevant when it comes from a gold document and its text contains the gold
 * `contains` string, both sides normalized the same way. The rule looks at the chunk's shown text
 * only (never the indexed prefix), so it does not depend on the chunking or the prefix.
 */

/** One gold answer: a document id (path relative to the corpus folder's parent) and evidence text. */
export interface GoldAnswer {
  doc: string;
  contains: string;
  /** 1-based page of the PDF the evidence is on, where the question file gives one. */
  page?: number;
}

/** What the rule needs from a retrieved chunk. */
export interface RetrievedChunk {
  doc: string;
  /** The chunk's shown text (without the indexed prefix). */
  text: string;
}

/** HTML comments and tags (a letter or `/` right after `<`), so "a < b > c" in prose survives. */
const HTML_TAG = /<!--[\s\S]*?-->|<\/?[A-Za-z][^<>]*>/g;
/** Markdown emphasis (`*`, `_`), code (`` ` ``) and table pipe characters. */
const MARKDOWN_MARKS = /[*_`|]/g;

/**
 * DESIGN.md's normalization, in its order: decode HTML entities, Unicode NFKC (a micro sign equals
 * a Greek mu, a full-width digit a digit), strip HTML tags (each becomes a space, as `<br>` or
 * `<td>` separate words), strip Markdown emphasis/code/pipe characters, collapse whitespace to one
 * space and trim, lowercase.
 */
export function normalizeForRelevance(text: string): string {
  return decodeHTML(text).normalize('NFKC').replace(HTML_TAG, ' ').replace(MARKDOWN_MARKS, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** Gold answers with their `contains` normalized once, for matching many chunks. */
export interface PreparedAnswers {
  readonly answers: readonly GoldAnswer[];
  readonly needles: readonly string[];
}

/** Normalizes each answer's `contains` once. */
export function prepareAnswers(answers: readonly GoldAnswer[]): PreparedAnswers {
  return { answers, needles: answers.map((a) => normalizeForRelevance(a.contains)) };
}

/**
 * Indices (into `answers`) of the gold answers this chunk covers: same document id and the
 * normalized text contains the normalized evidence. Empty when the chunk is not relevant.
 */
export function coveredAnswers(chunk: RetrievedChunk, prepared: PreparedAnswers): number[] {
  if (!prepared.answers.some((a) => a.doc === chunk.doc)) return [];
  return coveredByNormalized(chunk.doc, normalizeForRelevance(chunk.text), prepared);
}

/** `coveredAnswers` for a chunk whose text is already normalized (when scanning many stored chunks). */
export function coveredByNormalized(doc: string, normalizedText: string, prepared: PreparedAnswers): number[] {
  const covered: number[] = [];
  prepared.answers.forEach((a, i) => {
    if (a.doc === doc && normalizedText.includes(prepared.needles[i]!)) covered.push(i);
  });
  return covered;
}

/** True when the chunk is relevant to at least one of the gold answers. */
export function isRelevant(chunk: RetrievedChunk, answers: readonly GoldAnswer[] | PreparedAnswers): boolean {
  const prepared = 'needles' in answers ? answers : prepareAnswers(answers);
  return coveredAnswers(chunk, prepared).length > 0;
}
