/**
 * Text of fonts whose names say they are the Symbol font but whose codes pdf.js cannot turn into
 * Unicode from what the PDF declares.
 *
 * Two cases, both read from the font's declared name (`Symbol` or `SymbolMT`, after the subset tag)
 * and its declared widths, never from the document's vendor or file:
 *
 * - A composite font of Windows' SymbolMT with Identity ordering and no ToUnicode map (the Windows
 *   PostScript driver writes TrueType fonts this way, and Distiller keeps them). Its codes are the
 *   glyph ids of SymbolMT, which orders its glyphs as the Symbol encoding: three control glyphs,
 *   then 0x20..0x7E, then 0xA1..0xFE. PDF has no Unicode mapping for such a font; pdf.js and
 *   poppler both give the code itself as the character, so "™" (glyph 165) came out as "¥" (U+00A5)
 *   and "µ" (glyph 80) as "P". The glyph order is checked against the file: a font is recoded only
 *   if every width its /W array declares is the Symbol font's width of the glyph at that position
 *   (µ 576, ™ 786, …); one mismatch and its text is left as pdf.js gives it.
 * - A Symbol font whose ToUnicode map gives the code of Windows' symbol cmap (U+F020..U+F0FF, the
 *   Symbol encoding's code + 0xF000): private-use code points that name the glyph only in that
 *   font ("°" as U+F0B0), which the parser would otherwise drop.
 *
 * The encoding table is Adobe's Symbol encoding, glyph names and widths as pdf.js's
 * src/core/encodings.js, glyphlist.js and metrics.js give them (pdf.js does not export them). The
 * Adobe glyph list gives the serif and sans-serif designs of ©, ® and ™ private-use code points
 * (U+F6D9.., U+F8E8..); here they are Unicode's ©, ® and ™, the characters a technician types.
 * The other private-use entries (pieces of large brackets, the radical's extender) stay private
 * use and are dropped like any other private-use glyph.
 */

// Symbol encoding 0x20..0x7E and 0xA1..0xFE, one UTF-16 unit per code.
const LOW = ' !\u2200#\u2203%&\u220B()\u2217+,\u2212./0123456789:;<=>?\u2245\u0391\u0392\u03A7\u2206\u0395\u03A6\u0393\u0397\u0399\u03D1\u039A\u039B\u039C\u039D\u039F\u03A0\u0398\u03A1\u03A3\u03A4\u03A5\u03C2\u2126\u039E\u03A8\u0396[\u2234]\u22A5_\uF8E5\u03B1\u03B2\u03C7\u03B4\u03B5\u03C6\u03B3\u03B7\u03B9\u03D5\u03BA\u03BB\u00B5\u03BD\u03BF\u03C0\u03B8\u03C1\u03C3\u03C4\u03C5\u03D6\u03C9\u03BE\u03C8\u03B6{|}\u223C';
const HIGH = '\u03D2\u2032\u2264\u2044\u221E\u0192\u2663\u2666\u2665\u2660\u2194\u2190\u2191\u2192\u2193\u00B0\u00B1\u2033\u2265\u00D7\u221D\u2202\u2022\u00F7\u2260\u2261\u2248\u2026\uF8E6\uF8E7\u21B5\u2135\u2111\u211C\u2118\u2297\u2295\u2205\u2229\u222A\u2283\u2287\u2284\u2282\u2286\u2208\u2209\u2220\u2207\u00AE\u00A9\u2122\u220F\u221A\u22C5\u00AC\u2227\u2228\u21D4\u21D0\u21D1\u21D2\u21D3\u25CA\u2329\u00AE\u00A9\u2122\u2211\uF8EB\uF8EC\uF8ED\uF8EE\uF8EF\uF8F0\uF8F1\uF8F2\uF8F3\uF8F4\uF8FF\u232A\u222B\u2320\uF8F5\u2321\uF8F6\uF8F7\uF8F8\uF8F9\uF8FA\uF8FB\uF8FC\uF8FD\uF8FE';
const LOW_WIDTHS = [250, 333, 713, 500, 549, 833, 778, 439, 333, 333, 500, 549, 250, 549, 250, 278, 500, 500, 500, 500, 500, 500, 500, 500, 500, 500, 278, 278, 549, 549, 549, 444, 549, 722, 667, 722, 612, 611, 763, 603, 722, 333, 631, 722, 686, 889, 722, 722, 768, 741, 556, 592, 611, 690, 439, 768, 645, 795, 611, 333, 863, 333, 658, 500, 500, 631, 549, 549, 494, 439, 521, 411, 603, 329, 603, 549, 549, 576, 521, 549, 549, 521, 549, 603, 439, 576, 713, 686, 493, 686, 494, 480, 200, 480, 549];
const HIGH_WIDTHS = [620, 247, 549, 167, 713, 500, 753, 753, 753, 753, 1042, 987, 603, 987, 603, 400, 549, 411, 549, 549, 713, 494, 460, 549, 549, 549, 549, 1000, 603, 1000, 658, 823, 686, 795, 987, 768, 768, 823, 768, 768, 713, 713, 713, 713, 713, 713, 713, 768, 713, 790, 790, 890, 823, 549, 250, 713, 603, 603, 1042, 987, 603, 987, 603, 494, 329, 790, 790, 786, 713, 384, 384, 384, 384, 384, 384, 494, 494, 494, 494, 790, 329, 274, 686, 686, 686, 384, 384, 384, 384, 384, 384, 494, 494, 494];

