import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { cp, mkdir, readFile, readdir, readlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { corpusRoots, repoRoot, tempDir } from '../helpers/temp';
import { runNode } from '../helpers/run-node';
import { startMoto, type MotoServer } from '../helpers/moto';
import { leavingHost, recordedIn, socketRecorder } from '../helpers/sockets';

/**
 * The team library end to end, as people use it: real CLI processes, a real S3 server (moto on
 * 127.0.0.1), two data folders standing for the publisher's computer and a technician's laptop.
 * Every process records the connections it opens; none may leave 127.0.0.1.
 */

const bin = path.join(repoRoot, 'bin', 'manualmate.mjs');
const BUCKET = 'team-manuals';
const SOURCE = `s3://${BUCKET}/field`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let moto: MotoServer;
let tmp: { dir: string; cleanup: () => Promise<void> };
let socketsFile: string;
let publisher: string;
let laptop: string;
let manuals: string;

/** Runs the CLI as a user does, with the AWS variables of the moto server (or `env` over them). */
function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return runNode(['--import', socketRecorder, bin, ...args], { env: { ...moto.env, ...env, RECORD_SOCKETS_TO: socketsFile } });
}

async function json<T>(args: string[], env: Record<string, string> = {}): Promise<T> {
  const r = await cli([...args, '--json'], env);
  if (r.code !== 0) throw new Error(`manualmate ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

interface SearchJson {
  results: { doc: string; text: string }[];
}
interface Manifest {
  version: number;
  formatVersion: number;
  files: { path: string; size: number; sha256: string }[];
}

async function bucketObject(key: string): Promise<Buffer> {
  const res = await moto.client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return Buffer.from(await res.Body!.transformToByteArray());
}

async function manifestOf(version: number): Promise<Manifest> {
  return JSON.parse((await bucketObject(`field/versions/${String(version).padStart(10, '0')}.json`)).toString('utf8')) as Manifest;
}

async function versionsInBucket(): Promise<number[]> {
  const res = await moto.client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'field/versions/' }));
  return (res.Contents ?? []).map((o) => Number(/(\d+)\.json$/.exec(o.Key!)![1]));
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const FUSE_V1 = '# RAC-225B service manual\n\n## Fuses\n\nThe RAC-225B takes a 10 A slow-blow fuse on the control board.\n';
const FUSE_V2 = '# RAC-225B service manual\n\n## Fuses\n\nFrom serial 2400 on, the RAC-225B takes a 12 A slow-blow fuse on the control board.\n';

beforeAll(async () => {
  moto = await startMoto();
  await moto.createBucket(BUCKET);
  tmp = await tempDir('manualmate-team-');
  socketsFile = path.join(tmp.dir, 'sockets.txt');
  publisher = path.join(tmp.dir, 'publisher');
  laptop = path.join(tmp.dir, 'laptop');
  manuals = path.join(tmp.dir, 'manuals');
  await cp(path.join(corpusRoots.fixture, 'esp-dev-kits'), path.join(manuals, 'esp-dev-kits'), { recursive: true });
  await mkdir(path.join(manuals, 'service'), { recursive: true });
  await writeFile(path.join(manuals, 'service', 'rac-225b.md'), FUSE_V1);
}, 120_000);

afterAll(async () => {
  await moto?.stop();
  await tmp?.cleanup();
});

describe('a team library on object storage', { timeout: 180_000 }, () => {
  it('publishes a library as version 1: every file by content, and a manifest listing them', async () => {
    const imported = await cli(['import', path.join(manuals, 'esp-dev-kits'), path.join(manuals, 'service'), '--library', 'Field', '--data-dir', publisher]);
    expect(imported.code, imported.stderr).toBe(0);
    const p = await json<{ version: number; files: number; uploadedFiles: number }>(['publish', '--library', 'Field', '--to', SOURCE, '--data-dir', publisher]);
    expect(p.version).toBe(1);
    const m = await manifestOf(1);
    expect(m.files.length).toBe(p.files);
    expect(m.files.map((f) => f.path)).toEqual(expect.arrayContaining(['library.json', 'documents.json', 'enrichment.json']));
    // The originals, small ones packed per import batch (originals/pack-*.bin): format 2, which
    // subscribers from before packs refuse in words instead of misreading.
    expect(m.files.some((f) => /^originals\/pack-/.test(f.path))).toBe(true);
    expect(m.formatVersion).toBe(2);
    expect(m.files.some((f) => f.path.startsWith('index/') && f.path.endsWith('.lance'))).toBe(true);
    expect(m.files.some((f) => f.path.startsWith('normalized/'))).toBe(true);
    // What stays on the publisher's computer: its lock, journal and conversations.
    expect(m.files.filter((f) => /^(write\.lock|journal\.json|conversations\/)/.test(f.path))).toEqual([]);
    expect(p.uploadedFiles).toBe(new Set(m.files.map((f) => f.sha256)).size);
  });

  it('subscribes from a second data folder: a read-only copy that searches like the original', async () => {
    const s = await json<{ version: number; fetchedFiles: number; changed: boolean }>(['subscribe', SOURCE, '--library', 'Team', '--data-dir', laptop]);
    expect(s).toMatchObject({ version: 1, changed: true });
    expect(s.fetchedFiles).toBe((await manifestOf(1)).files.length);
    const query = ['search', 'What fuse does the RAC-225B take?', '--top-k', '3'];
    const original = await json<SearchJson>([...query, '--library', 'Field', '--data-dir', publisher]);
    const copy = await json<SearchJson>([...query, '--library', 'Team', '--data-dir', laptop]);
    expect(copy.results[0]!.text).toContain('10 A slow-blow');
    expect(copy.results.map((r) => r.doc)).toEqual(original.results.map((r) => r.doc));
    const listed = await json<{ libraries: { name: string; subscription?: { source: string; version: number; newerAvailable: boolean } }[] }>(['libraries', '--data-dir', laptop]);
    expect(listed.libraries[0]).toMatchObject({ name: 'Team', subscription: { source: SOURCE, version: 1, newerAvailable: false } });
  });

  it('refuses imports into the subscribed library and says where local manuals go', async () => {
    const r = await cli(['import', path.join(manuals, 'service'), '--library', 'Team', '--data-dir', laptop]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('read-only');
    expect(r.stderr).toContain('separate library');
    const reindex = await cli(['reindex', '--library', 'Team', '--data-dir', laptop]);
    expect(reindex.code).toBe(1);
    expect(reindex.stderr).toContain('read-only');
    // Nothing was written into the copy: it still holds exactly what version 1 published.
    const docs = await json<{ documents: { id: string }[] }>(['documents', '--library', 'Team', '--data-dir', laptop]);
    const published = await json<{ documents: { id: string }[] }>(['documents', '--library', 'Field', '--data-dir', publisher]);
    expect(docs.documents.map((d) => d.id)).toEqual(published.documents.map((d) => d.id));
  });

  it('publishes a changed manual as version 2, uploading and then syncing only the new files', async () => {
    await writeFile(path.join(manuals, 'service', 'rac-225b.md'), FUSE_V2);
    const imported = await cli(['import', path.join(manuals, 'service'), '--library', 'Field', '--data-dir', publisher]);
    expect(imported.code, imported.stderr).toBe(0);
    const p = await json<{ version: number; files: number; uploadedFiles: number }>(['publish', '--library', 'Field', '--to', SOURCE, '--data-dir', publisher]);
    expect(p.version).toBe(2);
    const [v1, v2] = [await manifestOf(1), await manifestOf(2)];
    const inV1 = new Set(v1.files.map((f) => f.sha256));
    const newContents = new Set(v2.files.filter((f) => !inV1.has(f.sha256)).map((f) => f.sha256));
    expect(p.uploadedFiles).toBe(newContents.size);
    expect(p.uploadedFiles).toBeLessThan(p.files / 2);

    const before = await json<{ libraries: { subscription: { newerAvailable: boolean } }[] }>(['libraries', '--data-dir', laptop]);
    expect(before.libraries[0]!.subscription.newerAvailable).toBe(false);
    const s = await json<{ version: number; previousVersion: number; fetchedFiles: number; reusedFiles: number }>(['sync', '--library', 'Team', '--data-dir', laptop]);
    expect(s).toMatchObject({ version: 2, previousVersion: 1 });
    // Fetched: the files whose content version 1 did not have (and library.json, made local on
    // the laptop, so never reusable); every other file was kept from the local copy.
    const expectedFetched = v2.files.filter((f) => !inV1.has(f.sha256) || f.path === 'library.json').length;
    expect(s.fetchedFiles).toBe(expectedFetched);
    expect(s.reusedFiles).toBe(v2.files.length - expectedFetched);
    const hit = await json<SearchJson>(['search', 'What fuse does the RAC-225B take?', '--top-k', '1', '--library', 'Team', '--data-dir', laptop]);
    expect(hit.results[0]!.text).toContain('12 A slow-blow');
    const again = await json<{ changed: boolean; fetchedFiles: number }>(['sync', '--library', 'Team', '--data-dir', laptop]);
    expect(again).toMatchObject({ changed: false, fetchedFiles: 0 });
  });

  it('keeps the current version when a file in the bucket does not match its manifest', async () => {
    // A third version whose new manual is damaged in the bucket after publishing.
    await writeFile(path.join(manuals, 'service', 'rac-225b.md'), `${FUSE_V2}\n## Filters\n\nClean the filter every 200 hours.\n`);
    expect((await cli(['import', path.join(manuals, 'service'), '--library', 'Field', '--data-dir', publisher])).code).toBe(0);
    expect((await json<{ version: number }>(['publish', '--library', 'Field', '--to', SOURCE, '--data-dir', publisher])).version).toBe(3);
    const [v2, v3] = [await manifestOf(2), await manifestOf(3)];
    // The re-imported manual's original: the one file under originals/ that v3 adds (its batch's pack).
    const added = v3.files.filter((f) => f.path.startsWith('originals/') && !v2.files.some((o) => o.sha256 === f.sha256));
    expect(added.length).toBe(1);
    const original = added[0]!;
    const key = `field/objects/${original.sha256.slice(0, 2)}/${original.sha256}`;
    const good = await bucketObject(key);
    await moto.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: Buffer.from('tampered') }));
    const r = await cli(['sync', '--library', 'Team', '--data-dir', laptop]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('does not match its manifest');
    const listed = await json<{ libraries: { subscription: { version: number } }[] }>(['libraries', '--data-dir', laptop]);
    expect(listed.libraries[0]!.subscription.version).toBe(2);
    // No half-fetched version was left beside the copy, and the copy still searches.
    const subs = path.join(laptop, 'subscriptions');
    const [id] = await readdir(subs);
    expect((await readdir(path.join(subs, id!))).filter((e) => e.startsWith('.staging'))).toEqual([]);
    expect(await readlink(path.join(laptop, 'libraries', id!))).toContain('v2');
    const hit = await json<SearchJson>(['search', 'RAC-225B fuse', '--top-k', '1', '--library', 'Team', '--data-dir', laptop]);
    expect(hit.results[0]!.text).toContain('12 A slow-blow');
    // An object larger than its manifest says is cut off as it arrives, not written to the end.
    await moto.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: Buffer.concat([good, Buffer.alloc(2 * 1024 * 1024, 'x')]) }));
    const big = await cli(['sync', '--library', 'Team', '--data-dir', laptop]);
    expect(big.code).toBe(1);
    expect(big.stderr).toContain('larger than expected');
    expect((await readdir(path.join(subs, id!))).filter((e) => e.startsWith('.staging'))).toEqual([]);
    // Repaired in the bucket, the sync goes through.
    await moto.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: good }));
    expect((await json<{ version: number }>(['sync', '--library', 'Team', '--data-dir', laptop])).version).toBe(3);
  });

  it('lets two concurrent publishers make distinct, complete versions (or refuses one): the bucket is never corrupt', async () => {
    // A second publisher's computer: a copy of the library with another change.
    const second = path.join(tmp.dir, 'second');
    await cp(publisher, second, { recursive: true });
    const otherManual = path.join(tmp.dir, 'other', 'pump.md');
    await mkdir(path.dirname(otherManual), { recursive: true });
    await writeFile(otherManual, '# P-40 pump manual\n\n## Seals\n\nReplace the P-40 shaft seal every 2000 hours.\n');
    expect((await cli(['import', otherManual, '--library', 'Field', '--data-dir', second])).code).toBe(0);
    const before = Math.max(...(await versionsInBucket()));
    const [a, b] = await Promise.all([
      cli(['publish', '--library', 'Field', '--to', SOURCE, '--data-dir', publisher, '--json']),
      cli(['publish', '--library', 'Field', '--to', SOURCE, '--data-dir', second, '--json']),
    ]);
    const won = [a, b].filter((r) => r.code === 0).map((r) => (JSON.parse(r.stdout) as { version: number }).version);
    const lost = [a, b].filter((r) => r.code !== 0);
    expect(won.length).toBeGreaterThanOrEqual(1);
    for (const r of lost) {
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('nothing was overwritten');
    }
    // Distinct, consecutive versions; each manifest complete: every file it lists is in the
    // bucket with its size and hash.
    expect(new Set(won).size).toBe(won.length);
    const versions = (await versionsInBucket()).sort((x, y) => x - y);
    expect(versions).toEqual(Array.from({ length: before + won.length }, (_, i) => i + 1));
    for (const v of versions.filter((x) => x > before)) {
      for (const f of (await manifestOf(v)).files) {
        const body = await bucketObject(`field/objects/${f.sha256.slice(0, 2)}/${f.sha256}`);
        expect({ path: f.path, size: body.length, sha256: sha(body) }).toEqual({ path: f.path, size: f.size, sha256: f.sha256 });
      }
    }
    const synced = await json<{ version: number }>(['sync', '--library', 'Team', '--data-dir', laptop]);
    expect(synced.version).toBe(Math.max(...versions));
  });

  it('searches offline with the server stopped, and a sync says it cannot reach the storage', async () => {
    await moto.stop();
    const hit = await json<SearchJson>(['search', 'What fuse does the RAC-225B take?', '--top-k', '1', '--library', 'Team', '--data-dir', laptop]);
    expect(hit.results[0]!.text).toContain('12 A slow-blow');
    const r = await cli(['sync', '--library', 'Team', '--data-dir', laptop]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Cannot reach the object storage');
    const listed = await json<{ libraries: { subscription: { checkError: string | null } }[] }>(['libraries', '--data-dir', laptop]);
    expect(listed.libraries[0]!.subscription.checkError).toContain('Cannot reach');
  });

  it('opened no connection that leaves 127.0.0.1, in any process', async () => {
    const targets = await recordedIn(socketsFile);
    expect(targets.length).toBeGreaterThan(10);
    expect(leavingHost(targets)).toEqual([]);
    expect(new Set(targets)).toEqual(new Set([`127.0.0.1:${moto.port}`]));
    expect(JSON.parse(await readFile(path.join(laptop, 'remote.json'), 'utf8').catch(() => 'null'))).toBeNull();
  });
});
