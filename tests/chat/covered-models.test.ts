import { describe, expect, it } from 'vitest';
import { docsListing, listedModels } from '../../src-main/chat/covered-models';
import { answerExtractively } from '../../src-main/chat/extractive.answerer';
import type { Passage } from '../../src-main/chat/passages';
import { searchHit } from './fake-index';

/**
 * A manual written under one model's name that lists its family's models side by side (the Galaxy
 * S10's manual opens with "### Galaxy S10e", "### Galaxy S10", "### Galaxy S10+") is each one's:
 * asked about the S10e, its lines are the S10e's, not a related model's.
 */

const MODELS = ['PHONE 10e', 'PHONE 10+', 'PHONE 10 Lite', 'PHONE 10'];
const modelIn = (text: string): string | null => MODELS.find((m) => text.toUpperCase().includes(m.toUpperCase())) ?? null;

const LISTING = ['# PHONE 10 User Manual', '', '## Getting started', '', '### PHONE 10e', '', '### PHONE 10', '', '### PHONE 10+', '', '### Assemble your device', '', 'Insert the SIM card.'].join('\n');

describe('listedModels', () => {
  it('finds headings of one level, one after the other with nothing between, that each name a model', () => {
    expect(listedModels(LISTING, modelIn)).toEqual([['PHONE 10e', 'PHONE 10', 'PHONE 10+']]);
  });

  it('does not take sections with text of their own, a lone heading, or headings of different levels for a list', () => {
    const sections = ['## PHONE 10e', '', 'The 10e has a side key.', '', '## PHONE 10', '', 'The 10 has a fingerprint reader under the screen.'].join('\n');
    expect(listedModels(sections, modelIn)).toEqual([]);
    expect(listedModels(['### PHONE 10e', '', '### Charging'].join('\n'), modelIn)).toEqual([]);
    expect(listedModels(['## PHONE 10e', '', '### PHONE 10'].join('\n'), modelIn)).toEqual([]);
  });
});

function passage(doc: string, text: string, model: string, headingPath: string[]): Passage {
  return { hit: searchHit({ chunkId: `${doc}#3`, doc, title: 'PHONE 10 User Manual', text, headingPath, signature: { category: null, nouns: [], model } }), members: [] };
}

describe('a manual listing the asked model', () => {
  const manual = passage('phones/PHONE_10.md', '#### Wireless charging\n\nPlace the phone on a wireless charger to charge it.', 'PHONE 10', ['PHONE 10 User Manual', 'Getting started']);
  const family = (asked: readonly string[], m: string): boolean => m.startsWith('PHONE 10') && asked.length > 0;
  const exact = (asked: readonly string[], m: string): boolean => asked.includes(m);
  const namesOther = (asked: readonly string[], text: string): boolean => {
    const m = modelIn(text);
    return m !== null && !asked.includes(m);
  };
  const options = { modelIn, models: ['PHONE 10e'], modelNamed: true, sameModel: family, exactModel: exact, namesOther };

  it('says its lines under the asked model when it lists it, under the related model when it does not', () => {
    const listed = answerExtractively('wireless charging?', [manual], { ...options, listing: new Set(['phones/PHONE_10.md']) });
    expect(listed.text).toContain('For PHONE 10e:\n- Place the phone on a wireless charger');
    const unlisted = answerExtractively('wireless charging?', [manual], options);
    expect(unlisted.text).toContain('For PHONE 10 (related to PHONE 10e):\n- Place the phone on a wireless charger');
  });

  it("keeps a line under a heading naming another of the listed models, or naming one itself, that model's", () => {
    const own = passage('phones/PHONE_10.md', '#### PHONE 10+ only\n\nThe ultrasonic fingerprint sensor is under the screen.', 'PHONE 10', ['PHONE 10 User Manual', 'Security']);
    const a = answerExtractively('fingerprint sensor?', [own], { ...options, listing: new Set(['phones/PHONE_10.md']) });
    expect(a.text).not.toContain('For PHONE 10e:');
    expect(a.text).toContain('ultrasonic fingerprint');
    const naming = passage('phones/PHONE_10.md', '#### Battery\n\nThe PHONE 10+ has a 4100 mAh battery.', 'PHONE 10', ['PHONE 10 User Manual', 'Battery']);
    const b = answerExtractively('battery?', [naming], { ...options, listing: new Set(['phones/PHONE_10.md']) });
    expect(b.text).not.toContain('For PHONE 10e:');
    expect(b.text).toContain('4100 mAh');
  });

  it('reads the list from the document of a related model, and only for those', async () => {
    const texts: Record<string, string> = { 'phones/PHONE_10.md': LISTING, 'phones/PHONE_10_Lite.md': '# PHONE 10 Lite User Manual\n\nCharge it.' };
    const read: string[] = [];
    const index = {
      pagedText: async (doc: string) => {
        read.push(doc);
        return { text: texts[doc] ?? '', blocks: [] };
      },
    };
    const lite = passage('phones/PHONE_10_Lite.md', 'Charge it.', 'PHONE 10 Lite', ['PHONE 10 Lite User Manual']);
    const asked = (m: string): boolean => m === 'PHONE 10e';
    const related = (m: string): boolean => m.startsWith('PHONE 10') && !asked(m);
    expect(await docsListing(index, [manual, lite], related, asked, modelIn)).toEqual(new Set(['phones/PHONE_10.md']));
    expect(read.sort()).toEqual(['phones/PHONE_10.md', 'phones/PHONE_10_Lite.md']);
    // A passage of the asked model's own manual is not read.
    read.length = 0;
    await docsListing(index, [passage('phones/PHONE_10e.md', 'x', 'PHONE 10e', [])], related, asked, modelIn);
    expect(read).toEqual([]);
  });
});
