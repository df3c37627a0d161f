import type MarkdownIt from 'markdown-it';

/**
 * markdown-it's GFM table rule (markdown-it 14, rules_block/table.mjs) for a parser that reads
 * block boundaries only (normalize.ts): it decides where a table starts and ends exactly as the
 * stock rule does, but emits only `table_open` and `table_close`, not the thead/tbody/tr/th/td and
 * inline tokens of every cell. Those tokens were made for every cell of every table and read by
 * nothing (the blocks are built from level-0 tokens); with the cells' text cut out for each
 * (`escapedSplit`) they were most of the block parse's time and garbage on the spec-table pages of
 * radxa-docs. A test parses corpora and edge cases with both rules and compares every token
 * outside tables.
 */

type StateBlock = Parameters<MarkdownIt['block']['tokenize']>[0];

// The same bound as the stock rule (markdown-it issue #1000).
const MAX_AUTOCOMPLETED_CELLS = 0x10000;

function getLine(state: StateBlock, line: number): string {
  return state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]);
}

const isSpace = (code: number): boolean => code === 0x09 || code === 0x20;

/**
 * The number of cells the stock rule's `escapedSplit` finds in a trimmed row, after it drops an
 * empty first and last cell: pipes not preceded by a backslash separate cells.
 */
function cellCount(row: string): number {
  let cells = 1;
  let escaped = false;
  for (let pos = 0; pos < row.length; pos++) {
    const ch = row.charCodeAt(pos);
    if (ch === 0x7c && !escaped) cells++;
    escaped = ch === 0x5c;
  }
  // The first cell is empty when the row starts with a pipe (a first character is never escaped);
  // the last when it ends with an unescaped one ("|" alone is two empty cells: none are left).
  if (row.charCodeAt(0) === 0x7c) cells--;
  if (cells > 0 && row.charCodeAt(row.length - 1) === 0x7c && !(row.length > 1 && row.charCodeAt(row.length - 2) === 0x5c)) cells--;
  return cells;
}

export function tableExtent(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  // should have at least two lines
  if (startLine + 2 > endLine) return false;
  let nextLine = startLine + 1;
  if (state.sCount[nextLine]! < state.blkIndent) return false;
  // if it's indented more than 3 spaces, it should be a code block
  if (state.sCount[nextLine]! - state.blkIndent >= 4) return false;

  // The delimiter row: /^[-:|][-:|\s]*$/, not starting "- " (a list item).
  let pos = state.bMarks[nextLine]! + state.tShift[nextLine]!;
  if (pos >= state.eMarks[nextLine]!) return false;
  const firstCh = state.src.charCodeAt(pos++);
  if (firstCh !== 0x7c && firstCh !== 0x2d && firstCh !== 0x3a) return false;
  if (pos >= state.eMarks[nextLine]!) return false;
  const secondCh = state.src.charCodeAt(pos++);
  if (secondCh !== 0x7c && secondCh !== 0x2d && secondCh !== 0x3a && !isSpace(secondCh)) return false;
  if (firstCh === 0x2d && isSpace(secondCh)) return false;
  while (pos < state.eMarks[nextLine]!) {
    const ch = state.src.charCodeAt(pos);
    if (ch !== 0x7c && ch !== 0x2d && ch !== 0x3a && !isSpace(ch)) return false;
    pos++;
  }

  const delimiters = getLine(state, startLine + 1).split('|');
  let aligns = 0;
  for (let i = 0; i < delimiters.length; i++) {
    const t = delimiters[i]!.trim();
    if (!t) {
      // allow empty columns before and after table, but not in between columns
      if (i === 0 || i === delimiters.length - 1) continue;
      return false;
    }
    if (!/^:?-+:?$/.test(t)) return false;
    aligns++;
  }

  const header = getLine(state, startLine).trim();
  if (header.indexOf('|') === -1) return false;
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  // The header row defines the number of columns; the delimiter row must have as many.
  const columnCount = cellCount(header);
  if (columnCount === 0 || columnCount !== aligns) return false;
  if (silent) return true;

  const oldParentType = state.parentType;
  state.parentType = 'table' as typeof state.parentType;
  // 'blockquote' terminators end a table, as in the stock rule.
  const terminatorRules = state.md.block.ruler.getRules('blockquote');
  const open = state.push('table_open', 'table', 1);
  const tableLines: [number, number] = [startLine, 0];
  open.map = tableLines;

  let autocompletedCells = 0;
  for (nextLine = startLine + 2; nextLine < endLine; nextLine++) {
    if (state.sCount[nextLine]! < state.blkIndent) break;
    let terminate = false;
    for (const rule of terminatorRules) {
      if (rule(state, nextLine, endLine, true)) {
        terminate = true;
        break;
      }
    }
    if (terminate) break;
    const row = getLine(state, nextLine).trim();
    if (!row) break;
    if (state.sCount[nextLine]! - state.blkIndent >= 4) break;
    autocompletedCells += columnCount - cellCount(row);
    if (autocompletedCells > MAX_AUTOCOMPLETED_CELLS) break;
  }

  state.push('table_close', 'table', -1);
  tableLines[1] = nextLine;
  state.parentType = oldParentType;
  state.line = nextLine;
  return true;
}
