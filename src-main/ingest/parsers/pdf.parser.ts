import { createRequire } from 'node:module';
import path from 'node:path';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFPageProxy, TextItem } from 'pdfjs-dist/types/src/display/api';
import { normalizeText, UNDECODED } from '../../core/text';
import { normalizeMarkdown } from '../normalize';
import { documentFacts } from './pdf.facts';
import type { ParseFailure, ParseInput, ParseResult, Parser } from './parser';
import { layoutSegmentedPages, segmentPage, type PdfPageText, type PdfTextItem, type SegmentedPage } from './pdf.layout';
import { detectMagic } from './sniff';
import { directWorker, type PdfWorkerSide } from './pdf.port';
import { LAYOUT } from './pdf.segments';
import { maybeSymbolSigns, symbolRecoder, type PdfFontFacts } from './pdf.symbol';

/**
 * PDF -> Markdown with page offsets, on pdf.js (pdfjs-dist 5, legacy build for Node 20). pdf.js
 * gives positioned text items per page; `pdf.layout.ts` puts them in reading order and finds
 * headings, tables, lists and paragraphs. Damaged, encrypted and scanned files come back as
 * ParseFailure values, never as exceptions.
 */

type PdfJs = typeof PdfJsModule;

/** Limits for one parse; a page that takes longer is reported as damaged instead of hanging the import. */
export interface PdfParserOptions {
  /** Milliseconds allowed to open the document (xref, trailer, encryption). Default 30 000. */
  openTimeoutMs?: number;
  /** Milliseconds allowed to extract one page's text. Default 30 000. */
  pageTimeoutMs?: number;
  /**
   * Milliseconds allowed to draw a page for its fonts (see `learnFonts`). Default `pageTimeoutMs`.
   * A drawing that fails or takes longer costs only that page's Symbol signs, never its text.
   */
  drawTimeoutMs?: number;
  /** Draws a page to load its fonts: pdf.js's operator list. Tests replace it to make a drawing fail or hang. */
  drawPage?: (page: PDFPageProxy) => Promise<unknown>;
}

/** Thrown inside the parse to unwind to a ParseFailure; never escapes `parse`. */
class Failure extends Error {
  constructor(readonly failure: ParseFailure) {
    super(failure.reason);
  }
}

let pdfjsPromise: Promise<PdfJs> | null = null;
/** pdf.js's worker side, once loaded (see `pdf.port.ts`). */
let workerSide: PdfWorkerSide | null = null;

/** Loads pdf.js once, with its worker code on the calling thread (Node has no Web Workers). */
export function loadPdfJs(): Promise<PdfJs> {
  pdfjsPromise ??= (async () => {
    const push = Object.getOwnPropertyDescriptor(Array.prototype, 'push');
    const [pdfjs, worker] = await Promise.all([
      import('pdfjs-dist/legacy/build/pdf.mjs'),
      // Registering the worker module as `globalThis.pdfjsWorker` is pdf.js's documented way to run
      // it in-thread; it also makes bundlers include the file instead of resolving a URL at runtime.
      import('pdfjs-dist/legacy/build/pdf.worker.mjs'),
    ]);
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    workerSide = worker.WorkerMessageHandler as PdfWorkerSide;
    // The legacy build's core-js replaces Array.prototype.push for the whole process on Node 20
    // (its check for an error on non-writable lengths fails on V8 11), and the replacement is ~10x
    // slower: it was the top self-time entry of a pdf-dev import profile, slowing every array in
    // the engine, not only pdf.js's. V8's own push is correct for everything pdf.js does.
    if (push && Array.prototype.push !== push.value) Object.defineProperty(Array.prototype, 'push', push);
    return pdfjs;
  })();
  pdfjsPromise.catch(() => {
    pdfjsPromise = null;
  });
  return pdfjsPromise;
}

let assets: { cMapUrl?: string; standardFontDataUrl?: string } | null = null;

/** Folders of pdf.js's CMaps (needed for CJK text) and standard font data, or {} if not found. */
function assetDirs(): { cMapUrl?: string; standardFontDataUrl?: string } {
  if (assets) return assets;
  try {
    const root = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    // pdf.js reads these with fs in Node and insists on a trailing '/', also on Windows.
    assets = { cMapUrl: `${path.join(root, 'cmaps')}/`, standardFontDataUrl: `${path.join(root, 'standard_fonts')}/` };
  } catch {
    assets = {};
  }
  return assets;
}

