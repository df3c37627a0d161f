/**
 * Turns positioned PDF text into Markdown in reading order. Pure (no pdf.js): the parser feeds it
 * text items, tests feed it synthetic ones.
 *
 * Hand-written because no maintained JS library does layout analysis: pdf.js returns items in
 * content-stream order, which is wrong for PDFs written out of order (interleaved columns,
 * column-major tables; ENVIRONMENT.md). The pipeline:
 *   items -> segments (items on one baseline, split at gaps wider than 0.8 em)
 *         -> running headers/footers and page numbers removed (across the whole document)
 *         -> recursive XY-cut that cuts only at gutters between prose blocks (columns), so
 *            table rows are never torn apart
 *         -> lines -> code, tables, headings, lists, paragraphs -> Markdown, with the offset
 *            where each page starts; a paragraph cut by a page break is joined back.
 */
import { fontStats, blocksOfLeaf, joinLines, renderBlock, SENTENCE_END, type Block } from './pdf.blocks';
import { readingOrder } from './pdf.order';
import { removeRunningText } from './pdf.running';
import { LAYOUT, segmentPage, type PdfPageText, type SegmentedPage } from './pdf.segments';

export { escapeBlockStart } from './pdf.blocks';
export { isPageNumber } from './pdf.pagenumbers';
export { segmentPage, type PdfPageText, type PdfSegment, type PdfTextItem, type SegmentedPage } from './pdf.segments';

/** The document as Markdown; `pageStarts[i]` is the offset where page i+1 begins (non-decreasing). */
export interface PdfLayout {
  markdown: string;
  pageStarts: number[];
  /** Text of the first level-1 heading (else the first heading), for the title fallback. */
  firstHeading: string | null;
  /** Running header/footer lines removed from the text, as printed, most frequent first. */
  runningText: string[];
}

/** Lays out every page and renders the document as Markdown with page offsets. */
export function layoutPdf(pages: PdfPageText[]): PdfLayout {
  return layoutSegmentedPages(pages.map(segmentPage));
}

/** Second stage, over the whole document: running text, fonts, reading order, blocks, Markdown. */
export function layoutSegmentedPages(pages: SegmentedPage[]): PdfLayout {
  const running = removeRunningText(
    pages.map((p) => p.segments),
    pages.map((p) => p.height),
  );
  const segmented = running.pages;
  // Text set vertically in a margin on most pages (a running title along the edge) is recorded as
  // running text but also kept in the page: on pdf-dev removing it cost Hit@1 .68 -> .66 and one found
  // answer, because it is the only place many table pages name their part.
  const extraKey = (t: string): string => t.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim().toLowerCase();
  const extraPages = new Map<string, number>();
  for (const p of pages) for (const k of new Set(p.extra.map(extraKey))) extraPages.set(k, (extraPages.get(k) ?? 0) + 1);
  const runningExtra = new Map<string, string>();
  const fonts = fontStats(segmented);
  const pageBlocks: Block[][] = segmented.map((segs, p) => {
    const blocks = readingOrder(segs).flatMap((leaf) => blocksOfLeaf(leaf, fonts));
    for (const extra of pages[p]!.extra) {
      const text = extra.replace(/\s+/g, ' ').trim();
      if (pages.length >= 2 && (extraPages.get(extraKey(extra)) ?? 0) >= Math.max(2, LAYOUT.repeatFraction * pages.length)) {
        if (text && !runningExtra.has(extraKey(extra))) runningExtra.set(extraKey(extra), text);
      }
      if (text) blocks.push({ kind: 'paragraph', text });
    }
    return blocks;
  });

  let markdown = '';
  const pageStarts: number[] = [];
  let firstHeading: string | null = null;
  let anyHeading: string | null = null;
  let last: { block: Block; start: number } | null = null;
  for (const blocks of pageBlocks) {
    let pageStart: number | null = null;
    blocks.forEach((block, i) => {
      if (block.kind === 'heading') {
        anyHeading ??= block.text;
        // A level-1 heading names the document better than a date or a label set large before it.
        if (block.level === 1) firstHeading ??= block.text;
      }
      const prev = last?.block;
      // A paragraph cut by the page break continues on the next page: join it back.
      if (i === 0 && last && prev?.kind === 'paragraph' && block.kind === 'paragraph' && !SENTENCE_END.test(prev.text) && /^\p{Ll}/u.test(block.text)) {
        const joined: Block = { kind: 'paragraph', text: joinLines(prev.text, block.text) };
        const rendered = renderBlock(joined);
        markdown = markdown.slice(0, last.start) + rendered;
        // joinLines always ends with the continuation verbatim, so it starts this far from the end.
        pageStart = markdown.length - block.text.length;
        last = { block: joined, start: last.start };
        return;
      }
      if (markdown) markdown += '\n\n';
      pageStart ??= markdown.length;
      last = { block, start: markdown.length };
      markdown += renderBlock(block);
    });
    // Empty pages (scans) start where the next content will; nothing joins across them.
    if (blocks.length === 0) last = null;
    pageStarts.push(pageStart ?? markdown.length);
  }
  if (markdown) markdown += '\n';
  return { markdown, pageStarts, firstHeading: firstHeading ?? anyHeading, runningText: [...running.runningText, ...runningExtra.values()] };
}
