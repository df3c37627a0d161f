import { decodeHTMLStrict } from 'entities';
import { MD_IMAGE, MD_LINK } from '../core/text';

/** A quoted line's inline Markdown as an answer shows it (`cleanInline`). */

/** docsify's tip ("?>") and warning ("!>") marks, starting a line (inside a quote too). */
const CALLOUT_MARK = String.raw`[ \t]*(?:>[ \t]?)*[?!]>`;
export const CALLOUT = new RegExp(`^${CALLOUT_MARK}`);
/** The marks as `cleanInline` drops them, with the space after them, on every line. */
const CALLOUT_MARKS = new RegExp(`(^|\\n)${CALLOUT_MARK}[ \\t]*`, 'g');

/** Inline Markdown for display: images dropped, links and HTML tags reduced to their text. */
export function cleanInline(text: string): string {
  // Code spans are code: what looks like a tag ("`<value>`"), a link or an entity in them is
  // shown as written, as a renderer does. NUL never occurs in chunk text, so it marks their places.
  const spans: string[] = [];
  const masked = text.includes('\u0000')
    ? text
    : text.replace(CODE_SPAN, (span) => {
        spans.push(span);
        return `\u0000${spans.length - 1}\u0000`;
      });
  const shown = masked
    .replace(CALLOUT_MARKS, '$1')
    .replace(/(^|\n)[ \t]*(?:>[ \t]?)+/g, '$1')
    .replace(/(^|\n)[ \t]*#{1,6}[ \t]+/g, '$1')
    .replace(MD_IMAGE, ' ')
    // A link whose emphasis closes between its text and its target ("**[Core docs]**(https://...)",
    // which renders with the raw URL) is read as the link its writer meant: the text, emphasised.
    .replace(/\[([^\]\n]{0,300})\](\*\*|__|\*|_)\((?:[a-z][\w+.-]*:|\/|#|\.\.?\/)[^)\s]*\)/gi, '$1$2')
    .replace(MD_LINK, '$1')
    .replace(/<br\s*\/?>/gi, ' ')
    // A script or style element is code the page runs, not text it shows: gone with its content.
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    // A removed tag glued to punctuation leaves no gap ("<b>5V</b>." -> "5V."); the manual's own spacing stays.
    .replace(/<[^>\n]*>(?=[.,;:!?])/g, '')
    .replace(/<[^>\n]*>/g, ' ')
    // Markdown escapes ("\-20°C", "1\*2") show their character, as a renderer would.
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1')
    // A footnote's link back to its mark ("↩︎") goes nowhere in a quote.
    .replace(/↩\uFE0E?/g, ' ');
  // The characters HTML writes as entities ("Datasheet &gt; Section", "0&ndash;5&nbsp;V"), decoded
  // once the tags are gone so "&lt;b&gt;" stays text; strict, as Markdown reads "&copy=" as text.
  // eslint-disable-next-line no-control-regex
  const unmasked = decodeHTMLStrict(shown).replace(/\u0000(\d+)\u0000/g, (_m, n: string) => spans[Number(n)] ?? '');
  return unmasked.replace(/\s+/g, ' ').trim();
}

/**
 * An inline code span: a run of backticks, text not ending a paragraph, the same run (CommonMark).
 * An escaped backtick ("\\`", as HTML converters write a cell's literal one) opens none.
 */
const CODE_SPAN = /(?<![\\`])(`+)(?!`)((?:[^`\n]|\n(?![ \t]*\n)|`(?!\1))+?)\1(?!`)/g;
