import type { DocFormat, ParsedDocument } from '../../core/document';
import type { ErrorCode } from '../../core/result';

/** Input to a parser: the file's bytes (already size-checked and read) and its display name. */
export interface ParseInput {
  bytes: Uint8Array;
  /** File name with extension, for titles and messages (never a full path). */
  fileName: string;
  signal?: AbortSignal;
  /** Called with 0..1 as parsing advances (PDF pages, etc.). */
  onProgress?: (fraction: number) => void;
}

/** A parse failure a technician can read: `reason` is a full sentence shown on the document. */
export interface ParseFailure {
  ok: false;
  code: Extract<ErrorCode, 'empty' | 'corrupt' | 'encrypted' | 'no-text-layer' | 'binary' | 'misnamed' | 'unsupported' | 'cancelled' | 'too-large'>;
  reason: string;
}

export type ParseResult = { ok: true; doc: ParsedDocument } | ParseFailure;

/** One parser per format; the extensions it reads are its format's (`FORMATS` in core/formats.ts). */
export interface Parser {
  readonly format: DocFormat;
  parse(input: ParseInput): Promise<ParseResult>;
}
