import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { splitSentences } from '../../src-main/chat/sentences';
import { passage } from './fixtures';

const TEXT = [
  '### One-handed mode',
  '',
  'You can change the screen layout to operate your device with one hand.',
  '',
  '1. From Settings, tap Advanced features > One-handed mode.',
  '2. Tap Use One-handed mode to enable the feature and select one of the following options:',
  '   - Gesture: Swipe down in the center of the bottom edge of the screen.',
  '   - Button: Tap Home two times in quick succession to reduce the display size.',
  '3. Tap Done when finished.',
].join('\n');

const allLines = (a: { text: string }): string[] => a.text.split('\n').filter((l) => /^\s*- /.test(l));

describe('items nested under a list item that ends in ":"', () => {
  it('are the list that item opens; the items after them go on with the outer list', () => {
    const units = splitSentences(TEXT);
    const parent = units.find((u) => u.text.startsWith('Tap Use One-handed mode'))!;
    const gesture = units.find((u) => u.text.startsWith('Gesture'))!;
    const done = units.find((u) => u.text.startsWith('Tap Done'))!;
    expect(parent.opens).toBe(gesture.block);
    expect(units.find((u) => u.text.startsWith('Button'))!.block).toBe(gesture.block);
    expect(done.block).toBe(parent.block);
    expect(gesture.block).not.toBe(parent.block);
  });

  it('are quoted under that item', () => {
    const a = answerExtractively('How do I use one-handed mode?', [passage('phone/manual.md#1', TEXT)]);
    const lines = allLines(a);
    const at = lines.findIndex((l) => l.startsWith('- Tap Use One-handed mode'));
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines[at + 1]).toMatch(/^ {2}- Gesture: Swipe down/);
    expect(lines[at + 2]).toMatch(/^ {2}- Button: Tap Home two times/);
  });

  it('still come with the outer list a sentence leads', () => {
    const text = ['To use one-handed mode, do as follows:', '', ...TEXT.split('\n').slice(4)].join('\n');
    const a = answerExtractively('How do I use one-handed mode?', [passage('phone/manual.md#2', text)]);
    const lines = allLines(a).join('\n');
    for (const part of ['From Settings, tap Advanced features', 'Gesture: Swipe down', 'Button: Tap Home', 'Tap Done when finished']) expect(lines).toContain(part);
  });
});
