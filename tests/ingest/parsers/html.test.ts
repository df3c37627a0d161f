import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import type { ParsedDocument } from '../../../src-main/core/document';
import { htmlParser } from '../../../src-main/ingest/parsers/html.parser';
import { invariantViolations } from '../doc-invariants';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

async function parse(html: string | Uint8Array, fileName = 'page.html'): Promise<ParsedDocument> {
  const r = await htmlParser.parse({ bytes: typeof html === 'string' ? enc(html) : html, fileName });
  if (!r.ok) throw new Error(`expected a document, got ${r.code}: ${r.reason}`);
  expect(invariantViolations(r.doc)).toEqual([]);
  return r.doc;
}

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>RAC-225B &amp; RAC-225C Manual</title>
  <style>body { font-family: SECRET_CSS_FONT; }</style>
  <script>window.SECRET_SCRIPT = fetch('https://example.com/track');</script>
</head>
<body>
  <nav><a href="/">Home</a> | <a href="/products">NAV_LINK_PRODUCTS</a></nav>
  <noscript>NOSCRIPT_TEXT</noscript>
  <main>
    <h1>Installation</h1>
    <p>Mount the unit on a <strong>flat</strong> wall. Pin <code>UART1_TX_M0</code> carries the log; signal UART1_TX_M0 too.</p>
    <h2>Fuses</h2>
    <table>
      <thead><tr><th>Model</th><th>Fuse</th></tr></thead>
      <tbody><tr><td>RAC-225B</td><td>T5A</td></tr><tr><td>RAC-225C</td><td>T6.3A</td></tr></tbody>
    </table>
    <h2>Steps</h2>
    <ol><li>Switch off.</li><li>Open the cover<ul><li>two screws</li></ul></li></ol>
    <pre><code class="language-bash">rac-reset --model RAC-225B
rac-status</code></pre>
    <form action="/subscribe"><input name="email" value="FORM_VALUE"><button>FORM_BUTTON</button> Subscribe to updates</form>
    <iframe src="https://example.com/ad">IFRAME_TEXT</iframe>
  </main>
  <footer>FOOTER_COPYRIGHT 2024</footer>
  <script>document.write('LATE_SCRIPT')</script>
</body>
</html>`;

describe('html parser', () => {
  it('keeps headings, paragraphs, tables, lists and code with their heading paths', async () => {
    const doc = await parse(PAGE);
    expect(doc.format).toBe('html');
    const view = doc.blocks.map((b) => `${b.kind} ${b.headingPath.join(' > ')}`);
    expect(view).toEqual([
      'heading Installation',
      'paragraph Installation',
      'heading Installation > Fuses',
      'table Installation > Fuses',
      'heading Installation > Steps',
      'list Installation > Steps',
      'code Installation > Steps',
      'paragraph Installation > Steps',
    ]);
    const table = doc.blocks.find((b) => b.kind === 'table')!;
    expect(doc.text.slice(table.start, table.end).split('\n')).toEqual(['| Model | Fuse |', '| --- | --- |', '| RAC-225B | T5A |', '| RAC-225C | T6.3A |']);
    expect(doc.text).toContain('```bash\nrac-reset --model RAC-225B\nrac-status\n```');
    expect(doc.text).toMatch(/1\. +Switch off\.\n2\. +Open the cover\n +- +two screws/);
  });

  it('drops scripts, styles, navigation, noscript, iframes, form controls and the page footer', async () => {
    const doc = await parse(PAGE);
    for (const gone of ['SECRET_CSS_FONT', 'SECRET_SCRIPT', 'LATE_SCRIPT', 'NAV_LINK_PRODUCTS', 'NOSCRIPT_TEXT', 'IFRAME_TEXT', 'FORM_VALUE', 'FORM_BUTTON', 'FOOTER_COPYRIGHT']) {
      expect(doc.text, gone).not.toContain(gone);
    }
    // The text of a form is content (ASP.NET pages wrap the whole body in one form).
    expect(doc.text).toContain('Subscribe to updates');
  });

  it('takes the title from <title>, then the first h1, then the file name', async () => {
    expect((await parse(PAGE)).title).toBe('RAC-225B & RAC-225C Manual');
    expect((await parse('<h2>Intro</h2><h1>Heading One</h1><p>x</p>')).title).toBe('Heading One');
    expect((await parse('<p>only text</p>', 'service-notes.htm')).title).toBe('service-notes');
  });

  it('keeps identifiers with underscores verbatim instead of escaping every underscore', async () => {
    const doc = await parse(PAGE);
    expect(doc.text).toContain('`UART1_TX_M0`');
    expect(doc.text).toContain('signal UART1_TX_M0 too');
  });

  it('turns hostile HTML into inert text: no script survives and no raw HTML block is produced', async () => {
    const hostile = `<p>Click <a href="javascript:alert(1)">here</a> and <a href="JaVaScRiPt:void(0)">there</a>.</p>
