import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../../src-main/ingest/parsers';
import { MAX_NESTING_DEPTH, nestingDepth } from '../../../src-main/ingest/parsers/limits';
import { writeDocx } from '../../helpers/zip';

const enc = new TextEncoder();
const nested = (n: number) => `${'<div>'.repeat(n)}text${'</div>'.repeat(n)}`;

describe('nestingDepth', () => {
  it('counts how deeply elements nest, without void elements, optional end tags, comments or scripts in HTML', () => {
    expect(nestingDepth('<div><p>a<p>b<br><img src="x>"><span>c</span></div>', { html: true })).toBe(2);
    expect(nestingDepth(`<!-- ${nested(50)} --><script>${'<div>'.repeat(50)}</script><b>x</b>`, { html: true })).toBe(1);
    expect(nestingDepth('<a><b/><c><d/></c></a>', { html: false })).toBe(2);
    expect(nestingDepth(nested(1000), { html: true, stopAt: 10 })).toBe(11);
  });
});

describe('structural bounds of the parsers', () => {
  it('fails HTML, Markdown and DOCX nested deeper than the limit as too large, and accepts them just within it', async () => {
    const reason = `The file is too large to import (limit ${MAX_NESTING_DEPTH} levels of nesting)`;
    for (const [fileName, bytes] of [
      ['deep.html', enc.encode(`<html><body>${nested(MAX_NESTING_DEPTH + 1)}</body></html>`)],
      ['deep.md', enc.encode(`# Deep\n\n${nested(MAX_NESTING_DEPTH + 1)}\n`)],
      ['deep.docx', writeDocx(`${'<w:sdt><w:sdtContent>'.repeat(MAX_NESTING_DEPTH)}<w:p/>${'</w:sdtContent></w:sdt>'.repeat(MAX_NESTING_DEPTH)}`)],
    ] as const) {
      expect(await parseDocument({ bytes, fileName }), fileName).toMatchObject({ ok: false, code: 'too-large', reason: expect.stringContaining(reason) });
    }
    // <html> and <body> have optional end tags and do not count: 510 nested divs are within the limit.
    expect(await parseDocument({ bytes: enc.encode(`<html><body>${nested(MAX_NESTING_DEPTH - 2)}</body></html>`), fileName: 'ok.html' })).toMatchObject({ ok: true });
  });

  it('fails a DOCX whose parts inflate past the limit, whatever sizes its archive declares', async () => {
    const body = Buffer.concat([Buffer.from('<w:p><w:r><w:t>'), Buffer.alloc(70 * 1024 * 1024, 0x41), Buffer.from('</w:t></w:r></w:p>')]);
    const bomb = writeDocx(body);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(await parseDocument({ bytes: bomb, fileName: 'bomb.docx' })).toEqual({
      ok: false,
      code: 'too-large',
      reason: 'The file is too large to import (limit 64 MB of text parts): its parts inflate to more than that.',
    });
    expect(await parseDocument({ bytes: writeDocx('<w:p><w:r><w:t>The H-7 heater draws 1500 W.</w:t></w:r></w:p>'), fileName: 'ok.docx' })).toMatchObject({
      ok: true,
      doc: { text: expect.stringContaining('The H-7 heater draws 1500 W.') },
    });
  });
});
