import TurndownService from 'turndown';
import { gfm } from '@joplin/turndown-plugin-gfm';
import { markdownRowCells } from '../../core/text';
import { checkNesting } from './limits';

/**
 * HTML -> GitHub-flavoured Markdown with turndown and the Joplin GFM plugin, shared by the HTML,
 * DOCX (mammoth's HTML) and Markdown (embedded `<table>`s) parsers. Turndown parses with domino,
 * a DOM implementation that never runs scripts or fetches anything, so hostile HTML only ever
 * becomes text.
 */

/** The slice of the DOM API the rules below touch (the tsconfig has no DOM lib). */
interface DomNode {
  nodeName: string;
  rows?: ArrayLike<DomNode>;
  nodeType: number;
  parentNode: DomNode | null;
  childNodes: ArrayLike<DomNode>;
  firstChild: DomNode | null;
  textContent: string | null;
  getAttribute?: (name: string) => string | null;
  hasAttribute?: (name: string) => boolean;
  querySelector?: (selector: string) => DomNode | null;
  querySelectorAll?: (selector: string) => ArrayLike<DomNode>;
}

type Replacement = (content: string, node: DomNode) => string;

const asDom = (node: unknown): DomNode => node as DomNode;

/** Elements that are never document content: page chrome, code, media and form controls. */
const REMOVED_TAGS = [
  'head', 'style', 'script', 'noscript', 'template', 'nav', 'iframe', 'frame', 'frameset', 'object',
  'embed', 'applet', 'svg', 'canvas', 'audio', 'video', 'button', 'input', 'select', 'textarea',
  'link', 'meta', 'base',
];

function hasAncestor(node: DomNode, names: readonly string[]): boolean {
  for (let p = node.parentNode; p; p = p.parentNode) if (names.includes(p.nodeName)) return true;
  return false;
}

/**
 * Escapes only what would change the block structure or start inline markup, unlike turndown's
 * default, which also escapes every `_`: identifiers such as `UART1_TX_M0` must stay searchable
 * verbatim. Intraword underscores never open emphasis in CommonMark, so they are left alone.
 */
