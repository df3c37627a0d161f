import { describe, expect, it } from 'vitest';
import { pdfParser } from '../../../src-main/ingest/parsers/pdf.parser';
import { textWidth, writePdf, type PdfTextRun } from '../../fixtures/pdf-writer';

/** Parses one page of runs and returns the document's text. */
async function textOf(runs: PdfTextRun[]): Promise<string> {
  const r = await pdfParser.parse({ bytes: writePdf([{ runs }]), fileName: 'signs.pdf' });
  if (!r.ok) throw new Error(r.reason);
  return r.doc.text;
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
});
