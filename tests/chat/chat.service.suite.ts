import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Citation, SearchHit } from '../../src-main/contract/api';
import { chatIndexOf, createChatService, type ChatService } from '../../src-main/chat/chat.service';
import { EXTRACTED_LABEL } from '../../src-main/chat/extractive.answerer';
import { createEngine, type Engine } from '../../src-main/engine/engine';
import type { ModelVocabulary } from '../../src-main/enrich/model-vocabulary';
import type { LibraryIndex } from '../../src-main/index/library-index';
import { benchNormalize } from '../ingest/doc-invariants';
import { tempDir } from '../helpers/temp';
import { quotedLines, unwrap } from './fixtures';

interface BenchQuestion {
  id: string;
  query: string;
  answers: { doc: string; contains: string }[];
}

/** DESIGN.md: relevant when the document is a gold document and its normalized text contains the gold string. */
function relevant(q: BenchQuestion, doc: string, text: string): boolean {
  return q.answers.some((a) => a.doc === doc && benchNormalize(text).includes(benchNormalize(a.contains)));
}

/**
 * The extractive path (no LLM, the default) on radxa-docs and esp-dev-kits under `corpusRoot`
 * (near-duplicate board documents), with `questionFile` and the DESIGN.md relevance rule: `picks`
 * questions whose top search hit is relevant must get a relevant first citation.
 */
