import { normalizeMarkdown } from '../normalize';
import { checkDocxBounds } from './docx.guard';
import { htmlToMarkdown } from './html-to-markdown';
import { ParseLimitError } from './limits';
import type { ParseFailure, ParseInput, ParseResult, Parser } from './parser';
import { CANCELLED_FAILURE, EMPTY_FAILURE, baseTitle, detectMagic, looksBinary } from './sniff';

/**
 * Word .docx via mammoth (DOCX -> semantic HTML) and turndown (HTML -> GFM). Headings come from
 * Word's heading styles, lists from numbering, tables stay tables (see `html-to-markdown.ts` for
 * mammoth's header-row quirk), and text set in a monospace font or a code style becomes code.
 */

const MONOSPACE_FONTS = new Set([
  'consolas', 'courier', 'courier new', 'lucida console', 'lucida sans typewriter', 'menlo', 'monaco',
  'andale mono', 'dejavu sans mono', 'liberation mono', 'noto sans mono', 'source code pro',
  'cascadia code', 'cascadia mono', 'fira code', 'fira mono', 'roboto mono', 'inconsolata',
  'jetbrains mono', 'ubuntu mono', 'sf mono', 'ms gothic', 'simsun-extb', 'nsimsun',
]);

/** Paragraph styles that hold code in common templates; all map to one `<pre>` per run of paragraphs. */
const STYLE_MAP = [
  "p[style-name='Code'] => pre:separator('\\n')",
  "p[style-name='Source Code'] => pre:separator('\\n')",
  "p[style-name='HTML Preformatted'] => pre:separator('\\n')",
  "p[style-name='Preformatted Text'] => pre:separator('\\n')",
  "p[style-name='Plain Text'] => pre:separator('\\n')",
  "r[style-name='Code Char'] => code",
  "r[style-name='HTML Code'] => code",
  "r[style-name='Verbatim Char'] => code",
  "p[style-name='Title'] => h1:fresh",
  "p[style-name='Subtitle'] => h2:fresh",
];

/** The parts of mammoth's document model this file reads and rewrites (mammoth ships no types for it). */
interface DocElement {
  type: string;
  children?: DocElement[];
  font?: string | null;
  styleId?: string | null;
  styleName?: string | null;
  value?: string;
  numbering?: unknown;
}

const isMonospace = (run: DocElement): boolean => !!run.font && MONOSPACE_FONTS.has(run.font.toLowerCase());

function runsOf(el: DocElement, out: DocElement[] = []): DocElement[] {
  for (const c of el.children ?? []) {
    if (c.type === 'run') out.push(c);
    else runsOf(c, out);
  }
  return out;
}

function textOf(el: DocElement): string {
  if (el.type === 'text') return el.value ?? '';
  return (el.children ?? []).map(textOf).join('');
}

function markRuns(el: DocElement): DocElement {
  if (el.type === 'run' && isMonospace(el) && !el.styleName) return { ...el, styleName: 'Code Char' };
  return el.children ? { ...el, children: el.children.map(markRuns) } : el;
}

/**
 * Word has no "code" semantics, so monospace text is the signal: a paragraph whose every visible
 * run is monospace becomes a code paragraph (consecutive ones merge into one block); monospace
 * runs inside ordinary paragraphs become inline code.
 */
function markCode(el: DocElement): DocElement {
  if (el.type === 'paragraph') {
    const visible = runsOf(el).filter((r) => textOf(r).trim() !== '');
    const plainStyle = !/heading|title|list/i.test(el.styleName ?? '') && !el.numbering;
    if (plainStyle && visible.length > 0 && visible.every(isMonospace)) return { ...el, styleId: 'Code', styleName: 'Code' };
    return markRuns(el);
  }
  return el.children ? { ...el, children: el.children.map(markCode) } : el;
}

const OLE2 = [0xd0, 0xcf, 0x11, 0xe0];

