import { describe, expect, it } from 'vitest';
import { createPdfParser, pdfParser, type PdfParserOptions } from '../../../src-main/ingest/parsers/pdf.parser';
import { textWidth, writePdf, type PdfPageSpec, type PdfTextRun } from '../../fixtures/pdf-writer';

/** Parses one page of runs and returns the document's text. */
async function textOf(runs: PdfTextRun[]): Promise<string> {
  const r = await pdfParser.parse({ bytes: writePdf([{ runs }]), fileName: 'signs.pdf' });
  if (!r.ok) throw new Error(r.reason);
  return r.doc.text;
}

/**
 * Parses `pages` with `draw` in place of pdf.js's drawing (the real one unless it says otherwise);
 * returns the text and the pages drawn, in order.
 */
async function parseDrawing(
  pages: PdfPageSpec[],
  draw: (page: Parameters<NonNullable<PdfParserOptions['drawPage']>>[0]) => Promise<unknown> = (page) => page.getOperatorList(),
  options: PdfParserOptions = {},
): Promise<{ text: string; drawn: number[]; metadata: Record<string, string> }> {
  const drawn: number[] = [];
  const parser = createPdfParser({
    ...options,
    drawPage: (page) => {
      drawn.push(page.pageNumber);
      return draw(page);
    },
  });
  const r = await parser.parse({ bytes: writePdf(pages), fileName: 'signs.pdf' });
  if (!r.ok) throw new Error(r.reason);
  return { text: r.doc.text, drawn, metadata: r.doc.metadata ?? {} };
}

/** "<word><sign>" with the sign set in `font` right after the word, as trademark lists and units are. */
function signed(word: string, sign: string, font: PdfTextRun['font'], y: number): PdfTextRun[] {
  return [
    { x: 72, y, text: word },
    { x: 72 + textWidth(word), y, text: sign, font },
  ];
}

