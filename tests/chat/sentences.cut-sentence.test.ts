import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../src-main/chat/sentences';

const texts = (markdown: string): string[] => splitSentences(markdown).map((u) => u.text);

describe('a sentence a PDF converter cut across paragraphs', () => {
  it('is read whole when the paragraph ends with its first words after a full stop', () => {
    const md = ['Select one or more channels, and then select Change order. The', '', 'Change order highlight appears. Press the Select button to save.'].join('\n');
    expect(texts(md)).toEqual(['Select one or more channels, and then select Change order.', 'The Change order highlight appears.', 'Press the Select button to save.']);
  });

  it('keeps its offset and spans both paragraphs, so its citation points at both', () => {
    const md = ['Press the Select button. Move to Cancel', '', 'Scheduled Viewing, and then press the Select button.'].join('\n');
    const cut = splitSentences(md).find((u) => u.text.startsWith('Move to Cancel'))!;
    expect(cut.text).toBe('Move to Cancel Scheduled Viewing, and then press the Select button.');
    expect(md.slice(cut.offset, cut.offset + cut.length)).toBe('Move to Cancel\n\nScheduled Viewing, and then press the Select button.');
  });

  it('does not take the next title as its rest', () => {
    const md = ['You can view notifications. For more', '', 'Universal Guide', '', 'Universal Guide is an app.'].join('\n');
    const units = splitSentences(md);
    expect(units.map((u) => u.text)).toEqual(['You can view notifications.', 'For more', 'Universal Guide', 'Universal Guide is an app.']);
    expect(units[2]!.title).toBe(true);
  });

  it('does not join a paragraph that ends with no sentence end before its last words (a title or menu path)', () => {
    const md = ['Settings General System Manager', '', 'Language settings can be changed here.'].join('\n');
    expect(texts(md)).toEqual(['Settings General System Manager', 'Language settings can be changed here.']);
  });

  it('does not join a sentence that only lost its full stop (more than three words after the last one)', () => {
    const md = ['To change the mode, press Select. To make fine adjustments, select Picture Setup', '', 'Connecting a speaker may not be supported.'].join('\n');
    expect(texts(md)).toEqual(['To change the mode, press Select.', 'To make fine adjustments, select Picture Setup', 'Connecting a speaker may not be supported.']);
  });

  it('does not read an entry number as a sentence end, nor carry on into a list', () => {
    expect(texts(['See Figure 7. Typical Application', '', 'The circuit uses two resistors.'].join('\n'))).toEqual(['See Figure 7. Typical Application', 'The circuit uses two resistors.']);
    expect(texts(['Open the menu. The', '', '- first item', '- second item'].join('\n'))).toEqual(['Open the menu.', 'The', 'first item', 'second item']);
  });

  it('does not read a label or an abbreviation as the first words of a cut sentence', () => {
    expect(texts(['Unplug the cable first. NOTE', '', 'The fuse is replaceable.'].join('\n'))).toEqual(['Unplug the cable first.', 'NOTE', 'The fuse is replaceable.']);
    // (How the splitter cuts "e.g." inside the paragraph is another matter: the next paragraph stays whole.)
    expect(texts(['Open a menu, e.g. Settings', '', 'The list shows every option.'].join('\n')).at(-1)).toBe('The list shows every option.');
    // A sentence cut after its first word still joins when that word is a one-letter capital.
    expect(texts(['Press Select. A', '', 'menu appears on the screen.'].join('\n'))).toEqual(['Press Select.', 'A menu appears on the screen.']);
  });
});
