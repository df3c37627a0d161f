import { describe, expect, it } from 'vitest';
import { validateInput } from '../../src-main/contract/api';
import { ERROR_CODES, PERMANENT_IMPORT_FAILURES } from '../../src-main/core/result';
import { failureAdvice, MAX_QUESTION_CHARS, plainMessage, retryAfterReplacing } from '../../src-renderer/src/util/messages';

const refusal = (key: 'chat.ask' | 'libraries.create', input: unknown): string => {
  const res = validateInput(key, input);
  if (res.ok) throw new Error('expected the input to be refused');
  return res.error.message;
};

describe('plainMessage', () => {
  it('turns the engine’s refusal of a long question into words without the field name', () => {
    const raw = refusal('chat.ask', { library: 'Pumps', id: 'c1', question: 'x'.repeat(MAX_QUESTION_CHARS + 1) });
    expect(raw).toMatch(/\(question\)$/);
    expect(plainMessage(raw)).toBe(`It is too long: at most ${MAX_QUESTION_CHARS} characters.`);
  });

  it('keeps a sentence the engine wrote and drops only the "(name)" suffix', () => {
    const raw = refusal('libraries.create', { name: 'a/b' });
    expect(raw).toMatch(/ \(name\)$/);
    expect(plainMessage(raw)).toBe(raw.replace(/ \(name\)$/, ''));
    expect(plainMessage(raw)).not.toMatch(/\(/);
  });

  it('leaves messages without a field suffix as they are', () => {
    expect(plainMessage('The file is damaged (it ends early).')).toBe('The file is damaged (it ends early).');
  });

  it('agrees with the engine on the longest question', () => {
    expect(validateInput('chat.ask', { library: 'Pumps', id: 'c1', question: 'x'.repeat(MAX_QUESTION_CHARS) }).ok).toBe(true);
    expect(validateInput('chat.ask', { library: 'Pumps', id: 'c1', question: 'x'.repeat(MAX_QUESTION_CHARS + 1) }).ok).toBe(false);
  });
});

describe('failureAdvice for a file Retry reads again from its path', () => {
  it('says to replace a file whose content failed, then Retry, and offers Retry for it', () => {
    for (const code of ['empty', 'corrupt', 'binary', 'encrypted', 'no-text-layer'] as const) {
      expect(failureAdvice(code, true), code).toMatch(/^Trying this file again will not help until it is replaced: .+ in its place.*, then Retry\.$/);
      expect(retryAfterReplacing(code), code).toBe(true);
    }
  });

  it('keeps the advice without Retry where the name or type is the fault: renamed, it is another path', () => {
    for (const code of ['unsupported', 'misnamed', 'too-large', 'unsafe-path', 'already-exists'] as const) {
      expect(failureAdvice(code, true), code).toBe(failureAdvice(code));
      expect(retryAfterReplacing(code), code).toBe(false);
    }
    expect(failureAdvice('io-error', true)).toBeNull();
  });
});

describe('failureAdvice (instead of a Retry that cannot help)', () => {
  it('says what to do for every failure the same file can never get past', () => {
    for (const code of PERMANENT_IMPORT_FAILURES) expect(failureAdvice(code), code).toMatch(/^Trying this file again will not help: .+\.$/);
    expect(failureAdvice('encrypted')).toContain('without a password');
    expect(failureAdvice('misnamed')).toContain('rename it');
    // A second file under a name its upload already held (the bridge's 409): Retry would send it
    // alone, where it would take the first one's place.
    expect(failureAdvice('already-exists')).toContain('another name');
  });

  it('says nothing (Retry stays) for a failure another try may pass, or one of unknown kind', () => {
    for (const code of ['io-error', 'unreadable', 'internal', 'busy', 'cancelled'] as const) expect(failureAdvice(code), code).toBeNull();
    expect(failureAdvice(undefined)).toBeNull();
    expect(ERROR_CODES.filter((c) => failureAdvice(c) !== null)).toEqual([...PERMANENT_IMPORT_FAILURES].sort((a, b) => ERROR_CODES.indexOf(a) - ERROR_CODES.indexOf(b)));
  });
});
