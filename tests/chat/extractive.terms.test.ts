import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { passage, quotedLines } from './fixtures';

/** A table of modes a PDF converter left as text: each mode's name on a line of its own, then what it does. */
const MODES = [
  '## Choosing a picture mode',
  '',
  'You can select the Picture Mode that provides the best viewing experience.',
  '',
  'Dynamic',
  '',
  'Makes the picture brighter and clearer in bright viewing environments.',
  '',
  'Standard',
  '',
  'Is the default mode suitable for general viewing environments.',
  '',
  'Movie',
  '',
  'Is suitable for watching TV or movies in a dark room.',
].join('\n');

describe('a description of a definition list left as text', () => {
  it('is quoted with its term', () => {
    const a = answerExtractively('Which picture mode suits watching in a dark room?', [passage('tv/manual.md#1', MODES)]);
    const line = quotedLines(a).find((l) => l.includes('dark room'));
    expect(line).toContain('- Movie: Is suitable for watching TV or movies in a dark room.');
  });

  it('quotes the term once, with its description, not also as a line of its own', () => {
    const a = answerExtractively('What does the Dynamic picture mode do?', [passage('tv/manual.md#1', MODES)]);
    const lines = quotedLines(a);
    expect(lines.filter((l) => /\bDynamic\b/.test(l))).toHaveLength(1);
    expect(lines.join('\n')).toContain('Dynamic: Makes the picture brighter');
  });

  it('leaves a paragraph under a lone short line as it is: one line before a paragraph is no list', () => {
    const text = ['## Testing the picture', '', 'Picture test', '', 'Run the picture test to check the screen for faults.', '', 'Call the service centre if the test shows faults.'].join('\n');
    const a = answerExtractively('How do I test the screen for faults?', [passage('tv/manual.md#2', text)]);
    expect(quotedLines(a).join('\n')).not.toContain('Picture test:');
  });

  it('does not read the words a line carried over as the term of the next paragraph', () => {
    const text = [
      '## Updating apps',
      '',
      'Removing an app',
      '',
      'Select an app to delete it from the TV.',
      '',
      'Automatic updates',
      '',
      'Installed apps can be updated automatically. If you do not want this, set Auto Update',
      '',
      'OFF',
      '',
      'Automatic update is enabled only when the TV is connected to the Internet.',
    ].join('\n');
    const a = answerExtractively('When is automatic update of apps enabled?', [passage('tv/manual.md#3', text)]);
    const line = quotedLines(a).find((l) => l.includes('only when the TV is connected'));
    expect(line).toBeDefined();
    expect(line).not.toContain('OFF:');
  });

  it('does not quote the next entry\'s term after a line that restates the question', () => {
    const text = ['## Notifications', '', 'Delete All', '', 'You can delete all your notifications.', '', 'Settings', '', 'You can select services you want to be notified about.'].join('\n');
    const a = answerExtractively('Can I delete all notifications?', [passage('tv/manual.md#4', text)]);
    const line = quotedLines(a).find((l) => l.includes('delete all your notifications'));
    expect(line).toMatch(/^- Delete All: You can delete all your notifications\. \[\d\]$/);
  });
});

describe('a term of a definition list the question names', () => {
  it('leads the answer with its description: the term is no fragment once quoted with it', () => {
    // Another section selects modes too: "select" and "mode" are common words of this manual, "Dynamic" is not.
    const sound = ['## Choosing a sound mode', '', 'You can select a favorite sound mode suitable for the content type.', '', 'Select a mode, and then press the Select button to apply the mode.'].join('\n');
    const a = answerExtractively('How do I select Dynamic mode?', [passage('tv/manual.md#1', MODES), passage('tv/manual.md#2', sound)]);
    expect(quotedLines(a)[0]).toMatch(/^- Dynamic: Makes the picture brighter and clearer in bright viewing environments\. \[1\]$/);
  });
});
