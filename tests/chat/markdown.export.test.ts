import { describe, expect, it } from 'vitest';
import MarkdownIt from 'markdown-it';
import type { Conversation } from '../../src-main/contract/api';
import { conversationToMarkdown } from '../../src-main/chat/markdown.export';

/**
 * The exported Markdown file is opened in viewers that render raw HTML: nothing a manual, a
 * question or an answer holds may become markup there. Rendered here with markdown-it, HTML on.
 */

const hostile = '<script>alert(1)</script> <img src=x onerror=alert(2)> <iframe src="javascript:alert(3)"></iframe> <style>body{display:none}</style>';

function conversation(): Conversation {
  return {
    id: 'c1',
    title: 'Fuse <b>rating</b>',
    createdAt: '2026-12-03T10:00:00.000Z',
    updatedAt: '2026-12-03T10:01:00.000Z',
    turns: 2,
    scope: { models: ['ZX-900 <i>'] },
    messages: [
      { id: 'q', role: 'user', text: `What is the ZX-900 fuse rating? ${hostile}`, createdAt: '2026-12-03T10:00:00.000Z' },
      {
        id: 'a',
        role: 'assistant',
        text: `- The fuse is rated T10A 250V & slow-blow. [1]\n- ${hostile} [1]\n- \`sudo apt update && echo 1 > /sys/x\` [1]\n\n\`\`\`\n#include <Wire.h>\n\`\`\``,
        createdAt: '2026-12-03T10:01:00.000Z',
        mode: 'extracted',
        citations: [
          { n: 1, chunkId: 'zx.md#0', doc: 'zx`900.md', title: 'ZX-900', headingPath: ['ZX-900', 'Fuses <u>'], pages: [4], start: 0, end: 10, quote: `Fuse: T10A 250V\n${hostile}\n> not a nested quote`, model: 'ZX-900' },
        ],
      },
    ],
  };
}

describe('conversation export', () => {
  const markdown = conversationToMarkdown(conversation(), 'Shop <lab>');
  const html = new MarkdownIt({ html: true }).render(markdown);

  it('renders no element that a manual, a question or an answer wrote', () => {
    expect(html).not.toMatch(/<(script|img|iframe|style|b|i|u|lab)\b/i);
  });

  it('shows that text as the characters it is', () => {
    const text = html.replace(/<[^>]+>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    expect(text).toContain('<script>alert(1)</script>');
    expect(text).toContain('Q: What is the ZX-900 fuse rating? <script>');
    expect(text).toContain('T10A 250V & slow-blow');
    expect(text).toContain('> not a nested quote');
    expect(text).toContain('Fuse <b>rating</b>');
    expect(text).toContain('zx`900.md');
  });

  it('leaves code as written: HTML is inert there and an entity would show as typed', () => {
    expect(html).toContain('<code>sudo apt update &amp;&amp; echo 1 &gt; /sys/x</code>');
    expect(html).toContain('#include &lt;Wire.h&gt;');
    expect(html).not.toContain('&amp;amp;');
    expect(html).not.toContain('&amp;lt;');
  });

  it('says a question back asked which model, with the name as written', () => {
    const asked = conversation();
    asked.messages[1] = { id: 'a', role: 'assistant', text: 'This library has no manual for Bar <b>Z5</b>. Which model: Bar Z5 Max 5G or Bar Z5 Mini 5G?', createdAt: '2026-12-03T10:01:00.000Z', mode: 'not-found', citations: [], clarify: [{ name: 'Bar <b>Z5</b>', models: ['Bar Z5 Max 5G', 'Bar Z5 Mini 5G'] }] };
    const out = conversationToMarkdown(asked, 'Shop');
    expect(out).toContain('_Asked which model: no manual for Bar &lt;b&gt;Z5&lt;/b&gt;._');
    expect(out).not.toContain('Not found in this library.');
  });

  it('says the names the question wrote that no manual is for, but those it asked back about', () => {
    const mixed = conversation();
    mixed.messages[1] = {
      id: 'a',
      role: 'assistant',
      text: 'This library has no manual for Bar Z5: which model, Bar Z5 Max 5G or Bar Z5 Mini 5G? Answering for Foo X1.',
      createdAt: '2026-12-03T10:01:00.000Z',
      mode: 'extracted',
      citations: [],
      clarify: [{ name: 'Bar Z5', models: ['Bar Z5 Max 5G', 'Bar Z5 Mini 5G'] }],
      unknownModels: ['Bar Z5', 'Foo X2 <i>Lite</i>', 'ZX-900'],
    };
    const out = conversationToMarkdown(mixed, 'Shop');
    expect(out).toContain('_Extracted verbatim from the manuals (no language model). Asked which model: no manual for Bar Z5. No manual for Foo X2 &lt;i&gt;Lite&lt;/i&gt; and ZX-900._');
    // A turn saved before the field existed, or naming none, has no such line.
    expect(conversationToMarkdown(conversation(), 'Shop')).not.toContain('No manual for');
  });
});
