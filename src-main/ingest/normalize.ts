import MarkdownIt from 'markdown-it';
import type { Block, BlockKind, DocFormat, ParsedDocument } from '../core/document';
import { tableExtent } from './table-rule';

/**
 * Builds the block list of a normalized document from its Markdown text with markdown-it's block
 * tokens (29 MB/s here, 35x faster than remark; see ENVIRONMENT.md). Every parser ends here, so
 * chunking sees one structure whatever the source format was.
 */

/**
 * Block structure only; inline parsing (the costliest core rule) runs on headings alone. The one
 * block parser of the parsers too (`blockTokens`): its rules are set here, below, and nothing
 * changes them later.
 */
const md = new MarkdownIt({ html: true, linkify: false, typographer: false });
md.core.ruler.disable(['inline', 'linkify', 'replacements', 'smartquotes', 'text_join']);
// Tables as one open and one close token, without a token per cell (see table-rule.ts); the
// stock rule's place and the rules it may interrupt are kept.
md.block.ruler.at('table', tableExtent, { alt: ['paragraph', 'reference'] });

const inlineMd = new MarkdownIt({ html: true, linkify: false, typographer: false });

const OPEN_KIND: Record<string, BlockKind> = {
  heading_open: 'heading',
  paragraph_open: 'paragraph',
  bullet_list_open: 'list',
  ordered_list_open: 'list',
  table_open: 'table',
  blockquote_open: 'blockquote',
  fence: 'code',
  code_block: 'code',
  html_block: 'html',
  hr: 'rule',
};

/** YAML front matter at the very start of a text: `---` line, body (group 1), `---` or `...` line. */
export const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

export interface NormalizeInput {
  markdown: string;
  format: DocFormat;
  /** Title chosen by the parser; when absent: front matter title, first H1, then `fallbackTitle`. */
  title?: string | null;
  fallbackTitle: string;
  /** Offsets in `markdown` where each page starts (page 1 first); omit for formats without pages. */
  pageStarts?: number[];
  metadata?: Record<string, string>;
  /** Block tokens the parser already has of the text after the front matter (see `ParsedBody`). */
  parsedBody?: ParsedBody;
}

/**
 * `blockTokens(source)`, made by a parser that needed them anyway (the MDX rewrite looks for
 * indented code). `buildBlocks` uses them instead of parsing again when `source` is the whole text
 * after the front matter and one blank line: blank lines before a text do not change how
 * markdown-it splits it into blocks, only the line numbers, which are shifted.
 */
export interface ParsedBody {
  source: string;
  tokens: BlockTokens;
}

type BlockTokens = ReturnType<MarkdownIt['parse']>;

/** markdown-it's block tokens of `markdown` (no inline parsing), as `buildBlocks` reads them. */
export function blockTokens(markdown: string): BlockTokens {
  return md.parse(markdown, {});
}

function unquote(value: string): string {
  if (value.length >= 2 && ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'")))) {
    return value.slice(1, -1);
  }
  // A plain scalar ends where a ` #` comment starts.
  return value.replace(/\s+#.*$/, '');
}

/**
 * Parses the scalar part of YAML front matter into strings: `key: value` (quoted or plain),
 * block scalars (`key: |` / `key: >`) and lists of scalars (joined with ", "); deeper nesting is
 * skipped. Hand-written because metadata needs only these forms and no YAML library is a dependency.
 */
export function parseFrontMatter(yaml: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = yaml.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const m = /^([A-Za-z_][\w-]*)\s*:(?:\s+(.*))?$/.exec(lines[i]!);
    if (!m) continue;
    const key = m[1]!;
    const raw = (m[2] ?? '').trim();
    const nested: string[] = [];
    while (i + 1 < lines.length && (lines[i + 1]!.trim() === '' || /^\s/.test(lines[i + 1]!))) nested.push(lines[++i]!);
    let value: string;
    if (/^[|>][+-]?\d*$/.test(raw)) {
      const body = nested.map((l) => l.trim());
      value = raw.startsWith('|') ? body.join('\n').trim() : body.filter(Boolean).join(' ');
    } else if (raw === '') {
      const items = nested.map((l) => /^\s*-\s+(.*)$/.exec(l)?.[1]).filter((v): v is string => v !== undefined);
      value = items.length === nested.filter((l) => l.trim()).length ? items.map((v) => unquote(v.trim())).join(', ') : '';
    } else {
      value = unquote(raw).trim();
    }
    if (value) out[key] = value;
  }
  return out;
}

