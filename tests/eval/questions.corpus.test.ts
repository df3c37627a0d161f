import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseQuestions } from '../../src-main/eval/questions';
import { sharedDir } from '../helpers/temp';

describe('parseQuestions on the shared question files', () => {
  it('reads every shared question file', async () => {
    for (const [file, count] of [['dev.jsonl', 40], ['galaxy-s10.jsonl', 50], ['smart-tv.jsonl', 684]] as const) {
      const r = parseQuestions(await readFile(path.join(sharedDir, 'bench', file), 'utf8'), file);
      expect(r.ok && r.value.length).toBe(count);
    }
  });
});
