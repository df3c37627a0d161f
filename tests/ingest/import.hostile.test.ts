import { describe, expect, it } from 'vitest';
import { mkdir, open, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Document, Packer, Paragraph } from 'docx';
import { createEngine } from '../../src-main/engine/engine';
import { repoRoot, tempDir } from '../helpers/temp';
import { runNode, type NodeRun } from '../helpers/run-node';
import { writeDocx } from '../helpers/zip';

/**
 * A batch of hostile files next to good ones, imported by the real CLI in its own process: each
 * hostile file fails alone with its reason, the good files import, the JSON summary is printed
 * and the process exits 1, within a bounded peak memory (a resource check, not a timing).
 */

const bin = path.join(repoRoot, 'bin', 'manualmate.mjs');
const peakRss = path.join(repoRoot, 'tests', 'helpers', 'peak-rss.mjs');

function run(args: string[]): Promise<NodeRun> {
  return runNode(['--import', pathToFileURL(peakRss).href, bin, ...args]);
}

/** Writes `mb` MB of ordinary text lines without holding them in memory. */
async function writeBigText(file: string, mb: number): Promise<void> {
  const line = 'The RAC-225B compressor relay is checked every 500 hours; replace the fuse with a 10 A slow-blow type.\n';
  const block = Buffer.from(line.repeat(Math.ceil((1024 * 1024) / line.length)));
  const handle = await open(file, 'w');
  try {
    for (let written = 0; written < mb * 1024 * 1024; written += block.length) await handle.write(block);
  } finally {
    await handle.close();
  }
}

describe('a batch of hostile files', () => {
  it(
    'imports its good files, fails each hostile one alone, prints its JSON summary and exits 1 under 2 GB of peak memory',
    { timeout: 180_000 },
    async () => {
      const tmp = await tempDir();
      try {
        const folder = path.join(tmp.dir, 'batch');
        await mkdir(folder, { recursive: true });
        await writeFile(path.join(folder, 'good.md'), '# RAC-225B service\n\nThe RAC-225B takes a 10 A slow-blow fuse.\n');
        await writeFile(path.join(folder, 'notes.txt'), 'Pump P-200\n\nThe impeller torque is 42 Nm.\n');
        const docx = await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph('The heater H-7 draws 1500 W at 230 V.')] }] }));
        await writeFile(path.join(folder, 'heater.docx'), docx);
        // Mostly UTF-8 with two stray Latin-1 bytes: decoded as UTF-8 with U+FFFD, not as Windows-1252.
        await writeFile(path.join(folder, 'cafe.md'), Buffer.concat([Buffer.from('# Café crème\n\nThe café machine — model CM-3 — descales in 20 min. '), Buffer.from([0xe9, 0xff]), Buffer.from(' Überprüfung.\n')]));
        await writeBigText(path.join(folder, 'huge.txt'), 200);
        const inflated = Buffer.concat([Buffer.from('<w:p><w:r><w:t>'), Buffer.alloc(100 * 1024 * 1024, 0x41), Buffer.from('</w:t></w:r></w:p>')]);
        await writeFile(path.join(folder, 'bomb.docx'), writeDocx(inflated));
        await writeFile(path.join(folder, 'deep.docx'), writeDocx(`${'<w:sdt><w:sdtContent>'.repeat(50_000)}<w:p/>${'</w:sdtContent></w:sdt>'.repeat(50_000)}`));
        await writeFile(path.join(folder, 'deep.html'), `<html><body>${'<div>'.repeat(100_000)}deep${'</div>'.repeat(100_000)}</body></html>`);
        await writeFile(path.join(folder, 'deep.md'), `# Deep\n\n${'<div>'.repeat(100_000)}deep${'</div>'.repeat(100_000)}\n`);
        await writeFile(path.join(folder, 'drawing.xyz'), 'not a manual');
        await writeFile(path.join(folder, '.hidden.md'), '# Hidden\n');
        await symlink('/etc/hostname', path.join(folder, 'escape.md'));

        const dataDir = path.join(tmp.dir, 'data');
        const res = await run(['import', folder, '--library', 'Hostile', '--data-dir', dataDir, '--json']);
        expect(res.code, res.stderr).toBe(1);
        const out = JSON.parse(res.stdout.trim().split('\n').pop()!) as {
          results: { file: string; status: string; reason?: string }[];
          skipped: { file: string; reason: string }[];
          summary: Record<string, number>;
        };
        const r = Object.fromEntries(out.results.map((x) => [x.file, x]));
        for (const good of ['good.md', 'notes.txt', 'heater.docx', 'cafe.md']) expect(r[`batch/${good}`], good).toMatchObject({ status: 'imported' });
        expect(r['batch/huge.txt']).toMatchObject({ status: 'failed', reason: 'The file is too large to import (limit 32 MB): it is 200 MB.' });
        expect(r['batch/bomb.docx']).toMatchObject({ status: 'failed', reason: expect.stringContaining('too large to import (limit 64 MB of text parts)') });
        for (const deep of ['deep.docx', 'deep.html', 'deep.md']) {
          expect(r[`batch/${deep}`], deep).toMatchObject({ status: 'failed', reason: expect.stringContaining('too large to import (limit 512 levels of nesting)') });
        }
        expect(out.summary).toMatchObject({ imported: 4, failed: 5, skipped: 3 });
        expect(out.skipped).toEqual([
          { file: 'batch/.hidden.md', reason: 'hidden' },
          { file: 'batch/drawing.xyz', reason: 'unsupported type .xyz' },
          { file: 'batch/escape.md', reason: 'symlink outside the folder' },
        ]);

        const peakKb = Number(/peak-rss-kb: (\d+)/.exec(res.stderr)?.[1]);
        expect(peakKb).toBeGreaterThan(0);
        expect(peakKb / 1024).toBeLessThan(2048);

        const engine = createEngine({ dataDir, bundledModelsDir: path.join(tmp.dir, 'no-models') });
        try {
          const hits = await engine.handlers['search.query']({ library: 'Hostile', query: 'café machine descales', topK: 3, retriever: 'bm25' });
          if (!hits.ok) throw new Error(hits.error.message);
          const text = hits.value.results.find((h) => h.doc === 'batch/cafe.md')?.text ?? '';
          expect(text).toContain('café machine');
          expect(text).toContain('\ufffd');
          expect(text).not.toContain('Ã©');
        } finally {
          await engine.dispose();
        }
      } finally {
        await tmp.cleanup();
      }
    },
  );
});
