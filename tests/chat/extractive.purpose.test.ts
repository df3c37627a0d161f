import { describe, expect, it } from 'vitest';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import { purposeOf } from '../../src-main/chat/line-forms';
import { passage, quotedLines } from './fixtures';

const APPS = [
  '## Managing installed apps',
  '',
  'Select an app to lock or unlock.',
  '',
  'To lock or unlock an app, enter the PIN. The default PIN is 0000.',
  '',
  'Select an app to move it to another place on the screen.',
  '',
  'To view the details of an app, select Info.',
].join('\n');

describe('a line opening with the task it serves', () => {
  it('reads the purpose and its words', () => {
    const p = purposeOf('To lock or unlock an app, enter the PIN.');
    expect(p?.verb).toBe('lock');
    expect([...(p?.words ?? [])]).toEqual(expect.arrayContaining(['lock', 'unlock', 'app']));
    expect(purposeOf('Sound Mode: To change the sound mode, press the Select button.')?.verb).toBe('chang');
    expect(purposeOf('Select an app to lock or unlock.')).toBeNull();
    expect(purposeOf('To lock an app enter the PIN')).toBeNull();
  });

  it('leads the answer about that task over a line that only shares its words', () => {
    const a = answerExtractively('I need to lock an app. How do I do this?', [passage('tv/manual.md#1', APPS)]);
    expect(quotedLines(a)[0]).toMatch(/^- To lock or unlock an app, enter the PIN\./);
  });

  it('does not lead when it serves another task', () => {
    const a = answerExtractively('How do I move an app?', [passage('tv/manual.md#1', APPS)]);
    expect(quotedLines(a)[0]).toMatch(/^- Select an app to move it/);
  });
});

describe('a later section that opens with the asked task', () => {
  const gallery = ['## Gallery', '', 'Gallery Settings: Restrict access to the Gallery app to protect your privacy, or view the user agreement and privacy policy.', '', 'Gallery View: Daily, Monthly.'].join('\n');
  const account = ['## Samsung account', '', 'Sign in to your Samsung account to use the services.', '', 'To view the user agreement and privacy policy, you must be logged in to your Samsung account.'].join('\n');

  it('leads the answer over the first section that mentions the task in passing', () => {
    const a = answerExtractively('Can I view the privacy policy?', [passage('tv/manual.md#1', gallery), passage('tv/manual.md#2', account)]);
    expect(quotedLines(a)[0]).toMatch(/^- To view the user agreement and privacy policy, you must be logged in/);
  });

  it('does not lead over another manual', () => {
    const a = answerExtractively('Can I view the privacy policy?', [passage('tv/manual.md#1', gallery), passage('tv/other.md#2', account)]);
    expect(quotedLines(a)[0]).toMatch(/^- Gallery Settings:/);
  });
});
