import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseQuestions } from '../../src-main/eval/questions';
import { corpusRoots } from '../helpers/temp';

const line = (o: unknown) => JSON.stringify(o);
const good = { id: 'q1', query: 'What fuse?', answers: [{ doc: 'm/a.md', contains: '10 A' }], kind: 'spec' };

function errorOf(text: string): string {
  const r = parseQuestions(text, 'qs.jsonl');
  if (r.ok) throw new Error('expected a parse error');
  expect(r.error.code).toBe('invalid-input');
  return r.error.message;
}

describe('parseQuestions', () => {
  it('reads questions, skipping blank lines and keeping the kind', () => {
    const r = parseQuestions(`${line(good)}\n\n${line({ id: 7, query: 'Filter?', answers: [{ doc: 'm/b.md', contains: 'x' }, { doc: 'm/c.md', contains: 'y' }] })}\n`);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toEqual([
      { id: 'q1', query: 'What fuse?', answers: [{ doc: 'm/a.md', contains: '10 A' }], kind: 'spec' },
      { id: '7', query: 'Filter?', answers: [{ doc: 'm/b.md', contains: 'x' }, { doc: 'm/c.md', contains: 'y' }] },
    ]);
  });

  it('names the line that is not JSON', () => {
    expect(errorOf(`${line(good)}\n{"id": "q2", "query": \n`)).toMatch(/^qs\.jsonl, line 2 is not valid JSON/);
  });

  it('names the line and field of a malformed question', () => {
    expect(errorOf(`\n${line({ ...good, answers: [] })}`)).toMatch(/^qs\.jsonl, line 2: "answers" must hold at least one answer/);
    expect(errorOf(line({ ...good, query: '' }))).toMatch(/line 1: "query" must not be empty/);
    expect(errorOf(line({ id: 'q', query: 'x', answers: [{ doc: 'm/a.md' }] }))).toMatch(/line 1: "contains" must be a string \(at answers\.0\.contains\)/);
    expect(errorOf(line({ ...good, answers: [{ doc: 'm/a.md', contains: '** **' }] }))).toMatch(/"contains" must have text in it/);
    expect(errorOf('[1, 2]')).toMatch(/line 1 is not a JSON object/);
  });

  it('rejects an id used twice and an empty file', () => {
    expect(errorOf(`${line(good)}\n${line(good)}`)).toMatch(/line 2: the id "q1" is already used on line 1/);
    expect(errorOf('\n\n')).toBe('qs.jsonl holds no questions.');
  });

  it('reads the fixture corpus question file, keeping every answer', async () => {
    const text = await readFile(path.join(corpusRoots.fixture, 'questions.jsonl'), 'utf8');
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    const r = parseQuestions(text, 'questions.jsonl');
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.map((q) => q.id)).toEqual(lines.map((l) => (JSON.parse(l) as { id: string }).id));
    expect(r.value.flatMap((q) => q.answers)).toEqual(lines.flatMap((l) => (JSON.parse(l) as { answers: unknown[] }).answers));
  });
});
