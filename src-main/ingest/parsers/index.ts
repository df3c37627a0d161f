import { FORMATS, SUPPORTED_EXTENSIONS } from '../../core/formats';
import { docxParser } from './docx.parser';
import { htmlParser } from './html.parser';
import { markdownParser } from './markdown.parser';
import type { ParseFailure, ParseInput, ParseResult, Parser } from './parser';
import { pdfParser } from './pdf.parser';
import { detectMagic, extensionOf } from './sniff';
import { txtParser } from './txt.parser';

/** Parser registry: one parser per format, chosen by the file's lower-case extension. */

/** Every registered parser, in the order formats are listed to users. */
export const PARSERS: readonly Parser[] = [pdfParser, docxParser, htmlParser, markdownParser, txtParser];

export { SUPPORTED_EXTENSIONS };

/** Extension -> parser, through the parser's format (the extensions are core's, spelled once). */
const BY_EXTENSION: ReadonlyMap<string, Parser> = new Map(PARSERS.flatMap((p) => FORMATS[p.format].extensions.map((e) => [e, p] as const)));

const supportedList = (): string => SUPPORTED_EXTENSIONS.map((e) => `.${e}`).join(', ');

/** True when `fileName`'s extension has a parser (case-insensitive). */
export function isSupportedFile(fileName: string): boolean {
  return BY_EXTENSION.has(extensionOf(fileName));
}

/**
 * The parser for a file, by its lower-case extension, or an 'unsupported' failure whose reason
 * names the supported extensions. `bytes`, when given, rescues one common mislabel: a real .docx
 * saved with a .doc extension goes to the DOCX parser.
 */
export function parserFor(fileName: string, bytes?: Uint8Array): { ok: true; parser: Parser } | ParseFailure {
  const ext = extensionOf(fileName);
  const parser = BY_EXTENSION.get(ext);
  if (parser) return { ok: true, parser };
  if (ext === 'doc') {
    if (bytes && detectMagic(bytes)?.renameTo === 'docx') return { ok: true, parser: docxParser };
    return {
      ok: false,
      code: 'unsupported',
      reason: 'Old Word documents (.doc) are not supported. Open the file in Word or LibreOffice, save it as .docx, and import that file.',
    };
  }
  const what = ext ? `Files ending in .${ext} are not supported.` : 'This file has no extension, so its format is unknown.';
  return { ok: false, code: 'unsupported', reason: `${what} Supported formats: ${supportedList()}.` };
}

/** Picks the parser for `input.fileName` and runs it; never throws (bugs become 'corrupt' failures). */
export async function parseDocument(input: ParseInput): Promise<ParseResult> {
  const chosen = parserFor(input.fileName, input.bytes);
  if (!chosen.ok) return chosen;
  try {
    return await chosen.parser.parse(input);
  } catch (err) {
    return { ok: false, code: 'corrupt', reason: `The file could not be read: ${err instanceof Error ? err.message : String(err)}` };
  }
}

export type { ParseFailure, ParseInput, ParseResult, Parser } from './parser';