/** Unicode of a Symbol-encoding code, or undefined outside 0x20..0x7E and 0xA1..0xFE. */
function symbolChar(code: number): string | undefined {
  if (code >= 0x20 && code <= 0x7e) return LOW[code - 0x20];
  if (code >= 0xa1 && code <= 0xfe) return HIGH[code - 0xa1];
  return undefined;
}

/** SymbolMT's glyph `gid` as Unicode and the Symbol font's width of it (1/1000 em), or undefined. */
function symbolGlyph(gid: number): { char: string; width: number } | undefined {
  if (gid >= 3 && gid < 3 + LOW.length) return { char: LOW[gid - 3]!, width: LOW_WIDTHS[gid - 3]! };
  const high = gid - 3 - LOW.length;
  if (high >= 0 && high < HIGH.length) return { char: HIGH[high]!, width: HIGH_WIDTHS[high]! };
  return undefined;
}

/**
 * The Symbol font's width (1/1000 em) of what pdf.js gives for one of its signs: a SymbolMT glyph id
 * taken as a character, or a Windows symbol-cmap code point; undefined for any other character.
 */
function signWidth(code: number): number | undefined {
  if (code >= 0xf020 && code <= 0xf0ff) {
    const c = code - 0xf000;
    if (c >= 0x20 && c <= 0x7e) return LOW_WIDTHS[c - 0x20];
    if (c >= 0xa1 && c <= 0xfe) return HIGH_WIDTHS[c - 0xa1];
    return undefined;
  }
  return symbolGlyph(code)?.width;
}

/**
 * True when a run of pdf.js text (`text`, `em`: its advance in ems) may be signs of a Symbol font
 * pdf.js could not map: characters each a SymbolMT glyph id or a symbol-cmap code point, whose
 * Symbol widths add up to the run's advance. Glyph ids are ordinary characters ("P", "¥"), so only
 * a run of a few may be signs (a longer one is a word); symbol-cmap code points are private use,
 * never a word, so a run of any length of them may be (a Symbol font learned is read, not dropped).
 * The parser loads a font's facts (costly) only for a font whose runs mostly look so. The widths also tell the symbol-cmap code points of other
 * symbol fonts apart: Wingdings' arrow U+F0D8 is 0.794 em wide, the Symbol font's ¬ there 0.713
 * (five pdf-dev pages were drawn for Wingdings' arrows before).
 */
export function maybeSymbolSigns(text: string, em: number): boolean {
  if (text.length === 0) return false;
  let sum = 0;
  let symbolCmap = true;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const width = signWidth(code);
    if (width === undefined) return false;
    symbolCmap &&= code >= 0xf020;
    sum += width / 1000;
  }
  if (!symbolCmap && text.length > 3) return false;
  // A Symbol font that declares no widths and names its glyphs uniF0B0.. (not in the standard
  // Symbol font's metrics) advances by nothing in pdf.js: there the widths cannot tell.
  if (symbolCmap && em === 0) return true;
  return Math.abs(sum - em) <= 0.01 * sum;
}

/** What the parser knows of one font from pdf.js (its `fontExtraProperties` export). */
export interface PdfFontFacts {
  /** BaseFont as the PDF declares it, with its subset tag ("JGAJCJ+SymbolMT"). */
  name?: string;
  composite?: boolean;
  /** Declared widths (1/1000 em) by CID for composite fonts. */
  widths?: Record<number, number> | number[];
  /** pdf.js's map: its identity map (code as the character) has no `_map`. */
  toUnicode?: unknown;
}

const SYMBOL_NAME = /^(?:[A-Z]{6}\+)?Symbol(MT)?(?:[,-](?:Bold|Italic|BoldItalic|Identity-H|Identity-V))*$/;

/** True when pdf.js gives this font's codes as characters (no ToUnicode map it could use). */
function identityMap(toUnicode: unknown): boolean {
  return !!toUnicode && typeof toUnicode === 'object' && !('_map' in toUnicode) && 'firstChar' in toUnicode;
}

/**
 * A function that turns pdf.js's text of this font into the characters it shows, or null when the
 * font needs none (not a Symbol font, or its widths do not confirm SymbolMT's glyph order).
 */
export function symbolRecoder(font: PdfFontFacts): ((text: string) => string) | null {
  const m = SYMBOL_NAME.exec(font.name ?? '');
  if (!m) return null;
  const glyphs = new Map<string, string>();
  if (font.composite && m[1] && identityMap(font.toUnicode) && font.widths) {
    let matched = 0;
    for (const [key, width] of Object.entries(font.widths)) {
      const gid = Number(key);
      const glyph = symbolGlyph(gid);
      if (typeof width !== 'number') continue;
      if (!glyph || Math.round(width) !== glyph.width) return null;
      glyphs.set(String.fromCharCode(gid), glyph.char);
      matched++;
    }
    if (matched === 0) return null;
  }
  return (text) => {
    let out = '';
    for (const ch of text) {
      const code = ch.charCodeAt(0);
      out += glyphs.get(ch) ?? (code >= 0xf020 && code <= 0xf0ff ? (symbolChar(code - 0xf000) ?? ch) : ch);
    }
    return out;
  };
}
