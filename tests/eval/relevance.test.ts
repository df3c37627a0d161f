import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseQuestions } from '../../src-main/eval/questions';
import { coveredAnswers, coveredByNormalized, isRelevant, normalizeForRelevance, prepareAnswers } from '../../src-main/eval/relevance';
import { sharedDir } from '../helpers/temp';

describe('normalizeForRelevance (the DESIGN.md rule)', () => {
  it('decodes named and numeric HTML entities (NFKC then maps the micro sign to a Greek mu)', () => {
    expect(normalizeForRelevance('5V&#x2F;3A &amp; 12&nbsp;V &lt;2&#65;&gt; &ndash; &micro;F')).toBe('5v/3a & 12 v <2a> – \u03bcf');
  });

  it('strips HTML tags, each standing for a space, but keeps angle brackets in prose', () => {
    expect(normalizeForRelevance('Press<br/>OK on the <b>remote</b>')).toBe('press ok on the remote');
    expect(normalizeForRelevance('<!-- hidden -->if a < b and c > d')).toBe('if a < b and c > d');
  });

  it('strips Markdown emphasis, inline code and table pipes', () => {
    expect(normalizeForRelevance('**Note:** use `5V/3A` _only_')).toBe('note: use 5v/3a only');
    expect(normalizeForRelevance('| Pin | Net |\n|---|---|\n| 4 | VCC5V0_SYS_S5 |')).toBe('pin net ------ 4 vcc5v0syss5');
  });

  it('collapses whitespace, trims and lowercases', () => {
    expect(normalizeForRelevance('  Clean\n\n the   FILTER\t')).toBe('clean the filter');
  });
});

describe('relevance of a retrieved chunk', () => {
  const answers = [
    { doc: 'manuals/rac-225b.md', contains: 'takes a **10 A** slow-blow fuse' },
    { doc: 'manuals/rac-225b.md', contains: 'VCC5V0_SYS' },
  ];

  it('is relevant when the gold document’s chunk contains the evidence after normalization of both sides', () => {
    const chunk = { doc: 'manuals/rac-225b.md', text: 'The RAC-225B <em>takes</em> a 10&nbsp;A slow-blow fuse; rail | `VCC5V0_SYS`' };
    expect(isRelevant(chunk, answers)).toBe(true);
    expect(coveredAnswers(chunk, prepareAnswers(answers))).toEqual([0, 1]);
    expect(coveredAnswers({ ...chunk, text: 'It takes a 10 A slow-blow fuse.' }, prepareAnswers(answers))).toEqual([0]);
  });

  it('is not relevant in another document, even with the same text (a sibling model’s manual)', () => {
    expect(isRelevant({ doc: 'manuals/rac-330.md', text: 'takes a 10 A slow-blow fuse' }, answers)).toBe(false);
  });

  it('is not relevant when only part of the evidence is in the chunk', () => {
    expect(isRelevant({ doc: 'manuals/rac-225b.md', text: 'takes a 10 A' }, answers)).toBe(false);
  });

  it('lists every gold answer a chunk covers', () => {
    const prepared = prepareAnswers(answers);
    expect(coveredAnswers({ doc: 'manuals/rac-225b.md', text: 'VCC5V0_SYS: takes a 10 A slow-blow fuse' }, prepared)).toEqual([0, 1]);
  });
});

describe('the shared question files under the rule', () => {
  it('find every gold answer in the text of its document', async () => {
    const roots: Record<string, string> = { 'dev.jsonl': 'corpus', 'galaxy-s10.jsonl': 'corpus/emanual', 'smart-tv.jsonl': 'corpus/emanual' };
    const texts = new Map<string, string>();
    const missing: string[] = [];
    for (const [file, root] of Object.entries(roots)) {
      const parsed = parseQuestions(await readFile(path.join(sharedDir, 'bench', file), 'utf8'), file);
      if (!parsed.ok) throw new Error(parsed.error.message);
      for (const q of parsed.value) {
        const prepared = prepareAnswers(q.answers);
        for (const [i, a] of q.answers.entries()) {
          const abs = path.join(sharedDir, root, a.doc);
          if (!texts.has(abs)) texts.set(abs, normalizeForRelevance(await readFile(abs, 'utf8')));
          if (!coveredByNormalized(a.doc, texts.get(abs)!, prepared).includes(i)) missing.push(`${q.id}: ${a.contains}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
