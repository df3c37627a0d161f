import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DocumentEvidence, documentNames, nameWords } from '../../src-main/search/document-evidence';
import { weighByDocumentNames } from '../../src-main/search/stages/document-names.stage';
import type { ChunkHit } from '../../src-main/storage/chunk-store';
import { loadCorpus } from '../enrich/corpus.helper';
import { corpusRoots } from '../helpers/temp';

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

  it('counts a word the question repeats once: naming the vendor of two compared models twice favours no title holding it', () => {
    // Said twice, "acme" gained the README (titled "Acme ZX 20") its IDF again over its own pin page.
    const once = evidence.score('Acme ZX 20 fan');
    const twice = evidence.score('Acme ZX 20 fan or the Acme one');
    expect(twice.get('kit/boards/zx20/hardware/pins.md')).toBeLessThan(1);
    expect([...twice]).toEqual([...once]);
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

describe('DocumentEvidence.score over postings', () => {
  // The definition, as a scan of every document's name terms: the indexed score must give the
  // same documents, in the same order, with the same values.
  function reference(all: readonly { id: string; title: string }[], query: string): [string, number][] {
    const spans = (words: string[]) => words.flatMap((_, i) => words.slice(i, i + 3).map((__, j) => ({ term: words.slice(i, i + j + 1).join(''), from: i, to: i + j })));
    const terms = all.map((d) => new Set(documentNames(d).flatMap((n) => spans(nameWords(n)).map((s) => s.term))));
    const df = new Map<string, number>();
    for (const set of terms) for (const t of set) df.set(t, (df.get(t) ?? 0) + 1);
    const words = nameWords(query);
    const candidates = spans(words).filter((s) => df.has(s.term));
    const weights = candidates.map((c) => Math.log(1 + (all.length - df.get(c.term)! + 0.5) / (df.get(c.term)! + 0.5)));
    const raw: [string, number][] = [];
    terms.forEach((set, i) => {
      const credit = new Array<number>(words.length).fill(0);
      let any = false;
      candidates.forEach((c, k) => {
        if (!set.has(c.term)) return;
        any = true;
        for (let p = c.from; p <= c.to; p++) credit[p] = Math.max(credit[p]!, weights[k]!);
      });
      // A repeated word of the question counts once, at its best credit.
      const once = new Map<string, number>();
      credit.forEach((c, p) => once.set(words[p]!, Math.max(once.get(words[p]!) ?? 0, c)));
      if (any) raw.push([all[i]!.id, [...once.values()].reduce((a, b) => a + b, 0)]);
    });
    const best = Math.max(...raw.map(([, s]) => s));
    return raw.map(([id, s]) => [id, s / best]);
  }

  it('scores every fixture question as the scan over every document does', () => {
    const library = [...loadCorpus('radxa-docs', corpusRoots.fixture), ...loadCorpus('esp-dev-kits', corpusRoots.fixture)].map((d) => ({ id: d.id, title: d.title }));
    const built = DocumentEvidence.build(library);
    const questions = readFileSync(path.join(corpusRoots.fixture, 'questions.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { query: string }).query);
    let matched = 0;
    for (const q of [...questions, 'ROCK 5B+ power', 'zero 3w vs zero 3e', 'ESP32-S3-DevKitC-1 v1.1 pins']) {
      const got = [...built.score(q)];
      expect(got, q).toEqual(reference(library, q));
      matched += got.length;
      // The lookup a search uses says the same of every document, matching or not.
      const scores = built.scores(q);
      expect(scores.size, q).toBe(got.length);
      const map = new Map(got);
      for (const d of library) expect(scores.get(d.id), `${q} ${d.id}`).toBe(map.get(d.id));
    }
    expect(matched).toBeGreaterThan(0);
  });

  it('scores a question whose words match more than 32 name terms as the scan does', () => {
    // 40 words, their pairs and triples: over a hundred candidate terms, held 32 to a word.
    const words = Array.from({ length: 40 }, (_, i) => `part${String.fromCharCode(97 + (i % 26))}${i}`);
    const library = [
      { id: 'kit/all.md', title: words.join(' ') },
      { id: 'kit/even.md', title: words.filter((_, i) => i % 2 === 0).join(' ') },
      { id: 'kit/tail.md', title: words.slice(30).join(' ') },
      { id: 'kit/none.md', title: 'Unrelated' },
    ];
    const built = DocumentEvidence.build(library);
    for (const q of [words.join(' '), words.slice(5, 38).join(' ')]) {
      expect([...built.score(q)], q).toEqual(reference(library, q));
      expect(built.scores(q).get('kit/even.md')).toBe(built.score(q).get('kit/even.md'));
    }
    expect(built.passageWords(`${words.slice(30).join(' ')} current`)).toEqual({ docs: ['kit/all.md', 'kit/tail.md'], words: ['current'] });
  });
});
