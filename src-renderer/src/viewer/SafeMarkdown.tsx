import Markdown, { type Components, type Options } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { remarkHtmlAsText } from './markdown.plugins';

/**
 * Markdown rendered as React elements, never as HTML strings: raw HTML is shown as its words
 * only, its tags, scripts and images dropped (remarkHtmlAsText), links do not navigate out of the
 * app and images are never fetched (both would reach outside this computer).
 */
const BASE_COMPONENTS: Components = {
  a: ({ children, href }) => (
    <span className="md-link" title={href}>
      {children}
    </span>
  ),
  img: ({ alt }) => <span className="md-img">[image{alt ? `: ${alt}` : ''}]</span>,
};

type PluggableList = NonNullable<Options['remarkPlugins']>;

/** Renders `text` as sanitized Markdown with extra remark `plugins` and element `components`. */
export function SafeMarkdown({ text, plugins = [], components }: { text: string; plugins?: PluggableList; components?: Components }) {
  return (
    <Markdown remarkPlugins={[remarkGfm, remarkHtmlAsText, ...plugins]} components={{ ...BASE_COMPONENTS, ...components }} skipHtml>
      {text}
    </Markdown>
  );
}
