import { describe, expect, it } from 'vitest';
import type { ChatTurn } from '../../src-main/contract/api';
import { answerModels, listed, modelsWithoutManual } from '../../src-renderer/src/util/answer-models';

const at = '2026-01-01T00:00:00.000Z';
const answer = (fields: Partial<ChatTurn>): ChatTurn => ({ id: 'a', role: 'assistant', text: 'x', createdAt: at, citations: [], resolvedModels: [], ...fields });

describe('answerModels', () => {
  it('names the models an answer was resolved to', () => {
    expect(answerModels(answer({ mode: 'extracted', resolvedModels: ['Bar Z5 Max 5G'] }))).toEqual({ kind: 'models', models: ['Bar Z5 Max 5G'] });
    // A question back never has any, but a model the turn was resolved to is said wherever it comes.
    expect(answerModels(answer({ mode: 'generated', resolvedModels: ['A1', 'A2'] }))).toEqual({ kind: 'models', models: ['A1', 'A2'] });
  });

  it('says nothing under a question back: its candidates say which models there are', () => {
    const back = answer({
      mode: 'not-found',
      text: 'This library has no manual for Galaxy S20. Which model: Galaxy S20+ 5G or Galaxy S20 Ultra 5G?',
      clarify: [{ name: 'Galaxy S20', models: ['Galaxy S20+ 5G', 'Galaxy S20 Ultra 5G'] }],
    });
    expect(answerModels(back)).toBeNull();
  });

  it('says nothing under an answer that found nothing: its text says why', () => {
    expect(answerModels(answer({ mode: 'not-found', text: 'No manual for ZX-900 in this library, and none of its manuals mentions it.' }))).toBeNull();
    expect(answerModels(answer({ mode: 'not-found', text: 'I found nothing about this in the manuals of this library.' }))).toBeNull();
  });

  it('says an answer to a question without a model came from any model’s manual', () => {
    expect(answerModels(answer({ mode: 'extracted' }))).toEqual({ kind: 'any' });
    expect(answerModels(answer({ mode: 'generated' }))).toEqual({ kind: 'any' });
    // Turns saved before the field existed have no resolvedModels at all.
    const { resolvedModels: _none, ...old } = answer({ mode: 'extracted' });
    expect(answerModels(old)).toEqual({ kind: 'any' });
  });
});

describe('modelsWithoutManual', () => {
  it('says the names the question wrote that no manual is for', () => {
    expect(modelsWithoutManual(answer({ mode: 'not-found', text: 'No manual for ZX-900 in this library, and none of its manuals mentions it.', unknownModels: ['ZX-900'] }))).toEqual(['ZX-900']);
    // Answered for the model the question also named: both are said.
    const both = answer({ mode: 'extracted', resolvedModels: ['E54C'], unknownModels: ['E99C', 'ROCK 9X'] });
    expect(answerModels(both)).toEqual({ kind: 'models', models: ['E54C'] });
    expect(listed(modelsWithoutManual(both))).toBe('E99C and ROCK 9X');
  });

  it('leaves out a name asked back, whose question and buttons say it', () => {
    const clarify = [{ name: 'Bar Z5', models: ['Bar Z5 Max 5G', 'Bar Z5 Mini 5G'] }];
    expect(modelsWithoutManual(answer({ mode: 'not-found', clarify, unknownModels: ['Bar Z5'] }))).toEqual([]);
    expect(modelsWithoutManual(answer({ mode: 'extracted', resolvedModels: ['Foo X1'], clarify, unknownModels: ['bar z5', 'E99C'] }))).toEqual(['E99C']);
  });

  it('says nothing for a turn without the field, as turns saved before it have none', () => {
    expect(modelsWithoutManual(answer({ mode: 'not-found', text: 'No manual for ZX-900 in this library.' }))).toEqual([]);
    expect(listed(['A', 'B', 'C'])).toBe('A, B and C');
  });
});
