import { describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { listLibraryFiles, manifestFormatVersion, objectKey, parseManifest, versionKey, versionOfKey } from '../../../src-main/storage/remote/manifest';
import { tempDir } from '../../helpers/temp';

const SHA = 'a'.repeat(64);

function manifest(files: { path: string; size?: number; sha256?: string }[], extra: Record<string, unknown> = {}) {
  return Buffer.from(
    JSON.stringify({
      format: 'manualmate-library',
      formatVersion: 1,
      version: 3,
      publishedAt: '2026-01-01T00:00:00.000Z',
      basedOn: 2,
      publisher: { host: 'bench-1', app: 'ManualMate 0.1.0' },
      library: { name: 'Pumps' },
      files: files.map((f) => ({ size: 1, sha256: SHA, ...f })),
      ...extra,
    }),
  );
}

const base = [{ path: 'library.json' }, { path: 'documents.json' }];

describe('parseManifest (bytes from a bucket, untrusted)', () => {
  it('accepts a library manifest', () => {
    const r = parseManifest(manifest([...base, { path: 'index/chunks.lance/data/x.lance' }]), 3);
    expect(r).toMatchObject({ ok: true, value: { version: 3, files: [{ path: 'library.json' }, { path: 'documents.json' }, { path: 'index/chunks.lance/data/x.lance' }] } });
  });

  it('reads format versions 1 and 2 and refuses a newer one in words', () => {
    expect(parseManifest(manifest(base, { formatVersion: 2 }), 3)).toMatchObject({ ok: true, value: { formatVersion: 2 } });
    expect(parseManifest(manifest(base, { formatVersion: 3 }), 3)).toMatchObject({ ok: false, error: { code: 'corrupt', message: expect.stringContaining('formatVersion') } });
  });

  it('publishes format version 2 only for a library holding packs (older subscribers would misread them)', () => {
    expect(manifestFormatVersion([...base, { path: 'originals/service/rac-225b.pdf' }, { path: 'normalized/' + SHA + '.json' }])).toBe(1);
    expect(manifestFormatVersion([...base, { path: 'originals/pack-0123456789abcdef.bin' }])).toBe(2);
    expect(manifestFormatVersion([...base, { path: 'normalized/pack-0123456789abcdef.jsonl' }])).toBe(2);
    // A document whose own file name begins with "pack-" deeper in the tree is no pack.
    expect(manifestFormatVersion([...base, { path: 'originals/docs/pack-list.md' }])).toBe(1);
  });

  it('refuses paths that would write outside the library folder or over its local files', () => {
    for (const bad of ['../escape', 'originals/../../escape', '/etc/passwd', 'a\\b', 'originals//x', '.hidden', 'originals/./x']) {
      expect(parseManifest(manifest([...base, { path: bad }]), 3), bad).toMatchObject({ ok: false, error: { code: 'corrupt' } });
    }
  });

  it("refuses files that belong to one computer and are never published (conversations, the journal, the lock)", () => {
    for (const local of ['conversations/c1.json', 'journal.json', 'write.lock', 'index.next/x.lance', 'index.old/x.lance']) {
      expect(parseManifest(manifest([...base, { path: local }]), 3), local).toMatchObject({ ok: false, error: { code: 'corrupt', message: expect.stringContaining('never published') } });
    }
  });

  it('refuses a manifest under another version, duplicates, files inside files and a missing library.json', () => {
    expect(parseManifest(manifest(base), 4)).toMatchObject({ ok: false, error: { code: 'corrupt' } });
    expect(parseManifest(manifest([...base, { path: 'documents.json' }]), 3)).toMatchObject({ ok: false, error: { message: expect.stringContaining('twice') } });
    expect(parseManifest(manifest([...base, { path: 'a' }, { path: 'a/b' }]), 3)).toMatchObject({ ok: false, error: { message: expect.stringContaining('inside a file') } });
    expect(parseManifest(manifest([{ path: 'documents.json' }]), 3)).toMatchObject({ ok: false, error: { message: expect.stringContaining('library.json') } });
    expect(parseManifest(manifest([...base, { path: 'x', sha256: 'nope' }]), 3)).toMatchObject({ ok: false });
    expect(parseManifest(Buffer.from('{'), 3)).toMatchObject({ ok: false, error: { code: 'corrupt' } });
  });

  it('names versions so the bucket lists them in order, and reads them back', () => {
    expect(versionKey('team/pumps', 7)).toBe('team/pumps/versions/0000000007.json');
    expect(versionKey('', 12)).toBe('versions/0000000012.json');
    expect(versionOfKey('team/pumps', 'team/pumps/versions/0000000007.json')).toBe(7);
    expect(versionOfKey('team/pumps', 'team/pumps/versions/latest.json')).toBeNull();
    expect(versionOfKey('team', 'team/pumps/versions/0000000007.json')).toBeNull();
    expect(objectKey('p', SHA)).toBe(`p/objects/aa/${SHA}`);
  });
});

describe('listLibraryFiles', () => {
  it("lists what a library publishes and leaves this computer's files out", async () => {
    const tmp = await tempDir();
    try {
      const files: Record<string, string> = {
        'library.json': '{}',
        'documents.json': '{}',
        'enrichment.json': '{}',
        'originals/a/manual.md': '# A',
        'normalized/abc.json': '{}',
        'index/chunks.lance/data/1.lance': 'x',
        'write.lock': '{}',
        'journal.json': '{}',
        'conversations/c1.json': '{}',
        'index.next/chunks.lance/data/2.lance': 'x',
        'index.old/chunks.lance/data/0.lance': 'x',
        '.library.json.123.abcd1234.tmp': '{}',
        'originals/.hidden': 'x',
      };
      for (const [rel, body] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(tmp.dir, rel)), { recursive: true });
        await writeFile(path.join(tmp.dir, rel), body);
      }
      expect((await listLibraryFiles(tmp.dir)).map((f) => f.path)).toEqual([
        'documents.json',
        'enrichment.json',
        'index/chunks.lance/data/1.lance',
        'library.json',
        'normalized/abc.json',
        'originals/a/manual.md',
      ]);
    } finally {
      await tmp.cleanup();
    }
  });
});
