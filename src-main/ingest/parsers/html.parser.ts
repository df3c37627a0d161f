import { normalizeMarkdown } from '../normalize';
import { htmlToMarkdown } from './html-to-markdown';
import type { ParseInput, ParseResult, Parser } from './parser';
import { CANCELLED_FAILURE, NO_TEXT_FAILURE, baseTitle, cleanText, decodeText, sniffText } from './sniff';

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
  extensions: ['html', 'htm', 'xhtml'],
  async parse(input: ParseInput): Promise<ParseResult> {
    if (input.signal?.aborted) return CANCELLED_FAILURE;
    const notText = sniffText(input.bytes, input.fileName);
    if (notText) return notText;
    try {
      const { text } = decodeText(input.bytes, declaredCharset(input.bytes));
      if (input.signal?.aborted) return CANCELLED_FAILURE;
      const { markdown, title } = htmlToMarkdown(cleanText(text), { dropPageFooters: true });
      if (!markdown.trim()) return NO_TEXT_FAILURE;
      if (input.signal?.aborted) return CANCELLED_FAILURE;
      const doc = normalizeMarkdown({ markdown: `${markdown}\n`, format: 'html', title, fallbackTitle: baseTitle(input.fileName) });
      input.onProgress?.(1);
      return { ok: true, doc };
    } catch (err) {
      return { ok: false, code: 'corrupt', reason: `The HTML file could not be read: ${err instanceof Error ? err.message : String(err)}` };
    }
  },
};
