import { describe, expect, it } from 'vitest';
import * as questionKinds from '../../src-main/chat/question-kind';
import { withoutDefinitionCues } from '../../src-main/chat/question-kind';

describe('the definition cues of a question', () => {
  it('are blanked the same on every call (no global regex state leaks out)', () => {
    const question = 'what is the use of accessibility shortcuts';
    const first = withoutDefinitionCues(question);
    expect(first).not.toMatch(/\bwhat is\b|\buse of\b/);
    expect(first).toContain('accessibility shortcuts');
    expect(withoutDefinitionCues(question)).toBe(first);
  });

  it('are not exported as a global regex, whose test and exec keep lastIndex between calls', () => {
    expect(Object.keys(questionKinds)).not.toContain('DEFINITION_CUES');
  });
});
