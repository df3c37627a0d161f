import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isPermanentImportFailure } from '../../src-main/core/result';
import { useTempEngine } from '../helpers/temp-engine';

const t = useTempEngine();

/**
 * An import's failures carry their kind, so the app offers Retry only where another try may pass:
 * a damaged file or a format ManualMate does not read fails the same way every time, a file that
 * could not be read (a drive unplugged, a share gone) may not.
 */
describe('the kind of each failed file of an import', () => {
  it('reports a code for a damaged file, an unread format and a missing file, and lists the damaged one with it', async () => {
    const damaged = path.join(t.dir, 'damaged.pdf');
    const other = path.join(t.dir, 'notes.xyz');
    await writeFile(damaged, '%PDF-1.4\nthis file was cut off in transfer');
    await writeFile(other, 'not a manual');
    const missing = path.join(t.dir, 'gone.md');
    const res = await t.engine.importPaths('Shop', [damaged, other, missing]);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    const codes = Object.fromEntries(res.value.results.map((r) => [r.file, [r.status, r.code]]));
    expect(codes).toEqual({ 'damaged.pdf': ['failed', 'corrupt'], 'notes.xyz': ['failed', 'unsupported'], 'gone.md': ['failed', 'unreadable'] });
    expect(res.value.results.map((r) => isPermanentImportFailure(r.code))).toEqual([true, true, false]);

    const docs = await t.engine.handlers['documents.list']({ library: 'Shop' });
    expect(docs.ok && docs.value.find((d) => d.id === 'damaged.pdf')?.code).toBe('corrupt');
  });

  it('gives a file that imports no code', async () => {
    const file = path.join(t.dir, 'pump.md');
    await writeFile(file, '# RAC-225B\n\nThe RAC-225B takes a 5 A fuse.\n');
    const res = await t.engine.importPaths('Shop', [file]);
    expect(res.ok && res.value.results).toEqual([{ file: 'pump.md', status: 'imported' }]);
    const docs = await t.engine.handlers['documents.list']({ library: 'Shop' });
    expect(docs.ok && docs.value.find((d) => d.id === 'pump.md')).not.toHaveProperty('code');
  });
});
