import { describe, expect, it } from 'vitest';
import { withoutCopies } from '../../src-main/chat/passage-copies';
import { sectionHit } from './fake-index';

const GROUPS = 'Add more contacts to a group, or remove contacts.\n\n1. To remove a contact, touch and hold it, and then tap Remove.';
const asked = sectionHit('asked', ['Phone Manual', 'Contacts', 'Add or remove group contacts'], GROUPS, 'phone/model-a.md');
const sibling = sectionHit('sibling', ['Phone Lite Manual', 'Contacts', 'Add or remove group contacts'], GROUPS.replace('group,', 'group'), 'phone/model-a-lite.md');
const other = sectionHit('other', ['Phone Manual', 'Contacts', 'Groups'], 'You can use groups to organize your contacts.', 'phone/model-a.md');
const isAsked = (hit: { doc: string }): boolean => hit.doc === 'phone/model-a.md';

describe("a section a sibling model's manual repeats word for word", () => {
  it("gives its place to the asked model's copy ranked before it, the first passage's too", () => {
    expect(withoutCopies([asked, sibling, other], isAsked).map((h) => h.chunkId)).toEqual(['asked', 'other']);
    expect(withoutCopies([other, asked, sibling], isAsked).map((h) => h.chunkId)).toEqual(['other', 'asked']);
  });

  it('stays when no model is asked, when it ranks first, or when its model is asked too', () => {
    expect(withoutCopies([asked, sibling, other]).map((h) => h.chunkId)).toEqual(['asked', 'sibling', 'other']);
    expect(withoutCopies([sibling, asked, other], isAsked).map((h) => h.chunkId)).toEqual(['sibling', 'asked', 'other']);
    expect(withoutCopies([asked, sibling, other], () => true).map((h) => h.chunkId)).toEqual(['asked', 'sibling', 'other']);
  });

  it('stays when it only looks alike', () => {
    const alike = { ...sibling, text: sibling.text.replace('touch and hold it', 'tap it') };
    expect(withoutCopies([asked, alike, other], isAsked).map((h) => h.chunkId)).toEqual(['asked', 'sibling', 'other']);
  });
});
