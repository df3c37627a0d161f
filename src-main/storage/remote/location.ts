import type { Result } from '../../core/result';
import { fail, ok } from '../../core/result';

/**
 * Where a team library lives (`s3://bucket/prefix`) and how to reach it: endpoint, region and
 * credentials, taken from the user's settings or the standard AWS environment variables. None of
 * it is ever written into a library folder; a library records only its `s3://` address.
 */

/** A parsed `s3://bucket/prefix` address; `prefix` has no leading or trailing slash ('' for the bucket root). */
export interface RemoteLocation {
  bucket: string;
  prefix: string;
  /** The address as the user should see it: `s3://bucket/prefix`. */
  url: string;
}

/** S3 bucket names (the rules S3, MinIO and R2 share): 3-63 characters, lowercase, digits, dots, hyphens. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Parses `s3://bucket[/prefix]`; a prefix part that is empty, `.` or `..` is refused. */
export function parseRemoteLocation(raw: string): Result<RemoteLocation> {
  const m = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(raw.trim());
  const usage = `"${raw}" is not an object-storage address: use s3://bucket/prefix.`;
  if (!m) return fail('invalid-input', usage);
  const bucket = m[1]!;
  if (!BUCKET.test(bucket)) return fail('invalid-input', `"${bucket}" is not a valid bucket name (3-63 lowercase letters, digits, dots and hyphens).`);
  const parts = (m[2] ?? '').split('/').filter((p) => p !== '');
  if (parts.some((p) => p === '.' || p === '..' || /[\0\\]/.test(p))) return fail('invalid-input', usage);
  const prefix = parts.join('/');
  return ok({ bucket, prefix, url: `s3://${bucket}${prefix ? `/${prefix}` : ''}` });
}

/** The remote settings a user saves in the app (the data folder's settings.json, never a library). */
export interface RemoteSettings {
  /** S3-compatible endpoint URL (MinIO, R2, Ceph...); null: AWS S3 itself. */
  endpoint: string | null;
  region: string | null;
  accessKeyId: string | null;
  secretAccessKey: string | null;
}

/** What an S3 client needs, resolved from settings and environment. */
export interface RemoteAccess {
  endpoint: string | null;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

const nonEmpty = (v: string | null | undefined): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/**
 * Endpoint, region and credentials: each from the user's settings where set there, else from the
 * standard AWS variables (AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL, AWS_REGION / AWS_DEFAULT_REGION,
 * AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN). The SDK's own credential chain is
 * never used: its last resort asks the cloud instance-metadata address, a request that would
 * leave this computer and make an offline laptop wait.
 */
export function resolveRemoteAccess(settings: Partial<RemoteSettings>, env: NodeJS.ProcessEnv = process.env): Result<RemoteAccess> {
  const endpoint = nonEmpty(settings.endpoint) ?? nonEmpty(env['AWS_ENDPOINT_URL_S3']) ?? nonEmpty(env['AWS_ENDPOINT_URL']);
  if (endpoint !== null) {
    let url: URL | null = null;
    try {
      url = new URL(endpoint);
    } catch {
      url = null;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      return fail('invalid-input', `The object-storage endpoint "${endpoint}" is not an http(s) URL.`);
    }
    // The endpoint is shown in messages and recorded on the library: a password inside it would go with it.
    if (url.username !== '' || url.password !== '') {
      return fail('invalid-input', 'The object-storage endpoint must not hold a user name or password; put the keys in Settings or the AWS variables.');
    }
  }
  const region = nonEmpty(settings.region) ?? nonEmpty(env['AWS_REGION']) ?? nonEmpty(env['AWS_DEFAULT_REGION']) ?? 'us-east-1';
  // A key pair comes from one place: a key id from settings with a secret from the environment would be a mix-up.
  const fromSettings = nonEmpty(settings.accessKeyId) !== null;
  const accessKeyId = fromSettings ? nonEmpty(settings.accessKeyId) : nonEmpty(env['AWS_ACCESS_KEY_ID']);
  const secretAccessKey = fromSettings ? nonEmpty(settings.secretAccessKey) : nonEmpty(env['AWS_SECRET_ACCESS_KEY']);
  if (accessKeyId === null || secretAccessKey === null) {
    return fail(
      'unavailable',
      'No object-storage credentials: enter an access key in Settings › Team libraries, or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.',
    );
  }
  const sessionToken = fromSettings ? null : nonEmpty(env['AWS_SESSION_TOKEN']);
  return ok({ endpoint, region, credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) } });
}
