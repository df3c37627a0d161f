import { describe, expect, it } from 'vitest';
import { leadOnly, subsectionFirst } from '../../src-main/chat/retrieve';
import { retrievedIds, sectionHit } from './fake-index';

const lead = sectionHit('lead', ['TV Manual', 'Troubleshooting', "I Can't Hear the Sound"], 'When the TV has difficulties with sound, these steps may help resolve the problem.');
const steps = sectionHit(
  'steps',
  ['TV Manual', 'Troubleshooting', "I Can't Hear the Sound", 'Testing the sound'],
  'If the TV makes no sound, check the volume.\n\nRun the sound test from the Self Diagnosis menu.',
);
const other = sectionHit('other', ['TV Manual', 'Picture and Sound', 'Sound Mode'], 'Change the Sound Mode to hear the sound clearly.\n\nSelect Standard for most programs.');

describe('a section lead placed after its subsection', () => {
  it('tells a passage that is only its section lead from one that says more', () => {
    expect(leadOnly(lead.text)).toBe(true);
    // A menu path under the lead ends no sentence: still only the lead.
    expect(leadOnly('### Using a Samsung account\n\nCreate and manage your own Samsung account.\n\nSettings General System Manager Samsung Account Try Now\n\n')).toBe(true);
    expect(leadOnly(steps.text)).toBe(false);
    // A subsection's heading inside the passage: its text is there too.
    expect(leadOnly('### Using Other Functions\n\nView other functions.\n\n#### Running the accessibility functions\n\nSettings General Accessibility Try Now\n\n')).toBe(false);
    // Several sentences in one line are several (the answer reads them so).
    expect(leadOnly('### Restarting\n\nUnplug it. Wait ten seconds. Plug it back in.\n\n')).toBe(false);
    // A lead with its list of steps, a table or code says what to do: more than the lead.
    expect(leadOnly('### Restarting\n\nTo restart the TV:\n\n- Unplug it\n- Plug it back in\n\n')).toBe(false);
    expect(leadOnly('### Fuses\n\nThe fuses by model.\n\n| Model | Fuse |\n|---|---|\n| A1 | T5A |\n\n')).toBe(false);
    expect(leadOnly('### Flashing\n\nRun this command.\n\n```\nflash --port COM3\n```\n\n')).toBe(false);
  });

  it('moves the lead after the next passage when that one is from its subsection', () => {
    expect(subsectionFirst([lead, steps, other]).map((h) => h.chunkId)).toEqual(['steps', 'lead', 'other']);
  });

  it('keeps the order when the next passage is from another section, another document, or the first says more', () => {
    expect(subsectionFirst([lead, other, steps]).map((h) => h.chunkId)).toEqual(['lead', 'other', 'steps']);
    const elsewhere = { ...steps, doc: 'tv/other-manual.md' };
    expect(subsectionFirst([lead, elsewhere]).map((h) => h.chunkId)).toEqual(['lead', 'steps']);
    const parent = sectionHit('parent', lead.headingPath, 'When the TV has difficulties with sound, check these.\n\nFirst, check the cable.');
    expect(subsectionFirst([parent, steps]).map((h) => h.chunkId)).toEqual(['parent', 'steps']);
    expect(subsectionFirst([lead]).map((h) => h.chunkId)).toEqual(['lead']);
  });

  it('gives chat the subsection as its first passage', async () => {
    expect(await retrievedIds('What can I do if I hear no sound?', [lead, steps, other])).toEqual(['steps', 'lead', 'other']);
  });
});
