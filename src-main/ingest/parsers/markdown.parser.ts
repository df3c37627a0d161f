import { FRONT_MATTER, blockTokens, normalizeMarkdown, type ParsedBody } from '../normalize';
import { escapeMarkdownText } from './html-to-markdown';
import { convertTables } from './markdown-tables';
import type { ParseInput, ParseResult, Parser } from './parser';
import { checkNesting } from './limits';
import { NO_TEXT_FAILURE, baseTitle, cleanText, extensionOf, parseText } from './sniff';

/**
 * Markdown, GFM and MDX (Docusaurus) pages. MDX syntax has no Markdown meaning and would be
 * indexed as noise, so it is rewritten into plain Markdown before normalization: ESM
 * `import`/`export` statements and `{/* comments *\/}` are dropped, JSX component tags are removed
 * with their children kept and their string attributes kept as text (`i2c_overlay_name: I2C8-M2`
 * stays searchable), and embedded HTML `<table>`s become GFM tables. Fenced code is never touched.
 * The rewrite is hand-written: the MDX compiler is not a dependency, turns a page into a
 * JavaScript program rather than text, and rejects pages with any JSX syntax error; these line
 * and tag rules cover what the real pages (radxa-docs) use.
 */

/** What `transformMarkdown` did, for diagnostics over a corpus. */
export interface MarkdownTransform {
  markdown: string;
  /** True when MDX syntax was seen (or the file is `.mdx`) and the JSX rules were applied. */
  mdx: boolean;
  /** Sentences describing odd input (unclosed fence, unterminated ESM, unconverted table). */
  warnings: string[];
  /** Block tokens of `markdown` after its front matter, when the rewrite parsed it (for `normalizeMarkdown`). */
  parsedBody?: ParsedBody;
}

interface Segment {
  code: boolean;
  text: string;
}

/** Width of a line's leading whitespace in columns (tabs to the next multiple of 4). */
export function indentWidth(line: string): number {
  let w = 0;
  for (const c of line) {
    if (c === ' ') w++;
    else if (c === '\t') w += 4 - (w % 4);
    else break;
  }
  return w;
}

/** Removes up to `cols` columns of leading whitespace. */
function dedentLine(line: string, cols: number): string {
  let w = 0;
  let k = 0;
  while (k < line.length && w < cols && (line[k] === ' ' || line[k] === '\t')) {
    w += line[k] === ' ' ? 1 : 4 - (w % 4);
    k++;
  }
  return line.slice(k);
}

const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})(.*)$/;

/** Splits text into fenced-code segments (kept verbatim) and prose segments. */
function splitFences(text: string, warnings: string[]): Segment[] {
  const segments: Segment[] = [];
  const lines = text.split('\n');
  let prose: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const open = FENCE_OPEN.exec(lines[i]!);
    if (!open || (open[1]![0] === '`' && open[2]!.includes('`'))) {
      prose.push(lines[i]!);
      i++;
      continue;
    }
    const marker = open[1]!;
    const close = new RegExp(`^[ \\t]*${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`);
    let j = i + 1;
    while (j < lines.length && !close.test(lines[j]!)) j++;
    if (j >= lines.length) warnings.push(`A code fence opened on line ${i + 1} is never closed.`);
    if (prose.length) segments.push({ code: false, text: prose.join('\n') });
    prose = [];
    segments.push({ code: true, text: lines.slice(i, Math.min(j + 1, lines.length)).join('\n') });
    i = j + 1;
  }
  segments.push({ code: false, text: prose.join('\n') });
  return segments;
}

