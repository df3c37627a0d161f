import { createRequire } from 'node:module';
import type MarkdownIt from 'markdown-it';
import { MD_IMAGE, MD_LINK, markdownRowCells } from '../core/text';
import { CALLOUT, cleanInline } from './inline-text';
import { isStepOfSteps, isTitleLine, opensAsInstruction } from './title-lines';
import { rowText } from './table-rows';

export { cleanInline } from './inline-text';
export { identifiers, stem, terms } from './text-terms';

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
  /** The nearest heading above the unit inside the passage (cleaned), or null. */
  heading: string | null;
  /** Consecutive list items / table rows, or the lines of one code block, share a block number; prose has -1. */
  block: number;
  /** A short unpunctuated line of its own, read as the title of what follows (it may still be a menu path worth quoting). */
  title?: boolean;
  /**
   * The block a sentence stands for: the list, table or code right after a sentence ending in ":"
   * (or "：") or pointing forward ("the following code", "following will teach you how to fix
   * it"; see `FORWARD_LIST_REF` for lists and tables), or the code right before one pointing back
   * ("the above URL"); for a list item ending in ":", the items indented under it.
   */
  opens?: number;
  /** For a table row: what the row is about (its first cell, when it has letters), which a question may name. */
  label?: string;
  /** Sentences of one prose paragraph or of one list item share this number (unique in the passage). */
  para?: number;
  /** For the sentences of an ordered list item, its number ("4." of "4. ISP (take CH592 as example)"). */
  ordinal?: number;
  /** The opening sentence of a tip or warning box (docsify's "?>" / "!>" paragraphs): a side remark. */
  aside?: boolean;
}

function cells(line: string): string[] {
  return markdownRowCells(line).map((c) => cleanInline(c));
}

/**
 * A table row whose first cell a span left empty ("| | Multi-Die SiP | -30 | 85 | °C |" under
 * "| Temperature | Main Die | -30 | 105 | °C |"), with that cell of the row above: read alone, its
 * values said not what they measure. Only when the two rows fill the same cells but the first (a
 * PDF converter's table that splits one row's text over several rows fills them unlike).
 */
function spanned(row: string[], above: readonly string[] | null): string[] {
  if (!above || row.length !== above.length || row.length < 3 || row[0] !== '' || above[0] === '') return row;
  const same = row.every((c, i) => i === 0 || (c === '') === (above[i] === ''));
  return same ? [above[0]!, ...row.slice(1)] : row;
}

const TABLE_RULE = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;

/**
 * Splits a prose paragraph at sentence ends followed by a capital, digit or quote. A full stop
 * right after a bare one- or two-digit number is an entry's number ("1. Adj 2. Output 3. Input",
 * "Figure 7. Typical Application"), not a sentence end: cut there, the entries came apart and the
 * first lost its number. A sentence that does end in such a number stays with the next one, as
 * its paragraph would be quoted anyway.
 */
