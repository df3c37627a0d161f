import { normalizeMarkdown } from '../normalize';
import { htmlToMarkdown } from './html-to-markdown';
import type { ParseInput, ParseResult, Parser } from './parser';
import { NO_TEXT_FAILURE, baseTitle, cleanText, parseText } from './sniff';

/**
 * HTML pages (saved manuals, help exports) to Markdown with turndown + the GFM plugin: headings,
 * lists, tables and code survive; scripts, styles, navigation, forms controls and page footers
 * are dropped. Nothing is executed or fetched: domino only builds a DOM.
 */

/** Charset declared by `<meta charset>` or `<meta http-equiv content="...charset=...">`, if any. */
export function declaredCharset(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 4096)).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1] ?? null;
}

/** Parses `.html`, `.htm` and `.xhtml` files; never throws. */
export const htmlParser: Parser = {
  format: 'html',
  async parse(input: ParseInput): Promise<ParseResult> {
    return parseText(
      input,
      'HTML',
      ({ text }) => {
        const { markdown, title } = htmlToMarkdown(cleanText(text), { dropPageFooters: true });
        if (!markdown.trim()) return NO_TEXT_FAILURE;
        return { ok: true, doc: normalizeMarkdown({ markdown: `${markdown}\n`, format: 'html', title, fallbackTitle: baseTitle(input.fileName) }) };
      },
      declaredCharset,
    );
  },
};
