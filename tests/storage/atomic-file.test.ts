import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isStrayTemp, sweepTempFiles, tempName, writeFileAtomic } from '../../src-main/storage/atomic-file';
import { tempDir } from '../helpers/temp';

/** A pid that ran and ended, so no process has it now (until the kernel reuses it). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return child.pid!;
}

describe('atomic writes', () => {
  it('fit the temp name into 255 bytes, so a file whose own name nearly fills it is written', async () => {
    const tmp = await tempDir();
    try {
      // 251 bytes, one with two-byte characters where the temp name is cut.
      const names = [`${'é'.repeat(120)}${'a'.repeat(8)}.md`, `${'a'.repeat(248)}.md`];
      for (const n of names) expect(Buffer.byteLength(n)).toBe(251);
      for (const n of names) {
        const t = tempName(n);
        expect(Buffer.byteLength(t)).toBeLessThanOrEqual(255);
        expect(t.endsWith('.tmp')).toBe(true);
        expect(t).not.toContain('\ufffd');
        await writeFileAtomic(path.join(tmp.dir, n), 'content', { durable: false });
        expect(await readFile(path.join(tmp.dir, n), 'utf8')).toBe('content');
      }
    } finally {
      await tmp.cleanup();
    }
  });

  it('makes the missing folders of a file, writes into existing ones, and reports a path it cannot make', async () => {
    const tmp = await tempDir();
    try {
      const deep = path.join(tmp.dir, 'originals', 'a', 'b', 'manual.md');
      await writeFileAtomic(deep, 'first', { durable: false });
      await writeFileAtomic(path.join(path.dirname(deep), 'second.md'), 'second', { durable: false });
      expect(await readFile(deep, 'utf8')).toBe('first');
      expect((await readdir(path.dirname(deep))).sort()).toEqual(['manual.md', 'second.md']);
      // A file where a folder should be: the error is the file system's, and nothing is left behind.
      await expect(writeFileAtomic(path.join(deep, 'inside.md'), 'x', { durable: false })).rejects.toMatchObject({ code: 'ENOTDIR' });
      expect((await readdir(path.dirname(deep))).sort()).toEqual(['manual.md', 'second.md']);
    } finally {
      await tmp.cleanup();
    }
  });

  it('sweeps the temp files of writers that are gone and keeps those of running ones', async () => {
    const tmp = await tempDir();
    try {
      const dead = deadPid();
      const live = tempName('documents.json');
      const stray = `.documents.json.${dead}.0123abcd.tmp`;
      const legacy = '.old-format.tmp';
      for (const n of [live, stray, legacy, 'documents.json']) await writeFile(path.join(tmp.dir, n), 'x');
      expect(isStrayTemp(live)).toBe(false);
      expect(isStrayTemp(stray)).toBe(true);
      await sweepTempFiles(tmp.dir);
      expect((await readdir(tmp.dir)).sort()).toEqual([live, 'documents.json'].sort());
    } finally {
      await tmp.cleanup();
    }
  });
});
