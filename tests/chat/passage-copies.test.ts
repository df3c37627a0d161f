import { describe, expect, it } from 'vitest';
import { withoutCopies } from '../../src-main/chat/passage-copies';
import { retrievedIds, sectionHit } from './fake-index';

const AMBIENT = 'Ambient Mode shows pictures while the TV is off.\n\n- Color Tone: Adjusts the colors of the screen.\n- Auto Brightness: Changes the brightness.';
const TIMER = 'The off timer turns the TV off after a set time.\n\nSelect Off Timer, then pick a time.';
const best = sectionHit('best', ['TV Manual', 'Picture', 'Picture Mode'], 'Picture Mode sets how the picture looks.\n\nSelect Standard for most rooms.');
const bestCopy = sectionHit('best-copy', ['TV Manual', 'Quick Guide', 'Picture Mode'], 'Picture Mode sets how the picture looks.\n\nSelect Standard for most rooms.');
const ambient = sectionHit('ambient', ['TV Manual', 'Smart Features', 'Using the Ambient Mode'], AMBIENT);
const ambientCopy = sectionHit('ambient-copy', ['TV Manual', 'Quick Guide', 'Using the Ambient Mode'], AMBIENT.replace('pictures while', 'pictures, while'));
const timer = sectionHit('timer', ['TV Manual', 'System', 'Using the timers'], TIMER);

describe('a section the manual prints twice', () => {
  it('is quoted from once: the later copy goes, the passages after it move up', () => {
    expect(withoutCopies([best, ambient, ambientCopy, timer]).map((h) => h.chunkId)).toEqual(['best', 'ambient', 'timer']);
  });

  it('keeps the copy of the first passage, where its further lines come from', () => {
    expect(withoutCopies([best, bestCopy, ambient, ambientCopy]).map((h) => h.chunkId)).toEqual(['best', 'best-copy', 'ambient']);
  });

  it('keeps passages only alike, and copies in another document', () => {
    const alike = sectionHit('alike', ['TV Manual', 'System', 'Using the sleep timer'], TIMER.replace('off timer', 'sleep timer'));
    expect(withoutCopies([best, timer, alike]).map((h) => h.chunkId)).toEqual(['best', 'timer', 'alike']);
    const otherManual = { ...ambientCopy, chunkId: 'other-manual', doc: 'tv/other-model.md' };
    expect(withoutCopies([best, ambient, otherManual]).map((h) => h.chunkId)).toEqual(['best', 'ambient', 'other-manual']);
  });

  it('reads no copy into sections that are only a heading', () => {
    const empty1 = sectionHit('h1', ['TV Manual', 'Picture'], '');
    const empty2 = sectionHit('h2', ['TV Manual', 'Sound'], '');
    expect(withoutCopies([best, empty1, empty2]).map((h) => h.chunkId)).toEqual(['best', 'h1', 'h2']);
  });

  it('keeps a later copy out of the passages chat quotes', async () => {
    const ambientMore = sectionHit('ambient-more', ['TV Manual', 'Smart Features', 'Using the Ambient Mode', 'Ambient Mode settings'], 'Change the Ambient Mode screen settings from the browser.');
    expect(await retrievedIds('How do I change the Ambient Mode screen colors?', [ambientMore, ambient, ambientCopy, timer])).toEqual(['ambient-more', 'ambient']);
  });
});
