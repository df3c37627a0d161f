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

export const DEFAULT_PREFIX_OPTIONS: Readonly<Required<PrefixOptions>> = { signature: true, headingPath: true, keys: false };

/** `[Category: … | Nouns: … | Model: …]`, or '' when every field is absent. */
export function signaturePrefix(signature: Signature): string {
  const parts: string[] = [];
  if (signature.category) parts.push(`Category: ${signature.category}`);
  if (signature.nouns.length > 0) parts.push(`Nouns: ${signature.nouns.join(', ')}`);
  if (signature.model) parts.push(`Model: ${signature.model}`);
  return parts.length > 0 ? `[${parts.join(' | ')}]` : '';
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

/** The indexed/embedded text: prefix followed by the chunk's own text (never modified). */
export function indexedText(chunk: EnrichedChunk & { context?: string | null }, options?: PrefixOptions): string {
  return buildPrefix(chunk, options) + chunk.text;
}
