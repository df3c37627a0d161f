/**
 * Text normalization shared by what is indexed and what is asked, so both sides compare the same
 * characters. Pure: no Node or DOM imports, so the query side (and the renderer) can call it too.
 */

// C0 control characters except tab, line feed and carriage return, plus DEL; and the Basic
// Multilingual Plane's noncharacters (U+FDD0-FDEF, U+FFFE, U+FFFF), which no text stands for: a
// PDF font's Unicode map gives U+FFFF for a sign it could not name (a unit cell's "℃" in a vendor
// datasheet), which is an undecoded character as a control code is.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufdd0-\ufdef\ufffe\uffff]/g;

/** `text` as a sentence: a full stop added unless it already ends with one (or "!", "?"). */
export const sentence = (text: string): string => text.replace(/(?<![.!?])$/, '.');

/** A text made literal inside a regular expression. */
export function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Any of `phrases` as whole words: no letter or digit right before or after it. */
export function phrasePattern(phrases: readonly string[]): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${phrases.map(escapeRe).join('|')})(?![\\p{L}\\p{N}])`, 'u');
}

/** A text as HTML or XML character data: `&`, `<` and `>` as entities, which show as those characters. */
export function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Markdown image and link syntax within one line (`![alt](target)`, `[text](target)`), the alt or
 * link text in group 1. The runs are bounded (300 characters of text, 1000 of target): unbounded, a
 * long line of unclosed `[a](` makes every attempt scan to the line's end, quadratic in the line
 * (tests/bench/hostile.bench.ts). A target may hold one level of balanced parentheses
 * ("schematics/EVERLIGHT(亿光)_IR67.PDF", a wiki's "Fuse_(electrical)"): cut at its first ")",
 * the rest was left in the text ("a fuse) of 3 A"). A character of a target is a parenthesis or
 * not, so the pattern never tries one text two ways. Global patterns: for `replace`, `match` and
 * `matchAll` only (`test` and `exec` would carry `lastIndex` from one call to the next).
 */
const TARGET = String.raw`\((?:[^()\n]|\([^()\n]{0,1000}\)){0,1000}\)`;
export const MD_IMAGE = new RegExp(String.raw`!\[([^\]\n]{0,300})\]` + TARGET, 'g');
/** See `MD_IMAGE`; also matches the bracketed part of an image, so replace images first. */
export const MD_LINK = new RegExp(String.raw`\[([^\]\n]{0,300})\]` + TARGET, 'g');

/**
 * The cells of a Markdown table row as written, untrimmed ("| a | b \\| c |" -> " a ", " b \\| c "):
 * split at the pipes no backslash escapes, the row's outer pipes dropped.
 */
export function markdownRowCells(row: string): string[] {
  return row.trim().replace(/^\|/, '').replace(/(?<!\\)\|$/, '').split(/(?<!\\)\|/);
}

/** Stands for a character the source could not decode (a control code from a font without a Unicode map). */
export const UNDECODED = '\ufffd';

/**
 * NFKC (micro sign -> Greek mu, ligatures, full-width and superscript forms), soft hyphens removed
 * (they are invisible where no line breaks), and C0 control characters other than tab and line
 * breaks, and noncharacters, replaced by `UNDECODED`, so no control character ever reaches an index.
 */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').replace(/\u00ad/g, '').replace(CONTROL, UNDECODED);
}
