import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchHit } from '../../src-main/contract/api';
import { ok } from '../../src-main/core/result';
import { chatIndexOf, createChatService, type ChatService } from '../../src-main/chat/chat.service';
import { ASKING_WORDS } from '../../src-main/chat/question-kind';
import { retrieve, topicTerms, type ChatIndex } from '../../src-main/chat/retrieve';
import { planQuestion } from '../../src-main/chat/question-plan';
import { compoundParts, offLibrary, oneEditApart, topicWordGroups, unsaidTopic, writtenOrSlipOf, type TopicEvidence } from '../../src-main/chat/topic-gate';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import { passageTerms } from '../../src-main/enrich/passage-words';
import { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import { analyzeQuery } from '../../src-main/search/query-analysis';
import { tempDir } from '../helpers/temp';
import { importP200, unwrap } from './fixtures';

/**
 * The gate for questions about something the library never writes (`topic-gate.ts`): learned
 * from the passages of small libraries, then end to end on an imported manual.
 */

/** A little TV manual's passages: what the gate learns which words the library writes from. */
const TV_PASSAGES = [
  'Press the Menu button on the remote control and select Channel List to edit channels.',
  'To record a programme, press the Record button while watching a channel.',
  'Set the sleep timer from the Settings menu: the TV turns off after the chosen time.',
  'Picture Mode: choose Standard, Dynamic or Movie for the best picture.',
  'Safe mode is not available while a recording is running.',
  'Connect the antenna cable to the ANT IN port on the back of the TV.',
  'Take the batteries out of the remote control before storing it.',
];

/** Passage frequencies of `passages`, as the library's passage statistics count them. */
function frequencies(passages: readonly string[]): (stem: string) => number {
  const df = new Map<string, number>();
  for (const p of passages) for (const t of new Set(passageTerms(p))) df.set(t, (df.get(t) ?? 0) + 1);
  return (stem) => df.get(stem) ?? 0;
}

const vocabulary = ModelVocabulary.fromDocuments([]);

function evidence(question: string, passages: readonly string[] = TV_PASSAGES, words?: readonly string[]): TopicEvidence {
  return {
    topic: topicTerms(question, analyzeQuery(question, vocabulary), vocabulary),
    passageFrequency: frequencies(passages),
    synonyms: new Map(),
    asking: ASKING_WORDS,
    ...(words ? { libraryWords: () => words } : {}),
  };
}

const off = (question: string, words?: readonly string[]): string[] => offLibrary(unsaidTopic(question, evidence(question, TV_PASSAGES, words)));

describe('words a question asks about that the library never writes', () => {
  it('takes a name no passage holds as the subject of the question', () => {
    // "safe" and "mode" are in the manual, "A51" nowhere: the question is about another product.
    expect(off('safe mode A51')).toEqual(['A51']);
    expect(off('Which channels can I record with the PVR?')).toEqual(['PVR']);
    expect(off('How do I set up Bixby?')).toEqual(['Bixby']);
  });

  it('answers a question about what the manual does write, even with a word it does not', () => {
    expect(off('How do I record a programme?')).toEqual([]);
    expect(off('How do I set the sleep timer?')).toEqual([]);
    // "quickly" is in no passage, but three of the four topic words are.
    expect(off('How do I quickly edit the channel list?')).toEqual([]);
  });

  it('counts a name among many words the manual holds as its topic written another way', () => {
    // "ANT" is written in the manual; "RF" is not, but it is one name among words the manual holds.
    expect(off('Where does the RF antenna cable connect on the back of the TV?')).toEqual([]);
    // The same name with one other word makes the question about it.
    expect(off('RF cable?')).toEqual(['RF']);
  });

  it('takes plain words no passage holds when they are half the topic', () => {
    expect(off('How do I take a screenshot on the TV?')).toEqual([]);
    expect(off('How do I take a screenshot?')).toEqual(['screenshot']);
    expect(off('How long do I roast a chicken?')).toEqual(['roast', 'chicken']);
  });

  it('never judges by the words a question asks with, stopwords, or case at a sentence start', () => {
    // "fix" (a problem cue) is in no passage; the topic "sleep timer" is.
    expect(off('How do I fix the sleep timer?')).toEqual([]);
    // "Does" opens the question; "Movie" is written in the manual.
    expect(off('Does Movie mode change the picture?')).toEqual([]);
  });

  it('reads case as a name only where the question does not capitalise every word', () => {
    // Title case says nothing: "Quickly" is a plain word here, one of four.
    expect(off('How Do I Quickly Edit The Channel List?')).toEqual([]);
    expect(off('How do I quickly edit the Channel List with Alexa?')).toEqual(['quickly', 'Alexa']);
  });

  it('reads a capital inside a sentence as a name only for a word the library never writes', () => {
    const passages = [...TV_PASSAGES, 'Pair your phone with the TV over Wi-Fi.'];
    const at = (question: string, more: readonly string[] = [], words?: readonly string[]) => offLibrary(unsaidTopic(question, evidence(question, [...passages, ...more], words)));
    // "Wi-Fi" is one word (its "Fi" no sign that the question capitalises every word), and "Direct"
    // names a feature, as "Pay" does in "Samsung Pay": a library that never writes the word does not
    // document it, though it writes Wi-Fi and pairing.
    expect(at('Wi-Fi Direct pairing')).toEqual(['Direct']);
    expect(at('How do I set up Wi-Fi Direct pairing?')).toEqual(['Direct']);
    // Written in lower case by a passage, or counted by the term statistics only, the word is the
    // library's, whatever its case in the question.
    expect(at('Wi-Fi Direct pairing', ['Keep the TV out of direct sunlight.'])).toEqual([]);
    expect(at('Wi-Fi Direct pairing', [], ['direct'])).toEqual([]);
  });

  it('reads a misspelling of a library word as that word, but never a code one character from another', () => {
    const words = ['channel', 'record', 'programme', 'timer', 'remote'];
    expect(off('How do I recrod a programme?', words)).toEqual([]);
    expect(off('How do I recrod a programme?', [])).toEqual(['recrod']);
    const models = frequencies(['The A52 takes a fuse.']);
    const question = 'A51 fuse';
    expect(offLibrary(unsaidTopic(question, { ...evidence(question), passageFrequency: models, libraryWords: () => ['a52'] }))).toEqual(['A51']);
  });

  it('never reads a word as a misspelling of one a far key away: it is another word', () => {
    // "night" is one letter from the library's "light", but n and l are far apart on a keyboard:
    // "Night mode" is a feature no passage writes, not the manual's lights.
    expect(off('night mode', ['light', 'mode'])).toEqual(['night']);
    // "nigjt" slips from "night" to the key beside it.
    expect(off('nigjt mode', ['night', 'mode'])).toEqual([]);
  });

  it('reads a word as written when the library writes its family in another form, but not a short stem one letter from another', () => {
    const passages = [...TV_PASSAGES, 'The remote gives no response when its batteries are low.', 'A weak signal makes the picture freeze.'];
    const at = (question: string, words: readonly string[]) => offLibrary(unsaidTopic(question, evidence(question, passages, words)));
    const words = ['remote', 'response', 'weak', 'signal', 'picture', 'freeze'];
    // "responding" stems to "respond", "response" to "respons": one family.
    expect(at('remote not responding', words)).toEqual([]);
    expect(at('remote not responding', ['remote'])).toEqual(['responding']);
    // A shorter stem differing in its last letter is as often another word: "signage" ("signag") is no "signal".
    expect(at('digital signage', words)).toEqual(['digital', 'signage']);
  });

  it("reads the library's words once per unsaid word, for a misspelling and a word family together", () => {
    // The library's vocabulary runs to tens of thousands of words, walked for every word no passage holds.
    const words = ['remote', 'control', 'picture', 'channel', 'standard', 'dynamic'];
    let read = 0;
    const counted: Iterable<string> = {
      *[Symbol.iterator]() {
        for (const w of words) {
          read++;
          yield w;
        }
      },
    };
    const question = 'remote not responding';
    const found = unsaidTopic(question, { ...evidence(question), libraryWords: () => counted });
    // "responding" is neither a misspelling nor of a family the library writes: the whole walk, once.
    expect(found.unsaid).toEqual(['responding']);
    expect(read).toBe(words.length);
  });

  it('never takes a word the thesaurus says the library writes otherwise, nor one glued to a number', () => {
    const question = 'How do I change the display size?';
    const stats = frequencies(['Screen size: 55 inches.', 'Change it in Settings.']);
    expect(unsaidTopic(question, { ...evidence(question), passageFrequency: stats }).unsaid).toEqual(['display']);
    expect(unsaidTopic(question, { ...evidence(question), passageFrequency: stats, synonyms: new Map([['displai', ['screen']]]) }).unsaid).toEqual([]);
    // "x1200" of "1600x1200" is counted whole by the statistics, never as a word of its own.
    expect(unsaidTopic('1600x1200 picture', evidence('1600x1200 picture')).unsaid).toEqual([]);
  });

  it('counts a word the library writes only as another word of the question once, as that word', () => {
    // The thesaurus reads "header" as "pin": "header pins" says "pin" twice, one topic word, and
    // "solder", which no passage holds, is half of what is asked.
    const passages = [...TV_PASSAGES, 'Pin a channel to keep it at the top of the Channel List.'];
    const synonyms = new Map([
      ['header', ['pin']],
      ['pin', ['header']],
    ]);
    const read = (question: string) => unsaidTopic(question, { ...evidence(question, passages), synonyms });
    expect(read('How do I solder the header pins?').counted).toEqual(['solder', 'pin']);
    expect(offLibrary(read('How do I solder the header pins?'))).toEqual(['solder']);
    // Asked alone, "header" is a word of the question the library writes otherwise.
    expect(read('Where is the header on the remote control?').counted).toEqual(['header', 'remot', 'control']);
    expect(offLibrary(read('Where is the header on the remote control?'))).toEqual([]);
  });

  it('never takes a word the answer notes otherwise, but still counts it', () => {
    // A product code no manual mentions is said before the answer (`plan.unmentioned`): with it
    // noted, "quickly" alone among "record", "channel" and the code does not make the question off topic.
    const question = 'How do I quickly record a channel on the TX900?';
    expect(off(question)).toEqual(['quickly', 'TX900']);
    expect(offLibrary(unsaidTopic(question, { ...evidence(question), noted: new Set(['tx900']) }))).toEqual([]);
  });

  it('reads two library words run together as the words the library writes, but not a name so written', () => {
    const passages = [...TV_PASSAGES, 'Connect a sound bar to the HDMI port.', 'Share the power of the battery with another device.'];
    const at = (question: string) => offLibrary(unsaidTopic(question, evidence(question, passages)));
    expect(at('connect soundbar')).toEqual([]);
    expect(at('connect soundbox')).toEqual(['soundbox']);
    // Written as a name, a feature of its own.
    expect(at('turn on PowerShare')).toEqual(['PowerShare']);
  });

  it('counts a hyphenated word as one topic word, never its parts as more', () => {
    // "Wi-Fi" is one thing the question asks about, not "wi" and "fi" as well: the TV manual never
    // writes it, but it is one of three topic words, not two of four.
    const question = 'How do I connect to Wi-Fi?';
    expect(unsaidTopic(question, evidence(question)).counted).toEqual(['connect', 'wi-fi']);
    expect(off(question)).toEqual(['Wi-Fi']);
    expect(off('Wi-Fi remote control')).toEqual([]);
    // Written closed ("WiFi") or apart ("Wi-Fi"), the library writes it.
    expect(offLibrary(unsaidTopic(question, evidence(question, [...TV_PASSAGES, 'Connect the TV to WiFi.'])))).toEqual([]);
    expect(offLibrary(unsaidTopic(question, evidence(question, [...TV_PASSAGES, 'Connect the TV to a Wi-Fi network.'])))).toEqual([]);
  });

  it('splits a compound at its hyphens and underscores as the passage statistics do, but groups only a hyphened one', () => {
    expect(compoundParts('wi-fi')).toEqual(['wi', 'fi']);
    // "up" is a stopword the statistics never count.
    expect(compoundParts('wake_up')).toEqual(['wake']);
    expect(compoundParts('vdd11_aon')).toEqual(['vdd11', 'aon']);
    expect(compoundParts('timer')).toEqual(['timer']);
    expect(topicWordGroups(['wi-fi', 'wi', 'fi', 'connect'])).toEqual([['wi-fi', 'wi', 'fi'], ['connect']]);
    // An identifier a passage writes weighs as its parts in the coverage gate.
    expect(topicWordGroups(['vdd11_aon', 'vdd11', 'aon', 'sleep'])).toEqual([['vdd11_aon'], ['vdd11'], ['aon'], ['sleep']]);
  });

  it('tells one edit apart', () => {
    expect(oneEditApart('conect', 'connect')).toBe(true);
    expect(oneEditApart('serach', 'search')).toBe(true);
    // A letter changed for the key beside it is a slip; for one far from it, as often another word.
    expect(oneEditApart('timer', 'tiner')).toBe(true);
    expect(oneEditApart('timer', 'tiler')).toBe(false);
    expect(oneEditApart('night', 'light')).toBe(false);
    expect(oneEditApart('header', 'reader')).toBe(false);
    expect(oneEditApart('menü', 'menu')).toBe(true);
    // A vowel for a vowel is spelled by ear: a slip wherever the keys are.
    expect(oneEditApart('seperate', 'separate')).toBe(true);
    expect(oneEditApart('brightniss', 'brightness')).toBe(true);
    expect(oneEditApart('speeker', 'speaker')).toBe(true);
    // ... in a long word: in a short one it makes another word as often.
    expect(oneEditApart('toner', 'tuner')).toBe(false);
    expect(oneEditApart('liter', 'later')).toBe(false);
    expect(oneEditApart('timer', 'timer')).toBe(false);
    expect(oneEditApart('timer', 'mitre')).toBe(false);
    expect(oneEditApart('record', 'recorded')).toBe(false);
  });

  it('reads a word as a library word it is, or a slip of typing of one, never a code one character from another', () => {
    // Written: at any length, a code too.
    expect(writtenOrSlipOf('pvr', 'pvr')).toBe(true);
    expect(writtenOrSlipOf('core2', 'core2')).toBe(true);
    expect(writtenOrSlipOf('batery', 'battery')).toBe(true);
    // A short word one key from another is as often another word.
    expect(writtenOrSlipOf('pinz', 'pins')).toBe(false);
    // "Core2S" is another product than the library's "Core2".
    expect(writtenOrSlipOf('core2s', 'core2')).toBe(false);
    // A word the library writes, short or not, is never unsaid.
    expect(off('Which channels can I record with the PVR?', ['pvr', 'channel', 'record'])).toEqual([]);
    expect(off('Which channels can I record with the PVR?', ['channel', 'record'])).toEqual(['PVR']);
  });

  it('never reads a first letter dropped or added as a slip: it makes another word', () => {
    expect(oneEditApart('solder', 'older')).toBe(false);
    expect(oneEditApart('older', 'solder')).toBe(false);
    expect(oneEditApart('splash', 'plash')).toBe(false);
    // A doubled first letter, or one dropped or added past it, stays a slip.
    expect(oneEditApart('sselect', 'select')).toBe(true);
    expect(oneEditApart('slect', 'select')).toBe(true);
    // "solder" is a word the library never writes, not its "older".
    expect(off('How do I solder the remote?', ['older', 'remote'])).toEqual(['solder']);
  });
});

describe('retrieval with the topic gate', () => {
  const hit = (text: string, model: string | null = null): SearchHit => ({
    chunkId: `tv.md#${text.length}`,
    doc: 'tv.md',
    title: 'TV',
    text,
    score: 1,
    pages: [],
    headingPath: [],
    start: 0,
    end: text.length,
    signature: { category: null, nouns: [], model },
    snippet: '',
  });
  const index = (withStats: boolean, passages: readonly string[]): ChatIndex => ({
    retriever: 'bm25',
    vocabulary,
    search: async (query, o) => ok({ query, resolvedModels: [], retriever: o.retriever, results: passages.map((p) => hit(p)), highlight: [] }),
    ...(withStats ? { passageFrequency: frequencies(passages) } : {}),
  });
  async function ask(question: string, withStats = true, passages: readonly string[] = TV_PASSAGES) {
    const analysis = analyzeQuery(question, vocabulary);
    return unwrap(await retrieve(index(withStats, passages), question, analysis, planQuestion(question, analysis, vocabulary, []), {}));
  }

  it('keeps no passage for a question about something the library never writes, and says which words', async () => {
    const got = await ask('safe mode A51');
    expect(got.passages).toEqual([]);
    expect(got.unsaid).toEqual(['A51']);
  });

  it('keeps the passages of a question the library writes about', async () => {
    const got = await ask('How do I record a programme?');
    expect(got.passages.length).toBeGreaterThan(0);
    expect(got.unsaid).toEqual([]);
  });

  it('keeps only passages holding the rest of a question one of whose words no passage holds', async () => {
    // "ringtone" is in no passage, a quarter of the topic: not enough to call the question off the
    // library, but "Channel List" shares "channel" and "list" only, not "set": about something else.
    const got = await ask('How do I set a ringtone for the channel list?');
    expect(got.passages).toEqual([]);
    expect(got.unsaid).toEqual(['ringtone']);
    // Without "set" the passage holds every word the library writes: it answers.
    const kept = await ask('How do I edit the channel list with the remote gizmo?');
    expect(kept.passages.map((p) => p.hit.text)).toEqual(['Press the Menu button on the remote control and select Channel List to edit channels.']);
    expect(kept.unsaid).toEqual([]);
  });

  it('asks a passage for a hyphenated word once, as the parts of it the library writes', async () => {
    // "gizmo" is in no passage; of "edit", "channel", "list" and "Wi-Fi" a passage may lack one, and
    // "Wi-Fi" is one of them, not two.
    const passages = [...TV_PASSAGES, 'Connect the TV to a Wi-Fi network.'];
    const got = await ask('How do I edit the channel list over Wi-Fi with the gizmo?', true, passages);
    expect(got.passages.map((p) => p.hit.text)).toEqual(['Press the Menu button on the remote control and select Channel List to edit channels.']);
  });

  it('counts a hyphenated word as one topic word in the coverage gate', async () => {
    // Without statistics only the coverage gate judges: "Wi-Fi" is one of five topic words, so a
    // passage writing it alone holds one, not three ("wi-fi", "wi", "fi") of seven.
    const passages = [...TV_PASSAGES, 'Connect the TV to a Wi-Fi network.'];
    const got = await ask('How do I edit the channel list over Wi-Fi with the gizmo?', false, passages);
    expect(got.passages.map((p) => p.hit.text)).toEqual(['Press the Menu button on the remote control and select Channel List to edit channels.']);
  });

  it('never asks a passage for the words a question asks with', async () => {
    // "fix" is a word of the library (one passage) but asks, never names the subject: the remote
    // control passage answers though it does not write "fix"; "telly" is what no passage holds.
    const passages = [...TV_PASSAGES, 'To fix a frozen picture, unplug the TV and plug it in again.'];
    const got = await ask('How do I fix the remote control on my telly?', true, passages);
    expect(got.passages.map((p) => p.hit.text)).toContain('Take the batteries out of the remote control before storing it.');
  });

  it('changes nothing for a library without passage statistics', async () => {
    // "safe" and "mode" are in a passage: without statistics the coverage gate alone keeps it.
    const got = await ask('safe mode A51', false);
    expect(got.passages.map((p) => p.hit.text)).toEqual(['Safe mode is not available while a recording is running.']);
    expect(got.unsaid).toEqual([]);
  });
});

describe('chat on an imported manual, about something it never writes', () => {
  let engine: Engine;
  let cleanup: () => Promise<void>;
  let chat: ChatService;

  beforeAll(async () => {
    const tmp = await tempDir('manualmate-topic-gate-');
    cleanup = tmp.cleanup;
    engine = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none') });
    const index = await importP200(engine, tmp.dir);
    chat = createChatService({ libraryDir: (await engine.libraries.get('Shop'))!.dir, libraryName: 'Shop', index: chatIndexOf(index), getLlm: async () => null, emit: () => undefined });
  });
  afterAll(async () => {
    await engine?.dispose();
    await cleanup?.();
  });

  it('answers "not found", naming the words no manual has, where common words alone would have quoted lines', async () => {
    // "pressure" and "run" are in the pump manual ("record the operating pressure", "the motor
    // runs"), enough for the coverage gate; "car" and "tyres" are in none of its passages.
    const turn = unwrap(await chat.answer('What pressure should my car tyres run at?'));
    expect(turn.mode).toBe('not-found');
    expect(turn.text).toBe('None of the manuals in this library mentions car or tyres.\n\nI found nothing about this in the manuals of this library.');
  });

  it('still answers what the manual says, misspelt or not', async () => {
    // "strainr" is in no passage, and one of the two topic words: read as the manual's "strainer".
    for (const q of ['How often should the inlet strainer be cleaned?', 'How do I clean the strainr?']) {
      const turn = unwrap(await chat.answer(q));
      expect(turn.mode, q).toBe('extracted');
      expect(turn.citations!.some((c) => /strainer/i.test(c.quote)), q).toBe(true);
    }
  });
});