const fail = (code: ParseFailure['code'], reason: string): Failure => new Failure({ ok: false, code, reason });
const corrupt = (detail: string): Failure => fail('corrupt', `The file is damaged or not a PDF: ${detail}`);
const cancelled = (): Failure => fail('cancelled', 'The import was cancelled.');

function sentence(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ');
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/** Resolves `promise`, or fails on abort or after `ms` with `onTimeout()`. */
function guard<T>(promise: Promise<T>, signal: AbortSignal | undefined, ms: number, onTimeout: () => Failure): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => done(() => reject(onTimeout())), ms);
    const onAbort = (): void => done(() => reject(cancelled()));
    const done = (settle: () => void): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => done(() => resolve(v)),
      (e: unknown) => done(() => reject(e)),
    );
  });
}

const PDF_HEADER = '%PDF-';
const PDF_EOF = '%%EOF';

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** Header and end-marker checks pdf.js would otherwise paper over by reconstructing the file. */
function checkEnvelope(bytes: Uint8Array): void {
  // Acrobat accepts the header anywhere in the first 1024 bytes and the end marker in the last 1024.
  if (!latin1(bytes.subarray(0, 1024)).includes(PDF_HEADER)) {
    // Named as the Word and text parsers name a file under the wrong extension: a Word document
    // renamed imports, and downloading it again (the advice for a damaged file) would not help.
    const magic = detectMagic(bytes);
    if (magic?.renameTo) {
      throw fail('misnamed', `This file is not a PDF: it looks like ${magic.what} renamed to .pdf. Rename it to .${magic.renameTo} and import it again.`);
    }
    throw corrupt(magic ? `it looks like ${magic.what} renamed to .pdf.` : 'it does not start with a PDF header.');
  }
  if (!latin1(bytes.subarray(Math.max(0, bytes.length - 1024))).includes(PDF_EOF)) {
    throw corrupt('it has no end-of-file marker, so it was probably cut short while copying or downloading.');
  }
}

// Titles that tools write by default and that say nothing about the document.
const JUNK_TITLE = /^(untitled\b.*|document\d*|doc\d*|title|slide\s*\d*|(powerpoint )?presentation\d*|microsoft (word|powerpoint|excel)\b.*|output file|.*\.(docx?|pdf|rtf|odt|txt|indd|qxd|fm|book|pptx?|xlsx?|html?))$/i;

/** The metadata title when it names the document (not "Untitled", a file name or a path). */
export function meaningfulTitle(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  // Drop NULs and C0/C1 control characters that broken encoders leave in Info strings.
  // eslint-disable-next-line no-control-regex
  const t = raw.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').replace(/\s+/g, ' ').trim();
  if (t.length < 3 || !/\p{L}/u.test(t) || JUNK_TITLE.test(t) || /[\\/]/.test(t.replace(/\s\/\s/g, ''))) return null;
  return t;
}

const fileStem = (fileName: string): string => fileName.replace(/\.[^.]+$/, '') || fileName;

// eslint-disable-next-line no-control-regex
const C0 = /[\u0001-\u0008\u000b\u000c\u000e-\u001f]/g;
// eslint-disable-next-line no-control-regex
const HAS_C0 = /[\u0001-\u0008\u000b\u000c\u000e-\u001f]/;

/**
 * Fonts of a page that have no Unicode mapping at all. pdf.js gives a composite font without a
 * ToUnicode map its codes as characters, and subset TrueType fonts use glyph ids as codes, so
 * their spaces (glyph 3) come out as U+0003 and their letters shifted ("0D[LP\x03,QWHJUDWHG"
 * where pdftotext, reading the embedded font's own character map, prints "Maximum Integrated").
 * pdf.js does not expose that embedded map (it rebuilds the font program, and text content
 * carries no font data), so such a font is recognised by its text: at least 8 characters with
 * control codes where spaces should be, at least as many control codes as spaces. A font with one
 * unmapped glyph (a ligature, a Symbol-font sign) is not one of them: its other text is good.
 */
