import { describe, expect, it } from 'vitest';
import { passageOrder } from '../../src-main/chat/extractive.pick';
import type { Scored } from '../../src-main/chat/extractive.pick';
import type { Passage } from '../../src-main/chat/passages';
import type { Sentence } from '../../src-main/chat/sentences';

const line = (passage: number, text: string, score: number, lead = 1): Scored => ({
  passage,
  score,
  lead,
  sentence: { text, offset: passage * 1000, length: text.length, kind: 'prose', heading: null, block: -1 } satisfies Sentence,
});

/** Passages of one manual (or of the documents given), as `passageOrder` reads them. */
const passages = (...docs: string[]): Passage[] => docs.map((doc) => ({ hit: { doc, signature: { model: null } }, members: [] }) as unknown as Passage);

/** The passages in the order the answer quotes them. */
const orderOf = (picked: Scored[], used: Passage[]): number[] => {
  const { rank } = passageOrder(picked, new Set(), used, []);
  return [...new Set(picked.map((p) => p.passage))].sort((a, b) => rank(a) - rank(b));
};

describe('a later passage whose best line answers the kind of question asked', () => {
  // "How do I turn on Video Description?": a list of voice commands names the function; the steps
  // under the heading that names the question lead their passage (instruction and whole-section weights).
  const commands = line(0, 'Press the button, and then say Video Description on.', 5, 1.6);
  const steps = line(1, 'Press the Select button to turn Video Description on or off.', 9, 4.8);

  it('leads when its line, weighed for its place in its passage, scores far above the first passage’s', () => {
    expect(orderOf([commands, steps], passages('tv.md', 'tv.md'))).toEqual([1, 0]);
  });

  it('does not lead from another manual: the search’s model-aware order stands', () => {
    expect(orderOf([commands, steps], passages('tv.md', 'other.md'))).toEqual([0, 1]);
  });

  it('does not lead on a bare score that only restates the question', () => {
    // Three times the first line's score, but weighed as a restatement of the asked problem.
    const restated = line(1, 'The TV is making a popping noise.', 15, 0.3);
    const answer = line(0, 'The expansion and contraction of the casing may cause a popping noise.', 5);
    expect(orderOf([answer, restated], passages('tv.md', 'tv.md'))).toEqual([0, 1]);
  });

  it('does not lead when its weighed score is not clearly above the first passage’s', () => {
    const close = line(1, 'Press the Select button to turn Video Description on or off.', 9, 1.6);
    expect(orderOf([commands, close], passages('tv.md', 'tv.md'))).toEqual([0, 1]);
  });
});

describe('a first passage that serves the asked problem only by restating it', () => {
  // "Can I fix Weak or No Signal issue?": the wireless network's troubleshooting section lists a
  // restated problem ("The wireless network signal is too weak."), so its opening was moved up to
  // lead it; the broadcast section opens with the asked problem as its own condition.
  const borrowedOpening = line(0, 'When the TV has difficulties connecting to the Internet, these steps may help resolve the problem.', 3, 1.6);
  const restated = line(0, 'The wireless network signal is too weak.', 3, 0.3);
  const ownOpening = line(1, 'When the TV has difficulties receiving broadcasts, these steps may help resolve the problem.', 2.5, 1.6);
  const picked = [borrowedOpening, restated, ownOpening];
  const asked = { is: (s: Scored) => s === borrowedOpening || s === ownOpening, share: 0.5 };
  const rankOf = (borrowed: Set<Sentence>): number[] => {
    const { rank } = passageOrder(picked, new Set(), passages('tv.md', 'tv.md'), [], asked, borrowed);
    return [0, 1].sort((a, b) => rank(a) - rank(b));
  };

  it('yields the lead to a later passage whose own line serves it', () => {
    expect(rankOf(new Set([borrowedOpening.sentence]))).toEqual([1, 0]);
  });

  it('keeps the lead when its opening serves the problem in its own words', () => {
    expect(rankOf(new Set())).toEqual([0, 1]);
  });

  it('keeps the lead when the later passage’s opening is borrowed too', () => {
    expect(rankOf(new Set([borrowedOpening.sentence, ownOpening.sentence]))).toEqual([0, 1]);
  });
});

describe('a later passage with a label the question names, when the first has the asked kind of line', () => {
  // "What can I do if Schedule Recording is not working?": the troubleshooting section opens with
  // the asked problem as its condition; a later passage's "Schedule Recording: ..." only says what
  // the function is.
  const opening = line(0, 'When Timeshift or Schedule recording aren’t working, these steps may help resolve the problem.', 8, 6);
  const label = line(1, 'Schedule Recording: You can schedule recording of a broadcast scheduled program.', 3, 0.5);
  const rankOf = (kindLines: Scored[]): number[] => {
    const asked = { is: (s: Scored) => kindLines.includes(s), share: 0.5 };
    const { rank } = passageOrder([opening, label], new Set([1]), passages('tv.md', 'tv.md'), [], asked);
    return [0, 1].sort((a, b) => rank(a) - rank(b));
  };

  it('does not lead over a first passage with a line of the asked kind', () => {
    expect(rankOf([opening])).toEqual([0, 1]);
  });

  it('leads when the first passage has no line of the asked kind, or when its own line is of that kind too', () => {
    expect(rankOf([])).toEqual([1, 0]);
    expect(rankOf([opening, label])).toEqual([1, 0]);
  });
});

describe('a first passage that only restates the asked problem', () => {
  // "Why my TV is making a popping noise?": a flattened troubleshooting table's problem column,
  // then the next chunk with the causes.
  const popping = line(0, 'The TV is making a popping noise.', 14, 0.4);
  const banner = line(0, 'A POP (TV’s internal banner ad) appears on the screen.', 6, 1);
  const cause = line(1, 'The expansion and contraction of the TV’s outer casing may cause a popping noise.', 7, 1.3);
  const orderWith = (picked: Scored[], docs: string[] = ['tv.md', 'tv.md']): number[] => {
    const { rank } = passageOrder(picked, new Set(), passages(...docs), [], undefined, new Set(), new Set([popping.sentence]));
    return [...new Set(picked.map((p) => p.passage))].sort((a, b) => rank(a) - rank(b));
  };

  it('yields the lead to the next passage of its manual that answers', () => {
    expect(orderWith([popping, banner, cause])).toEqual([1, 0]);
  });

  it('keeps the lead over a passage of another manual', () => {
    expect(orderWith([popping, banner, cause], ['tv.md', 'other.md'])).toEqual([0, 1]);
  });

  it('keeps the lead when a line of its own that does not restate scores above the later one', () => {
    const solution = line(0, 'Broadcasting cannot be accessed while a recording is in progress.', 7.5, 1);
    expect(orderWith([popping, solution, cause])).toEqual([0, 1]);
  });

  it('keeps the lead when its best line answers rather than restates', () => {
    const top = line(0, 'The TV’s casing expands as it warms up.', 20, 1);
    expect(orderWith([top, popping, cause])).toEqual([0, 1]);
  });
});
