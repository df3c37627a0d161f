import { formatOfExtension, SUPPORTED_EXTENSIONS, type DocFormat } from '../../core/formats';
import type { ParseFailure } from './parser';

/**
 * Which format reads a file, by its name alone, without loading any parser: the import's thread
 * asks this of every file while the parsers (turndown, domino, mammoth, markdown-it, pdf.js's
 * glue: ~0.2 s of CPU to load through tsx) run in the parse worker only (`parsers/index.ts`).
 */

/** Lower-case extension of a file name without the dot ('' when there is none). */
export function extensionOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

const supportedList = (): string => SUPPORTED_EXTENSIONS.map((e) => `.${e}`).join(', ');

/** The old Word format's failure (a real .docx saved as .doc is rescued by its bytes, in `parserFor`). */
const OLD_WORD_FAILURE: ParseFailure = {
  ok: false,
  code: 'unsupported',
  reason: 'Old Word documents (.doc) are not supported. Open the file in Word or LibreOffice, save it as .docx, and import that file.',
};

/** The format of a file, by its lower-case extension, or an 'unsupported' failure whose reason names the supported extensions. */
export function formatFor(fileName: string): { ok: true; format: DocFormat } | ParseFailure {
  const ext = extensionOf(fileName);
  const format = formatOfExtension(ext);
  if (format) return { ok: true, format };
  if (ext === 'doc') return OLD_WORD_FAILURE;
  const what = ext ? `Files ending in .${ext} are not supported.` : 'This file has no extension, so its format is unknown.';
  return { ok: false, code: 'unsupported', reason: `${what} Supported formats: ${supportedList()}.` };
}
