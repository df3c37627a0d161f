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

/**
 * Raw HTML in a manual is shown as the literal text it is (a `<script>` stays visible and inert),
 * never parsed: document text must not become markup in the app.
 */
export function remarkHtmlAsText() {
  return (tree: Root) => {
    walk(tree, (child, i, parent) => {
      if (child.type !== 'html') return;
      const text: Text = { type: 'text', value: child.value, ...(child.position ? { position: child.position } : {}) };
      const replacement = FLOW_PARENTS.has(parent.type) ? ({ type: 'paragraph', children: [text], ...(child.position ? { position: child.position } : {}) } as RootContent) : text;
      parent.children.splice(i, 1, replacement as never);
    });
  };
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

/** A node rendered as `<mark class="passage">` (mdast-util-to-hast honours `data.hName`). */
function mark(children: Text[]): RootContent {
  return { type: 'highlight', data: { hName: 'mark', hProperties: { className: ['passage'] } }, children } as unknown as RootContent;
}

/**
 * Highlights the passage at `[start, end)` of the Markdown source: text nodes are split at the
 * exact offsets when their value maps 1:1 onto the source, otherwise marked whole; code is marked
 * whole. `offset` is where the rendered text begins in the full document.
 */
export function remarkHighlight(options: { start: number; end: number; offset?: number }) {
  const start = options.start - (options.offset ?? 0);
  const end = options.end - (options.offset ?? 0);
  return (tree: Root) => {
    if (end <= start) return;
    walk(tree, (child, i, parent) => {
      const pos = span(child);
      if (!pos || pos[1] <= start || pos[0] >= end) return;
      if (child.type === 'code' || child.type === 'inlineCode') {
        child.data = { ...child.data, hProperties: { className: ['passage'] } } as typeof child.data;
        return;
      }
      if (child.type !== 'text') return;
      const [s, e] = pos;
      if (child.value.length !== e - s) {
        parent.children.splice(i, 1, mark([child]) as never);
        return;
      }
      const a = Math.max(0, start - s);
      const b = Math.min(child.value.length, end - s);
      const parts: RootContent[] = [];
      if (a > 0) parts.push({ type: 'text', value: child.value.slice(0, a) });
      parts.push(mark([{ type: 'text', value: child.value.slice(a, b) }]));
      if (b < child.value.length) parts.push({ type: 'text', value: child.value.slice(b) });
      parent.children.splice(i, 1, ...(parts as never[]));
    });
  };
}

/** Turns `[n]` markers in an answer into `<cite data-n>` elements the renderer shows as chips. */
export function remarkCitations() {
  return (tree: Root) => {
    walk(tree, (child, i, parent) => {
      if (child.type !== 'text' || !/\[\d{1,3}\]/.test(child.value)) return;
      const parts: RootContent[] = [];
      let last = 0;
      for (const m of child.value.matchAll(/\[(\d{1,3})\]/g)) {
        if (m.index > last) parts.push({ type: 'text', value: child.value.slice(last, m.index) });
        parts.push({ type: 'citation', data: { hName: 'cite', hProperties: { dataN: Number(m[1]) } }, children: [{ type: 'text', value: m[0] }] } as unknown as RootContent);
        last = m.index + m[0].length;
      }
      if (last < child.value.length) parts.push({ type: 'text', value: child.value.slice(last) });
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

/**
 * Docusaurus-style admonitions (":::note Title" ... ":::") rendered as a labelled box instead of
 * literal colons. Only top-level paragraphs are read; the text inside stays text.
 */
export function remarkAdmonitions() {
  return (tree: Root) => {
    const out: RootContent[] = [];
    const kids = tree.children;
    for (let i = 0; i < kids.length; i++) {
      const node = kids[i]!;
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
      const title = { type: 'paragraph', data: { hProperties: { className: ['admonition-title'] } }, children: [{ type: 'text', value: label }] } as unknown as RootContent;
      const body = inner.filter((n) => !(n.type === 'paragraph' && (lastText(n)?.value ?? '').trim() === '' && n.children.length <= 1));
      out.push({ type: 'admonition', data: { hName: 'aside', hProperties: { className: ['admonition', `admonition-${kind}`] } }, children: [title, ...body] } as unknown as RootContent);
      i = j;
    }
    tree.children = out as Root['children'];
  };
}