export function escapeMarkdownText(text: string): string {
  return text
    .replace(/\\(?=[!-/:-@[-`{-~])/g, '\\\\')
    .replace(/[*`[\]]/g, '\\$&')
    .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\_')
    .replace(/<(?=[A-Za-z/!?])/g, '\\<')
    .replace(/^(\s*)(-|\+ |=+|#{1,6}(?:\s|$)|~~~|>)/, '$1\\$2')
    .replace(/^(\s*\d{1,9})([.)])(?=\s|$)/, '$1\\$2');
}

function fencedBlock(code: string, language = ''): string {
  const longest = Math.max(2, ...Array.from(code.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `\n\n${fence}${language}\n${code.replace(/\n$/, '')}\n${fence}\n\n`;
}

const DIVIDER_ROW = /^\|(?:\s*:?-+:?\s*\|)+\s*$/;

function cellCount(row: string): number {
  let n = 0;
  for (let i = 0; i < row.length; i++) {
    if (row[i] === '\\') i++;
    else if (row[i] === '|') n++;
  }
  return Math.max(0, n - 1);
}

/**
 * Rebuilds the GFM table from the rows the plugin rendered so every table has exactly one header
 * row: the plugin keeps tables holding lists/headings/blockquotes as raw HTML, puts a divider
 * after every `<thead>` row (mammoth marks rows with `tblHeader val=off` as header rows), and
 * gives header-less tables an empty header. Here the first row is the header, but for a two-column
 * table without any header cell.
 */
const tableReplacement: Replacement = (content, table) => {
  const nested = hasNestedTable(table);
  const rows = content
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('|') && !DIVIDER_ROW.test(l))
    // Line breaks inside cells: turndown's "  \n" became "  <br>"; keep one bare <br>.
    .map((l) => l.replace(/\s*(?:<br>\s*)+/g, '<br>'));
  // Single-cell and layout tables (tables of tables) carry no tabular data: keep their text flat.
  if (nested || rows.length === 0 || (rows.length === 1 && cellCount(rows[0]!) <= 1)) return `\n\n${content}\n\n`;
  const counts = rows.map(cellCount);
  const columns = Math.max(...counts);
  const divider = '|' + ' --- |'.repeat(columns);
  if (columns === 2 && labelValueRows(table, rows)) {
    rows.unshift('|     |     |');
    counts.unshift(2);
  }
  const caption = table.querySelector?.('caption')?.textContent?.trim();
  const captionLine = caption ? `${escapeMarkdownText(caption)}\n\n` : '';
  const [header, ...body] = padRows(rows, counts, columns);
  return `\n\n${captionLine}${[header, divider, ...body].join('\n')}\n\n`;
};

/**
 * Rows with fewer cells than the table has columns, given empty cells up to its width. GFM reads a
 * short row so, but the answers read a row's cells as written (chat/sentences.ts): two cells of a
 * three-column table ("| VCC | 3.3 V |" under "Pin | Voltage | Note") read as a label and its
 * value ("VCC: 3.3 V"), not under their headers ("Pin: VCC; Voltage: 3.3 V"), and a row is
 * compared with the row above by its length. The empty cells added are bounded as spans are
 * (`SPAN_POSITIONS`, per cell of the table): one row of 5,000 cells over 5,000 rows of one would
 * pad 25 million; past the bound rows stay short, which GFM reads alike. Pads `rows` in place.
 */
function padRows(rows: string[], counts: readonly number[], columns: number): string[] {
  let left = SPAN_POSITIONS.slack + SPAN_POSITIONS.perCell * counts.reduce((n, c) => n + c, 0);
  rows.forEach((row, i) => {
    const missing = columns - counts[i]!;
    if (missing <= 0 || (i > 0 && missing > left)) return;
    // The header is always padded: a header shorter than a row would drop that row's last cells.
    if (i > 0) left -= missing;
    rows[i] = row + '     |'.repeat(missing);
  });
  return rows;
}

/**
 * Whether a two-column table's first row is data, not a header: a list of labels and values with
 * no header cell ("RGB Led | G27" of a pin map), so it gets an empty header rather than losing its
 * first row to one. A row marked as a header (`<th>`, `<thead>`, all cells bold) is one; so is a
 * first row of words above rows that give numbers ("Resources | Parameter", "Pin | Function").
 * With more columns the first row always names the cells.
 */
function labelValueRows(table: DomNode, rows: readonly string[]): boolean {
  if (table.querySelector?.('th, thead')) return false;
  const first = rowsOf(table)?.[0];
  const cells = first ? Array.from(first.querySelectorAll?.('td') ?? []) : [];
  if (cells.length > 0 && cells.every((c) => c.textContent?.trim() !== '' && c.textContent?.trim() === c.querySelector?.('b, strong')?.textContent?.trim())) return false;
  return /\d/.test(rows[0]!) || !rows.slice(1).some((r) => /\d/.test(r));
}

/** Tables whose cells the GFM plugin renders as paragraphs (its `tableShouldBeSkipped`), by node. */
const skippedTables = new WeakMap<DomNode, boolean>();

/**
 * A table's rows (its `rows`: every `<tr>` inside it), listed once. Domino's `rows` is a live list
 * that walks the table's whole subtree each time it is asked for; the skip rule, the grid and the
 * GFM plugin asked for it apart, and those walks were a fifth of converting a table.
 */
const tableRows = new WeakMap<DomNode, DomNode[] | null>();

function rowsOf(table: DomNode): DomNode[] | null {
  let rows = tableRows.get(table);
  if (rows === undefined) {
    rows = table.rows ? Array.from(table.rows) : null;
    tableRows.set(table, rows);
  }
  return rows;
}

function containsTable(node: DomNode): boolean {
  for (let i = 0; i < node.childNodes.length; i++) {
    const child = node.childNodes[i]!;
    if (child.nodeName === 'TABLE' || containsTable(child)) return true;
  }
  return false;
}

/** Tables with a table inside, by node: asked by the skip rule and again by the table's own rule. */
const nestingTables = new WeakMap<DomNode, boolean>();

function hasNestedTable(table: DomNode): boolean {
  let nested = nestingTables.get(table);
  if (nested === undefined) {
    nested = containsTable(table);
    nestingTables.set(table, nested);
  }
  return nested;
}

/** The GFM plugin's rule for when a table is not rendered as a table (no rows, one cell, nested tables). */
function tableSkipped(table: DomNode | null): boolean {
  if (!table) return true;
  let skipped = skippedTables.get(table);
  if (skipped === undefined) {
    const rows = rowsOf(table);
    skipped = !rows || (rows.length === 1 && rows[0]!.childNodes.length <= 1) || hasNestedTable(table);
    skippedTables.set(table, skipped);
  }
  return skipped;
}

/** A table's cells as HTML lays them out: rows of cells, some spanning columns or rows. */
const isCell = (n: DomNode): boolean => n.nodeName === 'TD' || n.nodeName === 'TH';
const cellsOf = (row: DomNode): DomNode[] => Array.from(row.childNodes).filter(isCell);

/** The table a cell or row is in (null outside one). */
function tableOf(node: DomNode): DomNode | null {
  let table = node.parentNode;
  while (table && table.nodeName !== 'TABLE') table = table.parentNode;
  return table;
}

/** Columns (`colspan`) or rows (`rowspan`) a cell spans, as a browser reads them: at least 1, at most 1000. */
function spanOf(cell: DomNode, attribute: 'colspan' | 'rowspan' = 'colspan'): number {
  const n = Number.parseInt(cell.getAttribute?.(attribute) ?? '', 10);
  // rowspan="0" spans to the end of the row group (HTML); the caller stops every span there.
  if (n === 0 && attribute === 'rowspan') return 1000;
  return Number.isFinite(n) && n > 1 ? Math.min(n, 1000) : 1;
}

/**
 * Where each row's cells stand in the table's grid: the cells of rows above that span down into
 * the row (`rowspan`), with the columns they take, and how many columns each of the row's own
 * cells takes (`colspan`). Spans stop at the table's widest row and at the end of the row's
 * group. What spans add is bounded, as a browser's rendering is: the grid positions they fill
 * beyond their own (`SPAN_POSITIONS`), and the text written into them (`spanText`); a cell
 * spanning more than is left is written once, where it stands.
 */
interface RowGrid {
  carried: { col: number; cell: DomNode }[];
  copies: Map<DomNode, number>;
}

/**
 * What spans may add to a table: grid positions, per cell of the table, and characters of copied
 * text, per character of its text (and a fixed slack each, for small tables). Without a bound, a
 * cell with a colspan and rowspan of a thousand in a 10 kB file made 90 MB of Markdown, and a
 * larger one more than a string can hold.
 */
const SPAN_POSITIONS = { perCell: 4, slack: 1024 };
const SPAN_TEXT = { perChar: 8, slack: 16_384 };

/** Characters of copied text a table may still write (see `SPAN_TEXT`). */
const spanTextLeft = new WeakMap<DomNode, { chars: number }>();

/**
 * `text` as a copy of a spanning cell in `table`, or an empty cell once the table's allowance is
 * spent. The allowance is measured on the first copy: most tables span nothing, and measuring
 * walks the whole table's text.
 */
function spanText(table: DomNode, text: string): string {
  let left = spanTextLeft.get(table);
  if (!left) {
    left = { chars: SPAN_TEXT.slack + SPAN_TEXT.perChar * (table.textContent?.length ?? 0) };
    spanTextLeft.set(table, left);
  }
  if (left.chars < text.length) return '   ';
  left.chars -= text.length;
  return text;
}

const grids = new WeakMap<DomNode, Map<DomNode, RowGrid>>();

function gridOf(table: DomNode): Map<DomNode, RowGrid> {
  let grid = grids.get(table);
  if (grid) return grid;
  grid = new Map();
  const rows = rowsOf(table) ?? [];
  // Each row's cells, listed once for the three passes below (domino builds each list anew).
  const cells = rows.map(cellsOf);
  let positions = SPAN_POSITIONS.slack + SPAN_POSITIONS.perCell * cells.reduce((n, c) => n + c.length, 0);
  // Per row: the index after the last row of its group. A row group (`<thead>`, each `<tbody>`,
  // `<tfoot>`) ends every span in it, as in a browser: a header cell's rowspan never reaches into
  // the body's rows.
  const groupEnd: number[] = [];
  for (let r = rows.length - 1; r >= 0; r--) groupEnd[r] = r + 1 < rows.length && rows[r + 1]!.parentNode === rows[r]!.parentNode ? groupEnd[r + 1]! : r + 1;
  // The table's width: the most cells a row has, its own and those of rows above spanning down into
  // it, each counted once (a header "Item" over two header rows leaves the second row one short).
  let width = 0;
  let spanningDown = 0;
  const endsAfter = new Map<number, number>();
  cells.forEach((own, r) => {
    spanningDown -= endsAfter.get(r - 1) ?? 0;
    width = Math.max(width, own.length + spanningDown);
    for (const cell of own) {
      const last = r + Math.min(spanOf(cell, 'rowspan'), groupEnd[r]! - r) - 1;
      if (last > r) {
        spanningDown++;
        endsAfter.set(last, (endsAfter.get(last) ?? 0) + 1);
      }
    }
  });
  /** Column -> the cell of a row above that covers it, and the last row it covers. */
  const down = new Map<number, { cell: DomNode; until: number }>();
  rows.forEach((row, r) => {
    const carried: RowGrid['carried'] = [];
    for (const [col, d] of down) {
      if (d.until >= r) carried.push({ col, cell: d.cell });
      else down.delete(col);
    }
    carried.sort((a, b) => a.col - b.col);
    const own = cells[r]!;
    const taken = new Set(carried.map((c) => c.col));
    // The carried columns inside the table, in order, and how many of them lie left of `col`.
    const takenInside = carried.map((c) => c.col).filter((c) => c < width);
    let takenLeft = 0;
    const copies = new Map<DomNode, number>();
    let col = 0;
    own.forEach((cell, i) => {
      while (taken.has(col)) col++;
      while (takenLeft < takenInside.length && takenInside[takenLeft]! < col) takenLeft++;
      // Columns left from here, for this cell and each one after it (at least one each): several
      // spanning cells of one row share the table's width instead of each taking all of it.
      // Counted, not walked: a walk per cell was quadratic in a wide row (5,000 columns: +3 s).
      const free = Math.max(0, width - col) - (takenInside.length - takenLeft);
      let n = Math.max(1, Math.min(spanOf(cell), free - (own.length - 1 - i)));
      let rowsDown = Math.min(spanOf(cell, 'rowspan'), groupEnd[r]! - r);
      if (n * rowsDown - 1 > positions) n = rowsDown = 1;
      else positions -= n * rowsDown - 1;
      copies.set(cell, n);
      for (let k = 0; k < n; k++) if (rowsDown > 1) down.set(col + k, { cell, until: r + rowsDown - 1 });
      col += n;
    });
    grid.set(row, { carried, copies });
  });
  grids.set(table, grid);
  return grid;
}

/** The Markdown text of spanning cells, as their row wrote it (read again by the rows they span down into). */
const spanningTexts = new WeakMap<DomNode, string>();

/**
 * The GFM plugin's cell rule (its `cell`: the prefix, `<br>` for line breaks, escaped pipes, the
 * padding), with the table's skip rule asked of `tableSkipped`. The plugin's own asked domino for
 * the table's rows and walked the table again; and it threw on a cell outside any table
 * (`<svg><td>`), which failed the whole file.
 *
 * A cell spanning columns or rows is written into each column and row it spans. The GFM plugin
 * writes it into its first column and leaves the others empty, and lets the rows below it shift
 * left. An empty cell reads as "nothing here": a specification table's "Power Supply" row,
 * spanning its "ROCK 5B" and "ROCK 5B+" columns, said as Markdown that the ROCK 5B+ had no power
 * input; and under a row header spanning three rows ("Wireless"), the next rows' values moved one
 * column left, each under another board's name. Spans are read as a browser reads them
 * (`spanOf`): the plugin compared the attribute's text as a number, so colspan="1.5" added an
 * empty column and colspan="1e6" a million of them (18 MB of Markdown from an 87-byte table).
 */
const cellReplacement: Replacement = (content, cell) => {
  const table = tableOf(cell);
  if (tableSkipped(table) || !cell.parentNode) return content;
  let text = content.trim().replace(/\n\r/g, '<br>').replace(/\n/g, '<br>').replace(/\|+/g, '\\|');
  while (text.length < 3) text += ' ';
  const written = [text];
  if (spanOf(cell) > 1 || spanOf(cell, 'rowspan') > 1) {
    spanningTexts.set(cell, text);
    const copies = gridOf(table!).get(cell.parentNode)?.copies.get(cell) ?? 1;
    for (let k = 1; k < copies; k++) written.push(spanText(table!, text));
  }
  return `${cell.parentNode.firstChild === cell ? '| ' : ' '}${written.join(' | ')} |`;
};

/** The cells of a rendered Markdown row, trimmed ("| a | b \\| c |" -> "a", "b \\| c"); none for "|". */
function rowCells(row: string): string[] {
  const cells = markdownRowCells(row);
  return cells.length === 1 && cells[0] === '' ? [] : cells.map((c) => c.trim());
}

/** A rendered row with the cells of rows above that span down into it put back in their columns. */
function withCarried(content: string, row: DomNode): string {
  const table = tableOf(row);
  const carried = table ? (gridOf(table).get(row)?.carried ?? []) : [];
  if (carried.length === 0) return content;
  const own = rowCells(content);
  const at = new Map(carried.map((c) => [c.col, c.cell]));
  const lastCarried = carried[carried.length - 1]!.col;
  const out: string[] = [];
  let k = 0;
  for (let col = 0; k < own.length || col <= lastCarried; col++) {
    const from = at.get(col);
    if (from) out.push(spanText(table!, spanningTexts.get(from) ?? ''));
    else if (k < own.length) out.push(own[k++]!);
    else out.push('');
  }
  return `| ${out.join(' | ')} |`;
}

/**
 * The GFM plugin's row rule without the divider it appends to header rows: `tableReplacement`
 * drops every divider and writes its own, and the plugin computes each divider cell's alignment
 * by walking all rows of the table through domino's live `rows` list, which made tables with
 * many rows cost quadratic time (half of Markdown parsing on the radxa docs).
 */
const tableRowReplacement: Replacement = (content, row) => {
  const table = tableOf(row);
  return tableSkipped(table) ? content : `\n${withCarried(content, row)}`;
};

/** Result of a conversion: Markdown and the `<title>` text when the HTML had one. */
export interface HtmlConversion {
  markdown: string;
  title: string | null;
}

/** Options for `htmlToMarkdown`. */
export interface HtmlToMarkdownOptions {
  /** Drop page-level `<footer>`s (site chrome); footers inside `<article>`/`<main>`/`<section>` stay. */
  dropPageFooters?: boolean;
}

function createService(options: HtmlToMarkdownOptions, onTitle: (title: string) => void): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    strongDelimiter: '**',
    hr: '---',
    linkStyle: 'inlined',
  });
  service.use(gfm);
  service.escape = escapeMarkdownText;
  const title: Replacement = (_content, node) => {
    const text = node.textContent?.replace(/\s+/g, ' ').trim();
    if (text) onTitle(text);
    return '';
  };
  const pre: Replacement = (_content, node) => fencedBlock(node.textContent ?? '');
  const unsafeLink: Replacement = (content) => content;
  // Data-URI images would put whole base64 files into the text, and an image without alt text
  // adds only a path; keep the alt text alone (or nothing).
  const inlineImage: Replacement = (_content, node) => escapeMarkdownText(node.getAttribute?.('alt')?.trim() ?? '');
  /**
   * This file's rule for an element, or null for the plugin's and turndown's own. Turndown asks
   * every rule's filter of every element until one matches; one filter for all of this file's
   * rules, tried in this order, asks once where eight filters were asked (calling them was a
   * sixth of converting a table while the parse worker's code is still cold).
   */
  const ownRule = (n: DomNode): Replacement | null => {
    if (n.nodeName === 'IMG') {
      const src = n.getAttribute?.('src')?.trim() ?? '';
      if (src === '' || /^data:/i.test(src) || !n.getAttribute?.('alt')?.trim()) return inlineImage;
    }
    if (n.nodeName === 'A' && /^\s*(?:javascript|vbscript|data):/i.test(n.getAttribute?.('href') ?? '')) return unsafeLink;
    if (n.nodeName === 'PRE' && n.firstChild?.nodeName !== 'CODE') return pre;
    // Names compared as turndown compares a rule's string filter: lower-cased.
    const name = n.nodeName.toLowerCase();
    if (name === 'th' || name === 'td') return cellReplacement;
    if (name === 'tr') return tableRowReplacement;
    if (name === 'table') return tableReplacement;
    if (name === 'title') return title;
    return null;
  };
  /**
   * The filter's answer per element, for its replacement: turndown asks the filter, converts the
   * element's children, then calls the matched rule's replacement, which would otherwise ask
   * `ownRule` again (the element and its attributes are unchanged in between).
   */
  const chosen = new WeakMap<DomNode, Replacement>();
  // Rules added later take precedence over the plugin's and turndown's own.
  service.addRule('mmRules', {
    filter: (node) => {
      const n = asDom(node);
      const rule = ownRule(n);
      if (rule === null) return false;
      chosen.set(n, rule);
      return true;
    },
    replacement: (content, node) => {
      const n = asDom(node);
      return (chosen.get(n) ?? ownRule(n))!(content, n);
    },
  });
  service.remove(REMOVED_TAGS as TurndownService.TagName[]);
  service.remove((node) => asDom(node).hasAttribute?.('hidden') === true);
  if (options.dropPageFooters) {
    service.remove((node) => {
      const n = asDom(node);
      return n.nodeName === 'FOOTER' && !hasAncestor(n, ['ARTICLE', 'MAIN', 'SECTION']);
    });
  }
  return service;
}

/** Converts an HTML document or fragment to Markdown; never executes or fetches anything. */
export function htmlToMarkdown(html: string, options: HtmlToMarkdownOptions = {}): HtmlConversion {
  // Turndown and domino recurse per level: bound the depth before building the DOM.
  checkNesting(html, 'HTML', true);
  let title: string | null = null;
  const service = createService(options, (t) => {
    title ??= t;
  });
  // Turndown wraps the input in <x-turndown id="turndown-root">; a closing tag in the input
  // would end that root early and silently drop the rest of the page.
  const markdown = service.turndown(html.replace(/<(\/?)x-turndown/gi, '&lt;$1x-turndown'));
  return { markdown, title };
}
