/**
 * Blocks of one reading-order leaf: lines -> code, tables, headings, lists, paragraphs, and their
 * Markdown. Pure (no pdf.js).
 */
import { LAYOUT, bands, maxOf, median, minOf, overlap, round, wordCount, type Segment } from './pdf.segments';
import type { Interval } from './pdf.order';

interface Line {
  segs: Segment[];
  y: number;
  size: number;
  x0: number;
  x1: number;
  mono: boolean;
}

export type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'table'; rows: string[][] }
  | { kind: 'code'; lines: string[] };


const LIST_MARKER = /^(?:[•·▪▸►◦‣∙●○■□➢➤✓✔*-]|–|\d{1,3}[.)]|[a-z][.)])$/;
const LIST_ITEM = /^([•·▪▸►◦‣∙●○■□➢➤✓✔*-]|–|\d{1,3}[.)]|[a-z][.)])\s+(\S.*)$/;
const NUMBERED_HEADING = /^(\d{1,2}(?:\.\d{1,2}){1,4})\.?\s+(\p{Lu}.*)$/u;
const SINGLE_NUMBERED = /^(\d{1,2})\.?\s+(\p{Lu}.*)$/u;
export const SENTENCE_END = /[.!?:;]["”’)\]]?$/;

function toLines(segs: Segment[]): Line[] {
  return bands(segs).map((members) => {
    const sorted = [...members].sort((a, b) => a.x0 - b.x0);
    // A lone bullet or step number set apart from its text belongs to the text, not a table column.
    if (sorted.length >= 2 && LIST_MARKER.test(sorted[0]!.text)) {
      const [marker, next] = [sorted[0]!, sorted[1]!];
      sorted.splice(0, 2, { ...next, text: `${marker.text} ${next.text}`, x0: marker.x0 });
    }
    const main = sorted.reduce((a, b) => (b.text.length > a.text.length ? b : a));
    return {
      segs: sorted,
      y: main.y,
      size: maxOf(sorted.map((s) => s.size)),
      x0: sorted[0]!.x0,
      x1: maxOf(sorted.map((s) => s.x1)),
      mono: sorted.every((s) => s.mono),
    };
  });
}

const lineText = (l: Line): string => l.segs.map((s) => s.text).join(' ');

function mergeIntervals(spans: Interval[]): Interval[] {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  const out: Interval[] = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/** Columns of a table run from its most common row shape; null when the cells do not line up. */
function tableRows(lines: Line[]): string[][] | null {
  const multi = lines.filter((l) => l.segs.length >= 2);
  if (multi.length < 2) return null;
  const counts = new Map<number, number>();
  for (const l of multi) counts.set(l.segs.length, (counts.get(l.segs.length) ?? 0) + 1);
  const mode = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0];
  const columns = mergeIntervals(multi.filter((l) => l.segs.length === mode).flatMap((l) => l.segs.map((s) => [s.x0, s.x1] as Interval)));
  if (columns.length < 2) return null;
  const rows = lines.map((l) => {
    const cells: string[] = columns.map(() => '');
    for (const s of l.segs) {
      let best = 0;
      let bestScore = -Infinity;
      columns.forEach(([a, b], c) => {
        const score = overlap(s.x0, s.x1, a, b) - 0.001 * Math.abs((s.x0 + s.x1) / 2 - (a + b) / 2);
        if (score > bestScore) {
          bestScore = score;
          best = c;
        }
      });
      cells[best] = cells[best] ? `${cells[best]} ${s.text}` : s.text;
    }
    return cells;
  });
  if (rows.filter((r) => r.filter(Boolean).length >= 2).length < 2) return null;
  // A row holding only the rest of one cell is that cell wrapping; rows with several cells (a group
  // label spanning rows: "" | Current | 2 A) stay rows.
  const merged: string[][] = [];
  const ys: number[] = [];
  rows.forEach((row, r) => {
    const filled = row.flatMap((t, c) => (t ? [c] : []));
    const prev = merged[merged.length - 1];
    const c = filled[0]!;
    const wraps = prev && filled.length === 1 && c > 0 && prev[c] && (/^\p{Ll}/u.test(row[c]!) || !SENTENCE_END.test(prev[c]!));
    if (wraps) prev[c] = joinLines(prev[c]!, row[c]!);
    else {
      merged.push(row);
      ys.push(lines[r]!.y);
    }
  });
  return spreadRowLabels(mergeHeaderLines(merged, ys), ys);
}

/**
 * A header set on two lines ("Operating" / "Temperature") comes out as two rows: the second is
 * merged into the first when it holds no digits, stands closer to the first than the first body
 * row stands to it, and the body below has values. `ys` (baselines, one per row) is updated too.
 */
function mergeHeaderLines(rows: string[][], ys: number[]): string[][] {
  if (rows.length < 3) return rows;
  const [head, second, body] = [rows[0]!, rows[1]!, rows[2]!];
  const tighter = ys[1]! - ys[0]! < 0.85 * (ys[2]! - ys[1]!);
  if (!tighter || second.some((t) => /\d/.test(t)) || !rows.slice(2).some((r) => r.some((t) => /\d/.test(t))) || body.every((t) => !t)) return rows;
  const merged = head.map((t, c) => (t && second[c] ? joinLines(t, second[c]!) : t || second[c]!));
  ys.splice(1, 1);
  return [merged, ...rows.slice(2)];
}

/**
 * A label set once, vertically centred beside the rows it names (a symbol and parameter spanning
 * two condition rows: "" | "" | 25 C | 0.01 / RLINE | Line regulation | | / "" | "" | 0 to 125 C | 0.02),
 * comes out as a row of its own between its rows. Its cells are copied into the empty leading
 * cells of the rows nearest to it, and the label row goes: each row then names what it measures.
 * Rows right under a label that has values of its own (a top-aligned group label) are left alone.
 */
function spreadRowLabels(rows: string[][], ys: number[]): string[][] {
  const width = rows[0]!.length;
  const lastFilled = (row: string[]): number => row.reduce((m, t, c) => (t ? c : m), -1);
  const firstFilled = (row: string[]): number => row.findIndex(Boolean);
  // Label rows: cells only in the leading columns, with rows around them whose leading columns are empty.
  const labelCols = (r: number): number => {
    const row = rows[r]!;
    const last = lastFilled(row);
    if (r === 0 || last < 0 || last >= width - 1 || firstFilled(row) !== 0) return -1;
    const orphan = (k: number): boolean => k > 0 && k < rows.length && firstFilled(rows[k]!) > last;
    return orphan(r - 1) || orphan(r + 1) ? last : -1;
  };
  const labels = rows.map((_, r) => labelCols(r));
  const labelRows = labels.flatMap((l, r) => (l >= 0 ? [r] : []));
  if (labelRows.length === 0) return rows;
  const out = rows.map((row) => [...row]);
  const used = new Set<number>();
  for (let r = 1; r < rows.length; r++) {
    if (labels[r]! >= 0) continue;
    const first = firstFilled(rows[r]!);
    // The nearest label row above or below, with no labelled row (a label row or a row with its own label) in between.
    let best = -1;
    for (const l of labelRows) {
      if (first <= labels[l]!) continue;
      const [a, b] = l < r ? [l, r] : [r, l];
      let blocked = false;
      for (let k = a + 1; k < b; k++) if (labels[k]! >= 0 || firstFilled(rows[k]!) <= labels[l]!) blocked = true;
      if (blocked) continue;
      if (best < 0 || Math.abs(ys[l]! - ys[r]!) < Math.abs(ys[best]! - ys[r]!)) best = l;
    }
    if (best < 0) continue;
    for (let c = 0; c <= labels[best]!; c++) out[r]![c] = rows[best]![c]!;
    used.add(best);
  }
  return out.filter((_, r) => !used.has(r));
}

/** Document-wide font statistics that decide headings. */
interface FontStats {
  body: number;
  /** Distinct heading sizes, largest first. */
  headingSizes: number[];
  /** Fixed-pitch lines are code, unless the whole document is set fixed-pitch (typewritten text). */
  monoIsCode: boolean;
}

export function fontStats(pages: Segment[][]): FontStats {
  const chars = new Map<number, number>();
  const runningChars = new Map<number, number>();
  let mono = 0;
  let total = 0;
  const add = (sizes: Map<number, number>, s: Segment): void => {
    sizes.set(round(s.size), (sizes.get(round(s.size)) ?? 0) + s.text.length);
  };
  for (const segs of pages) {
    for (const s of segs) {
      add(chars, s);
      if (wordCount(s.text) >= LAYOUT.proseWords) add(runningChars, s);
      total += s.text.length;
      if (s.mono) mono += s.text.length;
    }
  }
  // The body is the size most running text is set in. Counted over every character, a datasheet's
  // pin tables (hundreds of one- and two-word cells at 5 pt) outweighed its prose at 10 pt, and
  // short paragraphs became headings. Cells are short: segments of a few words decide, where any exist.
  const mostText = (sizes: Map<number, number>): number | undefined => [...sizes].sort((a, b) => b[1] - a[1])[0]?.[0];
  const body = mostText(runningChars) ?? mostText(chars) ?? 10;
  const headingSizes = [...chars.keys()].filter((s) => isHeadingSize(s, body)).sort((a, b) => b - a);
  return { body, headingSizes, monoIsCode: mono < 0.5 * total };
}

function isHeadingSize(size: number, body: number): boolean {
  return size >= body * LAYOUT.headingSizeRatio && size - body >= 1;
}

function headingLevel(text: string, size: number, fonts: FontStats): number {
  const numbered = NUMBERED_HEADING.exec(text) ?? SINGLE_NUMBERED.exec(text);
  if (numbered) return Math.min(6, numbered[1]!.split('.').length);
  const rank = fonts.headingSizes.findIndex((s) => Math.abs(s - round(size)) < 0.26);
  return Math.min(3, (rank < 0 ? fonts.headingSizes.length : rank) + 1);
}

/**
 * Joins wrapped lines at a line end: a hyphen between lower-case letters is hyphenation and goes
 * ("seg-" + "ment"); any other hyphen between letters or digits is printed and stays, without a
 * space ("ESP32-" + "C3", "RISC-" + "V", "USB-" + "powered", "AES-" + "XTS"). Capitals are kept
 * whole on purpose: in manuals a hyphen between capitals is nearly always part of a name
 * ("AES-XTS", "SPI-DMA", "USB-OTG"), and joining them made such names unsearchable, while text set
 * in capitals is rarely hyphenated; pdftotext keeps them too. The exception is an abbreviation
 * spelled by the words before it (`hyphenatedAbbreviation`).
 */
export function joinLines(a: string, b: string): string {
  if (/\u00ad$/.test(a)) return a.slice(0, -1) + b;
  if (/\p{Ll}-$/u.test(a) && /^\p{Ll}/u.test(b)) return a.slice(0, -1) + b;
  if (hyphenatedAbbreviation(a, b)) return a.slice(0, -1) + b;
  if (/[\p{L}\p{N}]-$/u.test(a) && /^[\p{L}\p{N}]/u.test(b)) return a + b;
  return `${a} ${b}`;
}

/**
 * An abbreviation in parentheses right after the words it abbreviates, hyphenated at the line end:
 * "On-The-Fly AES Decryption (OT-" + "FAD)". Its letters are those words' initials, so the hyphen
 * is the typesetter's (pdftotext joins it too), unlike the printed one of "(AES-" + "XTS)".
 */
function hyphenatedAbbreviation(a: string, b: string): boolean {
  const left = /\((\p{Lu}{1,8})-$/u.exec(a);
  const right = left && /^(\p{Lu}{1,8})\)/u.exec(b);
  if (!left || !right) return false;
  const abbreviation = left[1]! + right[1]!;
  const words = a.slice(0, left.index).split(/[\s-]+/).filter((w) => /^\p{L}/u.test(w));
  if (words.length < abbreviation.length) return false;
  return words.slice(-abbreviation.length).every((w, i) => w[0]!.toUpperCase() === abbreviation[i]);
}

/** Escapes what markdown-it would read as block syntax at the start of a text block. */
export function escapeBlockStart(text: string): string {
  if (/^(#{1,6}(\s|$)|>|[-+*](\s|$)|=+\s*$|```|~~~|<[A-Za-z/!?]|\[[^\]]*\]:)/.test(text)) return `\\${text}`;
  if (/^([-*_])(\s*\1){2,}\s*$/.test(text)) return `\\${text}`;
  return text.replace(/^(\d{1,9})([.)])(\s|$)/, '$1\\$2$3');
}

/** Code lines with their indentation rebuilt from x positions, in character cells of the font. */
function codeLines(lines: Line[]): string[] {
  const cell = median(lines.flatMap((l) => l.segs.map((s) => (s.x1 - s.x0) / Math.max(1, s.text.length)))) || 0.6 * lines[0]!.size;
  const x0 = minOf(lines.map((l) => l.x0));
  return lines.map((l) => {
    let out = '';
    for (const s of l.segs) {
      const col = Math.max(0, Math.round((s.x0 - x0) / cell));
      out += ' '.repeat(Math.max(out ? 1 : 0, col - out.length)) + s.text;
    }
    return out;
  });
}

// Table-of-contents entries: dot leaders and a page reference; each stays on its own line.
const TOC_ENTRY = /(?:\.\s?){4,}\s*\S{1,8}$|…\s*\S{1,8}$/;

export function blocksOfLeaf(segs: Segment[], fonts: FontStats): Block[] {
  const lines = toLines(segs);
  if (lines.length === 0) return [];
  const leafX0 = minOf(lines.map((l) => l.x0));
  const leafX1 = maxOf(lines.map((l) => l.x1));
  const leafW = Math.max(1, leafX1 - leafX0);
  // Line spacing from the gaps between lines of running text: the staggered baselines of a
  // table's wrapped cells (rows of several segments) would make it look tighter than it is.
  const lineGaps = (prose: boolean): number[] => {
    const out: number[] = [];
    for (let i = 1; i < lines.length; i++) {
      const d = lines[i]!.y - lines[i - 1]!.y;
      const s = lines[i]!.size;
      if (prose && (lines[i]!.segs.length > 1 || lines[i - 1]!.segs.length > 1)) continue;
      if (Math.abs(s - lines[i - 1]!.size) < 0.5 && d > 0.5 * s && d < 3 * s) out.push(d);
    }
    return out;
  };
  const proseGaps = lineGaps(true);
  const gaps = proseGaps.length >= 2 ? proseGaps : lineGaps(false);
  const bodySize = median(lines.map((l) => l.size));
  // The lower quartile, not the median: in short leaves paragraph gaps can be half the samples.
  gaps.sort((a, b) => a - b);
  const leading =
    gaps.length >= 2 ? gaps[Math.floor((gaps.length - 1) / 4)]! : gaps.length === 1 && gaps[0]! <= 1.5 * bodySize ? gaps[0]! : 1.2 * bodySize;
  const paraGap = leading * 1.35 + 0.5;

  const blocks: Block[] = [];
  let para: Line[] = [];
  let list: { items: string[]; markerX: number; lastY: number } | null = null;
  let largePrintUntil = 0;
  const flushPara = (): void => {
    if (para.length) blocks.push({ kind: 'paragraph', text: para.map(lineText).reduce(joinLines) });
    para = [];
  };
  const flushList = (): void => {
    if (list) blocks.push({ kind: 'list', items: list.items });
    list = null;
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const prev = lines[i - 1];

    // Code: consecutive fixed-pitch lines, kept line by line with their indentation.
    if (line.mono && fonts.monoIsCode) {
      let j = i + 1;
      while (j < lines.length && lines[j]!.mono && lines[j]!.y - lines[j - 1]!.y <= 3 * leading) j++;
      flushPara();
      flushList();
      blocks.push({ kind: 'code', lines: codeLines(lines.slice(i, j)) });
      i = j - 1;
      continue;
    }

    // Tables: consecutive multi-cell lines, plus wrapped cell lines that start right of column one.
    if (line.segs.length >= 2) {
      const firstColRight = line.segs[0]!.x1;
      let j = i + 1;
      let lastMulti = i;
      while (j < lines.length) {
        const next = lines[j]!;
        // A row of several cells after a tall row (a label spanning the two lines of its conditions
        // cell) stands a little further down; up to 2.5 em it is the same table, not a new one.
        const tight = next.y - lines[j - 1]!.y <= (next.segs.length >= 2 ? 2.5 : 2.2) * next.size;
        if (next.segs.length >= 2 && tight) lastMulti = j;
        else if (!(next.segs.length === 1 && tight && next.x0 > firstColRight)) break;
        j++;
      }
      const rows = lastMulti > i ? tableRows(lines.slice(i, j)) : null;
      if (rows) {
        flushPara();
        flushList();
        blocks.push({ kind: 'table', rows });
        i = j - 1;
        continue;
      }
    }

    const text = lineText(line);
    const gapBefore = prev ? line.y - prev.y : Infinity;
    const next = lines[i + 1];

    // Headings by size: short lines set clearly larger than the body; wrapped titles are merged.
    // A longer run of large lines is large print (a lead paragraph), not a heading.
    if (i >= largePrintUntil && isHeadingSize(line.size, fonts.body) && /\p{L}/u.test(text)) {
      let j = i + 1;
      while (j < lines.length) {
        const n = lines[j]!;
        if (Math.abs(n.size - line.size) > 0.5 || n.y - lines[j - 1]!.y > 1.6 * n.size || NUMBERED_HEADING.test(lineText(n))) break;
        j++;
      }
      const heading = lines.slice(i, j).map(lineText).reduce(joinLines);
      if (j - i <= 3 && wordCount(heading) <= 25) {
        flushPara();
        flushList();
        blocks.push({ kind: 'heading', level: headingLevel(heading, line.size, fonts), text: heading });
        i = j - 1;
        continue;
      }
      largePrintUntil = j;
    }

    // Headings by numbering ("3.2 Installation") at body size: short, standalone, not a sentence.
    const numbered = NUMBERED_HEADING.exec(text);
    if (numbered && wordCount(text) <= 12 && !/[.,;:]$/.test(text)) {
      const startsBlock = !prev || gapBefore > paraGap || SENTENCE_END.test(lineText(prev)) || (para.length === 0 && !list);
      const endsBlock = !next || next.y - line.y > paraGap || line.x1 < leafX0 + 0.75 * leafW;
      if (startsBlock && endsBlock) {
        flushPara();
        flushList();
        blocks.push({ kind: 'heading', level: headingLevel(text, line.size, fonts), text });
        continue;
      }
    }

    // Lists: a marker line starts an item; indented tight lines continue it.
    const item = LIST_ITEM.exec(text);
    // "m. For each additional metre" after "...up to 5" is the sentence wrapping, not item "m.": a
    // letter or number marker only starts an item after a finished sentence or a paragraph gap.
    const lastPara = para[para.length - 1];
    const wrapped =
      item !== null && /^[\p{L}\p{N}]/u.test(item[1]!) && lastPara !== undefined && line.y - lastPara.y <= paraGap && !SENTENCE_END.test(lineText(lastPara));
    if (item && !wrapped) {
      flushPara();
      const marker = /^[a-z][.)]$/.test(item[1]!) ? `- ${item[1]}` : /^\d/.test(item[1]!) ? item[1]! : '-';
      const body = escapeBlockStart(item[2]!);
      if (list && (line.y - list.lastY > paraGap || Math.abs(line.x0 - list.markerX) > line.size)) flushList();
      list ??= { items: [], markerX: line.x0, lastY: line.y };
      list.items.push(`${marker} ${body}`);
      list.lastY = line.y;
      continue;
    }
    if (list && line.y - list.lastY <= paraGap && line.x0 > list.markerX + 0.5 * line.size) {
      const last = list.items.length - 1;
      list.items[last] = joinLines(list.items[last]!, text);
      list.lastY = line.y;
      continue;
    }
    flushList();

    if (para.length && prev) {
      const p = para[para.length - 1]!;
      const prevText = lineText(p);
      const hyphenated = /[\p{L}\p{N}]-$/u.test(prevText) && /^[\p{L}\p{N}]/u.test(text);
      const breakHere =
        line.y - p.y > paraGap ||
        line.y <= p.y ||
        Math.abs(line.size - p.size) > 0.12 * p.size ||
        TOC_ENTRY.test(prevText) ||
        TOC_ENTRY.test(text) ||
        // A short line ends its paragraph: after a full stop, or before a line that starts a new sentence.
        (SENTENCE_END.test(prevText) && p.x1 < leafX1 - 0.25 * leafW) ||
        (!hyphenated && !/^\p{Ll}/u.test(text) && p.x1 < leafX0 + 0.5 * leafW) ||
        // First-line indent after a finished sentence; a hanging indent ("Note  text...") is not a break.
        (SENTENCE_END.test(prevText) && line.x0 > leafX0 + 0.8 * line.size && p.x0 <= leafX0 + 0.3 * line.size);
      if (breakHere) flushPara();
    }
    para.push(line);
  }
  flushPara();
  flushList();
  return blocks;
}

function renderTable(rows: string[][]): string {
  // A backslash right before a pipe would escape our escape; elsewhere backslashes are literal text.
  const cell = (t: string): string => t.replace(/\\*\|/g, (m) => `${m.slice(0, -1).replace(/\\/g, '\\\\')}\\|`);
  const row = (r: string[]): string => `| ${r.map(cell).join(' | ')} |`;
  const [head, ...body] = rows;
  return [row(head!), `| ${head!.map(() => '---').join(' | ')} |`, ...body.map(row)].join('\n');
}

export function renderBlock(b: Block): string {
  switch (b.kind) {
    case 'heading':
      return `${'#'.repeat(b.level)} ${b.text.replace(/(\s)(#+)$/, '$1\\$2')}`;
    case 'paragraph':
      return escapeBlockStart(b.text);
    case 'list':
      return b.items.join('\n');
    case 'table':
      return renderTable(b.rows);
    case 'code': {
      const longest = Math.max(2, maxOf(b.lines.flatMap((l) => (l.match(/`+/g) ?? []).map((r) => r.length))));
      const fence = '`'.repeat(longest + 1);
      return [fence, ...b.lines, fence].join('\n');
    }
  }
}
