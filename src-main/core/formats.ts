/**
 * The document formats ManualMate imports, spelled once: the parser registry, the import's folder
 * walk, the Electron open dialog, the renderer's file pickers and the MIME type an original is
 * served with all read this table. Pure (no Node, no DOM), so the renderer imports it too.
 *
 * A new format (e.g. EPUB) is a row here plus its parser in `ingest/parsers/` (registered in
 * `parsers/index.ts`); a test checks that every format here has exactly one parser.
 */

export const DOC_FORMATS = ['pdf', 'docx', 'html', 'markdown', 'txt'] as const;
export type DocFormat = (typeof DOC_FORMATS)[number];

export interface FormatInfo {
  /** File extensions, lower case without the dot, the usual one first. */
  readonly extensions: readonly string[];
  /** The MIME type the stored original is served with. */
  readonly mime: string;
}

export const FORMATS: { readonly [F in DocFormat]: FormatInfo } = {
  pdf: { extensions: ['pdf'], mime: 'application/pdf' },
  docx: { extensions: ['docx'], mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  html: { extensions: ['html', 'htm', 'xhtml'], mime: 'text/html' },
  markdown: { extensions: ['md', 'markdown', 'mdx'], mime: 'text/markdown' },
  txt: { extensions: ['txt', 'text'], mime: 'text/plain' },
};

/** Every extension the app imports (lower case, no dot), in the order formats are shown to users. */
export const SUPPORTED_EXTENSIONS: readonly string[] = DOC_FORMATS.flatMap((f) => FORMATS[f].extensions);

/** The format a lower-case extension (no dot) belongs to, or null when none reads it. */
export function formatOfExtension(extension: string): DocFormat | null {
  return DOC_FORMATS.find((f) => FORMATS[f].extensions.includes(extension)) ?? null;
}
