/**
 * Document facts of a PDF: what its metadata and running headers/footers say (title, part numbers,
 * revision). The running lines are removed from the text so they do not repeat in every chunk, but
 * they name the product on every page, so enrichment gets them here. Pure (no pdf.js).
 */
import type { DocumentFacts } from '../../core/document';

const MAX_RUNNING_LINES = 10;

// Capitals with digits, 4+ characters, optionally hyphenated or slashed: "NTD4809N", "BL602", "LM78XXA", "CH32V30x".
const PART_NUMBER = /(?<![\p{L}\p{N}])(?=[\p{L}\p{N}-]*\p{N})(?=[\p{L}\p{N}-]*\p{Lu})\p{Lu}[\p{L}\p{N}]*(?:-[\p{Lu}\p{N}][\p{L}\p{N}]*)*(?![\p{L}\p{N}])/gu;
const REVISION = /(?<![\p{L}\p{N}])(?:rev(?:ision)?\.?\s*|version\s*|v)(\d+(?:\.\d+)*[A-Za-z]?)(?![\p{L}\p{N}.])/iu;
const URL_LIKE = /^(?:https?:|www\.)|\.(?:com|cn|net|org)\b/i;

/** Part numbers in `text`, in order, without duplicates; version strings ("V1.9") and URLs are not parts. */
export function partNumbers(text: string): string[] {
  const out: string[] = [];
  for (const word of text.split(/\s+/)) {
    if (URL_LIKE.test(word)) continue;
    for (const m of word.matchAll(PART_NUMBER)) {
      const t = m[0];
      if (t.length < 4 || REVISION.test(t) || /^\p{Lu}?\d+$/u.test(t)) continue;
      if (!out.includes(t)) out.push(t);
    }
  }
  return out;
}

/** Facts from the metadata and the removed running lines; `runningText` most frequent first. */
export function documentFacts(input: { metadataTitle: string | null; subject: string | null; runningText: string[] }): DocumentFacts {
  const runningText = input.runningText.slice(0, MAX_RUNNING_LINES);
  const sources = [input.metadataTitle, input.subject, ...runningText].filter((s): s is string => !!s);
  const parts: string[] = [];
  for (const s of sources) for (const p of partNumbers(s)) if (!parts.includes(p)) parts.push(p);
  let revision: string | undefined;
  for (const s of sources) {
    const m = REVISION.exec(s);
    if (m) {
      revision = m[0].trim();
      break;
    }
  }
  return {
    ...(input.metadataTitle ? { metadataTitle: input.metadataTitle } : {}),
    ...(input.subject ? { subject: input.subject } : {}),
    runningText,
    partNumbers: parts,
    ...(revision ? { revision } : {}),
  };
}
