import { createRequire } from 'node:module';
import type winkNLP from 'wink-nlp';
import type { ItemSentence } from 'wink-nlp';
import type { Chunk, Signature } from '../core/chunk';
import type { NormalizedDocument } from '../core/document';
import { boundedMemo } from '../core/memo';
import { addCategoryHits, bestCategory } from './category.lexicon';
import type { ChunkText, ChunkView } from './chunk-view';
import { chooseModel } from './chunk-view';
import type { DocIdentity, ModelVocabulary } from './model-vocabulary';
import type { TermStats } from './term-stats';
import { isStopword, modelTokens, singular } from './text.util';

/**
 * The heuristic CNM extractor (CHOP's Category–Noun–Model without a model):
 * - model: `chooseModel` (document identity from the vocabulary, refined by the chunk's headings,
 *   tab labels and text, cross-checked against the vocabulary);
 * - category: the lexicon over the chunk's headings, else the model's learned category, else the
 *   document's identity category;
 * - nouns: part-of-speech tagged nouns (wink-nlp: ~14x faster than compromise here, which made
 *   tagging 90% of import time) of the section heading and the chunk's opening,
 *   ranked by TF-IDF against the library; noun compounds ("power supply") count as one noun.
 */

/** What every heuristic stage knows about the document being enriched. */
export interface DocumentFacts {
  doc: NormalizedDocument;
  identity: DocIdentity | null;
  vocabulary: ModelVocabulary;
  terms: TermStats;
}

export interface CnmHeuristicOptions {
  /** Characters of chunk prose that are part-of-speech tagged (tagging is the slow step). */
  maxTaggedChars?: number;
}

export interface CnmExtraction {
  signature: Signature;
  /** Why the model was chosen (shown in the inspector, kept in continuity reasons). */
  modelReason: string;
}

/** What one extraction computes. */
export interface CnmExtractOptions {
  /** False: the signature's nouns are left empty and nothing is tagged (default true). */
  nouns?: boolean;
}

/** The CNM stage object; options are fixed at construction. */
export interface CnmHeuristic {
  readonly name: 'cnm-heuristic';
  extract(view: ChunkView, facts: DocumentFacts, options?: CnmExtractOptions): CnmExtraction;
}

/** Words that name documentation structure rather than what a chunk is about. */
const NOUN_STOP = new Set(
  (
    'section chapter page document documentation guide manual table figure image picture note tip warning ' +
    'detail details information info example introduction overview content contents step item list link ' +
    'reference version user users thing way part method type lot number time'
  ).split(' '),
);

type Tagger = ReturnType<typeof winkNLP>;
let loaded: Tagger | null = null;

/**
 * The tagger, loaded on first use: part-of-speech only, no entities or sentiment. Its English
 * model takes longer to load than a whole search, and opening a library to search needs no
 * tagging (both packages are CommonJS, so a synchronous require keeps `extract` synchronous).
 */
function tagger(): Tagger {
  if (!loaded) {
    const require = createRequire(import.meta.url);
    const wink = require('wink-nlp') as typeof winkNLP;
    loaded = wink(require('wink-eng-lite-web-model') as Parameters<typeof winkNLP>[0], ['pos']);
  }
  return loaded;
}

/**
 * Loads the tagger now (~0.2 s of CPU) rather than at the first chunk enriched: an import calls
 * this while its files are still being parsed, so the load leaves the enrichment's critical path.
 */
export function warmTagger(): void {
  tagger();
}

interface TaggedTerm {
  /** The word as written. */
  text: string;
  /** Lower-cased form. */
  normal: string;
  /** Universal POS tag (NOUN, PROPN, VERB, ...). */
  pos: string;
  /**
   * For a noun term (`isNounTerm`), what `nouns` reads of it beyond the chunk's own exclusions,
   * worked out once with the tagging: a section's heading is harvested again for every chunk of
   * the section, from the same cached terms. Null for any other term.
   */
  noun: NounFacts | null;
}

interface NounFacts {
  /** The singular of `normal`, the form a noun is counted under. */
  word: string;
  /** Written in capitals and digits ("GND", "SDA"): in body text mostly a pin or signal name. */
  acronym: boolean;
  /** A stopword, a structural word (`NOUN_STOP`) or shorter than 3 letters: never a noun of the signature. */
  skip: boolean;
}

function nounFacts(text: string, normal: string): NounFacts {
  const word = singular(normal);
  return {
    word,
    acronym: /^[A-Z0-9_]{2,}$/.test(text),
    skip: isStopword(normal) || isStopword(word) || NOUN_STOP.has(word) || word.length < 3,
  };
}

/**
 * Sentences of tagged terms, remembered for recent texts: section headings repeat for every chunk
 * of their section, and manuals of sibling boards share whole passages (callers must not modify
 * the result).
 */
const tagSentences = boundedMemo(2000, tagUncached);

/** Tagged texts of chunks tagged ahead of their enrichment (`pretagChunk`), by chunk and text. */
const pretagged = new WeakMap<Chunk, Map<string, TaggedTerm[][]>>();

/** The chunk's tagged `text`: tagged ahead when it was, else now. */
function tagsOf(chunk: Chunk, text: string): TaggedTerm[][] {
  return pretagged.get(chunk)?.get(text) ?? tagSentences(text);
}

/** Default of `maxTaggedChars`. */
const MAX_TAGGED_CHARS = 400;

