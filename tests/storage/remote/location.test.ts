import { describe, expect, it } from 'vitest';
import { parseRemoteLocation, resolveRemoteAccess } from '../../../src-main/storage/remote/location';

describe('parseRemoteLocation', () => {
  it('reads a bucket and a prefix without its outer slashes', () => {
    expect(parseRemoteLocation('s3://team-manuals/field/pumps/')).toEqual({ ok: true, value: { bucket: 'team-manuals', prefix: 'field/pumps', url: 's3://team-manuals/field/pumps' } });
    expect(parseRemoteLocation('  s3://team.manuals  ')).toEqual({ ok: true, value: { bucket: 'team.manuals', prefix: '', url: 's3://team.manuals' } });
  });

  it('refuses other schemes, bad bucket names and prefixes that climb out', () => {
    for (const bad of ['https://team/x', 'team/x', 's3://', 's3://Team/x', 's3://a/x', 's3://team/../other', 's3://team/a/./b']) {
      expect(parseRemoteLocation(bad), bad).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    }
  });
});

describe('resolveRemoteAccess', () => {
  const env = { AWS_ACCESS_KEY_ID: 'env-id', AWS_SECRET_ACCESS_KEY: 'env-secret', AWS_SESSION_TOKEN: 'env-token', AWS_REGION: 'eu-west-1', AWS_ENDPOINT_URL: 'http://127.0.0.1:9000' };

  it('takes endpoint, region and keys from the AWS variables when settings leave them empty', () => {
    expect(resolveRemoteAccess({}, env)).toEqual({
      ok: true,
      value: { endpoint: 'http://127.0.0.1:9000', region: 'eu-west-1', credentials: { accessKeyId: 'env-id', secretAccessKey: 'env-secret', sessionToken: 'env-token' } },
    });
  });

  it("prefers the user's settings, and never mixes a key id from one place with a secret from the other", () => {
    const r = resolveRemoteAccess({ endpoint: 'https://minio.example:9000', region: 'auto', accessKeyId: 'mine', secretAccessKey: null }, env);
    expect(r).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    expect(resolveRemoteAccess({ endpoint: 'https://minio.example:9000', region: 'auto', accessKeyId: 'mine', secretAccessKey: 's' }, env)).toEqual({
      ok: true,
      value: { endpoint: 'https://minio.example:9000', region: 'auto', credentials: { accessKeyId: 'mine', secretAccessKey: 's' } },
    });
  });

  it('says how to give credentials when there are none, instead of asking the cloud for them', () => {
    const r = resolveRemoteAccess({}, {});
    expect(r).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringContaining('AWS_ACCESS_KEY_ID') } });
  });

  it('refuses an endpoint that is not an http(s) URL, and defaults the region', () => {
    expect(resolveRemoteAccess({ endpoint: 'ftp://x' }, env)).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(resolveRemoteAccess({}, { AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' })).toMatchObject({ ok: true, value: { endpoint: null, region: 'us-east-1' } });
  });
});
