import { describe, expect, it } from 'vitest';
import type { ChatTurn } from '../../src-main/contract/api';
import { openQuestionBack } from '../../src-renderer/src/util/question-back';

const at = '2026-01-01T00:00:00.000Z';
const question = (text: string): ChatTurn => ({ id: `q-${text}`, role: 'user', text, createdAt: at });
const askedBack: ChatTurn = {
  id: 'a1',
  role: 'assistant',
  text: 'This library has no manual for Bar Z5. Which model: Bar Z5 Max 5G or Bar Z5 Mini 5G?',
  createdAt: at,
  mode: 'not-found',
  citations: [],
  resolvedModels: [],
  clarify: [{ name: 'Bar Z5', models: ['Bar Z5 Max 5G', 'Bar Z5 Mini 5G'] }],
};

describe('openQuestionBack', () => {
  it('offers the candidates of a question back that is the last turn', () => {
    expect(openQuestionBack([question('What battery does the Bar Z5 have?'), askedBack])).toEqual([{ name: 'Bar Z5', models: ['Bar Z5 Max 5G', 'Bar Z5 Mini 5G'] }]);
  });

  it('offers none once a reply was sent: the engine reads a pick against the last answer only', () => {
    const replied = [question('What battery does the Bar Z5 have?'), askedBack, question('Bar Z5 Max 5G')];
    expect(openQuestionBack(replied)).toEqual([]);
    const answered: ChatTurn = { id: 'a2', role: 'assistant', text: 'The Bar Z5 Max 5G has a 90 mAh battery. [1]', createdAt: at, mode: 'extracted', resolvedModels: ['Bar Z5 Max 5G'] };
    expect(openQuestionBack([...replied, answered])).toEqual([]);
  });

  it('offers none for an answer that asks nothing back, or an empty transcript', () => {
    expect(openQuestionBack([question('x'), { ...askedBack, clarify: undefined }])).toEqual([]);
    expect(openQuestionBack([])).toEqual([]);
    expect(openQuestionBack(undefined)).toEqual([]);
  });

  it('leaves out a name with no candidates and keeps each other name apart', () => {
    const two: ChatTurn = { ...askedBack, clarify: [{ name: 'Bar Z5', models: ['Bar Z5 Max 5G', 'Bar Z5 Mini 5G'] }, { name: 'Qux', models: [] }, { name: 'Qux R3', models: ['Qux R3 Max 5G', 'Qux R3 Mini 5G'] }] };
    expect(openQuestionBack([two]).map((c) => c.name)).toEqual(['Bar Z5', 'Qux R3']);
  });
});