function fontsWithoutUnicode(items: unknown[]): Set<string> {
  const out = new Set<string>();
  // Nearly every page has no control code at all: one test per item, and nothing else.
  if (!items.some((raw) => typeof (raw as Partial<TextItem>).str === 'string' && HAS_C0.test((raw as TextItem).str))) return out;
  const stats = new Map<string, { chars: number; controls: number; spaces: number }>();
  for (const raw of items) {
    const item = raw as Partial<TextItem>;
    if (typeof item.str !== 'string' || typeof item.fontName !== 'string') continue;
    const text = item.str.split('\u0000').join('');
    let st = stats.get(item.fontName);
    if (!st) stats.set(item.fontName, (st = { chars: 0, controls: 0, spaces: 0 }));
    st.chars += text.length;
    st.controls += text.match(C0)?.length ?? 0;
    st.spaces += text.match(/ /g)?.length ?? 0;
  }
  for (const [font, st] of stats) if (st.chars >= 8 && st.controls >= 2 && st.controls >= st.spaces) out.add(font);
  return out;
}

/** Unicode's Private Use Area (BMP): code points only the font that uses them gives a shape. */
const PRIVATE_USE = /[\uE000-\uF8FF]/g;

/** Text of a font as the page shows it, by pdf.js font id; null for fonts whose text needs no change. */
type Recoders = Map<string, ((text: string) => string) | null>;

function pageText(
  rawItems: unknown[],
  styles: Record<string, { fontFamily?: string }>,
  viewport: { transform: number[]; width: number; height: number },
  pdfjs: PdfJs,
  recoders: Recoders,
): PdfPageText {
  const out: PdfTextItem[] = [];
  const extra: string[] = [];
  // Before anything reads the text: a recoded Symbol font's spaces are no longer control codes.
  const items = rawItems.map((raw) => {
    const item = raw as Partial<TextItem>;
    const recode = recoders.get(item.fontName ?? '');
    return recode && typeof item.str === 'string' ? { ...item, str: recode(item.str) } : raw;
  });
  const unmapped = fontsWithoutUnicode(items);
  const scale = Math.hypot(viewport.transform[0]!, viewport.transform[1]!);
  // Where the last rotated run ended, along its baseline direction (unit vector u).
  let rotatedEnd: { x: number; y: number; ux: number; uy: number; size: number } | null = null;
  for (const raw of items) {
    const item = raw as Partial<TextItem>;
    if (typeof item.str !== 'string' || !item.transform) continue;
    // Icon fonts map their arrows and bullets, and some symbol fonts their degree sign, to Private
    // Use code points that no font but the PDF's own draws (empty boxes in answers and the
    // viewer); pdftotext leaves them out, and so does this.
    const visible = item.str.replace(PRIVATE_USE, '');
    if (visible.trim() === '') continue;
    // A font whose codes are bare glyph ids decodes as shifted letters ("0D[LP" for "Maximum"):
    // the letters are not words of the manual, so the run is indexed as one undecoded mark.
    const str = unmapped.has(item.fontName ?? '') ? UNDECODED : visible;
    // Into viewport space: y grows downwards and /Rotate is applied, so reading order is upright.
    const m = pdfjs.Util.transform(viewport.transform, item.transform) as number[];
    const [a, b, c, d, e, f] = m as [number, number, number, number, number, number];
    // Only the baseline direction matters: synthetic italics skew the glyphs, not the line.
    const horizontal = a > 0 && Math.abs(b) <= 0.05 * a;
    const size = Math.abs(d);
    if (!horizontal || !(size > 0)) {
      const text = normalizeText(str.split('\u0000').join(''));
      const length = Math.hypot(a, b);
      const height = Math.hypot(c, d);
      if (!(length > 0 && height > 0)) {
        extra.push(text);
        rotatedEnd = null;
        continue;
      }
      const ux = a / length;
      const uy = b / length;
      // A rotated line (a graph's axis label) is often several runs: a symbol, its subscript set
      // smaller and off the baseline, a Greek unit in another font. Each run as its own paragraph
      // cut the label into pieces ("Current (" / "μ" / "A)"); a run that starts where the last one
      // ended, in the same direction, continues that line, as segments do for horizontal text.
      const prev = rotatedEnd;
      const em = prev ? Math.max(prev.size, height) : height;
      const along = prev ? (e - prev.x) * ux + (f - prev.y) * uy : NaN;
      const across = prev ? (e - prev.x) * uy - (f - prev.y) * ux : NaN;
      const continues =
        prev !== null && prev.ux * ux + prev.uy * uy > 0.99 &&
        along > -em && along < LAYOUT.segmentGapEm * em && Math.abs(across) < 0.8 * em;
      // Glyphs may overlap a little (a symbol font's own metrics); the next line starts far back.
      if (continues) extra[extra.length - 1] += (along > LAYOUT.spaceGapEm * em ? ' ' : '') + text;
      else extra.push(text);
      const advance = Math.max(0, (item.width ?? 0) * scale);
      rotatedEnd = { x: e + ux * advance, y: f + uy * advance, ux, uy, size: height };
      continue;
    }
    const mono = styles[item.fontName ?? '']?.fontFamily === 'monospace';
    // pdf.js leaves codes it cannot map to Unicode (fonts without a ToUnicode map or glyph names)
    // as control characters; normalizeText turns them into U+FFFD, counted by the caller.
    out.push({ text: normalizeText(str.split('\u0000').join('')), x: e, y: f, width: Math.max(0, (item.width ?? 0) * scale), size, mono });
  }
  return { width: viewport.width, height: viewport.height, items: out, extra };
}