/**
 * Characters with which an inline rule of markdown-it (escape, entity, code, emphasis,
 * strikethrough, link, image, autolink, HTML, line break) or its input normalization can make the
 * inline text differ from the source; a heading without any reads as itself.
 */
const INLINE_MARKUP = /[\\&`*_~[\]!<\n\r\0]/;

/** Heading text as a reader sees it: markdown-it's inline tokens (escapes and entities resolved). */
function headingText(inline: string): string {
  // Most headings are plain words: their single text token is the heading itself, and parsing
  // them inline was a tenth of building the blocks.
  if (!INLINE_MARKUP.test(inline)) return withoutAttributes(inline).replace(/\s+/g, ' ').trim();
  const tokens = inlineMd.parseInline(inline, {})[0]?.children ?? [];
  let text = '';
  for (const t of tokens) {
    if (t.type === 'text' || t.type === 'code_inline') text += t.content;
    else if (t.type === 'image') text += t.children?.map((c) => c.content).join('') ?? '';
    else if (t.type === 'softbreak' || t.type === 'hardbreak') text += ' ';
  }
  return withoutAttributes(text).replace(/\s+/g, ' ').trim();
}

/**
 * A trailing attribute list is markup, not part of a heading's title: the `{#id .class key=value}`
 * of Pandoc, kramdown and markdown-it-attrs, Docusaurus's `{#custom-id}`, docsify's
 * `{docsify-ignore-all}`, Pandoc's `{-}`. A brace group is dropped only when it reads as one: a
 * token with `#`, `.` or `=`, or a single hyphenated word; "Replace {the fuse}" keeps its words.
 */
const HEADING_ATTRIBUTES = /\s*\{([^{}]*)\}\s*$/;
const ATTRIBUTE_TOKEN = /^(?:[#.][\w:-]+|[\w:-]+=(?:"[^"]*"|'[^']*'|[^\s"']+)|:)$/;

function withoutAttributes(heading: string): string {
  const m = heading.match(HEADING_ATTRIBUTES);
  if (!m) return heading;
  const inner = m[1]!.trim();
  const tokens = inner.match(/(?:[^\s"']+(?:=(?:"[^"]*"|'[^']*'))?|"[^"]*"|'[^']*')+/g) ?? [];
  const isList = inner === '-' || /^[a-z][\w]*(?:-[\w]+)+$/i.test(inner) || (tokens.length > 0 && tokens.every((t) => ATTRIBUTE_TOKEN.test(t) || /^[\w-]+$/.test(t)) && tokens.some((t) => ATTRIBUTE_TOKEN.test(t)));
  return isList ? heading.slice(0, m.index) : heading;
}

function lineStartOffsets(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function pageAt(pageStarts: number[] | undefined, offset: number): number | null {
  if (!pageStarts || pageStarts.length === 0) return null;
  let lo = 0;
  let hi = pageStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (pageStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v' || (c !== undefined && c > '\x7f' && /\s/.test(c));

/**
 * Splits Markdown into top-level blocks with heading paths, pages and exact offsets. Blocks cover
 * every non-whitespace character: text markdown-it emits no token for (link reference
 * definitions) becomes a `paragraph` block, so citations can point anywhere.
 */
export function buildBlocks(text: string, pageStarts?: number[], parsedBody?: ParsedBody): { blocks: Block[]; frontMatter: Record<string, string> } {
  const blocks: Block[] = [];
  let frontMatter: Record<string, string> = {};
  let body = text;
  const headingStack: { level: number; text: string }[] = [];
  const path = (): string[] => headingStack.map((h) => h.text);

  const push = (kind: BlockKind, start: number, end: number, level?: number): void => {
    let s = start;
    let e = end;
    while (s < e && isSpace(text[s])) s++;
    while (e > s && isSpace(text[e - 1])) e--;
    if (e <= s) return;
    const headingPath = path();
    const page = pageAt(pageStarts, s);
    const pageEnd = pageAt(pageStarts, e - 1);
    // Two literals with the keys in one order, not a spread of `{ level }`: in a cold profile of
    // the parse worker the spread was most of this function's time.
    blocks.push(level !== undefined ? { kind, level, headingPath, page, pageEnd, start: s, end: e } : { kind, headingPath, page, pageEnd, start: s, end: e });
  };
  /** Text between the previous block and `upTo` that no token covered. */
  const fillGap = (upTo: number): void => {
    const from = blocks.length ? blocks[blocks.length - 1]!.end : 0;
    const gap = text.slice(from, upTo);
    if (!/\S/.test(gap)) return;
    // One block per blank-line-separated piece, as markdown-it would have split paragraphs.
    const sep = /\n[ \t]*\n/g;
    let pieceStart = from;
    for (let m = sep.exec(gap); m; m = sep.exec(gap)) {
      push('paragraph', pieceStart, from + m.index);
      pieceStart = from + m.index + m[0].length;
    }
    push('paragraph', pieceStart, upTo);
  };

  const fm = FRONT_MATTER.exec(text);
  if (fm) {
    frontMatter = parseFrontMatter(fm[1]!);
    push('frontmatter', 0, fm[0].length);
    // Blank the front matter but keep its newlines so markdown-it's line map stays aligned.
    body = fm[0].replace(/[^\n]/g, ' ') + text.slice(fm[0].length);
  }

  const lines = lineStartOffsets(text);
  // The parser's tokens of the body, when the text is the body after the front matter and a blank line.
  const bodyAt = parsedBody ? text.length - parsedBody.source.length - 1 : -1;
  const reuse = parsedBody !== undefined && bodyAt === (fm ? fm[0].length + 1 : 0) && (!fm || text[bodyAt - 1] === '\n') && text.endsWith(`${parsedBody.source}\n`);
  const tokens = reuse ? parsedBody.tokens : md.parse(body, {});
  /** Lines before the tokens' first line. */
  const lineOffset = reuse && fm ? lines.indexOf(bodyAt) : 0;

  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]!;
    if (tok.level !== 0 || !tok.map) continue;
    const kind = OPEN_KIND[tok.type];
    if (!kind) continue;
    const startLine = tok.map[0] + lineOffset;
    const endLine = tok.map[1] + lineOffset;
    const start = lines[startLine]!;
    const end = endLine < lines.length ? lines[endLine]! : text.length;
    const prev = blocks[blocks.length - 1];
    if (prev && start < prev.end) continue; // nested map overlap (does not happen at level 0)
    fillGap(start);
    let level: number | undefined;
    if (kind === 'heading') {
      level = Number(tok.tag.slice(1));
      const own = headingText(tokens[i + 1]?.content ?? '');
      while (headingStack.length > 0 && headingStack[headingStack.length - 1]!.level >= level) headingStack.pop();
      headingStack.push({ level, text: own });
    }
    push(kind, start, end, level);
  }
  fillGap(text.length);
  return { blocks, frontMatter };
}

/** `\r\n` and lone `\r` become `\n` (markdown-it counts lines that way); page offsets follow. */
function normalizeNewlines(text: string, pageStarts?: number[]): { text: string; pageStarts?: number[] } {
  if (!text.includes('\r')) return pageStarts ? { text, pageStarts } : { text };
  // removedBefore[i] = characters removed before original offset i (only `\r` of `\r\n` pairs).
  const out: string[] = [];
  const removedAt: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\r') {
      if (text[i + 1] === '\n') {
        removedAt.push(i);
        continue;
      }
      out.push('\n');
    } else out.push(c);
  }
  if (!pageStarts) return { text: out.join('') };
  let k = 0;
  const mapped = pageStarts.map((p) => {
    while (k < removedAt.length && removedAt[k]! < p) k++;
    return p - k;
  });
  return { text: out.join(''), pageStarts: mapped };
}

/** Turns a parser's Markdown into a ParsedDocument with blocks, title and metadata. */
export function normalizeMarkdown(input: NormalizeInput): ParsedDocument {
  const { text, pageStarts } = normalizeNewlines(input.markdown, input.pageStarts);
  const { blocks, frontMatter } = buildBlocks(text, pageStarts, input.parsedBody);
  const metadata = { ...frontMatter, ...(input.metadata ?? {}) };
  const firstH1 = blocks.find((b) => b.kind === 'heading' && b.level === 1);
  const title =
    input.title?.trim() ||
    metadata['title']?.trim() ||
    (firstH1 ? firstH1.headingPath[firstH1.headingPath.length - 1] : undefined) ||
    input.fallbackTitle;
  return {
    title,
    format: input.format,
    text,
    blocks,
    pageCount: pageStarts ? pageStarts.length : null,
    metadata,
  };
}
