import { createReadStream, createWriteStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { CodedError } from '../../core/result';
import type * as S3 from '@aws-sdk/client-s3';
import type { RemoteAccess } from './location';

/**
 * The few object-storage operations a team library needs, on any S3-compatible store, through the
 * AWS SDK (`@aws-sdk/client-s3`, loaded on first use so the CLI's start-up and every command that
 * does not publish or sync never load it). Failures are `CodedError`s in words: 'unavailable'
 * (unreachable, timed out, credentials refused), 'not-found' (no such bucket).
 */
export interface ObjectStore {
  /** The whole object, or null when it does not exist; 'corrupt' when it is larger than `maxBytes`. */
  getBytes(key: string, maxBytes: number): Promise<Buffer | null>;
  /**
   * Streams an object into `file`; returns its size and SHA-256 (hex). Throws 'not-found' when
   * missing and 'corrupt' as soon as more than `maxBytes` arrive (a bucket or proxy sending more
   * than the manifest says must not fill the disk).
   */
  download(key: string, file: string, maxBytes: number): Promise<{ size: number; sha256: string }>;
  /**
   * Writes an object. With `ifNoneMatch`, only when no object has that key (S3's conditional write,
   * `If-None-Match: *`): 'exists' when another writer got there first.
   */
  put(key: string, body: Buffer | { file: string; size: number }, options?: { ifNoneMatch?: boolean }): Promise<'written' | 'exists'>;
  /** The object's size, or null when it does not exist. */
  size(key: string): Promise<number | null>;
  /** Every key under `prefix` (all pages), in S3's order (UTF-8 binary), after `startAfter` when given. */
  list(prefix: string, startAfter?: string): Promise<string[]>;
  close(): void;
}

/**
 * Short, capped waits so an offline laptop answers at once: a connection gets 1 s, a silent
 * socket 10 s (large files stream as long as bytes arrive), and a failed request is tried twice in
 * all. Measured with the server stopped: the CLI answers in well under 2 s.
 */
export const REMOTE_TIMEOUTS = { connectionMs: 1000, socketIdleMs: 10_000, maxAttempts: 2 } as const;

type S3Module = typeof S3;
let s3Module: Promise<S3Module> | null = null;
function loadS3(): Promise<S3Module> {
  // The SDK warns on stderr once per process that its releases from 2027 on need Node 22; the
  // installed one runs on Node 20 (the lockfile pins it), and a user cannot act on the warning.
  process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';
  s3Module ??= import('@aws-sdk/client-s3');
  return s3Module;
}

/**
 * An agent whose connections give up after `REMOTE_TIMEOUTS.connectionMs`. Written here rather
 * than the SDK's own `connectionTimeout`: that timer is not cleared when a connection is refused,
 * so a CLI run against a stopped server waited a further second for it before exiting.
 */
function timedAgent<A extends typeof http.Agent | typeof https.Agent>(Base: A): InstanceType<A> {
  const agent = new Base({ keepAlive: true, maxSockets: 8 }) as InstanceType<A> & { createConnection: (...args: unknown[]) => Duplex };
  const create = agent.createConnection.bind(agent);
  agent.createConnection = (...args: unknown[]) => {
    const socket = create(...args);
    const timer = setTimeout(() => socket.destroy(Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' })), REMOTE_TIMEOUTS.connectionMs);
    timer.unref();
    socket.once('connect', () => clearTimeout(timer));
    socket.once('close', () => clearTimeout(timer));
    return socket;
  };
  return agent;
}

interface SdkError {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

const statusOf = (err: unknown): number | undefined => (err as SdkError).$metadata?.httpStatusCode;

/** Errors that mean the store could not be reached at all (nothing was said by the server). */
function isUnreachable(err: unknown): boolean {
  const e = err as SdkError;
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE'].includes(e.code ?? '') ||
    ['TimeoutError', 'RequestTimeout'].includes(e.name ?? '') ||
    /ECONNREFUSED|ENOTFOUND|ETIMEDOUT|socket hang up|timed out|EHOSTUNREACH|ENETUNREACH/i.test(e.message ?? '')
  );
}

/** A thrown SDK error in words, as a coded error. */
function explain(err: unknown, where: string, key: string): CodedError {
  if (err instanceof CodedError) return err;
  const e = err as SdkError;
  const status = statusOf(err);
  if (isUnreachable(err)) {
    return new CodedError('unavailable', `Cannot reach the object storage at ${where} (${e.code ?? e.name ?? 'no answer'}); the local copy keeps working offline.`);
  }
  if (e.name === 'NoSuchBucket') return new CodedError('not-found', `The bucket of ${key} does not exist at ${where}.`);
  if (status === 403 || ['AccessDenied', 'InvalidAccessKeyId', 'SignatureDoesNotMatch'].includes(e.name ?? '')) {
    return new CodedError('unavailable', `The object storage at ${where} refused access to ${key} (${e.name ?? status}): check the access key in Settings or AWS_ACCESS_KEY_ID.`);
  }
  return new CodedError('unavailable', `The object storage at ${where} failed on ${key}: ${e.name ?? 'error'}${status ? ` (HTTP ${status})` : ''} ${e.message ?? ''}`.trim());
}

/**
 * Whether a failed upload of a file is tried again. The SDK retries a failed request by sending its
 * body again, which a file stream cannot do (the first attempt read it), so a server error on a
 * file is retried here with the file opened anew. Only unconditional writes are: the files are
 * content-addressed (the same key always holds the same bytes), while a conditional write that
 * failed may have landed, and its retry would read as another writer's claim (see `once`).
 */
function retriesFile(body: Buffer | { file: string }, options: { ifNoneMatch?: boolean }, err: unknown, attempt: number): boolean {
  return !Buffer.isBuffer(body) && !options.ifNoneMatch && attempt < REMOTE_TIMEOUTS.maxAttempts && (statusOf(err) ?? 0) >= 500;
}

/** A logger that says nothing (the SDK writes to the console when given none, or its own no-op one). */
const QUIET_LOGGER = { trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** Opens an S3 client for `access` on `bucket` (lazily loads the SDK). */
export async function openS3Store(access: RemoteAccess, bucket: string): Promise<ObjectStore> {
  const s3 = await loadS3();
  const where = access.endpoint ?? `S3 (${access.region})`;
  const requestHandler = { httpAgent: timedAgent(http.Agent), httpsAgent: timedAgent(https.Agent), requestTimeout: REMOTE_TIMEOUTS.socketIdleMs };
  const clientFor = (maxAttempts: number) =>
    new s3.S3Client({
      region: access.region,
      credentials: access.credentials,
      ...(access.endpoint ? { endpoint: access.endpoint, forcePathStyle: true } : {}),
      maxAttempts,
      requestHandler,
      // Failures reach the user as coded errors in words (`explain`); the SDK's own warnings went
      // to the console ("An error was encountered in a non-retryable streaming request." on each
      // failed file upload, which `put` tries again itself).
      logger: QUIET_LOGGER,
      // Files are verified by their SHA-256 against the manifest; the SDK's extra CRC headers are
      // refused by some S3-compatible stores, so they are sent only where S3 requires them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  const client = clientFor(REMOTE_TIMEOUTS.maxAttempts);
  // A conditional write is sent once: if a first attempt landed and its answer was lost, a retry
  // would meet its own object (412) and report another writer's claim. A failed claim is an error
  // in words; publishing again claims the next version.
  const once = clientFor(1);
  const call = async <T>(key: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      throw explain(err, where, `s3://${bucket}/${key}`);
    }
  };
  const tooBig = (key: string, maxBytes: number) => new CodedError('corrupt', `s3://${bucket}/${key} is larger than expected (more than ${maxBytes} bytes); nothing of it is kept.`);
  const missing = (err: unknown) => statusOf(err) === 404 || (err as SdkError).name === 'NoSuchKey' || (err as SdkError).name === 'NotFound';

  return {
    async getBytes(key, maxBytes) {
      return call(key, async () => {
        try {
          const res = await client.send(new s3.GetObjectCommand({ Bucket: bucket, Key: key }));
          if ((res.ContentLength ?? 0) > maxBytes) {
            (res.Body as Readable | undefined)?.destroy?.();
            throw tooBig(key, maxBytes);
          }
          const chunks: Buffer[] = [];
          let size = 0;
          for await (const chunk of res.Body as Readable) {
            size += (chunk as Buffer).length;
            if (size > maxBytes) {
              (res.Body as Readable).destroy();
              throw tooBig(key, maxBytes);
            }
            chunks.push(chunk as Buffer);
          }
          return Buffer.concat(chunks);
        } catch (err) {
          if (missing(err) && (err as SdkError).name !== 'NoSuchBucket') return null;
          throw err;
        }
      });
    },
    async download(key, file, maxBytes) {
      return call(key, async () => {
        let res;
        try {
          res = await client.send(new s3.GetObjectCommand({ Bucket: bucket, Key: key }));
        } catch (err) {
          if (missing(err) && (err as SdkError).name !== 'NoSuchBucket') throw new CodedError('not-found', `s3://${bucket}/${key} is missing from the bucket.`);
          throw err;
        }
        const hash = createHash('sha256');
        let size = 0;
        const tap = new Transform({
          transform(chunk: Buffer, _enc, done) {
            size += chunk.length;
            if (size > maxBytes) return done(tooBig(key, maxBytes));
            hash.update(chunk);
            done(null, chunk);
          },
        });
        await pipeline(res.Body as Readable, tap, createWriteStream(file));
        return { size, sha256: hash.digest('hex') };
      });
    },
    async put(key, body, options = {}) {
      return call(key, async () => {
        for (let attempt = 1; ; attempt++) {
          const stream = Buffer.isBuffer(body) ? null : createReadStream(body.file);
          try {
            await (options.ifNoneMatch ? once : client).send(
              new s3.PutObjectCommand({
                Bucket: bucket,
                Key: key,
                Body: stream ?? (body as Buffer),
                ContentLength: Buffer.isBuffer(body) ? body.length : body.size,
                ...(options.ifNoneMatch ? { IfNoneMatch: '*' } : {}),
              }),
            );
            return 'written' as const;
          } catch (err) {
            // 412: the key exists; 409: a concurrent conditional write to it is under way.
            if (options.ifNoneMatch && (statusOf(err) === 412 || statusOf(err) === 409)) return 'exists' as const;
            if (!retriesFile(body, options, err, attempt)) throw err;
          } finally {
            // A server that answers before reading the whole body leaves the file open otherwise.
            stream?.destroy();
          }
        }
      });
    },
    async size(key) {
      return call(key, async () => {
        try {
          const res = await client.send(new s3.HeadObjectCommand({ Bucket: bucket, Key: key }));
          return res.ContentLength ?? 0;
        } catch (err) {
          if (missing(err)) return null;
          throw err;
        }
      });
    },
    async list(prefix, startAfter) {
      return call(prefix, async () => {
        const keys: string[] = [];
        let token: string | undefined;
        do {
          const res = await client.send(
            new s3.ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : startAfter ? { StartAfter: startAfter } : {}) }),
          );
          for (const o of res.Contents ?? []) if (o.Key) keys.push(o.Key);
          token = res.IsTruncated ? res.NextContinuationToken : undefined;
        } while (token);
        return keys;
      });
    },
    close() {
      client.destroy();
      once.destroy();
    },
  };
}
