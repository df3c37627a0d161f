import { isStopword, singular } from '../enrich/text.util';

/**
 * Passage text (chunk Markdown) cut into the units an extractive answer quotes: prose sentences,
 * list items, table rows (read with their header) and code lines, each with its offset in the
 * passage so a citation can point at the member chunk that holds it.
 */

export type SentenceKind = 'prose' | 'item' | 'row' | 'code';

export interface Sentence {
  /** What the answer shows: inline Markdown, links and images reduced to their text. */
  text: string;
  /** Offset of the unit's source line(s) in the passage text. */
  offset: number;
  /** Length of the source slice in the passage text. */
  length: number;
  kind: SentenceKind;
}

/** Words of a question that ask rather than say what is asked about. */
const QUESTION_FILLER = new Set(
  (
    'much many happen happens happened tell know explain describe anything something thing things way ok okay possible ' +
    'get got give gives find kind sort won don isn doesn didn aren wasn weren couldn shouldn wouldn ll ve re'
  ).split(' '),
);

/** Crude stem so "flashing"/"flash", "supplies"/"supply" meet; applied to both sides alike. */
export function stem(word: string): string {
  let w = singular(word.toLowerCase());
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  // "change", "changed" and "changing" all end up as "chang".
  if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

/**
 * Stemmed content words of a text (letters first, >= 2 chars, no stopwords). A compound
 * ("quad-core", "Cortex-A76") counts as itself and as its parts, so "core" meets "Quad-core".
 */
export function terms(text: string): string[] {
  const out: string[] = [];
  const add = (w: string): void => {
    if (w.length < 2 || !/^\p{L}/u.test(w) || isStopword(w) || QUESTION_FILLER.has(w)) return;
    out.push(stem(w));
  };
  for (const m of text.toLowerCase().matchAll(/[\p{L}][\p{L}\p{N}+]*(?:[.\-_][\p{L}\p{N}]+)*/gu)) {
    const w = m[0];
    add(w);
    if (/[-_]/.test(w)) for (const part of w.split(/[-_]+/)) if (part !== w) add(part);
  }
  return out;
}

/** Tokens with a digit or an identifier shape ("5V", "GPIO3_A4", "UART1", "VCC5V0_SYS_S5", "TX"). */
export function identifiers(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}_./-]*[\p{L}\p{N}]|\p{N}/gu)) {
    const t = m[0];
    if (/\d/.test(t) || /^[A-Z][A-Z0-9_]{1,}$/.test(t)) out.add(t.toLowerCase());
  }
  return [...out];
}

/** Inline Markdown for display: images dropped, links and HTML tags reduced to their text. */
export function cleanInline(text: string): string {
  return text
    .replace(/(^|\n)[ \t]*(?:>[ \t]?)+/g, '$1')
    .replace(/!\[[^\]\n]*\]\([^)\n]*\)/g, ' ')
    .replace(/\[([^\]\n]*)\]\([^)\n]*\)/g, '$1')
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<[^>\n]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/ ([.,;:!?])(?=\s|$)/g, '$1')
    .trim();
}

function cells(line: string): string[] {
  const body = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return body.split(/(?<!\\)\|/).map((c) => cleanInline(c));
}

const TABLE_RULE = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;

/**
 * A table row read with its header: "Power: 5V/3A" for a two-column label/value row,
 * "H1: a; H2: b" otherwise (a numbered row, "PIN: 2; PIN definition: GPIOAO-11", keeps its header).
 */
function rowText(row: string[], header: string[] | null): string {
  const filled = row.map((c, i) => ({ c, h: header?.[i] ?? '' })).filter((x) => x.c !== '');
  if (filled.length === 0) return '';
  if (row.length === 2 && row[0] && row[1] && (!header || /\p{L}/u.test(row[0]))) return `${row[0]}: ${row[1]}`;
  if (!header) return filled.map((x) => x.c).join(' · ');
  return filled.map((x) => (x.h ? `${x.h}: ${x.c}` : x.c)).join('; ');
}

/** Splits a prose paragraph at sentence ends followed by a capital, digit or quote. */
function splitProse(paragraph: string, base: number, kind: SentenceKind, out: Sentence[]): void {
  const re = /(?<=[.!?。])\s+(?=[\p{Lu}\p{N}"“(])/gu;
  let from = 0;
  const push = (end: number): void => {
    const raw = paragraph.slice(from, end);
    const text = cleanInline(raw);
    if (text.length >= 3 && /[\p{L}\p{N}]/u.test(text)) out.push({ text, offset: base + from, length: raw.length, kind });
  };
  for (const m of paragraph.matchAll(re)) {
    push(m.index);
    from = m.index + m[0].length;
  }
  push(paragraph.length);
}

/** Cuts chunk Markdown into quotable sentences, in passage order. */
export function splitSentences(markdown: string): Sentence[] {
  const out: Sentence[] = [];
  const lines: { text: string; offset: number }[] = [];
  let at = 0;
  for (const line of markdown.split('\n')) {
    lines.push({ text: line, offset: at });
    at += line.length + 1;
  }
  let fence: string | null = null;
  let header: string[] | null = null;
  let para: { start: number; end: number } | null = null;
  const flush = (): void => {
    if (para) splitProse(markdown.slice(para.start, para.end), para.start, 'prose', out);
    para = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const { text: line, offset } = lines[i]!;
    const trimmed = line.trim();
    const fenceMark = /^(```+|~~~+)/.exec(trimmed)?.[1];
    if (fence !== null) {
      if (fenceMark && fenceMark[0] === fence[0] && fenceMark.length >= fence.length) fence = null;
      else if (trimmed && trimmed.length <= 200) out.push({ text: `\`${trimmed.replace(/`/g, '')}\``, offset, length: line.length, kind: 'code' });
      continue;
    }
    if (fenceMark) {
      flush();
      fence = fenceMark;
      continue;
    }
    if (trimmed === '' || /^#{1,6}\s/.test(trimmed) || /^:::/.test(trimmed) || /^(?:import|export)\s/.test(trimmed) || /^---+$/.test(trimmed)) {
      flush();
      header = null;
      continue;
    }
    if (trimmed.startsWith('|')) {
      flush();
      const next = lines[i + 1]?.text ?? '';
      if (TABLE_RULE.test(trimmed)) continue;
      if (TABLE_RULE.test(next)) {
        header = cells(trimmed);
        continue;
      }
      const text = rowText(cells(trimmed), header);
      if (text) out.push({ text, offset, length: line.length, kind: 'row' });
      continue;
    }
    header = null;
    const item = /^(\s*(?:[-*+]|\d+[.)])\s+)/.exec(line);
    if (item) {
      flush();
      splitProse(line.slice(item[1]!.length), offset + item[1]!.length, 'item', out);
      continue;
    }
    if (para) para.end = offset + line.length;
    else para = { start: offset, end: offset + line.length };
  }
  flush();
  return out;
}
