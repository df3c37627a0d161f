import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { pdfParser } from '../../../src-main/ingest/parsers/pdf.parser';
import { writePdf } from '../../fixtures/pdf-writer';

/**
 * AES-256 (revision 6) PDFs, as vendors' datasheets often are: no user password, an owner password
 * that restricts printing. pdf.js hashes the password (ISO 32000-2 Algorithm 2.B) in JavaScript;
 * patches/pdfjs-dist+5.6.205.patch hashes with Node's crypto where it exists. Each file is read
 * three ways: poppler (the fixture's encryption is real), pdf.js with the patch's native hash, and
 * pdf.js's own JavaScript hash; all must read the same text.
 */

const tmp = mkdtempSync(path.join(os.tmpdir(), 'pdf-r6-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const TEXT = 'Torque the terminal screws to 1.2 Nm.';

function sealed(seed: number, userPassword = ''): Uint8Array {
  return writePdf([{ runs: [{ x: 72, y: 700, text: TEXT }] }], { title: 'Sealed service notes', aes256: { userPassword, ownerPassword: 'owner-secret', seed } });
}

function poppler(pdf: Uint8Array, args: string[] = []): string {
  const file = path.join(tmp, 'sealed.pdf');
  writeFileSync(file, pdf);
  try {
    return execFileSync('pdftotext', [...args, file, '-'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('pdftotext is not installed; install the apt package poppler-utils.');
    throw err;
  }
}

/** Makes pdf.js find no `node:crypto`, so it hashes in JavaScript as it does unpatched; returns the spy. */
function withoutNodeCrypto() {
  const real = process.getBuiltinModule.bind(process);
  return vi.spyOn(process, 'getBuiltinModule').mockImplementation(((id: string) => (id === 'node:crypto' ? undefined : real(id))) as typeof process.getBuiltinModule);
}

describe('AES-256 (revision 6) PDFs', () => {
  // Different salts make the hash run a different number of rounds (64 and more).
  it.each([0, 1, 2, 3])('reads the text with the native hash and with pdf.js\'s own, as poppler does (salts %i)', async (seed) => {
    const pdf = sealed(seed);
    expect(poppler(pdf)).toBe(TEXT);
    const asked = vi.spyOn(process, 'getBuiltinModule');
    const native = await pdfParser.parse({ bytes: pdf, fileName: 'sealed.pdf' });
    // The patch is installed (npm ci's postinstall) and took the native path.
    expect(asked.mock.calls.map((c) => c[0])).toContain('node:crypto');
    vi.restoreAllMocks();
    withoutNodeCrypto();
    const script = await pdfParser.parse({ bytes: pdf, fileName: 'sealed.pdf' });
    for (const result of [native, script]) {
      expect(result.ok && result.doc.text.trim()).toBe(TEXT);
      expect(result.ok && result.doc.title).toBe('Sealed service notes');
    }
  });

  it('reports a file that needs a user password as password-protected, either way', async () => {
    const pdf = sealed(5, 'hunter2');
    expect(poppler(pdf, ['-upw', 'hunter2'])).toBe(TEXT);
    expect(await pdfParser.parse({ bytes: pdf, fileName: 'sealed.pdf' })).toMatchObject({ ok: false, code: 'encrypted' });
    withoutNodeCrypto();
    expect(await pdfParser.parse({ bytes: pdf, fileName: 'sealed.pdf' })).toMatchObject({ ok: false, code: 'encrypted' });
  });
});
