// Issue 19: the defects found on real vendor manuals, each rebuilt as a generated PDF.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { writePdf } from '../../fixtures/pdf-writer';

describe('pdfParser on a running process', () => {
  // In its own Node process: vitest may load pdf.js in a realm of its own, where the polyfill would
  // replace another Array.prototype than the engine's.
  it('leaves Array.prototype.push native after loading pdf.js (its polyfill slowed every array in the engine)', () => {
    const parser = path.resolve(import.meta.dirname, '../../../src-main/ingest/parsers/pdf.parser.ts');
    const script = [
      'const native = Array.prototype.push;',
      `const { pdfParser } = await import(${JSON.stringify(pathToFileURL(parser).href)});`,
      `const r = await pdfParser.parse({ bytes: new Uint8Array(Buffer.from(${JSON.stringify(Buffer.from(writePdf([{ runs: [{ x: 72, y: 700, text: 'Any text.' }] }])).toString('base64'))}, 'base64')), fileName: 'a.pdf' });`,
      `console.log(JSON.stringify({ ok: r.ok, native: Array.prototype.push === native }));`,
    ].join('\n');
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    const result = JSON.parse(out.trim().split('\n').pop()!) as { ok: boolean; native: boolean };
    expect(result.ok).toBe(true);
    // core-js makes its replacement print as "[native code]", so only identity tells them apart.
    expect(result.native).toBe(true);
  });
});