describe('PDF parser: Symbol fonts whose codes pdf.js cannot map', () => {
  it("reads SymbolMT glyph ids (Identity-H, no ToUnicode) as the signs they draw: ™ not '¥', µ not 'P', ° not 'q'", async () => {
    const text = await textOf([
      { x: 72, y: 740, text: 'Trademarks of the maker' },
      ...signed('PowerWidget', '™', 'symbolmt-glyph-ids', 700),
      ...signed('Quiet Series', '™', 'symbolmt-glyph-ids', 680),
      ...signed('Leakage 5 ', 'µ', 'symbolmt-glyph-ids', 660),
      ...signed('Ambient 25 ', '°', 'symbolmt-glyph-ids', 640),
    ]);
    // NFKC, as for all text: ™ is indexed as "TM", µ as Greek mu.
    expect(text).toContain('PowerWidgetTM');
    expect(text).toContain('Quiet SeriesTM');
    expect(text).toMatch(/Leakage 5 ?\u03bc/);
    expect(text).toMatch(/Ambient 25 ?°/);
    expect(text).not.toMatch(/[¥]/);
  });

  it('leaves a SymbolMT-named font alone when its declared widths are not SymbolMT glyphs', async () => {
    const text = await textOf([{ x: 72, y: 740, text: 'Trademarks of the maker' }, ...signed('PowerWidget', '™', 'symbolmt-odd-widths', 700)]);
    // The codes are still read as pdf.js reads them: nothing proves they are SymbolMT's glyph order.
    expect(text).toContain('PowerWidget¥');
    expect(text).not.toContain('TM');
  });

  it("reads a Symbol font's Windows symbol-cmap code point (U+F0B0) as the degree sign instead of dropping it", async () => {
    const text = await textOf([{ x: 72, y: 740, text: 'Operating range' }, ...signed('-40 ', '\u0001', 'symbol-cmap', 700)]);
    expect(text).toMatch(/-40 ?°/);
  });

  it('still drops that code point in a font not named Symbol (an icon font\'s own glyph)', async () => {
    const text = await textOf([{ x: 72, y: 740, text: 'Operating range' }, ...signed('-40 ', String.fromCharCode(11), 'custom', 700)]);
    expect(text).not.toContain('°');
    expect(text).not.toMatch(/[\uE000-\uF8FF]/);
  });

  it('reads a Symbol font as one once a page shows it, also on the earlier page where it set a longer run', async () => {
    const { text, drawn } = await parseDrawing([
      // One sign and a run of four (no run of four glyph ids is taken for signs): not drawn for yet.
      { runs: [{ x: 72, y: 740, text: 'Trademarks of the maker' }, ...signed('PowerWidget', '™', 'symbolmt-glyph-ids', 700), ...signed('Tolerance ', 'µ°µ°', 'symbolmt-glyph-ids', 680)] },
      // Two more signs: most of the font's runs are signs now.
      { runs: [...signed('Quiet Series', '™', 'symbolmt-glyph-ids', 740), ...signed('Leakage 5 ', 'µ', 'symbolmt-glyph-ids', 720)] },
    ]);
    expect(drawn).toEqual([2]);
    expect(text).toContain('PowerWidgetTM');
    expect(text).toMatch(/Tolerance ?\u03bc°\u03bc°/);
    expect(text).toContain('Quiet SeriesTM');
    expect(text).not.toMatch(/[¥]/);
  });

  it('draws no page for a font of words whose lone "55" is as wide as two SymbolMT glyph ids', async () => {
    // Helvetica's "5" (0.556 em) is as wide as SymbolMT's glyph 53 (Ρ); "55" is its only run on page 2.
    const { drawn } = await parseDrawing([
      { runs: [{ x: 72, y: 740, text: 'Operating temperature range' }, { x: 72, y: 720, text: 'Supply voltage' }] },
      { runs: [{ x: 72, y: 740, text: 'Channels', bold: true }, { x: 72, y: 726, text: '55' }] },
    ]);
    // The rule of every run on the page drew page 2: the font's earlier runs say it sets words.
    expect(drawn).toEqual([]);
  });

  it('after a drawing that failed, draws the next page that sets the font and reads both pages by it', async () => {
    const pages: PdfPageSpec[] = [
      { runs: [{ x: 72, y: 740, text: 'Trademarks of the maker' }, ...signed('PowerWidget', '™', 'symbolmt-glyph-ids', 700)] },
      { runs: [...signed('Quiet Series', '™', 'symbolmt-glyph-ids', 740)] },
    ];
    const { text, drawn, metadata } = await parseDrawing(pages, (page) => (page.pageNumber === 1 ? Promise.reject(new Error('drawing failed')) : page.getOperatorList()));
    // Page 1's fonts were not loaded, so the font stayed unknown (not "no font of signs") and page 2 was drawn.
    expect(drawn).toEqual([1, 2]);
    expect(text).toContain('PowerWidgetTM');
    expect(text).toContain('Quiet SeriesTM');
    expect(metadata['unreadablePages']).toBeUndefined();
  });

  it('after a drawing that timed out, keeps the page\'s text as pdf.js reads it and tries the next page', async () => {
    const pages: PdfPageSpec[] = [
      { runs: [{ x: 72, y: 740, text: 'Trademarks of the maker' }, ...signed('PowerWidget', '™', 'symbolmt-glyph-ids', 700)] },
      { runs: [...signed('Quiet Series', '™', 'symbolmt-glyph-ids', 740)] },
    ];
    // A drawing that never ends runs into its time limit whatever the host's speed.
    const { text, drawn, metadata } = await parseDrawing(pages, () => new Promise(() => undefined), { drawTimeoutMs: 1 });
    expect(drawn).toEqual([1, 2]);
    expect(text).toContain('Trademarks of the maker');
    expect(text).toContain('PowerWidget¥');
    expect(text).toContain('Quiet Series¥');
    expect(metadata['unreadablePages']).toBeUndefined();
  });

  it('reads a run of four symbol-cmap signs as the signs, not dropped (only glyph-id runs are limited to three)', async () => {
    // Widths as the Symbol font's (° 0.4 em, ±, ≤, ≥ 0.549 em): the run's advance is theirs.
    const { text, drawn } = await parseDrawing([{ runs: [{ x: 72, y: 740, text: 'Operating range' }, ...signed('Limits ', '\u0001\u0002\u0003\u0004', 'symbol-cmap-widths', 700)] }]);
    expect(drawn).toEqual([1]);
    expect(text).toMatch(/Limits ?°±≤≥/);
  });

  it('reads again the earlier pages a page taught a font to, also when the rest of that page fails', async () => {
    const pages: PdfPageSpec[] = [
      // One sign and a run of four: not drawn for yet.
      { runs: [{ x: 72, y: 740, text: 'Trademarks of the maker' }, ...signed('PowerWidget', '™', 'symbolmt-glyph-ids', 700), ...signed('Tolerance ', 'µ°µ°', 'symbolmt-glyph-ids', 680)] },
      { runs: [...signed('Quiet Series', '™', 'symbolmt-glyph-ids', 740), ...signed('Leakage 5 ', 'µ', 'symbolmt-glyph-ids', 720)] },
    ];
    // Page 2 is drawn and its fonts learned, then its reading fails (after the fonts, before its text is kept).
    const { text, drawn, metadata } = await parseDrawing(pages, async (page) => {
      await page.getOperatorList();
      failOnce(page);
    });
    expect(drawn).toEqual([2]);
    expect(metadata['unreadablePages']).toBe('2');
    expect(text).toContain('PowerWidgetTM');
    expect(text).toMatch(/Tolerance ?\u03bc°\u03bc°/);
    expect(text).not.toContain('Quiet Series');
  });

  it('takes a page out of the unreadable pages once it is read again after a later page taught its font', async () => {
    const pages: PdfPageSpec[] = [
      { runs: [{ x: 72, y: 740, text: 'Trademarks of the maker' }, ...signed('PowerWidget', '™', 'symbolmt-glyph-ids', 700)] },
      { runs: [...signed('Quiet Series', '™', 'symbolmt-glyph-ids', 740)] },
    ];
    // Page 1's drawing fails and its reading fails after it; page 2 is drawn and reads page 1 again.
    const { text, drawn, metadata } = await parseDrawing(pages, async (page) => {
      if (page.pageNumber === 2) return page.getOperatorList();
      failOnce(page);
      throw new Error('drawing failed');
    });
    expect(drawn).toEqual([1, 2]);
    expect(text).toContain('PowerWidgetTM');
    expect(text).toContain('Quiet SeriesTM');
    expect(metadata['unreadablePages']).toBeUndefined();
  });
});

/**
 * Makes the parser's next `cleanup` of `page` throw, the last step of reading a page, so the page's
 * reading fails after its fonts were learned; pdf.js hands out the same page object on every read.
 */
function failOnce(page: { cleanup: () => unknown }): void {
  const cleanup = page.cleanup.bind(page);
  page.cleanup = () => {
    page.cleanup = cleanup;
    throw new Error('page failed');
  };
}
