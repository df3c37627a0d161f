import type { ParseFailure } from './parser';

/**
 * Bounds a parser enforces on the structure of a file, before handing it to a library whose cost
 * grows with it: how deeply markup nests (a DOM builder and the HTML-to-Markdown walk recurse per
 * level: 100k nested `<div>`s took 3 minutes of CPU) and how far a DOCX's parts inflate (a
 * paragraph that inflates to 100 MB overflowed the stack further down the import).
 */

/** Deepest element nesting accepted in HTML and in a DOCX's XML; Chromium's HTML parser stops nesting at 512 too. */
export const MAX_NESTING_DEPTH = 512;

/** Most bytes a DOCX's XML parts (document, styles, numbering, notes...) may inflate to in total. */
export const MAX_DOCX_XML_BYTES = 64 * 1024 * 1024;

/** A file over a structural bound; parsers turn it into a 'too-large' failure with its message. */
export class ParseLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ParseLimitError';
  }

  get failure(): ParseFailure {
    return { ok: false, code: 'too-large', reason: this.message };
  }
}

/** HTML elements that never have content. */
const VOID_ELEMENTS = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr',
  'param', 'keygen', 'command', 'basefont', 'bgsound', 'frame', 'isindex',
]);

/** HTML elements whose end tag may be left out: the parser closes them itself, so they do not nest. */
const OPTIONAL_END = new Set([
  'p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'option', 'optgroup', 'rb', 'rt',
  'rp', 'rtc', 'colgroup', 'caption', 'html', 'head', 'body',
]);

/*
 * Tag scanning is hand-written: it only needs open and close tags counted, in one linear pass with
 * no tree built, and an HTML or XML parser would build exactly the structure this guards against.
 * The attribute part alternates between disjoint first characters, so the pattern cannot backtrack.
 */
const TAG = /<(\/?)([A-Za-z][\w:.-]*)(?:[^>"']|"[^"]*"|'[^']*')*?(\/?)>/g;
const HTML_RAW = /<!--[\s\S]*?-->|<(script|style|textarea|xmp)\b[\s\S]*?<\/\1\s*>/gi;

/**
 * How deeply the elements of `markup` nest. `html`: void elements and elements with optional end
 * tags do not count, comments and script/style content are skipped; otherwise (XML) every element
 * counts and `<x/>` closes itself. Stops counting once `stopAt` is passed.
 */
export function nestingDepth(markup: string, options: { html: boolean; stopAt?: number }): number {
  const text = options.html ? markup.replace(HTML_RAW, '') : markup;
  const stopAt = options.stopAt ?? Infinity;
  let depth = 0;
  let max = 0;
  TAG.lastIndex = 0;
  for (let m = TAG.exec(text); m; m = TAG.exec(text)) {
    const name = m[2]!.toLowerCase();
    if (options.html && (VOID_ELEMENTS.has(name) || OPTIONAL_END.has(name))) continue;
    if (m[1]) {
      if (depth > 0) depth--;
    } else if (!m[3]) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > stopAt) break;
      }
    }
  }
  return max;
}

/** Throws `ParseLimitError` when `markup` nests deeper than `MAX_NESTING_DEPTH`. */
export function checkNesting(markup: string, what: string, html: boolean): void {
  const depth = nestingDepth(markup, { html, stopAt: MAX_NESTING_DEPTH });
  if (depth > MAX_NESTING_DEPTH) {
    throw new ParseLimitError(`The file is too large to import (limit ${MAX_NESTING_DEPTH} levels of nesting): its ${what} nests deeper than that.`);
  }
}