/** What the parser has read of a font whose facts it has not loaded, over the document so far. */
interface FontTally {
  /** Runs that may be signs of a Symbol font pdf.js could not map (`maybeSymbolSigns`). */
  signs: number;
  /** Its other runs with text. */
  others: number;
  /** Pages where it sets text, in order. */
  pages: number[];
}

/** Per document: the fonts learned (`recoders`) and the tallies of the fonts not learned yet. */
interface Fonts {
  recoders: Recoders;
  tallies: Map<string, FontTally>;
}

/**
 * Learns the fonts of page `n` that may need a recoder (`pdf.symbol.ts`); returns the earlier pages
 * to read again, those that set a font this page showed to need one.
 *
 * pdf.js's text content names a font only by its id; the font itself (its name, widths, Unicode
 * map) reaches this side only when a page's drawing operators are built (`draw`), which costs
 * several times the page's text. So a page is drawn only when a font not known yet sets a run here
 * that looks like Symbol signs ("¥" 0.786 em: SymbolMT's glyph 165, ™) and most of its runs so far
 * in the document do. The tally is per font, not per page: a font of signs that also sets a longer
 * run is still drawn for, and a font of words and numbers that once sets a lone "9" as wide as a
 * glyph id (ς, 0.439 em) is not. A font's id is the same on every page of a document, and drawing
 * loads every font of the page, so each font is learned once and read so on all its pages.
 */
async function learnFonts(page: PDFPageProxy, n: number, items: unknown[], fonts: Fonts, draw: () => Promise<unknown>): Promise<number[]> {
  const { recoders, tallies } = fonts;
  const onPage = new Set<string>();
  const signsHere: FontTally[] = [];
  for (const raw of items) {
    const { fontName: name, str, width, transform } = raw as Partial<TextItem>;
    if (typeof name !== 'string' || typeof str !== 'string' || recoders.has(name)) continue;
    onPage.add(name);
    if (str.trim() === '') continue;
    let tally = tallies.get(name);
    if (!tally) tallies.set(name, (tally = { signs: 0, others: 0, pages: [] }));
    if (tally.pages[tally.pages.length - 1] !== n) tally.pages.push(n);
    const size = transform ? Math.hypot(transform[0] as number, transform[1] as number) : 0;
    if (size > 0 && maybeSymbolSigns(str, (width ?? 0) / size)) {
      tally.signs++;
      signsHere.push(tally);
    } else {
      tally.others++;
    }
  }
  if (!signsHere.some((t) => t.signs > t.others)) return [];
  let drawn = true;
  try {
    await draw();
  } catch (err) {
    if (err instanceof Failure && err.failure.code === 'cancelled') throw err;
    // A page whose drawing fails or is too slow still has its text; its fonts are read as pdf.js gives them.
    drawn = false;
  }
  // Every font of the page is loaded now: learn them all, suspected or not. After a failed drawing,
  // a font not loaded is left unknown, so a later page may load it (not taken as no font of signs).
  const again = new Set<number>();
  for (const name of onPage) {
    const loaded = page.commonObjs.has(name);
    if (!loaded && !drawn) continue;
    const recode = loaded ? symbolRecoder(page.commonObjs.get(name) as PdfFontFacts) : null;
    recoders.set(name, recode);
    if (recode) for (const m of tallies.get(name)?.pages ?? []) if (m !== n) again.add(m);
    tallies.delete(name);
  }
  return [...again].sort((a, b) => a - b);
}

