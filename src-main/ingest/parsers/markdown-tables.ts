import { blockTokens } from '../normalize';
import { htmlToMarkdown } from './html-to-markdown';

/**
 * The HTML tables of Markdown and MDX pages, as GFM tables placed where Markdown put the HTML
 * (split from markdown.parser.ts, which rewrites the rest of a page).
 */

/**
 * For each line of `text` that continues an HTML block begun on an earlier line, the indentation
 * of that block's first line. Inside an HTML block indentation only formats the HTML; the block's
 * first line is where Markdown placed it (at the margin, or in a list item).
 */
function htmlBlockIndents(text: string): Map<number, string> {
  const indents = new Map<number, string>();
  const lines = text.split('\n');
  for (const t of blockTokens(text)) {
    if (t.type !== 'html_block' || !t.map) continue;
    const [from, to] = t.map;
    const indent = /^[ \t]*/.exec(lines[from] ?? '')![0];
    for (let k = from + 1; k < to; k++) indents.set(k, indent);
  }
  return indents;
}

/**
 * Finds `<table>...</table>` regions (nesting-aware) and converts each to a GFM table (`unmask`
 * puts back what the caller masked, inline code). In MDX,
 * indentation is settled afterwards (`dedentContainers`, `dedentIndentedCode`), so `mdx` keeps each
 * table at its `<table` line's indentation for that.
 */
export function convertTables(text: string, unmask: (html: string) => string, warnings: string[], mdx: boolean): string {
  const out: string[] = [];
  let pos = 0;
  let blockIndents: Map<number, string> | null = null;
  // Line number of `counted`, advanced as the tables are found in order (linear in the text).
  let counted = 0;
  let line = 0;
  const lineNumberAt = (at: number): number => {
    for (let k = text.indexOf('\n', counted); k !== -1 && k < at; k = text.indexOf('\n', k + 1)) line++;
    counted = at;
    return line;
  };
  const tagRe = /<(\/?)table\b[^<>]{0,2000}>/gi;
  for (;;) {
    tagRe.lastIndex = pos;
    const first = tagRe.exec(text);
    if (!first) break;
    if (first[1]) {
      // A stray closing tag: leave it and move on.
      out.push(text.slice(pos, tagRe.lastIndex));
      pos = tagRe.lastIndex;
      continue;
    }
    let depth = 1;
    let end = -1;
    let m: RegExpExecArray | null;
    while ((m = tagRe.exec(text))) {
      depth += m[1] ? -1 : 1;
      if (depth === 0) {
        end = tagRe.lastIndex;
        break;
      }
    }
    if (end === -1) {
      warnings.push('An HTML <table> is never closed; it was left as HTML.');
      break;
    }
    const html = unmask(text.slice(first.index, end));
    const { markdown } = htmlToMarkdown(html);
    if (/<table/i.test(markdown)) warnings.push('An HTML <table> could not be converted to a Markdown table.');
    // The table keeps the indentation of its `<table` line, so it stays inside its list item or
    // JSX container (and is dedented with it). A `<table` line inside an HTML block (a
    // `<div class="table-wrapper">`) takes the block's indentation instead: kept, its HTML
    // formatting would turn the Markdown table into indented code.
    const lineStart = text.lastIndexOf('\n', first.index - 1) + 1;
    const lead = text.slice(lineStart, first.index);
    let indent = /^[ \t]*$/.test(lead) ? lead : '';
    if (indent && !mdx) {
      blockIndents ??= htmlBlockIndents(text);
      indent = blockIndents.get(lineNumberAt(lineStart)) ?? indent;
    }
    const body = markdown.trim().split('\n').map((l) => (l ? indent + l : l)).join('\n');
    out.push(text.slice(pos, first.index), `\n\n${body}\n\n`);
    pos = end;
  }
  out.push(text.slice(pos));
  return out.join('');
}
