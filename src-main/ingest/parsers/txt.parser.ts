import { normalizeMarkdown } from '../normalize';
import type { ParseInput, ParseResult, Parser } from './parser';
import { EMPTY_FAILURE, baseTitle, cleanText, parseText } from './sniff';
import { indentWidth } from './markdown.parser';

/**
 * Plain text files in any common encoding (BOM, UTF-8, UTF-16, chardet + iconv-lite for legacy
 * code pages such as Windows-1252, GB18030, Shift_JIS).
 *
 * The text becomes Markdown by escaping, not by wrapping it in a code block: paragraphs (split on
 * blank lines) stay paragraphs that chunkers can split, while no line can turn into a heading,
 * list, quote, table, fence, HTML block or front matter by accident. Only the first marker
 * character of such a line gets a backslash (`\# 1`, `1\. Step`, `\- item`). Lines indented by
 * four or more columns are left alone: they become code blocks, which keeps column-aligned text
 * tables aligned, and a backslash there would be literal.
 */

/** Longest first line (in characters) that is taken as the title. */
const MAX_TITLE_CHARS = 120;


/** A line that markdown-it would read as a table delimiter row (`---|---`, `| :-- |`). */
const TABLE_DELIMITER = /^[|:\-\s]*-[|:\-\s]*$/;

/**
 * Escapes the one character that would make a plain-text line Markdown syntax. Inline syntax
 * (`*`, `_`, links) is left as it is: it cannot change the block structure or hide text.
 */
export function escapePlainLine(line: string): string {
  if (indentWidth(line) >= 4) return line;
  const m = /^([ \t]*)(.*)$/.exec(line)!;
  const lead = m[1]!;
  const rest = m[2]!;
  if (rest === '') return line;
  const esc = (i: number): string => `${lead}${rest.slice(0, i)}\\${rest.slice(i)}`;
  if (/^(#{1,6})(\s|$)/.test(rest)) return esc(0);
  if (/^[-+*](\s|$)/.test(rest)) return esc(0);
  if (/^(\d{1,9})[.)](\s|$)/.test(rest)) return esc(/^\d+/.exec(rest)![0].length);
  if (/^(>|<[A-Za-z/!?]|`{3,}|~{3,}|\[[^\]]*\]:)/.test(rest)) return esc(0);
  // Thematic breaks and setext underlines (which would turn the previous line into a heading).
  if (/^([-*_])(\s*\1){2,}\s*$|^-+\s*$|^=+\s*$/.test(rest)) return esc(0);
  if (rest.includes('-') && TABLE_DELIMITER.test(rest) && /[|:]/.test(rest)) return esc(0);
  return line;
}

/** Converts plain text to Markdown: one paragraph per blank-line-separated run of lines. */
export function textToMarkdown(text: string): string {
  const lines = cleanText(text)
    .split('\n')
    .map((l) => l.replace(/[ \t]+$/, ''));
  const out: string[] = [];
  for (const line of lines) {
    if (line === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(escapePlainLine(line));
  }
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.join('\n') + '\n';
}

/** First non-empty line when it is short enough to be a title, else null. */
export function titleFromText(text: string): string | null {
  const first = text.split('\n').find((l) => l.trim() !== '')?.trim();
  if (!first || first.length > MAX_TITLE_CHARS) return null;
  return first;
}

/** Parses `.txt` and `.text` files; never throws. */
export const txtParser: Parser = {
  format: 'txt',
  async parse(input: ParseInput): Promise<ParseResult> {
    return parseText(input, 'text', ({ text, encoding }) => {
      if (!text.trim()) return EMPTY_FAILURE;
      const doc = normalizeMarkdown({
        markdown: textToMarkdown(text),
        format: 'txt',
        title: titleFromText(cleanText(text)),
        fallbackTitle: baseTitle(input.fileName),
        metadata: { encoding },
      });
      return { ok: true, doc };
    });
  },
};