export function describeExtractiveChat(title: string, corpusRoot: string, questionFile: string, picks: number): void {
  const questions: BenchQuestion[] = readFileSync(questionFile, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as BenchQuestion);

  let engine: Engine;
  let cleanup: () => Promise<void>;
  let index: LibraryIndex;
  let libraryDir: string;
  let vocabulary: ModelVocabulary;

  function service(): ChatService {
    return createChatService({ libraryDir, libraryName: 'bench', index: chatIndexOf(index), getLlm: async () => null, emit: () => undefined });
}

  /** True when the citation is the model's own manual or its family (another revision, a "+" member). */
  function aboutModel(c: Citation, model: string): boolean {
    return c.model !== null && ['same', 'revision', 'member'].includes(vocabulary.relation(model, c.model));
}

  beforeAll(async () => {
    const tmp = await tempDir('manualmate-chat-corpus-');
    cleanup = tmp.cleanup;
    engine = createEngine({ dataDir: path.join(tmp.dir, 'data'), bundledModelsDir: path.join(tmp.dir, 'none') });
    const imported = unwrap(await engine.importPaths('bench', [path.join(corpusRoot, 'radxa-docs'), path.join(corpusRoot, 'esp-dev-kits')]));
    expect(imported.summary.failed).toBe(0);
    const lib = (await engine.libraries.get('bench'))!;
    libraryDir = lib.dir;
    index = await engine.indexes.open(lib);
    vocabulary = index.enrichment.vocabulary;
  }, 180_000);
  afterAll(async () => {
    await engine?.dispose();
    await cleanup?.();
  });

  describe(`extractive answers on ${title}`, () => {
    it(`cites a relevant chunk first for the first ${picks} questions whose top search hit is relevant`, async () => {
      const chat = service();
      const picked: { q: BenchQuestion; top: SearchHit }[] = [];
      for (const q of questions) {
        if (picked.length === picks) break;
        const top = unwrap(await index.search(q.query, { topK: 10, retriever: 'bm25' })).results[0];
        if (top && relevant(q, top.doc, top.text)) picked.push({ q, top });
      }
      expect(picked).toHaveLength(picks);
      for (const { q } of picked) {
        const turn = unwrap(await chat.answer(q.query));
        expect(turn.mode, q.id).toBe('extracted');
        expect(turn.text.startsWith(EXTRACTED_LABEL), q.id).toBe(true);
        const first = turn.citations![0]!;
        expect(relevant(q, first.doc, first.quote), `${q.id}: first citation ${first.chunkId}`).toBe(true);
        // Every quoted line carries a citation that exists.
        const lines = quotedLines(turn);
        expect(lines.length).toBeGreaterThan(0);
        for (const l of lines) {
          const n = Number(/\[(\d+)\]$/.exec(l)?.[1]);
          expect(turn.citations!.some((c) => c.n === n), `${q.id}: ${l}`).toBe(true);
        }
      }
    });

    it('says plainly that there is no manual for a model the library lacks, naming the closest real models', async () => {
      const turn = unwrap(await service().answer('What power supply does the Radxa E99C need?'));
      expect(turn.mode).toBe('not-found');
      expect(turn.citations).toEqual([]);
      const m = /^No manual for E99C in this library; closest: (.+)\.$/.exec(turn.text);
      expect(m, turn.text).not.toBeNull();
      const closest = m![1]!.split(', ');
      expect(closest.length).toBeGreaterThanOrEqual(2);
      for (const name of closest) {
        expect(vocabulary.lookup(name)?.name).toBe(name);
        expect(name).toMatch(/^E\d{2}/);
      }
    });

    it('says first when a known model is written with a member ending the library has no manual for', async () => {
      // "ROCK 5B Plus 2" begins with the ROCK 5B+ the library has; answered for it, after saying so
      // and naming the closest models, the one it extends first.
      const turn = unwrap(await service().answer('Which power supply suits the ROCK 5B Plus 2?'));
      const note = /^No manual for ROCK 5B Plus 2 in this library \(closest: ([^)]+)\); answering for ROCK 5B\+\.\n\n/.exec(turn.text);
      expect(note, turn.text).not.toBeNull();
      const closest = note![1]!.split(', ');
      expect(closest[0]).toBe('ROCK 5B+');
      expect(closest).toContain('ROCK 5B');
      expect(closest.length).toBeLessThanOrEqual(3);
      expect(turn.mode).toBe('extracted');
      // Written as the library writes its own member, nothing is said.
      const own = unwrap(await service().answer('What power supply does the ROCK 5B Plus need?'));
      expect(own.text.startsWith(EXTRACTED_LABEL), own.text).toBe(true);
    });

    it('says first when a question names a product code no manual of the library mentions, and answers about a chip they do', async () => {
      const other = unwrap(await service().answer('What input voltage does the TPS7A47 take?'));
      // It may be another product or the asked one's own number its manual never prints: the
      // answer comes, after saying so.
      expect(other.text.startsWith('None of the manuals in this library mentions TPS7A47: the lines below are from the manuals that best match the rest of the question, which may be about another product.')).toBe(true);
      // With nothing relevant either, it says both, and no "lines below".
      const none = unwrap(await service().answer('How do I recalibrate the flux capacitor of the FX3000?'));
      expect(none.mode).toBe('not-found');
      expect(none.text).toBe('None of the manuals in this library mentions FX3000.\n\nI found nothing about this in the manuals of this library.');
      // A chip the manuals mention is asked about inside them, not as a missing manual.
      const chip = unwrap(await service().answer('Which boards use the RK3588?'));
      expect(chip.mode).toBe('extracted');
      expect(chip.citations!.some((c) => /RK3588/i.test(c.quote))).toBe(true);
    });

    it('answers "not found" when no passage is relevant to the question', async () => {
      const turn = unwrap(await service().answer('How do I recalibrate the flux capacitor?'));
      expect(turn.mode).toBe('not-found');
      expect(turn.text).toBe('I found nothing about this in the manuals of this library.');
    });
  });

  describe(`conversations on ${title}`, () => {
    it('asks the earlier question again for the model an "and the X?" follow-up names, and says so', async () => {
      const chat = service();
      const conv = unwrap(await chat.create());
      unwrap(await chat.ask(conv.id, 'What power supply does the Radxa E52C need?'));
      const other = unwrap(await chat.ask(conv.id, 'And the ROCK 5B?'));
      expect(other.mode).toBe('extracted');
      expect(other.resolvedModels).toEqual(['ROCK 5B']);
      expect(other.text).toMatch(/^Read as: “What power supply does the (Radxa )?ROCK 5B need\?”/);
      expect(aboutModel(other.citations![0]!, 'ROCK 5B')).toBe(true);
      // A chain of such follow-ups reaches back to the question that had a topic.
      const third = unwrap(await chat.ask(conv.id, 'and the E20C?'));
      expect(third.text).toMatch(/^Read as: “What power supply does the (Radxa )?E20C need\?”/);
      expect(third.resolvedModels).toEqual(['E20C']);
      // A question with a topic of its own is answered as typed.
      const own = unwrap(await chat.ask(conv.id, 'How do I enter maskrom mode on the ROCK 5B?'));
      expect(own.text).not.toMatch(/^Read as/);
    });

    it('keeps the model named earlier for follow-ups, and switches when another is named', async () => {
      const chat = service();
      const conv = unwrap(await chat.create());
      const first = unwrap(await chat.ask(conv.id, 'What power supply does the Radxa E52C need?'));
      expect(first.resolvedModels).toEqual(['E52C']);
      expect(aboutModel(first.citations![0]!, 'E52C')).toBe(true);

      const followUp = unwrap(await chat.ask(conv.id, 'How do I enter maskrom mode?'));
      expect(followUp.mode).toBe('extracted');
      expect(followUp.resolvedModels).toEqual(['E52C']);
      expect(followUp.citations!.length).toBeGreaterThan(0);
      for (const c of followUp.citations!) expect(c.model === null || aboutModel(c, 'E52C'), `${c.chunkId} (${c.model})`).toBe(true);
      expect(followUp.citations![0]!.doc).toContain('/e52c/');

      const switched = unwrap(await chat.ask(conv.id, 'How do I enter maskrom mode on the ROCK 5B?'));
      expect(switched.resolvedModels).toEqual(['ROCK 5B']);
      expect(aboutModel(switched.citations![0]!, 'ROCK 5B')).toBe(true);

      const afterSwitch = unwrap(await chat.ask(conv.id, 'What power supply does it need?'));
      expect(afterSwitch.resolvedModels).toEqual(['ROCK 5B']);
      expect(aboutModel(afterSwitch.citations![0]!, 'ROCK 5B')).toBe(true);

      // A product code of no product line the library has is a switch too, not a question about ROCK 5B.
      const foreign = unwrap(await chat.ask(conv.id, 'How do I flash the ZX-900?'));
      expect(foreign.mode).toBe('not-found');
      expect(foreign.text).toMatch(/^No manual for ZX-900 in this library/);
      expect(foreign.resolvedModels).toEqual([]);
      unwrap(await chat.ask(conv.id, 'What power supply does the ROCK 5B need?'));

      const unknown = unwrap(await chat.ask(conv.id, 'And the E99C?'));
      expect(unknown.mode).toBe('not-found');
      expect(unknown.text).toMatch(/^No manual for E99C in this library/);

      // The same conversation without the earlier turns would not know which board "it" is.
      const cold = unwrap(await chat.answer('How do I enter maskrom mode?'));
      expect(cold.resolvedModels).toEqual([]);
    });

    it('restricts every answer of a scoped conversation to its models and documents', async () => {
      const chat = service();
      const byModel = unwrap(await chat.create({ scope: { models: ['E20C'] } }));
      const turn = unwrap(await chat.ask(byModel.id, 'How do I enter maskrom mode?'));
      expect(turn.resolvedModels).toEqual(['E20C']);
      for (const c of turn.citations!) expect(c.model).toBe('E20C');

      const docs = unwrap(await engine.handlers['documents.list']({ library: 'bench' }))
        .map((d) => d.id)
        .filter((id) => id.startsWith('radxa-docs/e/e52c/'));
      expect(docs.length).toBeGreaterThan(1);
      const byDoc = unwrap(await chat.create({ scope: { docIds: docs } }));
      const scoped = unwrap(await chat.ask(byDoc.id, 'What power supply is needed?'));
      expect(scoped.citations!.length).toBeGreaterThan(0);
      for (const c of scoped.citations!) expect(docs).toContain(c.doc);
    });

    it('answers a question naming another model than the picked chip for that model, and says so; the chip holds for the next', async () => {
      const chat = service();
      const conv = unwrap(await chat.create({ scope: { models: ['E20C'] } }));
      const named = unwrap(await chat.ask(conv.id, 'How do I enter maskrom mode on the E52C?'));
      expect(named.resolvedModels).toEqual(['E52C']);
      expect(named.text.startsWith('Answered for E52C, named in the question, not for the chosen E20C.')).toBe(true);
      expect(named.citations!.length).toBeGreaterThan(0);
      for (const c of named.citations!) expect(aboutModel(c, 'E52C')).toBe(true);
      // The chip still wins over what the conversation remembered.
      const next = unwrap(await chat.ask(conv.id, 'How do I enter maskrom mode?'));
      expect(next.resolvedModels).toEqual(['E20C']);
      expect(next.text).not.toContain('named in the question');
      for (const c of next.citations!) expect(c.model).toBe('E20C');
      // A question naming the chip's model beside another is answered for both, and sets no chip aside.
      const both = unwrap(await chat.ask(conv.id, 'Compare the power supply of the E20C and the E52C'));
      expect(both.resolvedModels).toEqual(['E20C', 'E52C']);
      expect(both.text).not.toContain('not for the chosen');
    });

    it('survives a new service instance: list, get with citations, rename, export and delete', async () => {
      const chat = service();
      const conv = unwrap(await chat.create());
      const answer = unwrap(await chat.ask(conv.id, 'Radxa E52C power supply requirements'));

      const again = service();
      const summaries = unwrap(await again.list());
      expect(summaries[0]).toMatchObject({ id: conv.id, title: 'Radxa E52C power supply requirements', turns: 2 });
      const stored = unwrap(await again.get(conv.id));
      expect(stored.messages[1]).toEqual(answer);

      expect(unwrap(await again.rename(conv.id, 'E52C power')).title).toBe('E52C power');
      const { markdown } = unwrap(await again.exportMarkdown(conv.id));
      expect(markdown).toContain('# E52C power');
      expect(markdown).toContain('## Q: Radxa E52C power supply requirements');
      for (const c of answer.citations!) {
        expect(markdown).toContain(`**[${c.n}]** \`${c.doc}\``);
        expect(markdown).toContain(c.headingPath.join(' › '));
      }

      expect(unwrap(await again.delete(conv.id))).toEqual({ deleted: conv.id });
      expect(unwrap(await service().list()).some((s) => s.id === conv.id)).toBe(false);
      const gone = await service().get(conv.id);
      expect(gone.ok || gone.error.code).toBe('not-found');
    });
  });
}