function splitProse(paragraph: string, base: number, kind: SentenceKind, out: Sentence[], para: number, heading: string | null = null, block = -1): void {
  const re = /(?<=[.!?。])(?<!(?:^|\s)\d{1,2}\.)\s+(?=[\p{Lu}\p{N}"“(])/gu;
  // Brackets open before each character: a cut inside a remark that closes later in the paragraph
  // ("(The default rate can be chosen. In special cases try 115200).") would quote half of it.
  const depth = [0];
  for (let k = 0; k < paragraph.length; k++) {
    const c = paragraph[k]!;
    depth.push(depth[k]! + (BRACKET_OPEN.test(c) ? 1 : BRACKET_CLOSE.test(c) ? -1 : 0));
  }
  let from = 0;
  const marks = emphasisAround(paragraph);
  const push = (end: number): void => {
    const raw = paragraph.slice(from, end);
    // Cut from a paragraph set in emphasis as a whole, a sentence holds one of its marks at most,
    // which alone shows as its character: the sentences are quoted plain, as their words.
    const cut = marks > 0 && (from > 0 || end < paragraph.length);
    const own = cut ? paragraph.slice(from === 0 ? paragraph.length - paragraph.trimStart().length + marks : from, end === paragraph.length ? paragraph.trimEnd().length - marks : end) : raw;
    const text = cleanInline(own);
    if (text.length >= 3 && /[\p{L}\p{N}]/u.test(text) && !isMarkup(text) && !isLinkBar(raw) && !CUT_OFF.test(text)) out.push({ text, offset: base + from, length: raw.length, kind, heading, block, para });
  };
  for (const m of paragraph.matchAll(re)) {
    const inside = depth[m.index]! - depth[from]!;
    if (inside > 0 && depth[paragraph.length]! - depth[m.index]! < 0) continue;
    push(m.index);
    from = m.index + m[0].length;
  }
  push(paragraph.length);
}

let inlineMd: MarkdownIt | null = null;

/**
 * markdown-it's inline parser, loaded on first use: a search quotes nothing, and the CLI's one-shot
 * search must not load the parsers (tests/cli/startup.test.ts). A synchronous require keeps the
 * sentence splitting synchronous, as the tagger's load does.
 */
function inlineParser(): MarkdownIt {
  if (!inlineMd) {
    const require = createRequire(import.meta.url);
    const Parser = require('markdown-it') as typeof MarkdownIt;
    inlineMd = new Parser();
  }
  return inlineMd;
}

/**
 * How many emphasis marks stand at each end of a paragraph set in emphasis as a whole ("*Ever
 * wanted ... productilization.*": 1), read as a Markdown renderer reads them: two spans, "**Port
 * A** is I2C. Port B is **UART**", are no such paragraph (0).
 */
function emphasisAround(paragraph: string): number {
  if (!/^\s*[*_]/.test(paragraph) || !/[*_]\s*$/.test(paragraph)) return 0;
  const tokens = inlineParser().parseInline(paragraph.trim(), {})[0]?.children ?? [];
  let marks = 0;
  for (let outer = 0; outer < tokens.length / 2; outer++) {
    const t = tokens[outer]!;
    const last = tokens.length - 1 - outer;
    if (t.type !== 'em_open' && t.type !== 'strong_open') break;
    // The span opened here must close at the paragraph's end, not before.
    let level = 0;
    let k = outer;
    for (; k <= last; k++) {
      level += tokens[k]!.nesting;
      if (level === 0) break;
    }
    if (k !== last) break;
    marks += t.markup.length;
  }
  return marks;
}

/** Brackets, half and full width (one UTF-16 unit each). */
const BRACKET_OPEN = /[([（［]/;
const BRACKET_CLOSE = /[)\]）］]/;

/**
 * Text that stops right after an opening bracket ("- Adjustable Pin Current (", a chart's axis
 * label a PDF converter cut from its unit "μA)" on the next line): a piece of text, never a line
 * to quote.
 */
const CUT_OFF = /[([{]$/;

/** A heading with more words than this, or one that ends a sentence, is body text a converter marked as a heading. */
const HEADING_WORDS = 12;

/**
 * A heading line that no title has: an equation ("VO = 1.25 V (1 + R2 / R1)") or numbered
 * entries run together ("1. Adj 2. Output 3. Input", a pin-out figure's legend). A PDF
 * converter sets them as headings from their font size; they are the figure's text.
 */
const EQUATION_OR_ENTRIES = /[\p{L}\p{N})]\s*=\s*[\p{L}\p{N}(-]|(?:^|\s)\d{1,2}\.\s+\S[^]*\s\d{1,2}\.\s+\S/u;

/**
 * A short remark in brackets closing a heading ("(Only for models with COMPONENT IN / AV IN)"): at
 * most ten words and no clause punctuation. A longer one, or one with a comma ("(about two seconds,
 * until the LED blinks)"), goes on with the line's own sentence.
 */
const HEADING_REMARK = /(?<=\S)\s*\(\s*[^(),;:\s]+(?:\s+[^(),;:\s]+){0,9}\s*\)$/u;

function isTextHeading(text: string): boolean {
  const t = text.trim();
  // A short remark closing a heading qualifies it ("Connecting with a component cable (Only for
  // models with COMPONENT IN / AV IN)"): the heading's own words are those before it. Not after an
  // instruction ("Hold the BOOT button and plug in the USB cable (about two seconds)"): a step a
  // converter set as a heading is quoted as a step, its remark with it.
  const own = opensAsInstruction(t) ? t : t.replace(HEADING_REMARK, '');
  return own.split(/\s+/).length > HEADING_WORDS || (/[.!?。]$/.test(t) && t.split(/\s+/).length > 3) || EQUATION_OR_ENTRIES.test(t);
}

/**
 * A paragraph ending in the first few words of a sentence ("... select Change order. The"): a PDF
 * converter cut the sentence and set its rest as the next paragraph ("Change order highlight
 * appears."). The sentence end before them says the paragraph is prose, not a title or menu path;
 * more words are a finished sentence that lost its full stop; "Figure 7." is an entry's number, "e.g." an abbreviation, a lone "NOTE" a label.
 */
const CUT_SENTENCE = /(?<!(?:^|\s)\d{1,2}\.)(?<!(?:^|\P{L})\p{L}\.\p{L}\.)(?<=[.!?。])\s+(?!\p{Lu}{2,}$)\p{Lu}[\p{L}\p{N}'’/+-]*(?:\s+[\p{L}\p{N}][\p{L}\p{N}'’/+-]*){0,2}$/u;

/** Whether the blank lines from line `i` on cut such a sentence, read whole: the next paragraph is prose that carries it on, not a title ("Universal Guide") or a block. */
function cutAcrossBlank(lines: readonly { text: string }[], i: number, paragraph: string): boolean {
  if (!CUT_SENTENCE.test(paragraph.trimEnd())) return false;
  let k = i;
  while (k < lines.length && lines[k]!.text.trim() === '') k++;
  const next: string[] = [];
  for (; k < lines.length && lines[k]!.text.trim() !== ''; k++) next.push(lines[k]!.text);
  return next.length > 0 && !/^(?:#|\||[-*+]\s|\d+[.)]\s|```|~~~|<|!\[|:::)/.test(next[0]!.trim()) && !isTitleLine(next.join('\n'));
}

/** Text left after markup is removed that is still markup: JSX props, front matter keys, braces, script statements; or a table-of-contents entry (dot leaders). */
function isMarkup(text: string): boolean {
  return /(?:\.\s?){5,}/.test(text) || /^[{}()[\]/<>=;,.\s]*$/.test(text) || /^\{\/\*.*\*\/\}$/.test(text) || /^[\w-]+=["{]/.test(text) || SCRIPT_LINE.test(text);
}

/**
 * A page's navigation bar: two links or more and nothing else but emphasis, emoji (":memo:"),
 * images, tags and separators ("**[Description](#Description)** · **[Example](#Example)**").
 */
function isLinkBar(raw: string): boolean {
  if ((raw.match(MD_LINK) ?? []).length < 2) return false;
  const rest = raw
    .replace(MD_IMAGE, ' ')
    .replace(MD_LINK, ' ')
    .replace(/<[^>\n]*>|&[a-z]+;|:[a-z0-9_+-]+:/g, ' ')
    .replace(/\p{Extended_Pictographic}/gu, ' ');
  return !/[\p{L}\p{N}]/u.test(rest);
}

/** A script statement a page embeds outside a code block ("var purchase_link = '...';"). */
const SCRIPT_LINE = /^(?:var|let|const)\s+[\w$]+\s*=|^function\s+[\w$]+\s*\(/;

/** A line that is JSX/HTML structure only (`<Tabs>`, `<TabItem value="x">`, `</div>`, `<img ...>`). */
const TAG_LINE = /^(?:<\/?[A-Za-z][^>]*>\s*)+$|^<\/?[A-Za-z][\w.]*(?:\s[^>]*)?$|^\/?>$|^\{\/\*.*\*\/\}$/;

/** A YAML key line ("sidebar_position: 20", "title: Power"), an indented continuation or a YAML list item. */
const YAML_LINE = /^(?:[A-Za-z_][\w-]*:(?:\s.*)?|\s+\S.*|-\s.*)$/;

/**
 * The index of the closing "---" of a front matter block opening at line `i` (a "---" line after
 * a blank line or at the start, then only YAML key lines, at least one starting a key), else -1.
 */
function frontMatterEnd(lines: readonly { text: string }[], i: number): number {
  if (!/^---\s*$/.test(lines[i]!.text) || (i > 0 && lines[i - 1]!.text.trim() !== '')) return -1;
  for (let k = i + 1; k < lines.length; k++) {
    const t = lines[k]!.text;
    if (/^(?:---|\.\.\.)\s*$/.test(t)) return k > i + 1 && /^[A-Za-z_]/.test(lines[i + 1]!.text) ? k : -1;
    if (!YAML_LINE.test(t)) return -1;
  }
  return -1;
}

/** An indented line of text that continues the list item above it (not a nested item, table, fence or tag). */
function isContinuation(line: string): boolean {
  return /^\s{2,}\S/.test(line) && !/^\s*(?:[-*+]|\d+[.)])\s/.test(line) && !/^\s*(?:\||```|~~~|<|#)/.test(line);
}

/** A sentence pointing at code after it ("the following code", "run the command below"). */
const FORWARD_REF = /\b(?:following|below)\b/i;
/**
 * A sentence pointing at a list or table after it: "the following", "as follows", "following
 * will teach you", "the steps below", or "below" ending the sentence ("... are listed below.").
 * "Below" alone is as often a place ("The reset button is below the USB port."), and "following"
 * a preposition ("following the update"), which must not take the next list as theirs.
 */
const FORWARD_LIST_REF =
  /\b(?:the following|as follows|following (?:is|are|will|shows?|lists?|steps?|table|items?))\b|\b(?:steps?|tables?|lists?|figures?|instructions?|items?|options?|settings?)(?: (?:shown|listed|given|described))? below\b|\bbelow[*_]*[:：.]?[*_]*$/i;
/**
 * A line that is all emphasis and no sentence ("**Low Charging Current**", "**HY2.0-4P-PortA(Red)**"):
 * set right before a list, table or code, it is their label, as a line ending in ":" is.
 */
const BOLD_LABEL = /^(?:\*\*|__)[^*_]+(?:\*\*|__)$/;
/** A sentence pointing at what came before it ("the above URL"). */
const BACK_REF = /\babove\b/i;

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
  // The table row before, for a row whose first cell a span left empty (see `spanned`).
  let lastRow: string[] | null = null;
  let para: { start: number; end: number } | null = null;
  let heading: string | null = null;
  // Units emitted when the heading was last set: a title right under a heading or title (nothing
  // quoted between) is its sub-title, so both stay ("Establishing a wired connection" then the
  // menu path "Settings General Network Wired"): the lines under them are about both.
  let headingAt = -1;
  // The heading a sub-title was added to, while the heading has one (else null): one more title
  // in a row replaces the sub-title, so a run of short lines (a remote's legend left as text by
  // a PDF converter: "Volume Up", "Volume Down", "Input Select", ...) never chains into one heading.
  let parent: string | null = null;
  let block = -1;
  let blocks = 0;
  let paras = 0;
  let inBlock: 'item' | 'row' | 'code' | null = null;
  // Inside a list, the items nested under an item that opens them (see the item branch below):
  // the outer list's block, and the indent of the item that opens them.
  let nest: { outer: number; indent: number } | null = null;
  let itemIndent = -1;
  const openBlock = (kind: 'item' | 'row' | 'code'): number => {
    if (inBlock !== kind) {
      block = blocks++;
      inBlock = kind;
      nest = null;
      itemIndent = -1;
      // A lead sentence ending in ":" just before this block introduces it; so does one that
      // points forward ("copy the following code into platform.ini", "Following will teach you
      // how to fix the PCB" before the steps), for a list or table only in so many words.
      const last = out[out.length - 1];
      if (last && last.kind === 'prose' && (/[:：][*_]*$/.test(last.text) || BOLD_LABEL.test(last.text) || (kind === 'code' ? FORWARD_REF : FORWARD_LIST_REF).test(last.text))) last.opens = block;
    }
    return block;
  };

  const flush = (): void => {
    if (para) {
      const raw = markdown.slice(para.start, para.end);
      const before = out.length;
      splitProse(raw, para.start, 'prose', out, paras++, heading);
      // A docsify tip or warning box ("?> ...", "!> ...") opens with a side remark; the marks are not
      // shown. Only its first sentence: a box goes on to state facts that answer ("... when using
      // USB power supply, it cannot be shut down." after "Warning: Do not expose to ultraviolet rays").
      if (CALLOUT.test(raw) && out[before]) out[before].aside = true;
      // A short unpunctuated line of its own is a title the converter left as text (manuals made
      // from PDF): what follows is under it, as under a heading.
      if (isTitleLine(raw) && !isStepOfSteps(raw, out[before - 1], heading)) {
        const title = cleanInline(raw);
        if (heading !== null && headingAt === before) {
          parent ??= heading;
          heading = `${parent} › ${title}`;
        } else {
          heading = title;
          parent = null;
        }
        headingAt = out.length;
        for (const u of out.slice(before)) u.title = true;
      }
    }
    para = null;
  };
  // Front matter at the start of a passage is metadata, never an answer; so is a later member's
  // front matter inside a merged unit ("---", "key: value" lines, "---").
  let i0 = 0;
  if (/^---\s*$/.test(lines[0]?.text ?? '')) {
    const end = lines.findIndex((l, k) => k > 0 && /^(?:---|\.\.\.)\s*$/.test(l.text));
    if (end > 0) i0 = end + 1;
  }
  // The paragraph read from a text heading is unfinished: blank lines do not end it.
  let runOn = false;
  for (let i = i0; i < lines.length; i++) {
    const metaEnd = fence === null ? frontMatterEnd(lines, i) : -1;
    if (metaEnd > i) {
      flush();
      header = null;
      lastRow = null;
      inBlock = null;
      i = metaEnd;
      continue;
    }
    const { text: line, offset } = lines[i]!;
    const trimmed = line.trim();
    if (trimmed !== '' && !/^#{1,6}\s/.test(trimmed)) {
      if (runOn && para && !/^[\p{Ll}\p{N}(]/u.test(trimmed)) flush();
      runOn = false;
    }
    if (fence === null && trimmed !== '' && !trimmed.startsWith('|') && TAG_LINE.test(trimmed)) {
      flush();
      continue;
    }
    const fenceMark = /^(```+|~~~+)/.exec(trimmed)?.[1];
    if (fence !== null) {
      if (fenceMark && fenceMark[0] === fence[0] && fenceMark.length >= fence.length) {
        fence = null;
        inBlock = null;
      } else if (trimmed && trimmed.length <= 200) out.push({ text: `\`${trimmed.replace(/`/g, '')}\``, offset, length: line.length, kind: 'code', heading, block: openBlock('code') });
      continue;
    }
    if (fenceMark) {
      flush();
      fence = fenceMark;
      inBlock = null;
      continue;
    }

    const h = /^#{1,6}\s+(.*)$/.exec(trimmed);
    if (h && isTextHeading(h[1]!)) {
      // A PDF converter's "heading" that is a line of body text: read it as text, and let an
      // unfinished one run on into the next line as one paragraph.
      if (para) para.end = offset + line.length;
      else para = { start: offset, end: offset + line.length };
      runOn = !/[.!?。]$/.test(h[1]!.trim());
      continue;
    }
    if (h) {
      flush();
      runOn = false;
      header = null;
      lastRow = null;
      inBlock = null;
      const named = cleanInline(h[1]!.replace(/\s*\{#[^}]*\}\s*$/, ''));
      if (named) {
        heading = named;
        parent = null;
      }
      headingAt = out.length;
      continue;
    }
    if (trimmed === '') {
      if (runOn && para) continue;
      if (para && cutAcrossBlank(lines, i, markdown.slice(para.start, para.end))) continue;
      // A blank line between items of one list keeps the list; anything else ends it below.
      flush();
      header = null;
      lastRow = null;
      continue;
    }
    if (/^:::/.test(trimmed) || /^(?:import|export)\s/.test(trimmed) || /^---+$/.test(trimmed)) {
      flush();
      header = null;
      lastRow = null;
      inBlock = null;
      continue;
    }
    if (trimmed.startsWith('|')) {
      flush();
      const next = lines[i + 1]?.text ?? '';
      if (TABLE_RULE.test(trimmed)) continue;
      if (TABLE_RULE.test(next)) {
        inBlock = null;
        header = cells(trimmed);
        lastRow = null;
        continue;
      }
      const row = spanned(cells(trimmed), lastRow);
      lastRow = row;
      const text = rowText(row, header);
      const label = row.length >= 2 && /\p{L}/u.test(row[0] ?? '') ? row[0]! : null;
      if (text && !isMarkup(text)) out.push({ text, offset, length: line.length, kind: 'row', heading, block: openBlock('row'), ...(label ? { label } : {}) });
      continue;
    }
    header = null;
    lastRow = null;
    const item = /^(\s*(?:[-*+]|\d+[.)])\s+)/.exec(line);
    if (item) {
      flush();
      // Indented lines under an item continue it ("- **V1.73:**" then "  Optimize the ...").
      let end = i;
      while (end + 1 < lines.length && isContinuation(lines[end + 1]!.text)) end++;
      const last = lines[end]!;
      const from = offset + item[1]!.length;
      const first = out.length;
      // Items indented under an item that ends in ":" ("Tap Use One-handed mode and select one of
      // the following options:", then "   - Gesture: ...") are the list it opens; the items after
      // them at its indent go on with the outer list.
      const indent = /^\s*/.exec(item[1]!)![0].length;
      if (nest && indent <= nest.indent) {
        block = nest.outer;
        nest = null;
      }
      let own = openBlock('item');
      const parent = out[out.length - 1];
      if (!nest && itemIndent >= 0 && indent > itemIndent && parent?.kind === 'item' && parent.block === own && /[:：][*_]*$/.test(parent.text)) {
        nest = { outer: own, indent: itemIndent };
        own = block = blocks++;
        parent.opens = own;
      }
      if (!nest || indent <= nest.indent) itemIndent = indent;
      splitProse(markdown.slice(from, last.offset + last.text.length), from, 'item', out, paras++, heading, own);
      const ordinal = /\d+/.exec(item[1]!);
      if (ordinal) for (const u of out.slice(first)) u.ordinal = Number(ordinal[0]);
      i = end;
      continue;
    }
    inBlock = null;
    if (para) para.end = offset + line.length;
    else para = { start: offset, end: offset + line.length };
  }
  flush();
  // The sentence right after a code block that points back at it ("Add the above board manager
  // URL to the preferences") stands for it, as a lead sentence does for what follows it.
  out.forEach((u, k) => {
    const prev = out[k - 1];
    if (prev?.kind === 'code' && u.kind !== 'code' && u.opens === undefined && BACK_REF.test(u.text)) u.opens = prev.block;
  });
  return out;
}