const IMPORT_START = /^import(?:\s+[\w$*{]|\s*\{|\s*['"])/;
/** JavaScript `export` forms only, so a sentence such as "export default settings first" stays. */
const EXPORT_START =
  /^export\s+(?:default\s+(?:(?:async\s+)?function\b|class\b|[({[]|[\w$.]+\s*;?\s*$)|(?:const|let|var)\s+[\w${[]|(?:async\s+)?function\b|class\s+[\w$]|\{|\*\s)/;

/**
 * Net bracket depth change of one line of JavaScript, skipping string literals and `//` comments.
 * `inTemplate` carries an open template literal across lines.
 */
function bracketDelta(line: string, state: { inTemplate: boolean }): number {
  let depth = 0;
  let quote: string | null = state.inTemplate ? '`' : null;
  for (let k = 0; k < line.length; k++) {
    const c = line[k]!;
    if (quote) {
      if (c === '\\') k++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '/' && line[k + 1] === '/') break;
    else if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') depth--;
  }
  state.inTemplate = quote === '`';
  return depth;
}

/** Longest ESM statement looked for (lines); keeps unbalanced input from costing quadratic time. */
const MAX_ESM_LINES = 400;

/** Drops MDX ESM statements that start a block at column 0; returns how many were dropped. */
function dropEsm(lines: string[], warnings: string[]): number {
  let dropped = 0;
  let i = 0;
  let prevBlank = true;
  while (i < lines.length) {
    const line = lines[i]!;
    const isImport = IMPORT_START.test(line);
    if (prevBlank && (isImport || EXPORT_START.test(line))) {
      const state = { inTemplate: false };
      let depth = 0;
      let j = i;
      const limit = Math.min(lines.length, i + MAX_ESM_LINES);
      for (; j < limit; j++) {
        depth += bracketDelta(lines[j]!, state);
        if (depth <= 0 && !state.inTemplate) break;
      }
      let end = j;
      if (j >= limit) {
        // Unbalanced: MDX would fail here too; drop the paragraph only, never the rest of the page.
        end = i;
        while (end + 1 < lines.length && lines[end + 1]!.trim() !== '') end++;
        warnings.push(`An MDX ${isImport ? 'import' : 'export'} statement on a line starting "${line.slice(0, 40)}" is not terminated.`);
      }
      const statement = lines.slice(i, end + 1).join('\n');
      if (!isImport || /\bfrom\s*['"]|^import\s*['"]/.test(statement)) {
        lines.splice(i, end + 1 - i);
        dropped++;
        prevBlank = true;
        continue;
      }
    }
    prevBlank = line.trim() === '';
    i++;
  }
  return dropped;
}

/**
 * Removes every `open ... close` region (comments). An unclosed opener is left as text; scanning
 * with sticky positions keeps this linear where a lazy `[\s\S]*?` regex is quadratic on
 * unclosed comments.
 */
function removeDelimited(text: string, open: RegExp, close: RegExp): string {
  const out: string[] = [];
  let pos = 0;
  for (;;) {
    open.lastIndex = pos;
    const o = open.exec(text);
    if (!o) break;
    close.lastIndex = o.index + o[0].length;
    const c = close.exec(text);
    if (!c) break;
    out.push(text.slice(pos, o.index));
    pos = c.index + c[0].length;
  }
  out.push(text.slice(pos));
  return out.join('');
}

/** Inline code spans are protected from tag and comment rules by swapping them for placeholders. */
function maskInlineCode(text: string, store: string[]): string {
  return text.replace(/(`+)(?!`)((?:[^`\n]|\n(?![ \t]*\n)|`(?!\1))+?)\1(?!`)/g, (m) => {
    store.push(m);
    return `\u0000${store.length - 1}\u0000`;
  });
}

function unmask(text: string, store: string[]): string {
  // NUL cannot occur in the text (cleanText removes it), so it safely delimits placeholders.
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u0000(\d+)\u0000/g, (_m, n: string) => store[Number(n)] ?? '');
}

// A JSX expression value with up to three levels of nested braces: style={{ a: { b: 1 } }}.
const EXPR = String.raw`\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}`;
const ATTR = String.raw`\s+(?:[A-Za-z_:][\w:.-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|${EXPR}))?|${EXPR})`;
/** JSX component tags (capitalised names), closing tags, fragments, and `<details>`/`<summary>`. */
const JSX_TAG = new RegExp(
  String.raw`<([A-Z][\w.]*)((?:${ATTR})*)\s*(/?)>|</([A-Z][\w.]*)\s*>|<>|</>|</?summary\b[^<>]{0,500}>|</?details\b[^<>]{0,500}>`,
  'g',
);
const EXPR_RE = new RegExp(EXPR, 'g');
const STRING_ATTR = /([A-Za-z_:][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** Attributes that only style or wire up a component; their values are not document content. */
const SKIPPED_ATTRS = new Set(['type', 'classname', 'class', 'id', 'key', 'style', 'default', 'groupid', 'querystring', 'width', 'height', 'align', 'src', 'href', 'to', 'target', 'rel']);
/** Attributes whose value is a visible caption: emitted bare (a tab's label names the variant). */
const LABEL_ATTRS = new Set(['label', 'title', 'summary', 'alt']);
const ASSET_PATH = /\.(?:png|jpe?g|gif|webp|svg|bmp|ico|mp4|webm)(?:[?#].*)?$/i;
/**
 * A value that is where a link of the component goes inside the docs site
 * (`flash_by_rkdevtool="../../maskrom/windows"`): the page it points to has the content. An
 * absolute path stays (as often a device node the reader types: `spidev="/dev/spidev0.0"`), and
 * so does a URL (`download_url="https://…/image.img.xz"`: a file the reader may want).
 */
const LINK_TARGET = /^\.{1,2}\//;

/** Text kept from a component's attributes: `label` values bare, other strings as `key: value`. */
export function attributesAsText(attrs: string): string {
  const plain = attrs.replace(EXPR_RE, ' ');
  const found: { key: string; value: string }[] = [];
  for (const m of plain.matchAll(STRING_ATTR)) found.push({ key: m[1]!, value: (m[2] ?? m[3] ?? '').trim() });
  const hasLabel = found.some((a) => a.key.toLowerCase() === 'label');
  const parts: string[] = [];
  for (const { key, value } of found) {
    const k = key.toLowerCase();
    if (!value || SKIPPED_ATTRS.has(k) || ASSET_PATH.test(value) || LINK_TARGET.test(value)) continue;
    // Docusaurus shows a TabItem's `value` when it has no `label`, so it is a caption then.
    if (k === 'value') {
      if (!hasLabel) parts.push(value);
      continue;
    }
    parts.push(LABEL_ATTRS.has(k) ? value : `${key}: ${value}`);
  }
  return parts.join('; ');
}

// MDX-only syntax inside HTML tags (`style={{...}}`, `className=`) and `{" "}` spacers.
const LOWER_TAG = new RegExp(String.raw`<([a-z][\w-]*)((?:${ATTR})*)(\s*/?)>`, 'g');
const EXPR_ATTR = new RegExp(String.raw`\s+(?:[A-Za-z_:][\w:.-]*\s*=\s*)?${EXPR}`, 'g');

function stripJsxFromHtml(text: string): string {
  return text
    .replace(LOWER_TAG, (_m, name: string, attrs: string, end: string) => `<${name}${attrs.replace(EXPR_ATTR, '').replace(/\bclassName=/g, 'class=')}${end}>`)
    .replace(/\{\s*(?:"\s*"|'\s*')\s*\}/g, ' ');
}

/** True when only spaces/tabs lie between `from` and the line's start (`dir` -1) or end (`dir` 1). */
function blankTo(text: string, from: number, dir: 1 | -1): boolean {
  for (let k = dir === 1 ? from : from - 1; k >= 0 && k < text.length; k += dir) {
    const c = text[k];
    if (c === '\n') return true;
    if (c !== ' ' && c !== '\t') return false;
  }
  return true;
}

function rewriteTags(text: string, mdx: boolean): string {
  if (mdx) text = stripJsxFromHtml(text);
  return text.replace(JSX_TAG, (match, openName: string | undefined, attrs: string | undefined, _selfClose, closeName: string | undefined, offset: number) => {
    if (!mdx && (openName !== undefined || closeName !== undefined || match === '<>' || match === '</>')) return match;
    // A summary is the visible caption of a <details> block: keep it, in bold.
    if (/^<\/?summary/.test(match)) return '**';
    const replacement = openName !== undefined && attrs ? attributesAsText(attrs) : '';
    const wholeLine = blankTo(text, offset, -1) && blankTo(text, offset + match.length, 1);
    if (!wholeLine) return replacement ? ` ${replacement} ` : ' ';
    // On its own line the replacement is its own paragraph, indented like the tag so lists hold.
    const indent = text.slice(text.lastIndexOf('\n', offset - 1) + 1, offset);
    return replacement ? `\n${indent}${replacement}\n` : '';
  });
}

/** MDX tells: a component tag starting a line, a JSX comment, or a JSX expression attribute. */
const MDX_HINT = /^ {0,3}<\/?[A-Z][\w.]*[\s/>]|\{\/\*|<[a-z][\w-]*\s[^<>]*=\s*\{/m;
const CONTAINER_OPEN = new RegExp(String.raw`^[ \t]*<([A-Z][\w.]*|details)((?:${ATTR})*)\s*>[ \t]*$`);
const CONTAINER_CLOSE = /^[ \t]*<\/([A-Z][\w.]*|details)\s*>[ \t]*$/;

/**
 * MDX has no indented code: text indented inside `<Tabs>`/`<TabItem>`/`<details>` is ordinary
 * Markdown there, but markdown-it would read it as code and lose its headings and tables. Each
 * container's lines are dedented by the smallest indentation among its direct lines, so nesting
 * inside the container (lists) keeps its relative indentation. Fenced code moves with its
 * container by at most its opener's indentation, which leaves the code's content unchanged.
 */
function dedentContainers(segments: Segment[]): void {
  interface Container {
    name: string;
    min: number;
  }
  interface Line {
    seg: number;
    text: string;
    container: Container | null;
    /** For fence lines: the fence opener's indentation; null for prose lines. */
    fenceIndent: number | null;
  }
  const lines: Line[] = [];
  const stack: Container[] = [];
  const top = (): Container | null => stack[stack.length - 1] ?? null;
  const note = (c: Container | null, indent: number): void => {
    if (c) c.min = Math.min(c.min, indent);
  };
  segments.forEach((seg, si) => {
    const segLines = seg.text.split('\n');
    if (seg.code) {
      const fenceIndent = indentWidth(segLines[0] ?? '');
      note(top(), fenceIndent);
      for (const text of segLines) lines.push({ seg: si, text, container: top(), fenceIndent });
      return;
    }
    for (const text of segLines) {
      const close = CONTAINER_CLOSE.exec(text);
      if (close) {
        const at = stack.map((c) => c.name).lastIndexOf(close[1]!);
        if (at !== -1) stack.length = at;
      }
      const container = top();
      if (text.trim()) note(container, indentWidth(text));
      lines.push({ seg: si, text, container, fenceIndent: null });
      const open = CONTAINER_OPEN.exec(text);
      if (open) stack.push({ name: open[1]!, min: Infinity });
    }
  });
  const rebuilt: string[][] = segments.map(() => []);
  for (const l of lines) {
    const by = l.container && Number.isFinite(l.container.min) ? l.container.min : 0;
    rebuilt[l.seg]!.push(by === 0 ? l.text : dedentLine(l.text, l.fenceIndent === null ? by : Math.min(by, l.fenceIndent)));
  }
  segments.forEach((seg, i) => {
    seg.text = rebuilt[i]!.join('\n');
  });
}

/**
 * The rest of MDX's "no indented code" rule: top-level indented code blocks left after container
 * dedenting (indented prose or tags outside any container) are dedented to ordinary Markdown.
 */
function dedentIndentedCode(markdown: string): { markdown: string; parsed?: ParsedBody } {
  // Indented code needs a line indented by 4 columns or more; most pages have none, so the parse is skipped.
  if (!/^(?: {4}| {0,3}\t)/m.test(markdown)) return { markdown };
  const tokens = blockTokens(markdown);
  const ranges = tokens.filter((t) => t.type === 'code_block' && t.level === 0 && t.map).map((t) => t.map!);
  // Nothing to dedent: the blocks of the page are these tokens' (normalizeMarkdown need not parse again).
  if (ranges.length === 0) return { markdown, parsed: { source: markdown, tokens } };
  const lines = markdown.split('\n');
  for (const [from, to] of ranges) {
    const body = lines.slice(from, to);
    const min = Math.min(...body.filter((l) => l.trim()).map(indentWidth));
    if (Number.isFinite(min)) for (let k = from; k < to; k++) lines[k] = dedentLine(lines[k]!, min);
  }
  return { markdown: lines.join('\n') };
}

/**
 * A heading's trailing attribute block: `{#sata}`, `{.note}`, `{#id .class key=value}` (Pandoc,
 * kramdown `{: #id}`, MkDocs attr_list, Docusaurus heading ids) or a bare hyphenated flag
 * (`{docsify-ignore-all}`). The site renders none of it, but left in place it becomes part of the
 * document's title, its heading paths and the citations ("PIR {docsify-ignore-all}"). A
 * Markdown rewrite, as the rest of this file: markdown-it-attrs would only move the attributes
 * into tokens, and the indexed text is the Markdown source.
 */
const HEADING_ATTR = String.raw`(?:[#.][\w-]+|[\w-]+=(?:"[^"\n]*"|'[^'\n]*'|[^\s}]+)|[a-z\d]+(?:-[a-z\d]+)+)`;
const HEADING_ATTRS = new RegExp(String.raw`^( {0,3}#{1,6}[ \t]+\S.*?)[ \t]+\{:?[ \t]*${HEADING_ATTR}(?:[ \t]+${HEADING_ATTR})*[ \t]*\}[ \t#]*$`, 'gm');

/**
 * Rewrites Markdown/MDX into the Markdown that is indexed (see the file comment). Front matter and
 * fenced code are copied verbatim; `isMdx` forces the JSX rules (for `.mdx` files).
 */
export function transformMarkdown(source: string, isMdx = false): MarkdownTransform {
  const warnings: string[] = [];
  const text = cleanText(source);
  const fm = FRONT_MATTER.exec(text);
  const frontMatter = fm ? fm[0].replace(/\s+$/, '') : '';
  const body = fm ? text.slice(fm[0].length) : text;
  const segments = splitFences(body, warnings);

  let mdx = isMdx;
  for (const seg of segments) {
    if (seg.code) continue;
    const lines = seg.text.split('\n');
    if (dropEsm(lines, warnings) > 0) mdx = true;
    seg.text = lines.join('\n');
  }
  if (!mdx) mdx = segments.some((s) => !s.code && MDX_HINT.test(s.text));

  const stores = segments.map(() => [] as string[]);
  segments.forEach((seg, i) => {
    if (seg.code) return;
    let t = maskInlineCode(seg.text, stores[i]!);
    if (mdx) t = removeDelimited(t, /\{\s*\/\*/g, /\*\/\s*\}/g);
    t = removeDelimited(t, /<!--/g, /-->/g);
    t = t.replace(HEADING_ATTRS, '$1');
    seg.text = convertTables(t, (html) => unmask(html, stores[i]!), warnings, mdx);
  });
  if (mdx) dedentContainers(segments);
  const out = segments.map((seg, i) => {
    if (seg.code) return seg.text;
    let t = rewriteTags(seg.text, mdx);
    t = unmask(t, stores[i]!);
    // Removed lines leave blank runs; collapse them (inside prose only, code keeps its blank lines).
    t = t.replace(/^[ \t]+$/gm, '').replace(/\n{3,}/g, '\n\n');
    // Next to a fence one newline is already the line break that the join adds back.
    if (i > 0) t = t.replace(/^\n{2,}/, '\n');
    if (i < segments.length - 1) t = t.replace(/\n{2,}$/, '\n');
    return t;
  });
  // trimEnd, not /\s+$/: the same characters, without the regex's quadratic rescans of long blank runs.
  let markdown = out.join('\n').replace(/^\n+/, '').trimEnd();
  let parsedBody: ParsedBody | undefined;
  if (mdx) ({ markdown, parsed: parsedBody } = dedentIndentedCode(markdown));
  if (frontMatter) markdown = markdown ? `${frontMatter}\n\n${markdown}` : frontMatter;
  return { markdown: markdown + '\n', mdx, warnings, ...(parsedBody ? { parsedBody } : {}) };
}

/**
 * Visible text of a page that is nothing but an exported component (e.g. a Docusaurus partial):
 * its string literals and JSX text, in source order, de-duplicated. Such a page renders text a
 * technician can search for, so it is indexed as a list rather than rejected as empty.
 */
export function componentText(source: string): string[] {
  const found: string[] = [];
  const re = /(['"])((?:(?!\1)[^\\\n])*)\1|>([^<>]*)</g;
  for (const m of source.matchAll(re)) {
    const raw = (m[2] ?? m[3] ?? '').trim();
    // A bare `{expression}` child is code, not text; code punctuation marks a non-text match.
    if (/^\{[^{}]*\}$/.test(raw) || /[();=]/.test(raw)) continue;
    const text = raw.replace(/\{([\w.$]+)\}/g, '$1').replace(/\s+/g, ' ').trim();
    if (!/\p{L}.*\p{L}/u.test(text) || /^(?:[\w$]+\.)+[\w$]+$|^[./]/.test(text)) continue;
    if (!found.includes(text)) found.push(text);
  }
  return found;
}

/** Parses `.md`, `.markdown` and `.mdx` files; never throws. */
export const markdownParser: Parser = {
  format: 'markdown',
  async parse(input: ParseInput): Promise<ParseResult> {
    return parseText(input, 'Markdown', ({ text }) => {
      // Embedded HTML and JSX tags are rewritten and converted per level, like an HTML page.
      checkNesting(text, 'markup', true);
      const transformed = transformMarkdown(text, extensionOf(input.fileName) === 'mdx');
      let markdown = transformed.markdown;
      let parsedBody = transformed.parsedBody;
      if (!markdown.trim() && transformed.mdx) {
        parsedBody = undefined;
        const strings = componentText(text);
        if (strings.length > 0) markdown = `${strings.map((t) => `- ${escapeMarkdownText(t)}`).join('\n')}\n`;
      }
      if (!markdown.trim()) return NO_TEXT_FAILURE;
      return { ok: true, doc: normalizeMarkdown({ markdown, format: 'markdown', fallbackTitle: baseTitle(input.fileName), ...(parsedBody ? { parsedBody } : {}) }) };
    });
  },
};
