import { mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openS3Store, REMOTE_TIMEOUTS, type ObjectStore } from '../../../src-main/storage/remote/object-store';

/**
 * A stand-in S3 endpoint on 127.0.0.1 that answers each PUT with the next status of `statuses`
 * (then 200) and records the bodies it received: the real SDK talks to it, so what is tested is the
 * request the SDK sends again, not a fake of the SDK. (The moto suite, test:s3, covers the rest of
 * the protocol; moto cannot be told to fail one request.)
 */
async function flakyEndpoint(statuses: number[], early = false): Promise<{ url: string; bodies: string[]; close: () => Promise<void> }> {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    if (early) {
      // Answers before reading the body, as a proxy refusing an upload does.
      bodies.push('');
      res.writeHead(statuses.shift() ?? 500, { Connection: 'close', 'Content-Type': 'application/xml' }).end('<Error><Code>InternalError</Code></Error>');
      req.socket.destroySoon();
      return;
    }
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      if (req.method !== 'PUT') {
        res.writeHead(404).end();
        return;
      }
      bodies.push(Buffer.concat(parts).toString());
      const status = statuses.shift() ?? 200;
      if (status === 200) res.writeHead(200, { ETag: '"x"' }).end();
      else res.writeHead(status, { 'Content-Type': 'application/xml' }).end(`<Error><Code>InternalError</Code><Message>try again</Message></Error>`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, bodies, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('object store uploads', () => {
  let dir = '';
  let store: ObjectStore | null = null;
  let close: (() => Promise<void>) | null = null;
  afterEach(async () => {
    store?.close();
    await close?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function open(statuses: number[], early = false) {
    const endpoint = await flakyEndpoint(statuses, early);
    close = endpoint.close;
    store = await openS3Store({ endpoint: endpoint.url, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } }, 'bucket');
    dir = mkdtempSync(path.join(os.tmpdir(), 'mm-objstore-'));
    return endpoint;
  }

  it('sends a file again, read anew, after a server error', async () => {
    const endpoint = await open([500]);
    const file = path.join(dir, 'chunk.bin');
    writeFileSync(file, 'content-addressed bytes');
    await expect(store!.put('files/abc', { file, size: 23 })).resolves.toBe('written');
    expect(endpoint.bodies).toEqual(['content-addressed bytes', 'content-addressed bytes']);
  });

  it('gives up in words after the allowed attempts', async () => {
    const endpoint = await open([500, 500, 500, 500, 500, 500]);
    const file = path.join(dir, 'chunk.bin');
    writeFileSync(file, 'bytes');
    await expect(store!.put('files/abc', { file, size: 5 })).rejects.toMatchObject({ code: 'unavailable', message: expect.stringContaining('HTTP 500') });
    expect(endpoint.bodies.length).toBe(REMOTE_TIMEOUTS.maxAttempts);
  });

  it('sends a conditional write once: a retry would meet its own object and read it as a rival claim', async () => {
    // The first attempt "lands" but its answer is a 500; a retry would get 412 and report 'exists'.
    const endpoint = await open([500, 412]);
    await expect(store!.put('versions/1.json', Buffer.from('{"v":1}'), { ifNoneMatch: true })).rejects.toMatchObject({ code: 'unavailable' });
    expect(endpoint.bodies).toEqual(['{"v":1}']);
  });

  it.runIf(process.platform === 'linux')('closes the file of every failed attempt', async () => {
    await open(Array.from({ length: 20 }, () => 500), true);
    const file = path.join(dir, 'chunk.bin');
    writeFileSync(file, 'x'.repeat(256 * 1024));
    const openFds = () => readdirSync('/proc/self/fd').filter((fd) => { try { return readlinkSync(`/proc/self/fd/${fd}`) === file; } catch { return false; } }).length;
    for (let k = 0; k < 5; k++) await store!.put('files/big', { file, size: 256 * 1024 }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 50));
    expect(openFds()).toBe(0);
  });
});