<img src=x onerror="alert('IMG')"><svg><script>alert('SVG')</script><text>SVG_TEXT</text></svg>
<p>&lt;script&gt;alert("escaped")&lt;/script&gt; is shown as text.</p>
<p>Data image: <img alt="wiring diagram" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUg=="></p>
<object data="evil.swf">OBJECT_FALLBACK</object><embed src="evil.swf">
<div hidden>HIDDEN_TEXT</div><template><p>TEMPLATE_TEXT</p></template>
<p onclick="steal()" style="display:block">Plain paragraph.</p></x-turndown><p>Text after a fake converter root.</p>`;
    const doc = await parse(hostile);
    expect(doc.text).not.toMatch(/javascript:|onerror|onclick|alert\('(IMG|SVG)'\)|SVG_TEXT|OBJECT_FALLBACK|HIDDEN_TEXT|TEMPLATE_TEXT|base64/i);
    expect(doc.text).toContain('Click here and there.');
    expect(doc.text).toContain('wiring diagram');
    expect(doc.text).not.toContain('](x)');
    expect(doc.text).toContain('Text after a fake converter root.');
    // Escaped markup stays visible text and cannot open an HTML block in the Markdown.
    expect(doc.text).toContain('\\<script>alert("escaped")\\</script> is shown as text.');
    expect(doc.blocks.every((b) => b.kind !== 'html')).toBe(true);
  });

  it('decodes legacy encodings declared by <meta charset> and detected ones', async () => {
    const latin = iconv.encode('<html><head><meta charset="windows-1252"><title>Café</title></head><body><p>Température maximale: 40 °C — crème brûlée.</p></body></html>', 'windows-1252');
    const doc = await parse(new Uint8Array(latin));
    expect(doc.title).toBe('Café');
    expect(doc.text).toContain('Température maximale: 40 °C — crème brûlée.');
    const sjis = iconv.encode('<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"></head><body><h1>取扱説明書</h1><p>電源は100Vです。ご使用の前に必ずお読みください。</p></body></html>', 'Shift_JIS');
    const jp = await parse(new Uint8Array(sjis));
    expect(jp.title).toBe('取扱説明書');
    expect(jp.text).toContain('電源は100Vです。');
  });

  it('returns failures, not documents, for pages without text, binary data and empty files', async () => {
    expect(await htmlParser.parse({ bytes: enc('<html><head><script>x()</script></head><body><nav>menu</nav></body></html>'), fileName: 'a.html' })).toMatchObject({ ok: false, code: 'empty' });
    expect(await htmlParser.parse({ bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46]), fileName: 'photo.html' })).toMatchObject({ ok: false, code: 'binary' });
    expect(await htmlParser.parse({ bytes: enc(' \n'), fileName: 'a.html' })).toMatchObject({ ok: false, code: 'empty', reason: 'The file is empty.' });
  });

  it('stops with a cancelled failure when the signal is already aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    expect(await htmlParser.parse({ bytes: enc(PAGE), fileName: 'a.html', signal: ac.signal })).toMatchObject({ ok: false, code: 'cancelled' });
  });
});
