import type { NormalizedDocument } from '../core/document';

/**
 * A document's ordering codes: the SKU, part or order number it is sold and asked about under
 * ("SKU: ABX00083", "P/N 990-0123", front matter `sku:`), and the part numbers a PDF prints in its
 * running header. A technician often has only the code from a label or an invoice; the manual says
 * it once, near its top, so the code never reaches most chunks' words. The codes join the
 * document's names (`search/document-evidence.ts`). The labels are general English; no vendor.
 */

/** Most codes kept per document (a catalogue page lists many; the first ones are its own). */
const MAX_CODES = 8;
/** How far into the text labelled codes are read: the product's own code is near the top. */
const HEAD_CHARS = 6000;

const LABEL = String.raw`SKU|P\/N|MPN|Part\s*(?:No\.?|Number|#)|Order(?:ing)?\s*(?:Code|No\.?|Number|#)|Item\s*(?:No\.?|Code|Number)|Article\s*(?:No\.?|Number)`;
/** A label, an optional colon or "#", then the code: letters, digits and -._/ with at least one digit. */
const LABELLED = new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${LABEL})\s*[:：#]?\s*(?=[\p{L}\p{N}._/-]*\p{N})([\p{L}\p{N}][\p{L}\p{N}._/-]{2,31})`, 'giu');
const METADATA_KEY = /^(?:sku|mpn|part[_ -]?(?:no|number)|order(?:ing)?[_ -]?(?:code|no|number)|item[_ -]?(?:no|code|number))$/i;

/** The codes of a document, first seen first, without duplicates (compared case-insensitively). */
export function documentCodes(doc: Pick<NormalizedDocument, 'text' | 'metadata' | 'facts'>): string[] {
  const out: string[] = [];
  const add = (code: string) => {
    const c = code.replace(/[._/-]+$/, '');
    if (c.length >= 3 && /\p{N}/u.test(c) && !out.some((o) => o.toLowerCase() === c.toLowerCase())) out.push(c);
  };
  for (const [key, value] of Object.entries(doc.metadata)) if (METADATA_KEY.test(key.trim())) for (const v of value.split(/[,;\s]+/)) add(v);
  for (const m of doc.text.slice(0, HEAD_CHARS).matchAll(LABELLED)) add(m[1]!);
  for (const p of doc.facts?.partNumbers ?? []) add(p);
  return out.slice(0, MAX_CODES);
}
