import { decodeHTML } from 'entities';
import type { Nodes, Parent, Root, RootContent, Text } from 'mdast';

/**
 * remark plugins for showing manual text safely. Hand-written tree walks rather than
 * unist-util-visit: that package is only a transitive dependency here, and each walk is a few lines.
 */

const FLOW_PARENTS = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition']);

/** Offsets of a node in the Markdown source, when the parser recorded them. */
function span(node: Nodes): [number, number] | null {
  const s = node.position?.start.offset;
  const e = node.position?.end.offset;
  return s === undefined || e === undefined ? null : [s, e];
}

function walk(parent: Parent, visit: (child: RootContent, index: number, parent: Parent) => void): void {
  // Visit from the end so a visitor may replace a child with several without skipping any.
  for (let i = parent.children.length - 1; i >= 0; i--) {
    const child = parent.children[i]!;
    if ('children' in child) walk(child as Parent, visit);
    visit(child, i, parent);
  }
}

/** Elements whose content is not the page's text (code, styles, media, embedded documents). */
const NOT_TEXT = new Set(['script', 'style', 'img', 'picture', 'video', 'audio', 'iframe', 'object', 'embed', 'svg', 'math', 'template', 'noscript', 'title', 'head']);
/** Elements inside a line of text: no space is put for their tags ("<b>SKU</b>:K016"). */
const INLINE = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'font', 'i', 'ins', 'kbd', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var']);
/** A tag; quoted attribute values may hold ">" ('<a title="a>b">'). */
const TAG = /<(\/?)([A-Za-z][A-Za-z0-9-]*)(?:[^>"']|"[^"]*"|'[^']*')*>/g;
/** Of those, the ones without content or end tag. */
const VOID = new Set(['img', 'embed']);
/** An element dropped with what it holds: up to its end tag, or the fragment's end. */
const NOT_TEXT_ELEMENT = new RegExp(`<(${[...NOT_TEXT].filter((tag) => !VOID.has(tag)).join('|')})\\b(?:[^>"']|"[^"]*"|'[^']*')*>[\\s\\S]*?(?:</\\1\\s*>|$)`, 'gi');

/**
 * The words of an HTML fragment, as text: comments, declarations, scripts, styles and media
 * dropped whole, other tags dropped with their words kept, character references decoded.
 * Read with patterns rather than parsed by the browser: a DOMParser document is not inert enough
 * (Chromium fires an `<img onerror>` in one; only the CSP kept it from running), and no HTML parser
 * library ships with the renderer. The result is only ever shown as text, so a fragment these
 * patterns misread can show stray characters but never become markup.
 */
export function htmlText(html: string): string {
  return decodeHTML(
    html
      .replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
      .replace(/<[!?][^>]*>/g, ' ')
      .replace(NOT_TEXT_ELEMENT, ' ')
      .replace(TAG, (_, _close: string, tag: string) => (INLINE.has(tag.toLowerCase()) ? '' : ' ')),
  )
    .replace(/\s+/g, ' ')
    .trim();
}

/** An inline tag that opens an element whose content is not text: skipped up to its end tag. */
const OPEN_NOT_TEXT = /^<([A-Za-z][A-Za-z0-9-]*)(?:\s[^>]*)?>$/;
const BREAK = /^<br\s*\/?>$/i;

/**
 * Raw HTML in a manual (docsify and Docusaurus pages carry badges, pictures, notes as HTML) is
 * shown as its text: tags dropped, their words kept, scripts, styles and images dropped whole.
 * It never becomes markup in the app, and nothing it names is fetched. Inline, a tag is a node of
 * its own, so the words between `<script>` and `</script>` are siblings and skipped here.
 */
export function remarkHtmlAsText() {
  const closes = (node: RootContent, tag: string) => node.type === 'html' && node.value.replace(/\s+/g, '').toLowerCase() === `</${tag}>`;
  const rewrite = (parent: Parent) => {
    const flow = FLOW_PARENTS.has(parent.type);
    const kids = parent.children as RootContent[];
    const out: RootContent[] = [];
    for (let i = 0; i < kids.length; i++) {
      const child = kids[i]!;
      if ('children' in child) rewrite(child as Parent);
      if (child.type !== 'html') {
        out.push(child);
        continue;
      }
      const value = child.value.trim();
      const tag = flow ? undefined : OPEN_NOT_TEXT.exec(value)?.[1]?.toLowerCase();
      // Skipped only when it is closed: a lone "<script>" in prose about HTML hides nothing after it.
      const end = tag && NOT_TEXT.has(tag) ? kids.findIndex((k, j) => j > i && closes(k, tag)) : -1;
      if (end > i) {
        i = end;
        continue;
      }
      if (!flow && BREAK.test(value)) {
        out.push({ type: 'break' } as RootContent);
        continue;
      }
      const words = htmlText(child.value);
      if (!words) continue;
      const position = child.position ? { position: child.position } : {};
      const text: Text = { type: 'text', value: words, ...position };
      out.push(flow ? ({ type: 'paragraph', children: [text], ...position } as RootContent) : text);
    }
    parent.children = out as never;
  };
  return (tree: Root) => rewrite(tree);
}

/**
 * Inline Markdown a quoted line may happen to contain: shown as its characters in an extracted
 * answer. Not code spans and strong text: the answerer writes those itself (a code line in
 * backticks, a bold label before the lines it introduces).
 */
const INLINE_MARKUP = new Set(['emphasis', 'delete', 'link', 'linkReference', 'image', 'imageReference']);

/**
 * An extracted answer quotes manuals verbatim: its lines are list items and paragraphs, but
 * inside them nothing is Markdown ("45*20*12mm" is a size, not "45<em>20</em>12mm"). Inline
 * markup is put back as the source characters it was parsed from, and neighbouring text merged.
 */
export function remarkInlineAsText() {
  return (tree: Root, file: { value?: unknown }) => {
    const source = String(file.value ?? '');
    walk(tree, (child, i, parent) => {
      if (!INLINE_MARKUP.has(child.type)) return;
      const pos = span(child);
      if (!pos) return;
      parent.children.splice(i, 1, { type: 'text', value: source.slice(pos[0], pos[1]) } as never);
    });
    walk(tree, (child, i, parent) => {
      const next = parent.children[i + 1];
      if (child.type === 'text' && next?.type === 'text') {
        child.value += next.value;
        parent.children.splice(i + 1, 1);
      }
    });
  };
}

/** A node rendered as `<mark class="passage">`, or `passage passage-line` for the answer's line (mdast-util-to-hast honours `data.hName`). */
function mark(children: Text[], line = false): RootContent {
  return { type: 'highlight', data: { hName: 'mark', hProperties: { className: line ? ['passage', 'passage-line'] : ['passage'] } }, children } as unknown as RootContent;
}

/** Characters of the source a text node's value may skip past: an HTML tag, an entity, an escape's backslash. */
const SKIPPED = /^(?:<\/?[A-Za-z][^>\n]*>|&(?:#\d+|#x[0-9a-f]+|\w+);|\\)/i;
/** How far ahead a value's character is looked for in its source when neither agrees nor is skipped. */
const ALIGN_AHEAD = 8;

/**
 * Where each character of a text node's `value` stands in its `source` (the node's span of the
 * Markdown), plus the source's end, or null when they cannot be aligned. The value differs from
 * the source where the parser dropped escapes' backslashes, decoded entities, a list item's
 * indentation, or (raw HTML shown as text) tags: those source characters are passed over.
 */
export function alignToSource(value: string, source: string): number[] | null {
  const at: number[] = [];
  let j = 0;
  for (const ch of value) {
    for (let n = 0; n < ch.length; n++) {
      const c = ch[n]!;
      if (source[j] === c) {
        at.push(j++);
        continue;
      }
      const skip = SKIPPED.exec(source.slice(j, j + 40));
      // A decoded entity stands where its reference does.
      if (skip && skip[0].startsWith('&')) {
        at.push(j);
        j += skip[0].length;
        continue;
      }
      if (skip) j += skip[0].length;
      const k = source.indexOf(c, j);
      if (k < 0 || k - j > ALIGN_AHEAD) return null;
      at.push(k);
      j = k + 1;
    }
  }
  at.push(source.length);
  return at;
}

/**
 * Highlights the passage at `[start, end)` of the Markdown source, and within it the answer's
 * quoted `line` (same offsets) more strongly: text nodes are split at those offsets (mapped onto
 * their value by `alignToSource` where the parser changed it), or marked whole when their value
 * cannot be aligned; code is marked whole, and a code block holding the line has the line's
 * characters marked inside it. `offset` is where the rendered text begins in the full document.
 */
export function remarkHighlight(options: { start: number; end: number; offset?: number; line?: { start: number; end: number } | null }) {
  const offset = options.offset ?? 0;
  const start = options.start - offset;
  const end = options.end - offset;
  const line = options.line && options.line.end > options.line.start ? { start: options.line.start - offset, end: options.line.end - offset } : null;
  const inLine = (s: number, e: number) => line !== null && s < line.end && e > line.start;

  /**
   * `value` (a node's text, whose source begins at offset `s`) cut where the passage and the line
   * begin and end, each piece marked as it lies; `at` maps value indices onto the source (null:
   * one to one). With `marked` the whole is inside a marked element already (a code block): only
   * the line's pieces are marked.
   */
  const pieces = (value: string, s: number, at: number[] | null, marked: boolean): RootContent[] => {
    const src = (v: number) => (at ? at[v]! : v);
    const size = at ? at[value.length]! : value.length;
    /** The first value index at or after source offset `c` (from `s`). */
    const valueAt = (c: number) => {
      let v = 0;
      while (v < value.length && src(v) < c) v++;
      return v;
    };
    const cuts = [...new Set([0, start - s, end - s, ...(line ? [line.start - s, line.end - s] : []), size])]
      .filter((c) => c >= 0 && c <= size)
      .map(valueAt)
      .sort((x, y) => x - y);
    const parts: RootContent[] = [];
    for (let k = 0; k + 1 < cuts.length; k++) {
      const [a, b] = [cuts[k]!, cuts[k + 1]!];
      if (a === b) continue;
      const text: Text = { type: 'text', value: value.slice(a, b) };
      // Where these characters stand in the source: from the first one to the last one's end.
      const [from, to] = [s + src(a), s + src(b - 1) + 1];
      if (marked) parts.push(inLine(from, to) ? mark([text], true) : text);
      else parts.push(from >= start && to <= end ? mark([text], inLine(from, to)) : text);
    }
    return parts;
  };

  return (tree: Root, file?: { value?: unknown }) => {
    if (end <= start) return;
    const source = String(file?.value ?? '');
    walk(tree, (child, i, parent) => {
      const pos = span(child);
      if (!pos || pos[1] <= start || pos[0] >= end) return;
      const [s, e] = pos;
      if (child.type === 'code' && inLine(s, e)) {
        // The code's text begins after a fence's opening line; an indented block's at once.
        const fenced = /^[ \t]*(?:```|~~~)/.test(source.slice(s, e));
        const bodyStart = fenced ? source.indexOf('\n', s) + 1 : s;
        const at = bodyStart > 0 && bodyStart <= e ? alignToSource(child.value, source.slice(bodyStart, e)) : null;
        if (at) {
          // As hast: mdast text would have its lines' leading spaces trimmed, and code keeps them.
          const hast = pieces(child.value, bodyStart, at, true).map((p) =>
            p.type === 'text' ? { type: 'text', value: p.value } : { type: 'element', tagName: 'mark', properties: { className: ['passage', 'passage-line'] }, children: [{ type: 'text', value: (p as unknown as { children: Text[] }).children[0]!.value }] },
          );
          const code = { type: 'element', tagName: 'code', properties: { className: ['passage'] }, children: [...hast, { type: 'text', value: '\n' }] };
          parent.children.splice(i, 1, { type: 'highlightCode', data: { hName: 'pre', hChildren: [code] } } as never);
          return;
        }
      }
      if (child.type === 'code' || child.type === 'inlineCode') {
        child.data = { ...child.data, hProperties: { className: inLine(s, e) ? ['passage', 'passage-line'] : ['passage'] } } as typeof child.data;
        return;
      }
      if (child.type !== 'text') return;
      const at = child.value.length === e - s ? null : alignToSource(child.value, source.slice(s, e));
      if (child.value.length !== e - s && !at) {
        parent.children.splice(i, 1, mark([child], inLine(s, e)) as never);
        return;
      }
      parent.children.splice(i, 1, ...(pieces(child.value, s, at, false) as never[]));
    });
  };
}

/** The text of mdast nodes as shown: text and code values, a line break as a space. */
function shownText(nodes: readonly RootContent[]): string {
  return nodes.map((n) => (n.type === 'text' || n.type === 'inlineCode' ? n.value : n.type === 'break' ? ' ' : 'children' in n ? shownText((n as Parent).children) : '')).join('');
}

const MARKER = /\[(\d{1,3})\]/g;

/**
 * Turns `[n]` markers in an answer into `<cite data-n data-line>` elements the renderer shows as
 * chips. `data-line` is the text the marker stands after: its block's text since the marker
 * before it (markers side by side share it). For a written answer, whose model puts markers
 * anywhere in its sentences.
 */
export function remarkCitations() {
  return citationMarkers(false);
}

/**
 * `remarkCitations` for an extracted answer, where the engine ends each quoted line with its one
 * marker and puts none elsewhere: a "[2]" inside a quoted line is the manual's own (a footnote's
 * reference) and stays text. Made a chip, it read "source 2 not found", or opened another source
 * when the answer had two. `data-line` is the whole quoted line the source viewer marks.
 */
export function remarkLineEndCitations() {
  return citationMarkers(true);
}

/** The marker that ends its block's text (nothing but spaces after it). */
const LINE_END_MARKER = /\[(\d{1,3})\](?=\s*$)/g;

/** `remarkCitations` (every marker) or `remarkLineEndCitations` (`lineEndOnly`: the one ending its block). */
function citationMarkers(lineEndOnly: boolean) {
  return (tree: Root) => {
    walk(tree, (child, i, parent) => {
      if (child.type !== 'text' || !/\[\d{1,3}\]/.test(child.value)) return;
      // Only the block's last text node ends its line.
      if (lineEndOnly && i !== parent.children.length - 1) return;
      // The siblings before this node are not split yet (the walk runs from the end): their markers are still text.
      let before = shownText(parent.children.slice(0, i) as RootContent[]);
      const parts: RootContent[] = [];
      let at = 0;
      for (const m of child.value.matchAll(lineEndOnly ? LINE_END_MARKER : MARKER)) {
        if (m.index > at) parts.push({ type: 'text', value: child.value.slice(at, m.index) });
        before += child.value.slice(at, m.index);
        // Markers side by side ("[1][2]") stand after the same text.
        // A sentence's end left before it by the marker before ("5 A [1]. Clean ...") is not the line's.
        // In an extracted answer the brackets before the line's marker are the manual's own text.
        const line = (lineEndOnly ? before : before.replace(/(?:\s*\[\d{1,3}\])+\s*$/, '').split(/\[\d{1,3}\]/).pop()!)
          .replace(/\s+/g, ' ')
          .replace(/^[\s.,;:!?]+/, '')
          .trim();
        parts.push({ type: 'citation', data: { hName: 'cite', hProperties: { dataN: Number(m[1]), dataLine: line } }, children: [{ type: 'text', value: m[0] }] } as unknown as RootContent);
        before += m[0];
        at = m.index + m[0].length;
      }
      if (parts.length === 0) return;
      if (at < child.value.length) parts.push({ type: 'text', value: child.value.slice(at) });
      parent.children.splice(i, 1, ...(parts as never[]));
    });
  };
}

/** The front matter block (`---` ... `---` at the very start) of a Markdown source: its end offset, or 0. */
export function frontMatterEnd(source: string): number {
  const m = /^---[ \t]*\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(source);
  return m ? m[0].length : 0;
}

/** Hides nodes that lie inside the front matter (`end`: its end offset in the source). */
export function remarkHideFrontMatter(end: number) {
  return () => (tree: Root) => {
    if (end <= 0) return;
    tree.children = tree.children.filter((c) => {
      const s = span(c);
      return !s || s[0] >= end;
    });
  };
}

const ADMONITION_OPEN = /^:::[ \t]*([A-Za-z]+)?[ \t]*([^\n]*)\n?/;
/** docsify's callouts: "!> " starts an important note, "?> " a tip, each one paragraph. */
const DOCSIFY_CALLOUT = /^([!?])>[ \t]*/;
/** A paragraph that names its kind itself ("Warning: …", "Tip: …") needs no title above it. */
const OWN_LABEL = /^[A-Za-z]+:/;
const ADMONITION_CLOSE = /\n?[ \t]*:::[ \t]*$/;

function firstText(node: RootContent): Text | null {
  if (node.type === 'text') return node;
  if ('children' in node) for (const c of (node as Parent).children) {
    const t = firstText(c);
    if (t) return t;
  }
  return null;
}

function lastText(node: RootContent): Text | null {
  if (node.type === 'text') return node;
  if ('children' in node) {
    const kids = (node as Parent).children;
    for (let i = kids.length - 1; i >= 0; i--) {
      const t = lastText(kids[i]!);
      if (t) return t;
    }
  }
  return null;
}

function admonition(kind: string, label: string | null, children: RootContent[]): RootContent {
  const title = label ? [{ type: 'paragraph', data: { hProperties: { className: ['admonition-title'] } }, children: [{ type: 'text', value: label }] }] : [];
  return { type: 'admonition', data: { hName: 'aside', hProperties: { className: ['admonition', `admonition-${kind}`] } }, children: [...title, ...children] } as unknown as RootContent;
}

/**
 * Docusaurus-style admonitions (":::note Title" ... ":::") and docsify's "!>" / "?>" callouts
 * rendered as a labelled box instead of literal marks. Only top-level paragraphs are read; the
 * text inside stays text.
 */
export function remarkAdmonitions() {
  return (tree: Root) => {
    const out: RootContent[] = [];
    const kids = tree.children;
    for (let i = 0; i < kids.length; i++) {
      const node = kids[i]!;
      // The paragraph's first text, also when a highlighted passage starts right at its marker.
      const lead = node.type === 'paragraph' && node.children[0] ? firstText(node.children[0]) : null;
      const callout = lead ? DOCSIFY_CALLOUT.exec(lead.value) : null;
      if (lead && callout) {
        lead.value = lead.value.slice(callout[0].length);
        const [kind, label] = callout[1] === '!' ? ['warning', 'Important'] : ['tip', 'Tip'];
        out.push(admonition(kind, OWN_LABEL.test(lead.value) ? null : label, [node]));
        continue;
      }
      const head = node.type === 'paragraph' ? firstText(node) : null;
      const open = head ? ADMONITION_OPEN.exec(head.value) : null;
      if (!head || !open || head.value.startsWith(':::') === false) {
        out.push(node);
        continue;
      }
      // Find the paragraph that closes it (possibly this one).
      let j = i;
      while (j < kids.length) {
        const t = kids[j]!.type === 'paragraph' ? lastText(kids[j]!) : null;
        // The opening paragraph closes itself only when ":::" follows its opening line.
        const rest = t === head ? t.value.replace(ADMONITION_OPEN, '') : (t?.value ?? '');
        if (t && ADMONITION_CLOSE.test(rest) && (t !== head || rest.trim() !== '' || j > i)) break;
        j++;
      }
      if (j >= kids.length) {
        out.push(node);
        continue;
      }
      const inner = kids.slice(i, j + 1);
      head.value = head.value.replace(ADMONITION_OPEN, '');
      const tail = lastText(inner[inner.length - 1]!);
      if (tail) tail.value = tail.value.replace(ADMONITION_CLOSE, '');
      const kind = (open[1] ?? 'note').toLowerCase();
      const label = open[2]?.trim() || kind.charAt(0).toUpperCase() + kind.slice(1);
      const body = inner.filter((n) => !(n.type === 'paragraph' && (lastText(n)?.value ?? '').trim() === '' && n.children.length <= 1));
      out.push(admonition(kind, label, body));
      i = j;
    }
    tree.children = out as Root['children'];
  };
}
