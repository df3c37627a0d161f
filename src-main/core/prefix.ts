import type { EnrichedChunk, Signature } from './chunk';

/**
 * CHOP's embedding input `PFX(signature) || chunk`: the text that is indexed (FTS) and embedded,
 * kept separate from the text that is shown and cited. The prefix is deterministic: fixed field
 * order, one bracketed line per enabled part, absent fields left out.
 */

export interface PrefixOptions {
  /** `[Category: … | Nouns: … | Model: …]` */
  signature?: boolean;
  /** `[Section: A > B]` (MDKeyChunker's free section-path prefix). */
  headingPath?: boolean;
  /** `[Key: … | Keywords: …]` */
  keys?: boolean;
}

/** No prefix at all: the keyword index sees the chunk's own text only. */
export const NO_PREFIX: Readonly<Required<PrefixOptions>> = { signature: false, headingPath: false, keys: false };

/**
 * What a new library prefixes to its keyword-indexed text, and what `buildPrefix` assumes for
 * parts left out: nothing. Measured on the shared benchmarks (docs/benchmarks.md), the prefix did
 * not help keyword search once ranking is model-aware; embeddings get CHOP's signature prefix
 * regardless (`embedderInput`).
 */
export const DEFAULT_PREFIX_OPTIONS: Readonly<Required<PrefixOptions>> = NO_PREFIX;

/**
 * The signature's fields as `Category: … | Nouns: … | Model: …`, in that order. Absent fields are
 * left out, or with `showAbsent` written as `null` (nouns: `none`), which is how LLM prompts show
 * a previous chunk's signature.
 */
export function signatureFields(signature: Signature, options: { showAbsent?: boolean } = {}): string {
  const absent = options.showAbsent === true;
  const parts: string[] = [];
  if (signature.category || absent) parts.push(`Category: ${signature.category ?? 'null'}`);
  if (signature.nouns.length > 0 || absent) parts.push(`Nouns: ${signature.nouns.join(', ') || 'none'}`);
  if (signature.model || absent) parts.push(`Model: ${signature.model ?? 'null'}`);
  return parts.join(' | ');
}

/** `[Category: … | Nouns: … | Model: …]`, or '' when every field is absent. */
export function signaturePrefix(signature: Signature): string {
  const fields = signatureFields(signature);
  return fields ? `[${fields}]` : '';
}

/** The prefix lines for a chunk or unit (each ends with "\n"), '' when nothing applies. */
export function buildPrefix(chunk: EnrichedChunk & { context?: string | null }, options: PrefixOptions = DEFAULT_PREFIX_OPTIONS): string {
  const o = { ...DEFAULT_PREFIX_OPTIONS, ...options };
  const lines: string[] = [];
  if (o.signature) {
    const s = signaturePrefix(chunk.signature);
    if (s) lines.push(s);
  }
  if (o.headingPath && chunk.headingPath.length > 0) lines.push(`[Section: ${chunk.headingPath.join(' > ')}]`);
  else if (chunk.context) lines.push(`[Section: ${chunk.context}]`);
  if (o.keys) {
    const parts: string[] = [];
    if (chunk.keys.key) parts.push(`Key: ${chunk.keys.key}`);
    if (chunk.keys.keywords.length > 0) parts.push(`Keywords: ${chunk.keys.keywords.join(', ')}`);
    if (parts.length > 0) lines.push(`[${parts.join(' | ')}]`);
  }
  return lines.map((l) => `${l}\n`).join('');
}

/** The prefix part of a stored `indexedText` (what precedes the chunk's own text), '' when none. */
export function prefixOf(stored: { indexedText: string; text: string }): string {
  return stored.indexedText.endsWith(stored.text) ? stored.indexedText.slice(0, stored.indexedText.length - stored.text.length) : '';
}

/**
 * What is embedded: CHOP's `PFX(CNM) || chunk` over the stored keyword text, whatever the keyword
 * prefix setting; a keyword prefix that already starts with the signature is used as is.
 */
export function embedderInput(stored: { indexedText: string; text: string }, signature: Signature): string {
  const prefix = signaturePrefix(signature);
  if (!prefix || prefixOf(stored).startsWith(prefix)) return stored.indexedText;
  return `${prefix}\n${stored.indexedText}`;
}

/** The indexed/embedded text: prefix followed by the chunk's own text (never modified). */
export function indexedText(chunk: EnrichedChunk & { context?: string | null }, options?: PrefixOptions): string {
  return buildPrefix(chunk, options) + chunk.text;
}