/**
 * Tags now what `extract` with the default options will tag for this chunk (its section heading
 * and its opening): both are its text alone, so an import tags the chunks of documents already
 * learned while it waits for the next parse. Kept with the chunk, outside the bounded cache.
 */
export function pretagChunk(chunk: Chunk, text: Pick<ChunkText, 'headings' | 'plain'>): void {
  const tags = new Map<string, TaggedTerm[][]>();
  for (const t of [sectionHeading(chunk, text.headings), text.plain.slice(0, MAX_TAGGED_CHARS)]) {
    if (t.trim()) tags.set(t, tagSentences(t));
  }
  pretagged.set(chunk, tags);
}

/** The heading a chunk's nouns weigh most: the last heading inside it, else the last of its path. */
function sectionHeading(chunk: Chunk, headings: ChunkView['headings']): string {
  return headings[headings.length - 1]?.text ?? chunk.headingPath[chunk.headingPath.length - 1] ?? '';
}

function tagUncached(text: string): TaggedTerm[][] {
  const nlp = tagger();
  const its = nlp.its;
  const doc = nlp.readDoc(text);
  const out: TaggedTerm[][] = [];
  doc.sentences().each((sentence: ItemSentence) => {
    const tokens = sentence.tokens();
    const values = tokens.out(its.value) as string[];
    const normals = tokens.out(its.normal) as string[];
    const pos = tokens.out(its.pos) as string[];
    out.push(
      values.map((text, i) => {
        const normal = normals[i] ?? text.toLowerCase();
        const tag = pos[i] ?? '';
        return { text, normal, pos: tag, noun: isNounTerm(tag, normal) ? nounFacts(text, normal) : null };
      }),
    );
  });
  return out;
}

function isNounTerm(pos: string, normal: string): boolean {
  return (pos === 'NOUN' || pos === 'PROPN') && /^[a-z][a-z-]+$/.test(normal);
}

/** Creates the heuristic CNM extractor; `maxTaggedChars` defaults to 400. */
export function createCnmHeuristic(options: CnmHeuristicOptions = {}): CnmHeuristic {
  const maxTagged = options.maxTaggedChars ?? MAX_TAGGED_CHARS;
  if (!Number.isInteger(maxTagged) || maxTagged < 50) throw new RangeError('maxTaggedChars must be an integer >= 50');

  function nouns(view: ChunkView, facts: DocumentFacts, exclude: { has(word: string): boolean }): string[] {
    const heading = sectionHeading(view.chunk, view.headings);
    const score = new Map<string, number>();
    const order = new Map<string, number>();
    const add = (term: string, weight: number): void => {
      score.set(term, (score.get(term) ?? 0) + weight);
      if (!order.has(term)) order.set(term, order.size);
    };
    const harvest = (text: string, weight: number, acronyms: boolean): void => {
      if (!text.trim()) return;
      for (const terms of tagsOf(view.chunk, text)) {
        let run: string[] = [];
        const flush = (): void => {
          if (run.length >= 2) add(run.slice(-2).join(' '), weight * 2);
          run = [];
        };
        for (const t of terms) {
          const noun = t.noun;
          if (noun === null) {
            flush();
            continue;
          }
          // Upper-case words in body text are mostly pin and signal names (GND, SDA) in tables.
          if ((acronyms || !noun.acronym) && !noun.skip && !exclude.has(noun.word)) {
            add(noun.word, weight);
            run.push(noun.word);
          } else flush();
        }
        flush();
      }
    };
    harvest(heading, 3, true);
    harvest(view.plain.slice(0, maxTagged), 1, false);
    const idf = (term: string): number => Math.min(...term.split(' ').map((w) => facts.terms.idf(w)));
    const ranked = [...score]
      // Frequency first, rarity second: a word used once in a list ("Bessie") is rarely the topic.
      .map(([t, n]) => ({ t, s: n * Math.sqrt(idf(t)) }))
      .sort((a, b) => b.s - a.s || order.get(a.t)! - order.get(b.t)!);
    const out: string[] = [];
    for (const { t } of ranked) {
      // A compound covers its words: "power supply" makes "supply" redundant.
      if (out.some((o) => o.split(' ').includes(t) || t.split(' ').includes(o))) continue;
      out.push(t);
      if (out.length === 2) break;
    }
    return out;
  }

  return {
    name: 'cnm-heuristic',
    extract(view, facts, options = {}) {
      const choice = chooseModel(view, facts.identity, facts.vocabulary);
      const headingText = [...view.chunk.headingPath, ...view.headings.map((h) => h.text)].join('\n');
      const local = bestCategory(addCategoryHits(headingText, 1, {}, false));
      const category =
        local ?? (choice.model ? facts.vocabulary.categoryOf(choice.model) : null) ?? facts.identity?.category ?? null;
      if (options.nouns === false) return { signature: { category, nouns: [], model: choice.model }, modelReason: choice.reason };
      // Model names and vendor words are the signature's model, not its nouns.
      const vendors = facts.vocabulary.vendorWordSet();
      const named = new Set<string>();
      for (const m of [choice.model, facts.identity?.base]) {
        for (const t of modelTokens(m ?? '')) named.add(t.norm);
      }
      const exclude = { has: (word: string) => vendors.has(word) || named.has(word) };
      return {
        signature: { category, nouns: nouns(view, facts, exclude), model: choice.model },
        modelReason: choice.reason,
      };
    },
  };
}
