import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { sharedDir } from '../helpers/temp';
import { goldMisses } from './gold.helper';

describe('the shared question files under the rule', () => {
  it('find every gold answer in the text of its document', async () => {
    const roots: Record<string, string> = { 'dev.jsonl': 'corpus', 'galaxy-s10.jsonl': 'corpus/emanual', 'smart-tv.jsonl': 'corpus/emanual' };
    const missing: string[] = [];
    for (const [file, root] of Object.entries(roots)) missing.push(...(await goldMisses(path.join(sharedDir, 'bench', file), path.join(sharedDir, root))));
    expect(missing).toEqual([]);
  });
});