/** Why bytes that should be a .docx are not one, or null when they start like a ZIP archive. */
function checkContainer(bytes: Uint8Array): ParseFailure | null {
  if (bytes.length === 0) return EMPTY_FAILURE;
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return null;
  const magic = detectMagic(bytes);
  if (magic?.what.startsWith('a password-protected')) {
    return { ok: false, code: 'encrypted', reason: 'This Word document is password-protected. Remove the password in Word (File > Info > Protect Document), save, and import it again.' };
  }
  if (OLE2.every((b, i) => bytes[i] === b)) {
    return { ok: false, code: 'unsupported', reason: 'This is an old Word 97-2003 document (.doc) renamed to .docx. Open it in Word or LibreOffice, save it as .docx, and import it again.' };
  }
  if (magic) {
    const hint = magic.renameTo ? ` Rename it to .${magic.renameTo} and import it again.` : '';
    return { ok: false, code: magic.renameTo ? 'misnamed' : 'corrupt', reason: `This file is not a Word document: it looks like ${magic.what} renamed to .docx.${hint}` };
  }
  return {
    ok: false,
    code: 'corrupt',
    reason: looksBinary(bytes)
      ? 'This file is not a valid Word document (.docx): it is not a ZIP archive, so it is damaged or of another type.'
      : 'This file is not a valid Word document (.docx): it contains plain text. Rename it to .txt to import it as text.',
  };
}

function mammothFailure(err: unknown): ParseFailure {
  const message = err instanceof Error ? err.message : String(err);
  if (/main document part|word\/document\.xml/i.test(message)) {
    return { ok: false, code: 'corrupt', reason: 'This .docx file holds no Word document (it may be another kind of ZIP archive renamed to .docx).' };
  }
  if (/central directory|zip|corrupt|end of data|invalid/i.test(message)) {
    return { ok: false, code: 'corrupt', reason: 'This .docx file is damaged or incomplete: it could not be opened as a ZIP archive. Try saving it again from Word.' };
  }
  return { ok: false, code: 'corrupt', reason: `This .docx file could not be read: ${message}` };
}

/** Parses `.docx` files; never throws. */
export const docxParser: Parser = {
  format: 'docx',
  async parse(input: ParseInput): Promise<ParseResult> {
    if (input.signal?.aborted) return CANCELLED_FAILURE;
    const bad = checkContainer(input.bytes);
    if (bad) return bad;
    try {
      checkDocxBounds(input.bytes);
    } catch (err) {
      if (err instanceof ParseLimitError) return err.failure;
      throw err;
    }
    let html: string;
    try {
      const buffer = Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength);
      // Loaded on the first DOCX: most imports (and most parse workers) never see one, and loading
      // mammoth costs ~0.1 s of CPU each time.
      const { default: mammoth } = await import('mammoth');
      const result = await mammoth.convertToHtml(
        { buffer },
        {
          styleMap: STYLE_MAP,
          transformDocument: (doc: DocElement) => markCode(doc),
          // Images would be inlined as base64; only their alt text matters for search.
          convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
          externalFileAccess: false,
        },
      );
      html = result.value;
    } catch (err) {
      return mammothFailure(err);
    }
    if (input.signal?.aborted) return CANCELLED_FAILURE;
    input.onProgress?.(0.5);
    try {
      const { markdown } = htmlToMarkdown(html);
      if (!markdown.trim()) return { ok: false, code: 'empty', reason: 'The Word document has no text.' };
      if (input.signal?.aborted) return CANCELLED_FAILURE;
      const doc = normalizeMarkdown({ markdown: `${markdown}\n`, format: 'docx', fallbackTitle: baseTitle(input.fileName) });
      input.onProgress?.(1);
      return { ok: true, doc };
    } catch (err) {
      if (err instanceof ParseLimitError) return err.failure;
      return { ok: false, code: 'corrupt', reason: `The Word document could not be converted: ${err instanceof Error ? err.message : String(err)}` };
    }
  },
};