function errorName(err: unknown): string {
  return err && typeof err === 'object' && 'name' in err ? String(err.name) : '';
}

/** Creates a PDF parser; `pdfParser` is the default instance. */
export function createPdfParser(options: PdfParserOptions = {}): Parser {
  const openTimeoutMs = options.openTimeoutMs ?? 30_000;
  const pageTimeoutMs = options.pageTimeoutMs ?? 30_000;
  const drawTimeoutMs = options.drawTimeoutMs ?? pageTimeoutMs;
  const drawPage = options.drawPage ?? ((page: PDFPageProxy) => page.getOperatorList());

  async function run(input: ParseInput): Promise<ParseResult> {
    const { bytes, signal } = input;
    if (signal?.aborted) throw cancelled();
    if (bytes.length === 0) throw fail('empty', 'The file is empty.');
    checkEnvelope(bytes);

    let pdfjs: PdfJs;
    try {
      pdfjs = await loadPdfJs();
    } catch (err) {
      throw fail('unsupported', sentence(`The PDF reader could not be loaded: ${err instanceof Error ? err.message : String(err)}`));
    }
    // Each document gets its own in-thread worker whose messages are not copied (`pdf.port.ts`).
    const direct = workerSide ? directWorker(pdfjs, workerSide, pdfjs.VerbosityLevel.ERRORS) : null;
    const task = pdfjs.getDocument({
      // pdf.js transfers the buffer to its worker side; hand it a copy so the caller's bytes survive.
      data: new Uint8Array(bytes),
      ...(direct ? { worker: direct.worker } : {}),
      ...assetDirs(),
      verbosity: pdfjs.VerbosityLevel.ERRORS,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: false,
      // A font's widths, composite flag and Unicode map, for `pdf.symbol.ts`.
      fontExtraProperties: true,
    });
    try {
      let doc: Awaited<typeof task.promise>;
      try {
        doc = await guard(task.promise, signal, openTimeoutMs, () => corrupt(`it could not be opened within ${openTimeoutMs / 1000} s.`));
      } catch (err) {
        if (err instanceof Failure) throw err;
        if (errorName(err) === 'PasswordException') {
          throw fail('encrypted', 'The PDF is password-protected; save an unprotected copy (for example with "Print to PDF") and import that instead.');
        }
        throw corrupt(sentence(err instanceof Error ? err.message : String(err)));
      }

      const pages: SegmentedPage[] = [];
      const unreadable = new Set<number>();
      const withoutText = new Set<number>();
      const undecoded = new Set<number>();
      const fonts: Fonts = { recoders: new Map(), tallies: new Map() };
      /**
       * Reads page `n` into `pages` with the fonts learned so far. With `again`, it learns the page's
       * fonts first and adds the earlier pages to read again there, kept even when the rest of the
       * page then fails: the fonts are learned, and those pages would keep their raw codes otherwise.
       */
      const readPage = async (n: number, again?: number[]): Promise<void> => {
        const timeout = (): Failure => corrupt(`page ${n} could not be read within ${pageTimeoutMs / 1000} s.`);
        const page = await guard(doc.getPage(n), signal, pageTimeoutMs, timeout);
        const viewport = page.getViewport({ scale: 1 });
        const content = await guard(page.getTextContent(), signal, pageTimeoutMs, timeout);
        if (again) {
          const drawTimeout = (): Failure => corrupt(`page ${n} could not be drawn within ${drawTimeoutMs / 1000} s.`);
          again.push(...(await learnFonts(page, n, content.items, fonts, () => guard(drawPage(page), signal, drawTimeoutMs, drawTimeout))));
        }
        const text = pageText(content.items, content.styles, viewport, pdfjs, fonts.recoders);
        const segmented = segmentPage(text);
        page.cleanup();
        // Recorded only once the page is read: a page that fails above keeps what its last reading recorded.
        pages[n - 1] = segmented;
        if (text.items.length === 0 && text.extra?.length === 0) withoutText.add(n);
        else withoutText.delete(n);
        if (text.items.some((i) => i.text.includes(UNDECODED)) || text.extra?.some((t) => t.includes(UNDECODED))) undecoded.add(n);
        else undecoded.delete(n);
        // A page that failed its first reading and is read now (after a later page taught a font) is readable.
        unreadable.delete(n);
      };
      for (let n = 1; n <= doc.numPages; n++) {
        if (signal?.aborted) throw cancelled();
        const again: number[] = [];
        try {
          await readPage(n, again);
        } catch (err) {
          if (err instanceof Failure) throw err;
          // One damaged page should not cost the technician the rest of the manual.
          unreadable.add(n);
          pages[n - 1] = { height: 792, segments: [], extra: [] };
        }
        // Earlier pages that set a font this page taught to read as Symbol signs.
        for (const m of again) {
          try {
            await readPage(m);
          } catch (err) {
            if (err instanceof Failure && err.failure.code === 'cancelled') throw err;
            // Page m keeps the text it was read with the first time.
          }
        }
        input.onProgress?.(n / doc.numPages);
      }
      if (unreadable.size === doc.numPages) throw corrupt('none of its pages could be read.');
      if (withoutText.size + unreadable.size === doc.numPages) {
        throw fail('no-text-layer', 'The PDF has no text layer; OCR is not supported yet, so scanned pages cannot be imported.');
      }

      let info: Record<string, unknown> = {};
      let xmpTitle: string | null = null;
      try {
        const meta = await guard(doc.getMetadata(), signal, pageTimeoutMs, () => corrupt('its metadata could not be read.'));
        info = (meta.info ?? {}) as Record<string, unknown>;
        xmpTitle = meta.metadata?.get('dc:title') ?? null;
      } catch (err) {
        if (err instanceof Failure && err.failure.code === 'cancelled') throw err;
        // Broken metadata only costs the title; the text is still good.
      }

      const layout = layoutSegmentedPages(pages);
      const metadata: Record<string, string> = {};
      for (const key of ['Author', 'Subject', 'Keywords', 'Creator', 'Producer'] as const) {
        const v = info[key];
        if (typeof v === 'string' && v.trim()) metadata[key.toLowerCase()] = v.trim();
      }
      if (unreadable.size) metadata['unreadablePages'] = [...unreadable].sort((a, b) => a - b).join(',');
      if (withoutText.size) metadata['pagesWithoutText'] = [...withoutText].sort((a, b) => a - b).join(',');
      // Characters whose font has no Unicode mapping: flagged (U+FFFD in the text), never control codes.
      if (undecoded.size) metadata['pagesWithUndecodedCharacters'] = [...undecoded].sort((a, b) => a - b).join(',');
      const fallbackTitle = fileStem(input.fileName);
      const metadataTitle = meaningfulTitle(info['Title']) ?? meaningfulTitle(xmpTitle);
      const title = metadataTitle ?? layout.firstHeading ?? fallbackTitle;
      const parsed = normalizeMarkdown({ markdown: layout.markdown, format: 'pdf', pageStarts: layout.pageStarts, fallbackTitle, title, metadata });
      const subject = meaningfulTitle(info['Subject']);
      const facts = documentFacts({ metadataTitle: metadataTitle ? normalizeText(metadataTitle) : null, subject: subject ? normalizeText(subject) : null, runningText: layout.runningText });
      return { ok: true, doc: { ...parsed, facts } };
    } finally {
      await task.destroy().catch(() => undefined);
      direct?.close();
    }
  }

  return {
    format: 'pdf',
    async parse(input: ParseInput): Promise<ParseResult> {
      try {
        return await run(input);
      } catch (err) {
        if (err instanceof Failure) return err.failure;
        // pdf.js is hardened but huge; anything it throws on hostile input is the file's fault.
        return corrupt(sentence(err instanceof Error ? err.message : String(err))).failure;
      }
    },
  };
}

/** The default PDF parser (30 s limits for opening and per page). */
export const pdfParser: Parser = createPdfParser();
