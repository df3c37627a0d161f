import { describe, expect, it } from 'vitest';
import { DocumentEvidence, documentNames, nameWords } from '../../src-main/search/document-evidence';
import { weighByDocumentNames } from '../../src-main/search/stages/document-names.stage';
import type { ChunkHit } from '../../src-main/storage/chunk-store';

const docs = [
  { id: 'kit/boards/zx20/README.md', title: 'Acme ZX 20' },
  { id: 'kit/boards/zx20/hardware/pins.md', title: 'Pin header' },
  { id: 'kit/boards/zx20plus/README.md', title: 'Acme ZX 20+' },
  { id: 'kit/boards/qa7/README.md', title: 'Acme QA7' },
  { id: 'kit/parts/QB702_704_706_DS.pdf', title: 'QB702/704/706 Datasheet' },
];
const evidence = DocumentEvidence.build(docs);

describe('nameWords', () => {
  it('reads a trailing "+" as the word plus and expands "702/704/706" after a coded name', () => {
    expect(nameWords('Acme ZX 20+')).toEqual(['acme', 'zx', '20', 'plus']);
    expect(nameWords('QB702/704/706 Datasheet')).toEqual(['qb702', 'qb704', 'qb706', 'datasheet']);
  });
});

describe('documentNames', () => {
  it('takes the title, the file name and the folders below the imported one', () => {
    expect(documentNames(docs[1]!)).toEqual(['Pin header', 'pins', 'boards', 'zx20', 'hardware']);
  });
});

describe('DocumentEvidence.score', () => {
  it("credits a model named once whatever the spelling: a model's pages tie on its name", () => {
    const s = evidence.score('zx20 fan gpio');
    // "zx20" is the README's folder and title ("ZX 20" run together) and the pin page's folder.
    expect(s.get('kit/boards/zx20/README.md')).toBe(s.get('kit/boards/zx20/hardware/pins.md'));
    expect(s.has('kit/boards/qa7/README.md')).toBe(false);
  });

  it('prefers the sibling whose names hold every word of the question, "plus" included', () => {
    const s = evidence.score('Acme ZX 20 plus power input');
    expect(s.get('kit/boards/zx20plus/README.md')).toBe(1);
    expect(s.get('kit/boards/zx20/README.md')!).toBeLessThan(1);
  });

  it('finds a part listed in a combined name, and discounts a word every document shares', () => {
    const s = evidence.score('QB704 supply voltage');
    expect([...s.keys()]).toEqual(['kit/parts/QB702_704_706_DS.pdf']);
    const vendor = evidence.score('Acme QA7 reset');
    expect(vendor.get('kit/boards/qa7/README.md')).toBe(1);
    expect(vendor.get('kit/boards/zx20/README.md')!).toBeLessThan(0.3);
  });

  it('is empty when the question matches no name', () => {
    expect(evidence.score('how do I reset it').size).toBe(0);
  });
});

describe('weighByDocumentNames', () => {
  const hit = (id: string, docId: string, score: number) => ({ score, record: { id, docId } }) as unknown as ChunkHit;
  it("lifts the hits of the documents the question names, by the document's evidence", () => {
    const hits = [hit('a', 'other.md', 10), hit('b', 'named.md', 4)];
    const out = weighByDocumentNames(hits, new Map([['named.md', 1]]), 3);
    expect(out.map((h) => h.record.id)).toEqual(['b', 'a']);
    expect(out[0]!.score).toBe(16);
    expect(weighByDocumentNames(hits, new Map())).toBe(hits);
  });
});
