import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Result } from '../core/result';
import { fail, ok } from '../core/result';

/**
 * Dropped files reach a browser page as bytes, not paths: they are staged under the data folder
 * with their relative names, the staged tree is imported, then removed by the caller.
 */
export async function stageUpload(dataDir: string, files: readonly { path: string; base64: string }[]): Promise<Result<{ staging: string; tops: string[] }>> {
  const staging = path.join(dataDir, 'uploads', `upload-${randomBytes(6).toString('hex')}`);
  const tops = new Set<string>();
  for (const f of files) {
    const target = path.join(staging, ...f.path.split('/'));
    if (!target.startsWith(staging + path.sep)) return fail('unsafe-path', `The name "${f.path}" could escape the upload folder.`);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, Buffer.from(f.base64, 'base64'));
    tops.add(path.join(staging, f.path.split('/')[0]!));
  }
  return ok({ staging, tops: [...tops] });
}
