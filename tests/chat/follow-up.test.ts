import { describe, expect, it } from 'vitest';
import type { ChatTurn } from '../../src-main/contract/api';
import { followUpQuestion } from '../../src-main/chat/follow-up';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { analyzeQuery } from '../../src-main/search/query-analysis';

/** Three boards of one maker, each with its own manual. */
const vocab = ModelVocabulary.fromDocuments(
  ['E52C', 'E54C', 'E20C'].map((name) => ({
    id: `docs/${name.toLowerCase()}/README.md`,
    title: `Radxa ${name}`,
    text: `# Radxa ${name}\n\nThe Radxa ${name} is a compact board. ${name} needs a 5V/3A supply.`,
    h1Headings: [`Radxa ${name}`],
  })),
);
const user = (text: string): ChatTurn => ({ id: text, role: 'user', text, createdAt: '2026-12-04T00:00:00Z' });
const reading = (question: string, history: ChatTurn[]) => followUpQuestion(question, analyzeQuery(question, vocab), vocab, history);

describe('elliptical follow-ups', () => {
  it('asks the earlier question for the model a bare "and the X?" names', () => {
    expect(reading('and the E54C?', [user('What power supply does the E52C need?')])).toBe('What power supply does the E54C need?');
  });

  it('puts the new name in place of a list of earlier names, leaving no dangling "or"', () => {
    expect(reading('And the E20C?', [user('Does the E52C or the E54C need a fan?')])).toBe('Does the E20C need a fan?');
    expect(reading('And the E20C?', [user('E52C, E54C: which supply?')])).toBe('E20C: which supply?');
  });

  it('leaves a question with a topic of its own, or naming no model, as typed', () => {
    const history = [user('What power supply does the E52C need?')];
    expect(reading('Does the E54C have Wi-Fi?', history)).toBeNull();
    expect(reading('and then?', history)).toBeNull();
    expect(reading('and the E54C?', [])).toBeNull();
  });
});
