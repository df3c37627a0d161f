import { FORMATS, SUPPORTED_EXTENSIONS, type DocFormat } from '../../core/formats';
import { docxParser } from './docx.parser';
import { htmlParser } from './html.parser';
import { markdownParser } from './markdown.parser';
import type { ParseFailure, ParseInput, ParseResult, Parser } from './parser';
import { pdfParser } from './pdf.parser';
import { formatFor } from './choose';
import { detectMagic, extensionOf } from './sniff';
import { txtParser } from './txt.parser';

/** Parser registry: one parser per format, chosen by the file's lower-case extension. */

/** Every registered parser, in the order formats are listed to users. */
export const PARSERS: readonly Parser[] = [pdfParser, docxParser, htmlParser, markdownParser, txtParser];

export { SUPPORTED_EXTENSIONS };

/** Extension -> parser, through the parser's format (the extensions are core's, spelled once). */
const BY_EXTENSION: ReadonlyMap<string, Parser> = new Map(PARSERS.flatMap((p) => FORMATS[p.format].extensions.map((e) => [e, p] as const)));
const BY_FORMAT: ReadonlyMap<DocFormat, Parser> = new Map(PARSERS.map((p) => [p.format, p]));

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
  const chosen = formatFor(fileName);
  if (chosen.ok) return { ok: true, parser: BY_FORMAT.get(chosen.format)! };
  if (extensionOf(fileName) === 'doc' && bytes && detectMagic(bytes)?.renameTo === 'docx') return { ok: true, parser: docxParser };
  return chosen;
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
