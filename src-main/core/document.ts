/**
 * The normalized document: what every parser produces and what chunking consumes.
 *
 * Invariants (checked by tests):
 * - `text` is Markdown; every block's `[start, end)` is a slice of `text`, blocks are sorted,
 *   do not overlap, and only whitespace lies between consecutive blocks.
 * - `page` is 1-based and set only for formats that have pages (PDF); `null` otherwise.
 * - `headingPath` lists the texts of the enclosing headings, outermost first; a heading block's
 *   own path ends with its own text.
 */

import type { DocFormat } from './formats';

export { DOC_FORMATS, type DocFormat } from './formats';

export const BLOCK_KINDS = [
  'heading',
  'paragraph',
  'list',
  'table',
  'code',
  'blockquote',
  'frontmatter',
  'html',
  'rule',
] as const;
export type BlockKind = (typeof BLOCK_KINDS)[number];

/** Block kinds that chunkers must never split. */
export const ATOMIC_BLOCK_KINDS: ReadonlySet<BlockKind> = new Set([
  'heading',
  'list',
  'table',
  'code',
  'blockquote',
  'frontmatter',
]);

export interface Block {
  kind: BlockKind;
  /** Heading level 1..6 for `heading` blocks, otherwise undefined. */
  level?: number;
  /** Enclosing heading texts, outermost first. */
  headingPath: string[];
  /** 1-based page number of the block's first character; null when the format has no pages. */
  page: number | null;
  /** Last page the block touches (equal to `page` for most blocks). */
  pageEnd: number | null;
  /** Character offsets into `NormalizedDocument.text`, end exclusive. */
  start: number;
  end: number;
}

/**
 * What a document says about itself outside its body text: metadata and the running headers and
 * footers that were removed from the text. Enrichment reads these to learn the document's model.
 */
export interface DocumentFacts {
  /** Title from the file's metadata, when it names the document. */
  metadataTitle?: string;
  /** Subject from the file's metadata. */
  subject?: string;
  /** Distinct running header/footer lines removed from the text, as printed, most frequent first (at most 10). */
  runningText: string[];
  /** Part numbers and model codes (capitals with digits, 4+ characters) in the metadata and running text, first seen first. */
  partNumbers: string[];
  /** Revision or version as printed in the running text or metadata ("Rev. 1.2.1", "V1.9"). */
  revision?: string;
}

export interface NormalizedDocument {
  /** Document id: source path relative to the parent of what was imported, with `/` separators. */
  id: string;
  title: string;
  format: DocFormat;
  /** Normalized Markdown text; citations point into it by character offsets. */
  text: string;
  blocks: Block[];
  /** Number of pages for paged formats, null otherwise. */
  pageCount: number | null;
  /** sha256 (hex) of the original file bytes. */
  contentHash: string;
  /** Front matter and other document-level metadata (string values only). */
  metadata: Record<string, string>;
  /** Facts the parser found outside the body text (PDF: metadata, running headers/footers). */
  facts?: DocumentFacts;
}

/** What a parser returns before identity (id, hash) is attached. */
export type ParsedDocument = Omit<NormalizedDocument, 'id' | 'contentHash'>;
